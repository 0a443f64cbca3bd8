package instrument

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"maps"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/augur-perf/augur/source/frontend"
	"golang.org/x/tools/go/packages"
)

// A tiny leaf (isDigit, isSpace: a function or method whose body is one return of an expression
// without calls that cannot panic) costs a few instructions and is inlined where it is called;
// counting its invocations inside it, exactly under concurrency, costs a pinning (two runtime
// calls) and stops the inlining: ten times the function itself, in a lexer that calls one per byte.
// Its every node runs once per invocation, so its invocations are all its profile needs, and when
// every reference to it is a direct call in an instrumented function of its package, they are the
// sum of its call sites' counts. The function is then left as it is, and each call site counts the
// calls that returned (the callee cannot panic): in a local of the caller's register region
// (_augur_r.Tick, inlined: one increment), flushed with the caller's other locals, where the region
// holds locals and a panic of the caller's node cannot come after the call (else the increment,
// made after the guard's flush, would be lost) or the region mirrors its locals for a deferred
// flush (_augur_r.TickM); in a function with a frame, in a slot of its per-invocation array
// (_augur_r.Tick), added with the rest by its exit hook; elsewhere by a pinned add right after the
// call (_augur_r.TickP). Collect adds the sites up into the callee's invocations. Such a leaf is
// never seen running on several goroutines at once (profile.Func.Concurrent): nothing runs in it. A
// tiny leaf with other references is split instead (see leafPlan).

// callSite is a call of a leaf counted at its call sites (see leafPlan).
type callSite struct {
	call *ast.CallExpr
	// callee is the leaf's index in the function list of its package, calleePkg; callerPkg is
	// the path of the package that makes the call.
	callee               int
	calleePkg, callerPkg string
	// name is the call's identifier of the leaf, copy the name of the leaf's copy it calls
	// instead (a split leaf), or "".
	name *ast.Ident
	copy string
	// ctr is the site's counter, as an offset from the caller's base (see funcPlan.size).
	ctr int
	// node is the caller's node that makes the call (-1 if none is found), local whether the
	// site counts in a local of the caller's register region (see rewriteFunc).
	node  int
	local bool
}

// siteRef names a call site's counter for the callee's plan: the caller's plan and the offset.
type siteRef struct {
	pkg    string // the caller's package
	caller *funcPlan
	ctr    int
}

// renameSites makes p's calls of split leaves call their copies.
func renameSites(f *fileEdits, p *funcPlan) {
	for _, s := range p.sites {
		if s.copy != "" {
			f.Add(s.name.Pos(), token.NoPos, 20, copyPrefix(s.name.Name))
		}
	}
}

