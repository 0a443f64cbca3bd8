package instrument

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"strings"

	"github.com/augur-perf/augur/source/frontend"
	"golang.org/x/tools/go/packages"
)

// A tiny leaf (isDigit, isSpace: a function whose body is one return of an expression without
// calls that cannot panic) costs a few instructions and is inlined where it is called; counting
// its invocations inside it, exactly under concurrency, costs a pinning (two runtime calls) and
// stops the inlining: ten times the function itself, in a lexer that calls one per byte. Its
// every node runs once per invocation, so its invocations are all its profile needs, and when
// every reference to it is a direct call in an instrumented function of its package, they are
// the sum of its call sites' counts. The function is then left as it is, and each call site
// counts the calls that returned (the callee cannot panic): in a local of the caller's register
// region (_augur_r.Tick, inlined: one increment), flushed with the caller's other locals, where
// the region holds locals and a panic of the caller's node cannot come after the call (else the
// increment, made after the guard's flush, would be lost) or the region mirrors its locals for a
// deferred flush (_augur_r.TickM); elsewhere by a pinned add right after the call
// (_augur_r.TickP). Collect adds the sites up into the callee's invocations. Such a leaf is
// never seen running on several goroutines at once (profile.Func.Concurrent): nothing runs in it.

// callSite is a call of a derived leaf.
type callSite struct {
	call   *ast.CallExpr
	callee int // the leaf's index in the package's function list
	// ctr is the site's counter, as an offset from the caller's base (see funcPlan.size).
	ctr int
	// node is the caller's node that makes the call (-1 if none is found), local whether the
	// site counts in a local of the caller's register region (see rewriteFunc).
	node  int
	local bool
}

// siteRef names a call site's counter for the callee's plan: the caller's plan and the offset.
type siteRef struct {
	caller *funcPlan
	ctr    int
}

// nodeParts are the parts of nd's statement that nd itself evaluates (a header's condition, a
// switch's tag and case expressions, a simple statement whole), or nil for a compound statement.
func nodeParts(nd *frontend.Node) []ast.Node {
	switch s := nd.AST.(type) {
	case *ast.IfStmt:
		return []ast.Node{s.Cond}
	case *ast.ForStmt:
		if s.Cond == nil {
			return nil
		}
		return []ast.Node{s.Cond}
	case *ast.SwitchStmt:
		var parts []ast.Node
		if s.Tag != nil {
			parts = append(parts, s.Tag)
		}
		for _, c := range s.Body.List {
			for _, e := range c.(*ast.CaseClause).List {
				parts = append(parts, e)
			}
		}
		return parts
	case *ast.TypeSwitchStmt:
		return []ast.Node{s.Assign}
	case *ast.RangeStmt:
		return []ast.Node{s.X}
	case *ast.LabeledStmt, *ast.BlockStmt, *ast.SelectStmt:
		return nil
	case ast.Stmt:
		return []ast.Node{s}
	}
	return nil
}

// siteNode is the node of p's CFG that makes call (the smallest part holding it), and that part,
// or -1.
func siteNode(p *funcPlan, call *ast.CallExpr) (int, ast.Node) {
	best, part := -1, ast.Node(nil)
	for i, nd := range p.g.Nodes {
		if nd.Unreachable {
			continue
		}
		for _, x := range nodeParts(nd) {
			if x.Pos() <= call.Pos() && call.End() <= x.End() && (part == nil || x.End()-x.Pos() < part.End()-part.Pos()) {
				best, part = i, x
			}
		}
	}
	return best, part
}

