package instrument

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strconv"
	"strings"
)

// A guard replaces the mirror array and its deferred flush in a register loop whose every
// may-panic operation is an index or an integer division: right before a statement (or a loop
// condition) that may panic, "if <it would panic> { flush the locals }" moves the locals into
// _augur_c exactly when the statement is about to unwind. The condition repeats the check the
// runtime makes (uint64(i) >= uint64(len(x)), y == 0), so the compiler's prove pass removes it
// wherever it removes the bounds check itself, and elsewhere it costs a predictable compare:
// much less than a defer per call (which also stops inlining) and a store per increment.
// Flushing is correct at any point, so the condition may be true more often than the operation
// panics (an index behind && is checked unconditionally). Every expression in a register loop
// is free of side effects (no calls, channel or map operations), so evaluating its operands
// once more changes nothing; terms are ordered inner first and joined by ||, so a term's
// operands are evaluated only when none of their own operations would panic.
type guardBuilder struct {
	info   *types.Info
	leaves *leafFuncs
	src    func(ast.Expr) (string, bool)
	terms  []string
	ok     bool
}

// guardTerms returns the conditions under which evaluating es would panic, or ok false if some
// operation in them may panic in a way a guard does not express.
func guardTerms(info *types.Info, src func(ast.Expr) (string, bool), leaves *leafFuncs, es ...ast.Expr) ([]string, bool) {
	g := &guardBuilder{info: info, leaves: leaves, src: src, ok: true}
	for _, e := range es {
		g.expr(e)
	}
	return g.terms, g.ok
}

func (g *guardBuilder) add(t string) {
	if !slices.Contains(g.terms, t) {
		g.terms = append(g.terms, t)
	}
}

// text is e's source for a term, which evaluates it again.
func (g *guardBuilder) text(e ast.Expr) string {
	t, ok := g.src(e)
	if !ok || !g.pure(e) {
		g.ok = false
	}
	return "(" + t + ")"
}

// pure reports whether evaluating e again changes nothing: its calls are conversions, leaves and
// builtins that only compute or allocate (not copy, append into spare capacity, clear, delete,
// close, print, ..., nor a call through a function value).
func (g *guardBuilder) pure(e ast.Expr) bool {
	ok := true
	ast.Inspect(e, func(n ast.Node) bool {
		c, isCall := n.(*ast.CallExpr)
		if !ok || !isCall {
			return ok
		}
		if tv, found := g.info.Types[c.Fun]; found && tv.IsType() {
			return true
		}
		if fn := calleeOf(g.info, c); fn != nil {
			if leaf, _ := g.leaves.leaf(fn); !leaf || g.leaves.counted[fn] {
				ok = false // a call of an instrumented function counts once more
			}
			return ok
		}
		if id, isID := ast.Unparen(c.Fun).(*ast.Ident); isID {
			if b, isB := g.info.Uses[id].(*types.Builtin); isB && pureBuiltin[b.Name()] {
				return true
			}
		}
		ok = false
		return false
	})
	return ok
}