// leafCopy is the text of split leaf fn's copy (see leafPlan), named copyName, from its file's
// text src: its declaration as it is, after a line directive that gives it the original's
// position.
func leafCopy(fset *token.FileSet, src []byte, fn *frontend.Func, copyName string) string {
	d := fn.Decl
	pos := fset.Position(d.Pos())
	off := func(p token.Pos) int { return fset.Position(p).Offset }
	return "\n//line " + pos.Filename + ":" + strconv.Itoa(pos.Line) + "\n" + string(src[off(d.Pos()):off(d.Name.Pos())]) + copyName + string(src[off(d.Name.End()):off(d.End())]) + "\n"
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
// or -1. The calls' places are indexed once per plan: looking through every node for each call
// took minutes on a generated function of thousands of cases.
func siteNode(p *funcPlan, call *ast.CallExpr) (int, ast.Node) {
	if p.sitesAt == nil {
		p.sitesAt = map[*ast.CallExpr]nodePart{}
		for i, nd := range p.g.Nodes {
			if nd.Unreachable {
				continue
			}
			for _, x := range nodeParts(nd) {
				ast.Inspect(x, func(n ast.Node) bool {
					c, ok := n.(*ast.CallExpr)
					if !ok {
						return true
					}
					if at, seen := p.sitesAt[c]; !seen || x.End()-x.Pos() < at.part.End()-at.part.Pos() {
						p.sitesAt[c] = nodePart{i, x}
					}
					return true
				})
			}
		}
	}
	if at, ok := p.sitesAt[call]; ok {
		return at.node, at.part
	}
	return -1, nil
}

// nodePart is a part of a node's statement (see nodeParts).
type nodePart struct {
	node int
	part ast.Node
}

// siteExact reports whether nothing in part (a node's part holding call, a call of a derived
// leaf) can panic after the call has returned: every operation of part that may panic is in
// the call's arguments, or in the left operand of an && or || whose right operand holds the
// call, or repeats (same text) such an operation, part calling nothing but derived leaves
// (which change nothing), conversions and builtins without effects, so that the repetition
// gives the same result. Then a counter incremented when the call returns is lost only when
// the call did not happen. text is an expression's source text.
func siteExact(info *types.Info, text func(ast.Node) string, part ast.Node, call *ast.CallExpr, leafCall func(*ast.CallExpr) bool) bool {
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
			// (No ok declared in these headers: the else branches set the function's.)
			if tv, known := info.Types[x.Fun]; known && tv.IsType() {
				switch tv.Type.Underlying().(type) {
				case *types.Array, *types.Pointer:
				default:
					return true // a conversion that cannot fail
				}
			} else if id, isID := ast.Unparen(x.Fun).(*ast.Ident); isID {
				if b, isB := info.Uses[id].(*types.Builtin); isB && pureBuiltins[b.Name()] {
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

// siteExactNode is siteExact for a call of a derived leaf in node n of p (part holds the call),
// also false where n may panic after it beyond part: a send (on a closed channel), a switch whose
// case expressions evaluated after part may (or that compares interfaces).
func siteExactNode(info *types.Info, p *funcPlan, text func(ast.Node) string, n int, part ast.Node, call *ast.CallExpr, leafCall func(*ast.CallExpr) bool) bool {
	switch s := p.g.Nodes[n].AST.(type) {
	case *ast.SendStmt:
		return false
	case *ast.SwitchStmt:
		if s.Tag != nil && types.IsInterface(info.TypeOf(s.Tag)) {
			return false
		}
		later := part == ast.Node(s.Tag)
		for _, c := range s.Body.List {
			for _, e := range c.(*ast.CaseClause).List {
				if later && !siteExact(info, text, e, call, leafCall) {
					return false
				}
				later = later || e == part
			}
		}
	}
	return siteExact(info, text, part, call, leafCall)
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

// copyPrefix starts the name of the copy of split leaf name (see leafPlan): exported if the leaf
// is, so that the instrumented packages that import the leaf's can call it; else not, so that two
// copies of unexported leaves of one name cannot collide in a file that dot-imports both packages.
func copyPrefix(name string) string {
	if ast.IsExported(name) {
		return "AugurLeaf_"
	}
	return "augurLeaf_"
}

// leafPkg is one instrumented package and its instrumented functions.
type leafPkg struct {
	pkg  *packages.Package
	list []*frontend.Func
}

// leafPlan is how a build counts its tiny leaves (see tinyLeaf), by package path and index in
// the package's list. A derived leaf (an unexported function, every reference to it a call site
// found in an instrumented function of its package) is left as it is and counted at its call
// sites alone. A split leaf (exported, a method, or also used otherwise: as a value, in a go or
// defer statement, by a test file) keeps its own counting for the calls augur does not see, and its
// call sites in the build's instrumented packages, its own and those that import it, call a
// copy without probes (copies, copyPrefix and its name) and count the calls themselves:
// util.IsSpace, called per byte from another package of a Markdown parser, pinned once a call
// and was not inlined.
type leafPlan struct {
	derived map[string]map[int]bool
	copies  map[string]map[int]string
	sites   map[string]map[int][]*callSite
	// split holds the split leaves, which cannot panic and call nothing: leaves for register
	// loops in every package (see leafFuncs.extern).
	split map[*types.Func]bool
	// counted holds the other instrumented functions but the derived leaves: they count their
	// own invocations (see leafFuncs.counted).
	counted map[*types.Func]bool
	// clash marks the packages that use names starting with a copyPrefix: they call no copy.
	clash map[string]bool
	// leaves are the leaves of every package (see leafFuncs.leaf), whether each may panic, and
	// the package that declares them (see leafFuncs.foreign).
	leaves map[*types.Func]foreignLeaf
}

// foreignLeaf is a leaf as the packages that do not declare it see it.
type foreignLeaf struct {
	pkg string
	may bool
}

// leafFuncs returns the leaves of the build's package pkg for its register loops and guards.
func (lp *leafPlan) leafFuncs(pkg *packages.Package) *leafFuncs {
	l := newLeafFuncs(pkg.TypesInfo, pkg.Syntax)
	l.extern, l.counted, l.rename = lp.split, lp.counted, lp.split
	l.foreign = map[*types.Func]bool{}
	for fn, f := range lp.leaves {
		if f.pkg != pkg.PkgPath {
			l.foreign[fn] = f.may
		}
	}
	if lp.clash[pkg.PkgPath] {
		l.counted, l.rename = maps.Clone(lp.counted), nil
		maps.Copy(l.counted, lp.split)
	}
	return l
}

// findLeaves works out a build's leafPlan. Call sites are counted only in packages that may use
// type parameters (the counting calls generic functions of the runtime).
func findLeaves(pkgs []leafPkg) *leafPlan {
	lp := &leafPlan{derived: map[string]map[int]bool{}, copies: map[string]map[int]string{}, sites: map[string]map[int][]*callSite{}, split: map[*types.Func]bool{}, counted: map[*types.Func]bool{}, clash: map[string]bool{}, leaves: map[*types.Func]foreignLeaf{}}
	defer func() {
		for _, lk := range pkgs {
			own := newLeafFuncs(lk.pkg.TypesInfo, lk.pkg.Syntax)
			own.extern = lp.split
			for k, fn := range lk.list {
				obj, ok := lk.pkg.TypesInfo.Defs[fn.Decl.Name].(*types.Func)
				if !ok {
					continue
				}
				if !lp.derived[lk.pkg.PkgPath][k] && !lp.split[obj] {
					lp.counted[obj] = true
				}
				if safe, may := own.leaf(obj); safe && fn.Lit == nil {
					lp.leaves[obj] = foreignLeaf{lk.pkg.PkgPath, may}
				}
			}
		}
	}()
	type leafRef struct {
		pkg string
		k   int
	}
	cand := map[*types.Func]leafRef{}
	for _, lk := range pkgs {
		for k, fn := range lk.list {
			if obj, ok := lk.pkg.TypesInfo.Defs[fn.Decl.Name].(*types.Func); ok && tinyLeaf(lk.pkg.TypesInfo, fn) {
				cand[obj] = leafRef{lk.pkg.PkgPath, k}
			}
		}
	}
	if len(cand) == 0 {
		return lp
	}
	// In its own package, a derived leaf's every reference must be a call site found below.
	uses := map[*types.Func]int{}
	for _, lk := range pkgs {
		for _, obj := range lk.pkg.TypesInfo.Uses {
			if f, ok := obj.(*types.Func); ok {
				if r, ok := cand[f]; ok && r.pkg == lk.pkg.PkgPath {
					uses[f]++
				}
			}
		}
	}
	type found struct {
		caller int
		site   *callSite
		leaf   *types.Func
	}
	var all []found
	local := map[*types.Func]int{} // the sites in the leaf's package
	free := map[*types.Func]int{}  // the sites in packages that can call a copy
	clash := lp.clash
	for _, lk := range pkgs {
		info := lk.pkg.TypesInfo
		for _, f := range lk.pkg.Syntax {
			ast.Inspect(f, func(n ast.Node) bool {
				if id, ok := n.(*ast.Ident); ok && strings.HasPrefix(id.Name, copyPrefix(id.Name)) {
					clash[lk.pkg.PkgPath] = true
				}
				return !clash[lk.pkg.PkgPath]
			})
		}
		if !typeParams(lk.pkg) {
			continue
		}
		for caller, fn := range lk.list {
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
					var id *ast.Ident
					switch fun := ast.Unparen(x.Fun).(type) {
					case *ast.Ident:
						id = fun
					case *ast.SelectorExpr:
						if _, qualified := info.Uses[identOf(ast.Unparen(fun.X))].(*types.PkgName); qualified {
							id = fun.Sel
						} else if sel, ok := info.Selections[fun]; ok && sel.Kind() == types.MethodVal && !types.IsInterface(sel.Recv()) {
							id = fun.Sel // a method called on a value of its type: a static call
						}
					}
					if id == nil {
						break
					}
					f, _ := info.Uses[id].(*types.Func)
					if r, ok := cand[f]; ok {
						if r.pkg == lk.pkg.PkgPath {
							local[f]++
						}
						all = append(all, found{caller, &callSite{call: x, callee: r.k, calleePkg: r.pkg, callerPkg: lk.pkg.PkgPath, name: id}, f})
					}
				}
				return true
			})
		}
	}
	byPath := map[string]*packages.Package{}
	for _, lk := range pkgs {
		byPath[lk.pkg.PkgPath] = lk.pkg
	}
	testNames := map[string]map[string]bool{}
	for _, s := range all {
		if !clash[s.site.callerPkg] {
			free[s.leaf]++
		}
	}
	for f, r := range cand {
		names, ok := testNames[r.pkg]
		if !ok {
			names = testFileNames(byPath[r.pkg])
			testNames[r.pkg] = names
		}
		if names == nil || !typeParams(byPath[r.pkg]) && !ast.IsExported(f.Name()) {
			continue // a test file cannot be read; or no site can be counted
		}
		// A method may also be called through an interface, which no Uses entry shows.
		if f.Signature().Recv() == nil && !ast.IsExported(f.Name()) && local[f] > 0 && local[f] == uses[f] && !names[f.Name()] {
			if lp.derived[r.pkg] == nil {
				lp.derived[r.pkg] = map[int]bool{}
			}
			lp.derived[r.pkg][r.k] = true
			continue
		}
		copyName := copyPrefix(f.Name()) + f.Name()
		if free[f] == 0 || clash[r.pkg] || names[copyName] || f.Pkg().Scope().Lookup(copyName) != nil {
			continue
		}
		if lp.copies[r.pkg] == nil {
			lp.copies[r.pkg] = map[int]string{}
		}
		lp.copies[r.pkg][r.k] = copyName
		lp.split[f] = true
	}
	for _, s := range all {
		r := cand[s.leaf]
		copyName, split := lp.copies[r.pkg][r.k]
		switch {
		case lp.derived[r.pkg][r.k]:
		case split && !clash[s.site.callerPkg]:
			s.site.copy = copyName
		default:
			continue
		}
		if lp.sites[s.site.callerPkg] == nil {
			lp.sites[s.site.callerPkg] = map[int][]*callSite{}
		}
		lp.sites[s.site.callerPkg][s.caller] = append(lp.sites[s.site.callerPkg][s.caller], s.site)
	}
	return lp
}

// tinyLeaf reports whether fn is a function or a method (no type parameters, its receiver's
// neither) whose body is one return of one result computed without calls (conversions and len,
// cap, min, max, real, imag, complex aside), channel operations or function literals, that cannot
// panic: it has no side effects, and its every node runs once per invocation. Its plan must count
// nothing but the invocations.
func tinyLeaf(info *types.Info, fn *frontend.Func) bool {
	d := fn.Decl
	if d.Type.TypeParams != nil || d.Body == nil || d.Recv == nil && (d.Name.Name == "init" || d.Name.Name == "main") {
		return false
	}
	if d.Recv != nil {
		if len(d.Recv.List) != 1 {
			return false
		}
		switch t := ast.Unparen(d.Recv.List[0].Type).(type) {
		case *ast.StarExpr:
			if _, ok := ast.Unparen(t.X).(*ast.Ident); !ok {
				return false // a generic receiver type
			}
		case *ast.Ident:
		default:
			return false
		}
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
