package instrument

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strconv"
	"strings"

	"github.com/augur-perf/augur/probe/srcedit"
	"github.com/augur-perf/augur/source/frontend"
)

// Twins. Counting exactly under concurrency costs a pinning per commit in a function called from
// anywhere (see probe): two runtime calls, more than a small function's body. A parser, a lexer, a
// recursive function call many small functions of their own package, and every call commits. So a
// function F that calls instrumented functions of its package gets a twin, _augur_t_F (a method
// stays a method), with an extra first parameter _augur_bb: a block of counters the goroutine holds
// alone (rt.Get), into which the twin's probes (paths.go) add with plain stores, without pinning;
// inside twins, the static calls of other instrumented functions of the package call their twins,
// passing the block, so that the functions they reach need twins too. F itself becomes an entry: it
// takes a block, calls the twin and gives the block back (deferred, so that a panic gives it back
// too). Function values, method values, interface calls, go and defer statements, function literals
// and calls from outside the package go through the entries: a block never leaves its goroutine. A
// function called from twins but calling no instrumented function keeps its own body as well,
// instrumented as before, for the calls from elsewhere. A twin's static calls of exported functions
// of the build's other instrumented packages call their side entries (AugurSide_F, see rt.Side and
// sideText) with a slot of the twin's block, which holds a block of the callee's package for good.
//
// A twin is the function's text, rewritten, appended to the end of its file after a //line
// comment that gives it the function's own file and line: positions in panics and stack traces
// are the user's, but the frames are named after the twin (pkg._augur_t_F), with one more frame,
// the entry's, under the first twin.
//
// Functions that would behave differently when called through an entry or under another name
// have no twin: those calling recover (which stops a panic only when called by the deferred
// function itself), runtime.Caller, runtime.Callers, runtime.FuncForPC, runtime/debug's Stack or
// PrintStack, or a method named Helper (testing's, which skips frames by function); those with
// //go: directives; init functions; generic functions with a type parameter named _ (the entry
// instantiates the twin with its own type parameters: type arguments cannot always be inferred);
// functions that defer (as yet: their frame hooks commit pinned); and functions whose paths
// cannot be numbered (see paths.go), for twins count paths.

// twinPrefix starts the name of every twin: no name augur adds otherwise starts with it.
const twinPrefix = "_augur_t_"

// twinSet is which functions of a package (by index) have twins and which are entries, and
// the calls of twins each function's twin makes.
type twinSet struct {
	twin, entry []bool
	calls       map[int][]*ast.CallExpr
	// clear marks the twins called from a node that may panic after the call (see findTwins):
	// they return with the spill word clear.
	clear []bool
	// side holds, by function, the calls its twin makes of twins of other packages of the build,
	// through their side entries (see rt.Side); sideEntry marks the functions that have one.
	side      map[int][]sideCall
	sideEntry []bool
	// sides are the packages (their indexes in the build) whose blocks the side slots of this
	// package's blocks hold, in slot order.
	sides []int
}

// A sideCall is a twin's call of a function of another package through its side entry, with
// the side slot for that package's blocks.
type sideCall struct {
	call *ast.CallExpr
	slot int
}

// A twinPkg is what findTwins needs of one package of the build.
type twinPkg struct {
	fset  *token.FileSet
	info  *types.Info
	files []*ast.File
	list  []*frontend.Func
	plans []*funcPlan
}