func (g *guardBuilder) expr(e ast.Expr) {
	if e == nil || !g.ok {
		return
	}
	if tv, ok := g.info.Types[e]; ok && (tv.IsType() || tv.Value != nil) {
		return
	}
	switch x := e.(type) {
	case *ast.Ident, *ast.BasicLit:
	case *ast.ParenExpr:
		g.expr(x.X)
	case *ast.UnaryExpr:
		// &p.f and &a[i] panic as p.f and a[i] do; &T{...} allocates (its elements are
		// refused below).
		if x.Op == token.ARROW {
			g.ok = false
			return
		}
		g.expr(x.X)
	case *ast.BinaryExpr:
		if (x.Op == token.EQL || x.Op == token.NEQ) && comparisonMayPanic(g.info, x.X, x.Y) {
			// Whether comparing two interfaces panics depends on their dynamic types: no
			// guard, the loop gets the deferred flush.
			g.ok = false
			return
		}
		g.expr(x.X)
		if x.Op != token.LAND && x.Op != token.LOR {
			g.expr(x.Y)
			// The operation's own check comes after those of its operands, which run first.
			switch x.Op {
			case token.QUO, token.REM:
				if isInteger(g.info, x) && !nonZeroConst(g.info, x.Y) {
					g.add(g.text(x.Y) + " == 0")
				}
			case token.SHL, token.SHR:
				if !constShift(g.info, x.Y) {
					g.add(g.text(x.Y) + " < 0")
				}
			}
			break
		}
		// Y runs only as X decides: conditioning its terms on X keeps the guard exact, so that
		// prove drops it where it drops the bounds check (i < len(s) && s[i] > 0).
		outer := g.terms
		g.terms = nil
		g.expr(x.Y)
		var inner []string
		for _, t := range g.terms {
			if !slices.Contains(outer, t) {
				inner = append(inner, t)
			}
		}
		g.terms = outer
		if len(inner) == 0 {
			break
		}
		t, ok := g.src(x.X)
		if !ok || !g.pure(x.X) {
			g.terms = append(g.terms, inner...)
			break
		}
		if x.Op == token.LOR {
			t = "!(" + t + ")"
		} else {
			t = "(" + t + ")"
		}
		g.terms = append(g.terms, t+" && ("+strings.Join(inner, " || ")+")")
	case *ast.StarExpr:
		g.expr(x.X)
		g.add(g.text(x.X) + " == nil")
	case *ast.TypeAssertExpr:
		// x.(T) panics unless x holds a T (a comma-ok assertion never panics: the term is
		// then true more often than the node panics, which a guard allows). The closure,
		// called where it stands, is inlined.
		t, ok := g.src(x.Type)
		if x.Type == nil || !ok {
			g.ok = false
			return
		}
		g.expr(x.X)
		g.add("!func() _augur_r.Bool { _, _augur_ok := " + g.text(x.X) + ".(" + t + "); return _augur_ok }()")
	case *ast.CompositeLit:
		// A struct, array or slice literal panics only in its elements (the keys are field
		// names and constant indexes); a map literal may hash an uncomparable key.
		tv, ok := g.info.Types[x]
		if !ok {
			g.ok = false
			return
		}
		if _, isMap := tv.Type.Underlying().(*types.Map); isMap {
			g.ok = false
			return
		}
		for _, el := range x.Elts {
			if kv, ok := el.(*ast.KeyValueExpr); ok {
				el = kv.Value
			}
			g.expr(el)
		}
	case *ast.SliceExpr:
		g.slice(x)
	case *ast.CallExpr:
		// Register loops call only pure builtins, conversions and leaves (see leafFuncs): a
		// leaf that may panic gets no guard, the loop gets the deferred flush.
		if tv, ok := g.info.Types[x.Fun]; ok && tv.IsType() {
			if _, basic := tv.Type.Underlying().(*types.Basic); !basic {
				g.ok = false
			}
		} else if fn := calleeOf(g.info, x); fn != nil {
			if _, may := g.leaves.leaf(fn); may {
				g.ok = false
			}
		}
		for _, a := range x.Args {
			g.expr(a)
		}
	case *ast.IndexExpr:
		g.expr(x.X)
		g.expr(x.Index)
		g.index(x)
	case *ast.SelectorExpr:
		sel, ok := g.info.Selections[x]
		if !ok || sel.Kind() != types.FieldVal {
			g.ok = false
			return
		}
		g.expr(x.X)
		if sel.Indirect() {
			// p.f through a pointer p: nil only if p is the one pointer on the path.
			tv, ok := g.info.Types[x.X]
			if _, ptr := tv.Type.Underlying().(*types.Pointer); !ok || !ptr || len(sel.Index()) != 1 {
				g.ok = false
				return
			}
			g.add(g.text(x.X) + " == nil")
		}
	default:
		g.ok = false
	}
}

// pureBuiltin are the builtins whose call changes nothing but allocation.
var pureBuiltin = map[string]bool{"len": true, "cap": true, "min": true, "max": true, "complex": true, "real": true, "imag": true, "new": true, "make": true}

