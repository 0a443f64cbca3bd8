package instrument

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"slices"
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
//
// So are the indexes of an array (not through a pointer) by a constant (checked when compiling)
// or by an unsigned integer whose every value is an index of it: the lookup tables of lexers,
// table[b] with table a [256]T and b a byte. And so are the reads of a map whose key's type holds
// no interface (see mapReads).
func noteSafeIndexes(info *types.Info, files []*ast.File) {
	for _, f := range files {
		ast.Inspect(f, func(n ast.Node) bool {
			if x, ok := n.(*ast.IndexExpr); ok && boundedIndex(info, x) {
				safeIndexes.Store(x, struct{}{})
			}
			return true
		})
		mapReads(info, f)
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
	noteBinarySearches(info, body, own)
}

// noteBinarySearches marks the indexes x[m] of the binary searches of a function body (fn's own
// variables as own says):
//
//	lo, hi := 0, len(x)
//	for lo < hi {
//		m := int(uint(lo+hi) >> 1) // or lo + (hi-lo)/2, lo + (hi-lo)>>1
//		... x[m] ...               // anywhere in the body
//		lo = m + 1                 // the only assignments to lo and hi
//		hi = m                     // but the first
//	}
//
// where lo and hi are declared by that statement before the loop (a redeclaration by := assigns
// a variable declared elsewhere), nothing in the function assigns x (so len(x) is the same
// throughout) and nothing but the statements shown assigns lo, hi and m. Then 0 ≤ lo and hi ≤ len(x) whenever the loop's
// condition runs (lo = m+1 ≥ lo ≥ 0 and hi = m < hi keep it), so 0 ≤ lo ≤ m < hi ≤ len(x) where
// m is computed, the first statement of the body; uint(lo+hi) cannot overflow (both are at most
// the largest int) and lo + (hi-lo)/2 never does. The loop also runs at most 64 times (hi - lo at
// least halves).
func noteBinarySearches(info *types.Info, body *ast.BlockStmt, own func(types.Object) bool) {
	ast.Inspect(body, func(n ast.Node) bool {
		switch s := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ForStmt:
			if x, m := binarySearch(info, body, s, own); x != nil {
				ast.Inspect(s.Body, func(n ast.Node) bool {
					switch e := n.(type) {
					case *ast.FuncLit:
						return false
					case *ast.IndexExpr:
						if isObj(info, e.X, x) && isObj(info, e.Index, m) {
							safeIndexes.Store(e, struct{}{})
						}
					}
					return true
				})
			}
		}
		return true
	})
}