// findTwins works out the twins of the build's instrumented functions (pkgs, in the build's
// order; their plans): among the functions that may have one and whose paths are numbered
// (p.pp), those that call others of their package, and those these reach, in their package and,
// through side entries, in the build's other packages that it imports (a twin holds its
// package's block; the blocks of the others hang from its side slots: see rt.Side). Calls of
// other packages' functions make no entry: an entry takes a block for every call, more than the
// pinned commits of a function without a twin cost.
func findTwins(pkgs []twinPkg) []*twinSet {
	type fref struct{ pkg, k int }
	tss := make([]*twinSet, len(pkgs))
	byObj := map[*types.Func]fref{}
	for pi, tp := range pkgs {
		n := len(tp.list)
		tss[pi] = &twinSet{twin: make([]bool, n), entry: make([]bool, n), clear: make([]bool, n), sideEntry: make([]bool, n), calls: map[int][]*ast.CallExpr{}, side: map[int][]sideCall{}}
		for k, fn := range tp.list {
			if tp.plans[k].pp == nil || fn.FromCgo() {
				continue
			}
			if obj, ok := tp.info.Defs[fn.Decl.Name].(*types.Func); ok {
				byObj[obj] = fref{pi, k}
			}
		}
	}
	callees := map[fref][]fref{}
	sideOf := map[fref][]*ast.CallExpr{}
	for pi, tp := range pkgs {
		ts := tss[pi]
		imports := map[string]bool{}
		for _, file := range tp.files {
			if isTestFile(tp, file) {
				continue
			}
			for _, im := range file.Imports {
				if path, err := strconv.Unquote(im.Path.Value); err == nil {
					imports[path] = true
				}
			}
		}
		for k, fn := range tp.list {
			if obj, ok := tp.info.Defs[fn.Decl.Name].(*types.Func); !ok || byObj[obj] != (fref{pi, k}) {
				continue
			}
			p := tp.plans[k]
			test := isTestFile(tp, fileOf(tp.files, fn.Decl))
			// candidate reports whether c may call a twin of the package (see scan).
			candidate := func(c *ast.CallExpr) bool {
				r, ok := byObj[calleeOf(tp.info, c)]
				if !ok || r.pkg != pi || passesTuple(tp.info, c) {
					return false
				}
				_, part := siteNode(p, c)
				return part != nil
			}
			// scan finds the calls of twins (calls) and those of other packages' side entries
			// (sides) in fn, and the callees that must clear the spill word (clears), taking
			// the calls in direct, and no other of the package's, for calls of twins.
			scan := func(direct map[*ast.CallExpr]bool) (calls, sides []*ast.CallExpr, clears []int) {
				ast.Inspect(fn.Decl.Body, func(n ast.Node) bool {
					switch x := n.(type) {
					case *ast.FuncLit, *ast.GoStmt, *ast.DeferStmt:
						return false
					case *ast.CallExpr:
						callee := calleeOf(tp.info, x)
						r, ok := byObj[callee]
						if !ok || passesTuple(tp.info, x) {
							break
						}
						nd, part := siteNode(p, x)
						if part == nil {
							break
						}
						if r.pkg != pi {
							// Another package's function, exported, of a package the non-test
							// files import (the runtime file imports it too, for its
							// AugurUnwound_<digest>): its side entry.
							if !test && callee.Exported() && imports[callee.Pkg().Path()] && !sideClash(callee) {
								sides = append(sides, x)
							}
							break
						}
						if direct != nil && !direct[x] {
							break
						}
						// A twin may leave its panic path in the spill word when it returns
						// (the entry clears it). If what else its caller's node does after the
						// call may panic, the callee must clear it (spillClear), and that panic
						// then stores nothing: the node must start a path (a cut before it), so
						// that the path it ends without a count is the caller's last; or the call
						// goes through the entry. A call of a twin after it is no such panic: it
						// stores its own spill first. A quiet callee leaves the caller's spill as
						// it found it.
						if !tp.plans[r.k].pp.quiet() && panicsAfter(tp.info, part, x, func(c *ast.CallExpr) bool {
							return direct == nil && candidate(c) || direct[c] ||
								safeStdLeaf(calleeOf(tp.info, c)) || slices.ContainsFunc(p.sites, func(s *callSite) bool { return s.call == c })
						}) {
							if !p.pp.cutAll[nd] || p.pp.cutExpr[nd] {
								break
							}
							clears = append(clears, r.k)
						}
						calls = append(calls, x)
					}
					return true
				})
				return calls, sides, clears
			}
			// A call taken for a twin's that goes through the entry after all leaves the spill
			// as the call before it left it: scan again without it, until no call drops out.
			calls, sides, clears := scan(nil)
			for {
				direct := map[*ast.CallExpr]bool{}
				for _, c := range calls {
					direct[c] = true
				}
				var again []*ast.CallExpr
				if again, _, clears = scan(direct); len(again) == len(calls) {
					break
				}
				calls = again
			}
			for _, j := range clears {
				ts.clear[j] = true
			}
			ts.calls[k] = calls
			for _, c := range calls {
				callees[fref{pi, k}] = append(callees[fref{pi, k}], byObj[calleeOf(tp.info, c)])
			}
			for _, c := range sides {
				callees[fref{pi, k}] = append(callees[fref{pi, k}], byObj[calleeOf(tp.info, c)])
			}
			sideOf[fref{pi, k}] = sides
		}
	}
	var work []fref
	for pi, ts := range tss {
		for k := range pkgs[pi].list {
			if len(ts.calls[k]) > 0 {
				ts.entry[k], ts.twin[k] = true, true
				work = append(work, fref{pi, k})
			}
		}
	}
	for len(work) > 0 {
		f := work[len(work)-1]
		work = work[:len(work)-1]
		for _, g := range callees[f] {
			if !tss[g.pkg].twin[g.k] {
				tss[g.pkg].twin[g.k] = true
				work = append(work, g)
			}
		}
	}
	// The side calls of the twins, and a slot per package they call.
	for pi, ts := range tss {
		slotOf := map[int]int{}
		for k := range pkgs[pi].list {
			if !ts.twin[k] {
				continue
			}
			for _, c := range sideOf[fref{pi, k}] {
				r := byObj[calleeOf(pkgs[pi].info, c)]
				tss[r.pkg].sideEntry[r.k] = true
				s, ok := slotOf[r.pkg]
				if !ok {
					s = len(ts.sides)
					slotOf[r.pkg] = s
					ts.sides = append(ts.sides, r.pkg)
				}
				ts.side[k] = append(ts.side[k], sideCall{c, s})
			}
		}
	}
	return tss
}