func (g *guardBuilder) index(x *ast.IndexExpr) {
	if isSafeIndex(x) {
		return
	}
	tv, ok := g.info.Types[x.X]
	if !ok {
		g.ok = false
		return
	}
	constIdx := false
	if iv, ok := g.info.Types[x.Index]; ok && iv.Value != nil {
		constIdx = true
	}
	switch u := tv.Type.Underlying().(type) {
	case *types.Slice:
		g.add("uint64" + g.text(x.Index) + " >= uint64(len" + g.text(x.X) + ")")
	case *types.Basic:
		if u.Info()&types.IsString == 0 {
			g.ok = false
			return
		}
		g.add("uint64" + g.text(x.Index) + " >= uint64(len" + g.text(x.X) + ")")
	case *types.Array:
		if !constIdx {
			g.add("uint64" + g.text(x.Index) + " >= " + strconv.FormatInt(u.Len(), 10))
		}
	case *types.Pointer:
		a, ok := u.Elem().Underlying().(*types.Array)
		if !ok {
			g.ok = false
			return
		}
		t := g.text(x.X) + " == nil"
		if !constIdx {
			t += " || uint64" + g.text(x.Index) + " >= " + strconv.FormatInt(a.Len(), 10)
		}
		g.add(t)
	default:
		g.ok = false
	}
}

// slice adds the check of x[lo:hi] or x[lo:hi:max]: 0 <= lo <= hi <= max <= cap(x) (len(x)
// for a string), as the runtime makes it, an omitted lo being 0 and hi len(x).
func (g *guardBuilder) slice(x *ast.SliceExpr) {
	tv, ok := g.info.Types[x.X]
	if !ok {
		g.ok = false
		return
	}
	g.expr(x.X)
	g.expr(x.Low)
	g.expr(x.High)
	g.expr(x.Max)
	var limit string
	switch u := tv.Type.Underlying().(type) {
	case *types.Slice:
		limit = "uint64(cap" + g.text(x.X) + ")"
	case *types.Basic:
		if u.Info()&types.IsString == 0 {
			g.ok = false
			return
		}
		limit = "uint64(len" + g.text(x.X) + ")"
	default:
		g.ok = false // arrays and pointers to arrays: the deferred flush
		return
	}
	bounds := []string{limit}
	for _, e := range []ast.Expr{x.Max, x.High, x.Low} {
		if e != nil {
			bounds = append(bounds, "uint64"+g.text(e))
		} else if e == x.High && x.Max == nil {
			bounds = append(bounds, "uint64(len"+g.text(x.X)+")")
		}
	}
	var ts []string
	for i := 1; i < len(bounds); i++ {
		ts = append(ts, bounds[i]+" > "+bounds[i-1])
	}
	if len(ts) > 0 {
		g.add(strings.Join(ts, " || "))
	}
}

// nodeGuard returns the terms guarding may-panic node n of a register loop, and whether n can
// be guarded where rewriteBody puts guards: right before the statement, before an if or switch
// without init (conditions, tag and case expressions), before a for loop without init and post
// and at the end of its body and before its continues (the condition).
func nodeGuard(info *types.Info, src func(ast.Expr) (string, bool), leaves *leafFuncs, s ast.Node) ([]string, bool) {
	switch s := s.(type) {
	case *ast.IfStmt:
		if s.Init != nil {
			return nil, false
		}
		return guardTerms(info, src, leaves, s.Cond)
	case *ast.ForStmt:
		if s.Init != nil || s.Post != nil {
			return nil, false
		}
		return guardTerms(info, src, leaves, s.Cond)
	case *ast.SwitchStmt:
		if s.Init != nil || s.Tag != nil && !simpleComparable(info, s.Tag) {
			return nil, false
		}
		es := []ast.Expr{s.Tag}
		for _, c := range s.Body.List {
			for _, e := range c.(*ast.CaseClause).List {
				if s.Tag != nil && !simpleComparable(info, e) {
					return nil, false
				}
				es = append(es, e)
			}
		}
		return guardTerms(info, src, leaves, es...)
	case *ast.RangeStmt:
		if tv, ok := info.Types[s.X]; !ok || !isNonPointer(tv.Type) {
			return nil, false
		}
		return guardTerms(info, src, leaves, s.X)
	case *ast.ExprStmt:
		return guardTerms(info, src, leaves, s.X)
	case *ast.IncDecStmt:
		return guardTerms(info, src, leaves, s.X)
	case *ast.ReturnStmt:
		return guardTerms(info, src, leaves, s.Results...)
	case *ast.AssignStmt:
		if len(s.Lhs) != len(s.Rhs) {
			return nil, false
		}
		es := append(append([]ast.Expr{}, s.Lhs...), s.Rhs...)
		terms, ok := guardTerms(info, src, leaves, es...)
		switch s.Tok {
		case token.QUO_ASSIGN, token.REM_ASSIGN:
			if isInteger(info, s.Lhs[0]) && !nonZeroConst(info, s.Rhs[0]) {
				t, ok2 := src(s.Rhs[0])
				terms, ok = append(terms, "("+t+") == 0"), ok && ok2
			}
		case token.SHL_ASSIGN, token.SHR_ASSIGN:
			if !constShift(info, s.Rhs[0]) {
				t, ok2 := src(s.Rhs[0])
				terms, ok = append(terms, "("+t+") < 0"), ok && ok2
			}
		}
		return terms, ok
	case *ast.DeclStmt:
		gd, ok := s.Decl.(*ast.GenDecl)
		if !ok {
			return nil, false
		}
		var es []ast.Expr
		for _, sp := range gd.Specs {
			if vs, ok := sp.(*ast.ValueSpec); ok {
				if len(vs.Values) != 0 && len(vs.Values) != len(vs.Names) {
					return nil, false
				}
				es = append(es, vs.Values...)
			}
		}
		return guardTerms(info, src, leaves, es...)
	case *ast.EmptyStmt, *ast.BranchStmt:
		return nil, true
	}
	return nil, false
}