// binarySearch returns x and m if loop s is a binary search over x (see noteBinarySearches).
func binarySearch(info *types.Info, body *ast.BlockStmt, s *ast.ForStmt, own func(types.Object) bool) (x, m types.Object) {
	cond, ok := s.Cond.(*ast.BinaryExpr)
	if s.Init != nil || s.Post != nil || !ok || cond.Op != token.LSS || len(s.Body.List) == 0 {
		return nil, nil
	}
	lo, hi := objOf(info, cond.X), objOf(info, cond.Y)
	if lo == nil || hi == nil || lo == hi || !own(lo) || !own(hi) {
		return nil, nil
	}
	// m := mid(lo, hi), the body's first statement.
	def, ok := s.Body.List[0].(*ast.AssignStmt)
	if !ok || def.Tok != token.DEFINE || len(def.Lhs) != 1 || len(def.Rhs) != 1 {
		return nil, nil
	}
	mid, ok := def.Lhs[0].(*ast.Ident)
	if !ok || info.Defs[mid] == nil || !own(info.Defs[mid]) || !isMid(info, def.Rhs[0], lo, hi) {
		return nil, nil
	}
	m = info.Defs[mid]
	if b, ok := m.Type().Underlying().(*types.Basic); !ok || b.Kind() != types.Int {
		return nil, nil
	}
	// Every assignment in the function to lo, hi, m or the indexed variable.
	var inits []*ast.AssignStmt
	bad := false
	ast.Inspect(body, func(n ast.Node) bool {
		if bad {
			return false
		}
		switch a := n.(type) {
		case *ast.AssignStmt:
			for i, l := range a.Lhs {
				o := objOf(info, l)
				if o == nil || o != lo && o != hi && o != m {
					continue
				}
				switch {
				case o == m && a == def:
				case a.Tok == token.DEFINE && (o == lo || o == hi) && len(a.Lhs) == len(a.Rhs) && info.Defs[l.(*ast.Ident)] == o && a.End() <= s.Pos():
					// lo and hi declared here, before the loop (not redeclared: a
					// parameter or a var keeps whatever value it came with).
					if !slices.Contains(inits, a) {
						inits = append(inits, a)
					}
				case a.Tok == token.ASSIGN && o == lo && len(a.Lhs) == 1 && within(a, s) && isPlusOne(info, a.Rhs[i], m):
				case a.Tok == token.ASSIGN && o == hi && len(a.Lhs) == 1 && within(a, s) && objOf(info, a.Rhs[i]) == m:
				default:
					bad = true
				}
			}
		case *ast.IncDecStmt:
			if o := objOf(info, a.X); o == lo || o == hi || o == m {
				bad = true
			}
		case *ast.RangeStmt:
			if o := objOf(info, a.Key); o == lo || o == hi || o == m {
				bad = true
			}
			if o := objOf(info, a.Value); o == lo || o == hi || o == m {
				bad = true
			}
		}
		return !bad
	})
	// One initialization, lo := 0 and hi := len(x) (separate or together).
	var zero, length bool
	for _, a := range inits {
		for i, l := range a.Lhs {
			switch objOf(info, l) {
			case lo:
				if tv, ok := info.Types[a.Rhs[i]]; ok && tv.Value != nil && tv.Value.String() == "0" && !zero {
					zero = true
				} else {
					bad = true
				}
			case hi:
				call, ok := ast.Unparen(a.Rhs[i]).(*ast.CallExpr)
				if !ok || len(call.Args) != 1 || length {
					bad = true
					break
				}
				if fid, ok := ast.Unparen(call.Fun).(*ast.Ident); !ok || !isBuiltin(info, fid, "len") {
					bad = true
					break
				}
				xid, ok := ast.Unparen(call.Args[0]).(*ast.Ident)
				if !ok || !indexable(info, xid) || !own(info.Uses[xid]) {
					bad = true
					break
				}
				x, length = info.Uses[xid], true
			}
		}
	}
	if bad || !zero || !length {
		return nil, nil
	}
	// Nothing assigns x (checked now that x is known).
	ast.Inspect(body, func(n ast.Node) bool {
		switch a := n.(type) {
		case *ast.AssignStmt:
			for _, l := range a.Lhs {
				if id, isID := l.(*ast.Ident); isID && (info.Uses[id] == x || info.Defs[id] == x) {
					bad = true
				}
			}
		case *ast.IncDecStmt:
			if objOf(info, a.X) == x {
				bad = true
			}
		case *ast.RangeStmt:
			if a.Tok == token.ASSIGN && (objOf(info, a.Key) == x || objOf(info, a.Value) == x) {
				bad = true
			}
		}
		return !bad
	})
	if bad {
		return nil, nil
	}
	return x, m
}

// objOf is the variable e names, or nil.
func objOf(info *types.Info, e ast.Expr) types.Object {
	id, ok := ast.Unparen(e).(*ast.Ident)
	if !ok {
		return nil
	}
	if o := info.Uses[id]; o != nil {
		return o
	}
	return info.Defs[id]
}