// passesTuple reports whether call passes another call's results, f(g()): there is no room for a
// block argument, so it goes through the entry.
func passesTuple(info *types.Info, call *ast.CallExpr) bool {
	if len(call.Args) != 1 {
		return false
	}
	_, tuple := info.TypeOf(call.Args[0]).(*types.Tuple)
	return tuple
}

// sideClash reports whether fn's package, or its receiver's type, already has something named as
// fn's side entry would be.
func sideClash(fn *types.Func) bool {
	name := sidePrefix + fn.Name()
	if recv := fn.Type().(*types.Signature).Recv(); recv != nil {
		obj, _, _ := types.LookupFieldOrMethod(recv.Type(), true, fn.Pkg(), name)
		return obj != nil
	}
	return fn.Pkg().Scope().Lookup(name) != nil
}

// isTestFile reports whether file is one of tp's _test.go files.
func isTestFile(tp twinPkg, file *ast.File) bool {
	return file != nil && strings.HasSuffix(tp.fset.File(file.Pos()).Name(), "_test.go")
}

// panicsAfter reports whether something in part (a node's part holding call) may panic once the
// call has returned: an operation after it that may, an assignment to an index or through a
// pointer, a send, a call that is not ok (a twin, a derived leaf), a builtin or a conversion.
func panicsAfter(info *types.Info, part ast.Node, call *ast.CallExpr, ok func(*ast.CallExpr) bool) bool {
	if _, send := part.(*ast.SendStmt); send {
		return true
	}
	lhs := map[ast.Node]bool{}
	switch s := part.(type) {
	case *ast.AssignStmt:
		for _, e := range s.Lhs {
			lhs[e] = true
		}
	case *ast.IncDecStmt:
		lhs[s.X] = true
	}
	// callPanics reports whether a call (or conversion) c, run after the call returned, may
	// panic.
	callPanics := func(c *ast.CallExpr) bool {
		if tv, ok2 := info.Types[c.Fun]; ok2 && tv.IsType() {
			switch tv.Type.Underlying().(type) {
			case *types.Array, *types.Pointer:
				return true
			}
			return false
		}
		if id, isID := ast.Unparen(c.Fun).(*ast.Ident); isID {
			if b, isB := info.Uses[id].(*types.Builtin); isB && pureBuiltins[b.Name()] {
				return false
			}
		}
		return !ok(c)
	}
	found := false
	ast.Inspect(part, func(n ast.Node) bool {
		if found {
			return false
		}
		if n == nil {
			return true
		}
		if _, lit := n.(*ast.FuncLit); lit {
			return false
		}
		if n == ast.Node(call) {
			return false // its arguments run before it returns
		}
		if lhs[n] {
			// An assignment's index and dereference checks come after the right side.
			ast.Inspect(n, func(m ast.Node) bool {
				if e, ok := m.(ast.Expr); ok && ownMayPanic(info, e) {
					found = true
				}
				return !found
			})
			return false
		}
		e, isExpr := n.(ast.Expr)
		if !isExpr || e.Pos() < call.End() && e.End() > call.Pos() {
			return true // an operand around the call: its own operation is checked below
		}
		after := e.Pos() >= call.End()
		if c, isCall := e.(*ast.CallExpr); isCall && after {
			found = callPanics(c)
			return !found
		}
		if after && ownMayPanic(info, e) {
			found = true
		}
		return !found
	})
	if found {
		return true
	}
	// The operations that hold the call (x[f()], f() / y, *f(), g(f())): checked after it
	// returns.
	var stack []ast.Node
	ast.Inspect(part, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return false
		}
		if n == ast.Node(call) {
			for _, a := range stack {
				if e, ok := a.(ast.Expr); ok && ownMayPanic(info, e) {
					found = true
				}
				if c, isCall := a.(*ast.CallExpr); isCall && callPanics(c) {
					found = true
				}
			}
			return false
		}
		stack = append(stack, n)
		return true
	})
	return found
}