func isNonPointer(t types.Type) bool {
	_, ptr := t.Underlying().(*types.Pointer)
	return !ptr
}

// exprSource returns the source of e for a guard, which goes on one line: not if it spans
// lines or holds a comment, nor if the package declares, in any scope, a predeclared name the
// guard uses (the guard would mean something else, or not compile), nor if it holds "_augur"
// (inserted text has its names renamed when the package uses augur's; see namePrefix). Names
// of the split leaves in rename become their copies' (see leafPlan): the guard's call of the
// leaf must not count.
func exprSource(src []byte, fset *token.FileSet, info *types.Info, rename map[*types.Func]bool) func(ast.Expr) (string, bool) {
	shadow := false
	for id, obj := range info.Defs {
		switch id.Name {
		case "len", "cap", "uint64", "nil":
			// A field or method (no scope) or label of that name shadows nothing.
			if _, label := obj.(*types.Label); obj != nil && obj.Parent() != nil && !label {
				shadow = true
			}
		}
	}
	return func(e ast.Expr) (string, bool) {
		if shadow {
			return "", false
		}
		t, ok := nodeSource(src, fset, e)
		if !ok || len(rename) == 0 {
			return t, ok
		}
		var at []int
		ast.Inspect(e, func(n ast.Node) bool {
			if id, isID := n.(*ast.Ident); isID {
				if f, isF := info.Uses[id].(*types.Func); isF && rename[f] {
					at = append(at, int(id.Pos()-e.Pos()))
				}
			}
			return true
		})
		for i := len(at) - 1; i >= 0; i-- {
			t = t[:at[i]] + copyPrefix(t[at[i]:]) + t[at[i]:]
		}
		return t, true
	}
}

// nodeSource returns n's text, if it is on one line, without comments or names augur adds.
func nodeSource(src []byte, fset *token.FileSet, n ast.Node) (string, bool) {
	a, b := fset.Position(n.Pos()).Offset, fset.Position(n.End()).Offset
	if a < 0 || b > len(src) || a > b {
		return "", false
	}
	t := string(src[a:b])
	if strings.ContainsAny(t, "\n\r") || strings.Contains(t, "//") || strings.Contains(t, "/*") || strings.Contains(t, "_augur") {
		return "", false
	}
	return t, true
}

// sideEffectFree reports whether evaluating n again changes nothing: it calls nothing but
// conversions, the builtins in builtins (which must only compute or allocate) and the calls
// other accepts (nil: none), and receives from no channel.
func sideEffectFree(info *types.Info, n ast.Node, builtins map[string]bool, other func(*ast.CallExpr) bool) bool {
	ok := true
	ast.Inspect(n, func(m ast.Node) bool {
		switch x := m.(type) {
		case *ast.FuncLit:
			ok = false
		case *ast.UnaryExpr:
			ok = ok && x.Op != token.ARROW
		case *ast.CallExpr:
			if tv, found := info.Types[x.Fun]; found && tv.IsType() {
				break
			}
			if id, isID := ast.Unparen(x.Fun).(*ast.Ident); isID {
				if b, isB := info.Uses[id].(*types.Builtin); isB && builtins[b.Name()] {
					break
				}
			}
			ok = ok && other != nil && other(x)
		}
		return ok
	})
	return ok
}