// siteExact reports whether nothing in part (a node's part holding call, a call of a derived
// leaf) can panic after the call has returned: every operation of part that may panic is in
// the call's arguments, or in the left operand of an && or || whose right operand holds the
// call, or repeats (same text) such an operation, part calling nothing but derived leaves
// (which change nothing), conversions and builtins without effects, so that the repetition
// gives the same result. Then a counter incremented when the call returns is lost only when
// the call did not happen.
func siteExact(info *types.Info, f *fileEdits, part ast.Node, call *ast.CallExpr, leafCall func(*ast.CallExpr) bool) bool {
	text := func(n ast.Node) string { return string(f.Src[f.Off(n.Pos()):f.Off(n.End())]) }
	before := map[string]bool{}
	var after []ast.Node
	ok := true
	var stack []ast.Node
	ast.Inspect(part, func(n ast.Node) bool {
		if !ok {
			return false
		}
		if n == nil {
			stack = stack[:len(stack)-1]
			return true
		}
		stack = append(stack, n)
		if _, lit := n.(*ast.FuncLit); lit {
			stack = stack[:len(stack)-1]
			return false
		}
		e, isExpr := n.(ast.Expr)
		if !isExpr {
			return true
		}
		if tv, ok := info.Types[e]; ok && (tv.IsType() || tv.Value != nil) {
			stack = stack[:len(stack)-1]
			return false
		}
		switch x := e.(type) {
		case *ast.CallExpr:
			if tv, ok := info.Types[x.Fun]; ok && tv.IsType() {
				switch tv.Type.Underlying().(type) {
				case *types.Array, *types.Pointer:
				default:
					return true // a conversion that cannot fail
				}
			} else if id, isID := ast.Unparen(x.Fun).(*ast.Ident); isID {
				if b, ok := info.Uses[id].(*types.Builtin); ok && pureBuiltins[b.Name()] {
					return true
				}
				if leafCall(x) {
					return true
				}
				ok = false
				return false
			} else {
				ok = false
				return false
			}
		case *ast.UnaryExpr:
			if x.Op == token.ARROW {
				ok = false
				return false
			}
			return true
		case *ast.IndexExpr:
			if isSafeIndex(x) {
				return true
			}
		case *ast.SliceExpr, *ast.StarExpr, *ast.TypeAssertExpr, *ast.IndexListExpr:
		case *ast.SelectorExpr:
			if sel, ok := info.Selections[x]; !ok || !sel.Indirect() {
				return true
			}
		case *ast.BinaryExpr:
			if !binaryMayPanic(info, x) {
				return true
			}
		default:
			return true
		}
		// e itself may panic: before the call or after it?
		if isBefore(stack, call) {
			before[text(e)] = true
		} else {
			after = append(after, e)
		}
		return true
	})
	if !ok {
		return false
	}
	for _, e := range after {
		if !before[text(e)] {
			return false
		}
	}
	return true
}

// binaryMayPanic reports whether the operation of x itself (not its operands) may panic.
func binaryMayPanic(info *types.Info, x *ast.BinaryExpr) bool {
	switch x.Op {
	case token.QUO, token.REM:
		return isInteger(info, x) && !nonZeroConst(info, x.Y)
	case token.SHL, token.SHR:
		return !constShift(info, x.Y)
	case token.EQL, token.NEQ:
		return comparisonMayPanic(info, x.X, x.Y)
	}
	return false
}

// isBefore reports whether the expression at the top of stack (its ancestors below it) is
// evaluated before call returns: inside call, or in the left operand of an && or || whose right
// operand holds call.
func isBefore(stack []ast.Node, call *ast.CallExpr) bool {
	e := stack[len(stack)-1]
	if call.Pos() <= e.Pos() && e.End() <= call.End() {
		return true
	}
	for i := len(stack) - 2; i >= 0; i-- {
		b, ok := stack[i].(*ast.BinaryExpr)
		if !ok || (b.Op != token.LAND && b.Op != token.LOR) {
			continue
		}
		in := func(n ast.Node) bool { return n.Pos() <= stack[i+1].Pos() && stack[i+1].End() <= n.End() }
		if in(b.X) && b.Y.Pos() <= call.Pos() && call.End() <= b.Y.End() {
			return true
		}
	}
	return false
}