// twinEligible reports whether fn may have a twin (see the list above).
func twinEligible(info *types.Info, fn *frontend.Func, p *funcPlan) bool {
	d := fn.Decl
	if fn.Lit != nil || p.derived || p.copy != "" || len(fn.CFG.Defers) > 0 || d.Body == nil || d.Recv == nil && d.Name.Name == "init" {
		return false
	}
	if d.Type.TypeParams != nil {
		for _, f := range d.Type.TypeParams.List {
			for _, n := range f.Names {
				if n.Name == "_" {
					return false // the entry could not instantiate the twin
				}
			}
		}
	}
	if d.Doc != nil {
		for _, c := range d.Doc.List {
			if strings.HasPrefix(c.Text, "//go:") {
				return false
			}
		}
	}
	ok := true
	ast.Inspect(d.Body, func(n ast.Node) bool {
		if !ok {
			return false
		}
		call, isCall := n.(*ast.CallExpr)
		if _, lit := n.(*ast.FuncLit); lit {
			return false
		}
		if !isCall {
			return true
		}
		switch f := ast.Unparen(call.Fun).(type) {
		case *ast.Ident:
			if b, isB := info.Uses[f].(*types.Builtin); isB && b.Name() == "recover" {
				ok = false
			}
		case *ast.SelectorExpr:
			if f.Sel.Name == "Helper" {
				ok = false
			}
		}
		if fn := calleeOf(info, call); fn != nil && fn.Pkg() != nil {
			switch fn.Pkg().Path() + "." + fn.Name() {
			case "runtime.Caller", "runtime.Callers", "runtime.FuncForPC", "runtime/debug.Stack", "runtime/debug.PrintStack":
				ok = false
			}
		}
		return ok
	})
	return ok
}

