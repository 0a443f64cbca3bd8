package instrument

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"sync"
)

// safeIndexes holds the index expressions that cannot panic (see noteSafeIndexes): the analyses
// that ask whether something may panic (maypanic.go, guards, leaves) skip them, so that a loop
// reading s[i] for i from 0 to len(s) stores no spill or mirror and keeps no guard for it (the
// compiler drops the bounds check there too). An AST node is one parse's, so the set is
// shared by every instrumentation in the process and never shrinks.
var safeIndexes sync.Map // *ast.IndexExpr → struct{}

// isSafeIndex reports whether x was found not to panic.
func isSafeIndex(x *ast.IndexExpr) bool {
	_, ok := safeIndexes.Load(x)
	return ok
}

// noteSafeIndexes finds, in every function body of files, the indexes x[i] inside a loop
// "for i := c; i < len(x); i++" (c a constant ≥ 0) or "for i := range x" (x a slice, an array
// or a string) where x and i are variables of that function, used in no function literal and
// never addressed (&x, or a method with a pointer receiver called on x), that nothing in the
// loop assigns (but its post statement, i++): then 0 ≤ i < len(x) wherever the loop body
// runs, and only the function's own code could change x or i.
func noteSafeIndexes(info *types.Info, files []*ast.File) {
	for _, f := range files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
				noteSafeIn(info, fd, fd.Body)
			}
		}
	}
}

// noteSafeIn notes the safe indexes of the function fn (a declaration or a literal) whose body
// is body, and of the function literals in it.
func noteSafeIn(info *types.Info, fn ast.Node, body *ast.BlockStmt) {
	// Variables used in function literals (captured, or their own), and those whose address
	// is taken (&v, or a method with a pointer receiver called on v): left out.
	excluded := map[types.Object]bool{}
	exclude := func(e ast.Expr) {
		if id, ok := ast.Unparen(e).(*ast.Ident); ok {
			if obj := info.ObjectOf(id); obj != nil {
				excluded[obj] = true
			}
		}
	}
	ast.Inspect(body, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.FuncLit:
			ast.Inspect(x.Body, func(m ast.Node) bool {
				if id, ok := m.(*ast.Ident); ok {
					exclude(id)
				}
				return true
			})
			noteSafeIn(info, x, x.Body)
			return false
		case *ast.UnaryExpr:
			if x.Op == token.AND {
				exclude(x.X)
			}
		case *ast.SelectorExpr:
			if sel, ok := info.Selections[x]; ok && sel.Kind() == types.MethodVal {
				exclude(x.X)
			}
		}
		return true
	})
	// own reports whether v is a variable of fn (a parameter or a local), not of an enclosing
	// function.
	own := func(v types.Object) bool {
		_, ok := v.(*types.Var)
		return ok && !excluded[v] && fn.Pos() <= v.Pos() && v.Pos() < fn.End()
	}
	ast.Inspect(body, func(n ast.Node) bool {
		switch s := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ForStmt:
			if i, x := countedIndex(info, s); i != nil && own(i) && own(x) {
				markSafe(info, s, s.Body, s.Post, i, x)
			}
		case *ast.RangeStmt:
			if i, x := rangedIndex(info, s); i != nil && own(i) && own(x) {
				markSafe(info, s, s.Body, nil, i, x)
			}
		}
		return true
	})
}

// countedIndex returns i and x of "for i := c; i < len(x); i++".
func countedIndex(info *types.Info, s *ast.ForStmt) (i, x types.Object) {
	init, ok := s.Init.(*ast.AssignStmt)
	if !ok || init.Tok != token.DEFINE || len(init.Lhs) != 1 || len(init.Rhs) != 1 {
		return nil, nil
	}
	id, ok := init.Lhs[0].(*ast.Ident)
	if !ok {
		return nil, nil
	}
	if tv, ok := info.Types[init.Rhs[0]]; !ok || tv.Value == nil || tv.Value.Kind() != constant.Int || constant.Sign(tv.Value) < 0 {
		return nil, nil
	}
	post, ok := s.Post.(*ast.IncDecStmt)
	if !ok || post.Tok != token.INC || !isObj(info, post.X, info.Defs[id]) {
		return nil, nil
	}
	cond, ok := s.Cond.(*ast.BinaryExpr)
	if !ok || cond.Op != token.LSS || !isObj(info, cond.X, info.Defs[id]) {
		return nil, nil
	}
	call, ok := ast.Unparen(cond.Y).(*ast.CallExpr)
	if !ok || len(call.Args) != 1 {
		return nil, nil
	}
	if fid, ok := ast.Unparen(call.Fun).(*ast.Ident); !ok || !isBuiltin(info, fid, "len") {
		return nil, nil
	}
	xid, ok := ast.Unparen(call.Args[0]).(*ast.Ident)
	if !ok || !indexable(info, xid) {
		return nil, nil
	}
	return info.Defs[id], info.Uses[xid]
}

// rangedIndex returns i and x of "for i := range x" or "for i, v := range x".
func rangedIndex(info *types.Info, s *ast.RangeStmt) (i, x types.Object) {
	if s.Tok != token.DEFINE {
		return nil, nil
	}
	id, ok := s.Key.(*ast.Ident)
	if !ok || info.Defs[id] == nil {
		return nil, nil
	}
	xid, ok := ast.Unparen(s.X).(*ast.Ident)
	if !ok || !indexable(info, xid) {
		return nil, nil
	}
	return info.Defs[id], info.Uses[xid]
}

// indexable reports whether id is a variable holding a slice, an array or a string.
func indexable(info *types.Info, id *ast.Ident) bool {
	v, ok := info.Uses[id].(*types.Var)
	if !ok || v.IsField() {
		return false
	}
	switch u := v.Type().Underlying().(type) {
	case *types.Slice, *types.Array:
		return true
	case *types.Basic:
		return u.Info()&types.IsString != 0
	}
	return false
}

func isObj(info *types.Info, e ast.Expr, obj types.Object) bool {
	id, ok := ast.Unparen(e).(*ast.Ident)
	return ok && obj != nil && info.Uses[id] == obj
}

func isBuiltin(info *types.Info, id *ast.Ident, name string) bool {
	b, ok := info.Uses[id].(*types.Builtin)
	return ok && b.Name() == name
}

// markSafe records the indexes x[i] of loop s's body if nothing in s (but post) assigns i or
// x.
func markSafe(info *types.Info, s ast.Stmt, body *ast.BlockStmt, post ast.Stmt, i, x types.Object) {
	written := false
	assigned := func(e ast.Expr) {
		if id, ok := ast.Unparen(e).(*ast.Ident); ok {
			if obj := info.ObjectOf(id); obj == i || obj == x {
				written = true
			}
		}
	}
	ast.Inspect(s, func(n ast.Node) bool {
		switch a := n.(type) {
		case *ast.AssignStmt:
			for _, e := range a.Lhs {
				if id, ok := e.(*ast.Ident); !ok || a.Tok != token.DEFINE || info.Defs[id] == nil {
					assigned(e) // := assigns the variables it does not declare
				}
			}
		case *ast.IncDecStmt:
			if n != post {
				assigned(a.X)
			}
		case *ast.RangeStmt:
			if a.Tok == token.ASSIGN {
				assigned(a.Key)
				assigned(a.Value)
			}
		}
		return !written
	})
	if written {
		return
	}
	ast.Inspect(body, func(n ast.Node) bool {
		switch e := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.IndexExpr:
			if isObj(info, e.X, x) && isObj(info, e.Index, i) {
				safeIndexes.Store(e, struct{}{})
			}
		}
		return true
	})
}