// derivedLeaves returns the functions of list (one package's, pkg) whose counts are derived from
// their call sites (by index), and the call sites of each function of list that calls them.
func derivedLeaves(pkg *packages.Package, list []*frontend.Func) (map[int]bool, map[int][]*callSite) {
	info := pkg.TypesInfo
	cand := map[*types.Func]int{}
	for k, fn := range list {
		if obj, ok := info.Defs[fn.Decl.Name].(*types.Func); ok && tinyLeaf(info, fn) {
			cand[obj] = k
		}
	}
	if len(cand) == 0 {
		return nil, nil
	}
	// Every reference must be a call site found below.
	uses := map[int]int{}
	for _, obj := range info.Uses {
		if f, ok := obj.(*types.Func); ok {
			if k, ok := cand[f]; ok {
				uses[k]++
			}
		}
	}
	sites := map[int][]*callSite{}
	found := map[int]int{}
	for caller, fn := range list {
		obj, _ := info.Defs[fn.Decl.Name].(*types.Func)
		if _, leaf := cand[obj]; leaf || fn.Decl.Body == nil {
			continue
		}
		ast.Inspect(fn.Decl.Body, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.GoStmt, *ast.DeferStmt:
				return false // their calls run elsewhere (a reference the count would miss)
			case *ast.CallExpr:
				id, ok := ast.Unparen(x.Fun).(*ast.Ident)
				if !ok {
					break
				}
				f, _ := info.Uses[id].(*types.Func)
				if k, ok := cand[f]; ok {
					found[k]++
					sites[caller] = append(sites[caller], &callSite{call: x, callee: k})
				}
			}
			return true
		})
	}
	testNames := testFileNames(pkg)
	if testNames == nil {
		return nil, nil
	}
	derived := map[int]bool{}
	for f, k := range cand {
		if found[k] > 0 && found[k] == uses[k] && !testNames[f.Name()] {
			derived[k] = true
		}
	}
	for caller, ss := range sites {
		var keep []*callSite
		for _, s := range ss {
			if derived[s.callee] {
				keep = append(keep, s)
			}
		}
		sites[caller] = keep
	}
	return derived, sites
}

// tinyLeaf reports whether fn is a function (no receiver, no type parameters, unexported, so
// that nothing outside the package calls it) whose body is one return of one result computed
// without calls (conversions and len, cap, min, max, real, imag, complex aside), channel
// operations or function literals, that cannot panic: it has no side effects, and its every node
// runs once per invocation. Its plan must count nothing but the invocations.
func tinyLeaf(info *types.Info, fn *frontend.Func) bool {
	d := fn.Decl
	if d.Recv != nil || d.Type.TypeParams != nil || d.Body == nil || ast.IsExported(d.Name.Name) || d.Name.Name == "init" || d.Name.Name == "main" {
		return false
	}
	if d.Type.Results == nil || d.Type.Results.NumFields() != 1 || len(d.Body.List) != 1 {
		return false
	}
	ret, ok := d.Body.List[0].(*ast.ReturnStmt)
	if !ok || len(ret.Results) != 1 || exprMayPanic(info, ret.Results[0]) {
		return false
	}
	if !sideEffectFree(info, ret.Results[0], pureBuiltins, nil) {
		return false
	}
	p, err := planFunc(fn, 0, false, nil, nil)
	if err != nil || p.fallEnd || p.frame {
		return false
	}
	for i := range p.rawCount {
		if p.rawCount[i] || p.mayPanic[i] {
			return false
		}
	}
	for _, raw := range p.rawFlow {
		if raw {
			return false
		}
	}
	return true
}

// testFileNames are the identifiers of the package's test files, which the instrumentation
// does not see: a leaf they may call is counted in itself. nil if a test file cannot be read.
func testFileNames(pkg *packages.Package) map[string]bool {
	names := map[string]bool{}
	if len(pkg.GoFiles) == 0 {
		return names
	}
	dir := filepath.Dir(pkg.GoFiles[0])
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	fset := token.NewFileSet()
	for _, e := range ents {
		if !strings.HasSuffix(e.Name(), "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, e.Name()), nil, parser.SkipObjectResolution)
		if err != nil {
			// Unreadable: assume it may call anything.
			return nil
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok {
				names[id.Name] = true
			}
			return true
		})
	}
	return names
}