// entryCode is the body of entry fn (its plan p): it takes a block, looks for other goroutines in
// the function while the package's entries' window is open (rt.HeldEnter: the block records the
// ownership, which Put gives up), calls the twin with the block and gives it back. Parameters
// without a name (or named _) get one from names (see nameParams).
func entryCode(fn *frontend.Func, p *funcPlan, names map[*ast.Field][]string) string {
	pro := "_augur_bb := _augur_r.Get[_augur_blk](_augur_c); defer _augur_r.Put(_augur_c, _augur_bb); " +
		fmt.Sprintf("if !_augur_r.Shut(_augur_c.Window()) {_augur_r.HeldEnter(_augur_c, %d, %d, _augur_bb)}; ", p.k, p.overlaps())
	// The twin returned: no panic path is pending (see paths.go).
	return callTwin(fn, names, pro, "_augur_bb[0] = 0")
}

// sideCode is the body of fn's side entry (see rt.Side): it takes the block of side slot _augur_k
// of the caller's block (_augur_w its spill word), looks as the entry does, calls the twin with
// the block and ends with rt.SideDone, which the entry's deferred Put does otherwise; a panic
// unwinding from the twin leaves the block to the caller's Put (rt's unwound).
func sideCode(fn *frontend.Func, p *funcPlan, names map[*ast.Field][]string) string {
	pro := "_augur_bb := _augur_r.Side[_augur_blk](_augur_c, _augur_w, _augur_k); " +
		fmt.Sprintf("if !_augur_r.Shut(_augur_c.Window()) {_augur_r.HeldEnter(_augur_c, %d, %d, _augur_bb)}; ", p.k, p.overlaps())
	return callTwin(fn, names, pro, "_augur_r.SideDone(_augur_c, _augur_bb, _augur_sc, _augur_w)")
}

// callTwin is the body of an entry of fn: pro, the call of fn's twin with the parameters (named
// by names) and the block _augur_bb, and then done, before the return of its results.
func callTwin(fn *frontend.Func, names map[*ast.Field][]string, pro, done string) string {
	d := fn.Decl
	var args []string
	for _, f := range d.Type.Params.List {
		for _, n := range names[f] {
			args = append(args, n)
		}
		if _, ok := f.Type.(*ast.Ellipsis); ok {
			args[len(args)-1] += "..."
		}
	}
	// A generic twin is instantiated with the entry's own type parameters: its type arguments
	// cannot always be inferred from the arguments.
	var tparams []string
	if d.Type.TypeParams != nil {
		for _, f := range d.Type.TypeParams.List {
			for _, n := range f.Names {
				tparams = append(tparams, n.Name)
			}
		}
	}
	call := twinPrefix + d.Name.Name
	if len(tparams) > 0 {
		call += "[" + strings.Join(tparams, ", ") + "]"
	}
	call += "(" + strings.Join(append([]string{"_augur_bb"}, args...), ", ") + ")"
	if d.Recv != nil {
		call = names[d.Recv.List[0]][0] + "." + call
	}
	n := fn.Sig.Results().Len()
	if n == 0 {
		return pro + call + "; " + done
	}
	var rs []string
	for i := range n {
		rs = append(rs, "_augur_r"+strconv.Itoa(i))
	}
	return pro + "var " + strings.Join(rs, ", ") + " = " + call + "; " + done + "; return " + strings.Join(rs, ", ")
}

// sidePrefix starts the name of a side entry (see rt.Side): exported, for other packages call it.
const sidePrefix = "AugurSide_"

// sideText is the declaration of fn's side entry, AugurSide_F (a method stays a method), with two
// extra first parameters: the caller's block (its spill word) and the word of its side slot for
// this package (see rt.Side).
func sideText(fset *token.FileSet, src []byte, prefix string, file *ast.File, fn *frontend.Func, p *funcPlan) (string, error) {
	f := &fileEdits{File: srcedit.New(fset, src, prefix), file: file}
	d := fn.Decl
	f.AddAt(f.Off(d.Pos()), -1000, "\x00")
	f.AddAt(f.Off(d.End()), 1000, "\x00")
	names := nameParams(f, d)
	f.Add(d.Name.Pos(), token.NoPos, 20, sidePrefix)
	arg := "_augur_w *_augur_r.Uint64, _augur_k _augur_r.Int"
	if len(d.Type.Params.List) > 0 {
		arg += ", "
	}
	f.Add(d.Type.Params.Opening+1, token.NoPos, -20, arg)
	f.Add(d.Body.Lbrace+1, d.Body.Rbrace, 1, sideCode(fn, p, names))
	return declText(f, fn)
}