// isMid reports whether e is int(uint(lo+hi) >> 1), lo + (hi-lo)/2 or lo + (hi-lo)>>1.
func isMid(info *types.Info, e ast.Expr, lo, hi types.Object) bool {
	isConv := func(e ast.Expr, name string) (ast.Expr, bool) {
		c, ok := ast.Unparen(e).(*ast.CallExpr)
		if !ok || len(c.Args) != 1 {
			return nil, false
		}
		id, ok := ast.Unparen(c.Fun).(*ast.Ident)
		if !ok {
			return nil, false
		}
		tn, ok := info.Uses[id].(*types.TypeName)
		if !ok || tn.Pkg() != nil || tn.Name() != name {
			return nil, false
		}
		return c.Args[0], true
	}
	sum := func(e ast.Expr, op token.Token, a, b types.Object) bool {
		x, ok := ast.Unparen(e).(*ast.BinaryExpr)
		return ok && x.Op == op && objOf(info, x.X) == a && objOf(info, x.Y) == b
	}
	isConst := func(e ast.Expr, v string) bool {
		tv, ok := info.Types[e]
		return ok && tv.Value != nil && tv.Value.String() == v
	}
	if in, ok := isConv(e, "int"); ok {
		sh, ok := ast.Unparen(in).(*ast.BinaryExpr)
		if !ok || sh.Op != token.SHR || !isConst(sh.Y, "1") {
			return false
		}
		u, ok := isConv(sh.X, "uint")
		return ok && (sum(u, token.ADD, lo, hi) || sum(u, token.ADD, hi, lo))
	}
	add, ok := ast.Unparen(e).(*ast.BinaryExpr)
	if !ok || add.Op != token.ADD || objOf(info, add.X) != lo {
		return false
	}
	half, ok := ast.Unparen(add.Y).(*ast.BinaryExpr)
	if !ok || !(half.Op == token.QUO && isConst(half.Y, "2") || half.Op == token.SHR && isConst(half.Y, "1")) {
		return false
	}
	return sum(half.X, token.SUB, hi, lo)
}

// isPlusOne reports whether e is m + 1.
func isPlusOne(info *types.Info, e ast.Expr, m types.Object) bool {
	x, ok := ast.Unparen(e).(*ast.BinaryExpr)
	if !ok || x.Op != token.ADD || objOf(info, x.X) != m {
		return false
	}
	tv, ok := info.Types[x.Y]
	return ok && tv.Value != nil && tv.Value.String() == "1"
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

// boundedIndex reports whether x indexes an array value by a constant or by an unsigned integer
// type none of whose values is out of its range.
func boundedIndex(info *types.Info, x *ast.IndexExpr) bool {
	tv, ok := info.Types[x.X]
	if !ok {
		return false
	}
	arr, ok := tv.Type.Underlying().(*types.Array)
	if !ok {
		return false
	}
	iv, ok := info.Types[x.Index]
	if !ok {
		return false
	}
	if iv.Value != nil {
		return true
	}
	b, ok := iv.Type.Underlying().(*types.Basic)
	if !ok {
		return false
	}
	switch b.Kind() {
	case types.Uint8:
		return arr.Len() >= 1<<8
	case types.Uint16:
		return arr.Len() >= 1<<16
	}
	return false
}

// mapReads notes the indexes of maps in f that read them (not the targets of an assignment, an
// increment or a range clause: a write panics on a nil map) with a key whose type holds no
// interface: only hashing an interface's dynamic value can panic there (an unhashable type). A
// read of a map written concurrently is a fatal error, which ends the process without unwinding
// (see suspends).
func mapReads(info *types.Info, f *ast.File) {
	writes := map[ast.Expr]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.AssignStmt:
			for _, e := range x.Lhs {
				writes[ast.Unparen(e)] = true
			}
		case *ast.IncDecStmt:
			writes[ast.Unparen(x.X)] = true
		case *ast.RangeStmt:
			for _, e := range []ast.Expr{x.Key, x.Value} {
				if e != nil {
					writes[ast.Unparen(e)] = true
				}
			}
		}
		return true
	})
	ast.Inspect(f, func(n ast.Node) bool {
		x, ok := n.(*ast.IndexExpr)
		if !ok || writes[x] {
			return true
		}
		if tv, ok := info.Types[x.X]; ok {
			if m, ok := tv.Type.Underlying().(*types.Map); ok && hashSafe(m.Key()) {
				safeIndexes.Store(x, struct{}{})
			}
		}
		return true
	})
}

// hashSafe reports whether hashing a value of type t cannot panic: t holds no interface (nor a
// type parameter, which may be one). A type holds itself only through a pointer.
func hashSafe(t types.Type) bool {
	switch u := t.Underlying().(type) {
	case *types.Basic, *types.Pointer, *types.Chan:
		return true
	case *types.Array:
		return hashSafe(u.Elem())
	case *types.Struct:
		for i := range u.NumFields() {
			if !hashSafe(u.Field(i).Type()) {
				return false
			}
		}
		return true
	}
	return false
}