// declText applies f's edits to fn's declaration, marked with a NUL byte at either end, and
// returns the declaration's new text.
func declText(f *fileEdits, fn *frontend.Func) (string, error) {
	out, err := f.Apply()
	if err != nil {
		return "", err
	}
	i := bytes.IndexByte(out, 0)
	j := bytes.LastIndexByte(out, 0)
	if i < 0 || j <= i {
		return "", fmt.Errorf("%s: internal error: the declaration's new text is lost", fn.Name)
	}
	return string(out[i+1 : j]), nil
}

// nameParams gives every parameter and the receiver of an entry's declaration a name it can pass
// on (_augur_a<i> for one without a name or named _), and returns the names by field.
func nameParams(f *fileEdits, d *ast.FuncDecl) map[*ast.Field][]string {
	names := map[*ast.Field][]string{}
	i := 0
	do := func(fl *ast.FieldList) {
		if fl == nil {
			return
		}
		for _, fd := range fl.List {
			if len(fd.Names) == 0 {
				n := "_augur_a" + strconv.Itoa(i)
				i++
				f.Insert(fd.Type.Pos(), n+" ")
				names[fd] = []string{n}
				continue
			}
			for _, id := range fd.Names {
				n := id.Name
				if n == "_" {
					n = "_augur_a" + strconv.Itoa(i)
					i++
					f.Add(id.Pos(), id.End(), 1, n)
				}
				names[fd] = append(names[fd], n)
			}
		}
	}
	do(d.Recv)
	do(d.Type.Params)
	return names
}

// twinText rewrites the text of fn's declaration into its twin: the probes (with twin set:
// counting into _augur_bb), those of the function literals in it (lits, counting as everywhere
// else), the calls of twins (calls) and of other packages' side entries (sides), and the
// signature. It returns the declaration's new text.
func twinText(fset *token.FileSet, src []byte, prefix string, file *ast.File, p *funcPlan, lits []*funcPlan, calls []*ast.CallExpr, sides []sideCall, info *types.Info) (string, error) {
	f := &fileEdits{File: srcedit.New(fset, src, prefix), file: file}
	d := p.fn.Decl
	f.AddAt(f.Off(d.Pos()), -1000, "\x00")
	f.AddAt(f.Off(d.End()), 1000, "\x00")
	if err := rewritePath(f, p, p.pp, info); err != nil {
		return "", err
	}
	held := syncLits(info, d.Body)
	for _, lp := range lits {
		if err := rewriteFunc(f, lp, info, held[lp.fn.Lit]); err != nil {
			return "", err
		}
	}
	for _, c := range calls {
		switch fun := calleeExpr(c).(type) {
		case *ast.Ident:
			f.Add(fun.Pos(), token.NoPos, 20, twinPrefix)
		case *ast.SelectorExpr:
			f.Add(fun.Sel.Pos(), token.NoPos, 20, twinPrefix)
		default:
			return "", fmt.Errorf("%s: internal error: a twin call of %T", fset.Position(c.Pos()), c.Fun)
		}
		arg := "_augur_bb"
		if len(c.Args) > 0 {
			arg += ", "
		}
		f.Add(c.Lparen+1, token.NoPos, -20, arg)
	}
	for _, sc := range sides {
		c := sc.call
		switch fun := calleeExpr(c).(type) {
		case *ast.Ident: // a dot import's
			f.Add(fun.Pos(), token.NoPos, 20, sidePrefix)
		case *ast.SelectorExpr:
			f.Add(fun.Sel.Pos(), token.NoPos, 20, sidePrefix)
		default:
			return "", fmt.Errorf("%s: internal error: a side call of %T", fset.Position(c.Pos()), c.Fun)
		}
		arg := "&_augur_bb[0], _augur_sb+" + strconv.Itoa(sc.slot)
		if len(c.Args) > 0 {
			arg += ", "
		}
		f.Add(c.Lparen+1, token.NoPos, -20, arg)
	}
	f.Add(d.Name.Pos(), token.NoPos, 20, twinPrefix)
	params := d.Type.Params
	arg := "_augur_bb *_augur_blk"
	if len(params.List) > 0 {
		arg += ", "
		if len(params.List[0].Names) == 0 {
			// Unnamed parameters: the new one is named, so they must be (blank).
			for _, fd := range params.List {
				f.Insert(fd.Type.Pos(), "_ ")
			}
		}
	}
	f.Add(params.Opening+1, token.NoPos, -20, arg)
	return declText(f, p.fn)
}

// syncLits returns the function literals of a twin's body (not those in other literals) that
// run only while the twin runs, on its goroutine: called where they stand (func() {...}(), not
// in a go statement), or passed to a standard-library function that calls its function
// arguments before it returns and keeps them nowhere (syncCallers). They count into the twin's
// block (see regState.held) instead of pinning: sort.Search's closure in btree's find pinned
// twice a comparison (before the comparison it calls through a function value, and after).
func syncLits(info *types.Info, body *ast.BlockStmt) map[*ast.FuncLit]bool {
	out := map[*ast.FuncLit]bool{}
	ast.Inspect(body, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.FuncLit, *ast.GoStmt:
			return false
		case *ast.CallExpr:
			if lit, ok := x.Fun.(*ast.FuncLit); ok {
				out[lit] = true
			}
			if syncCallers[qualName(calleeOf(info, x))] {
				for _, a := range x.Args {
					if lit, ok := ast.Unparen(a).(*ast.FuncLit); ok {
						out[lit] = true
					}
				}
			}
		}
		return true
	})
	return out
}

// syncCallers are the standard-library functions that call their function arguments only before
// they return, on their caller's goroutine, and keep them nowhere.
var syncCallers = map[string]bool{}

func init() {
	for pkg, names := range map[string]string{
		"sort":    "Find Search Slice SliceIsSorted SliceStable",
		"slices":  "BinarySearchFunc CompactFunc CompareFunc ContainsFunc DeleteFunc EqualFunc IndexFunc IsSortedFunc MaxFunc MinFunc SortFunc SortStableFunc",
		"strings": "ContainsFunc FieldsFunc IndexFunc LastIndexFunc Map TrimFunc TrimLeftFunc TrimRightFunc",
		"bytes":   "ContainsFunc FieldsFunc IndexFunc LastIndexFunc Map TrimFunc TrimLeftFunc TrimRightFunc",
	} {
		for _, n := range strings.Fields(names) {
			syncCallers[pkg+"."+n] = true
		}
	}
}

// litsOf returns the plans of the function literals nested in fn (at any depth), in list order.
func litsOf(fn *frontend.Func, list []*frontend.Func, plans []*funcPlan) []*funcPlan {
	var out []*funcPlan
	for k, g := range list {
		for a := g.Parent; a != nil; a = a.Parent {
			if sameFunc(a, fn) {
				out = append(out, plans[k])
				break
			}
		}
	}
	return out
}

func sameFunc(a, b *frontend.Func) bool {
	return a == b || a.Decl == b.Decl
}

// inEntry reports whether fn is a function literal nested in an entry (whose body the entry code
// replaces).
func inEntry(fn *frontend.Func, list []*frontend.Func, ts *twinSet) bool {
	for a := fn.Parent; a != nil; a = a.Parent {
		for k, g := range list {
			if sameFunc(g, a) && ts.entry[k] {
				return true
			}
		}
	}
	return false
}
