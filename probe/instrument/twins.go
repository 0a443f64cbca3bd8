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
// instrumented as before, for the calls from elsewhere.
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
}

// findTwins works out the twins of one package's instrumented functions (list, with their
// plans): among the functions that may have one and whose paths are numbered (p.pp), those
// that call others, and those these reach.
func findTwins(info *types.Info, files []*ast.File, list []*frontend.Func, plans []*funcPlan) *twinSet {
	ts := &twinSet{twin: make([]bool, len(list)), entry: make([]bool, len(list)), clear: make([]bool, len(list)), calls: map[int][]*ast.CallExpr{}}
	cgo := map[*ast.File]bool{}
	for _, f := range files {
		for _, im := range f.Imports {
			if im.Path.Value == `"C"` {
				cgo[f] = true
			}
		}
	}
	byObj := map[*types.Func]int{}
	for k, fn := range list {
		if plans[k].pp == nil || cgo[fileOf(files, fn.Decl)] {
			continue
		}
		if obj, ok := info.Defs[fn.Decl.Name].(*types.Func); ok {
			byObj[obj] = k
		}
	}
	callees := map[int][]int{}
	for k, fn := range list {
		if obj, ok := info.Defs[fn.Decl.Name].(*types.Func); !ok || byObj[obj] != k || plans[k].pp == nil {
			continue
		}
		p := plans[k]
		ast.Inspect(fn.Decl.Body, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.FuncLit, *ast.GoStmt, *ast.DeferStmt:
				return false
			case *ast.CallExpr:
				j, ok := byObj[calleeOf(info, x)]
				if !ok {
					break
				}
				if len(x.Args) == 1 {
					if _, tuple := info.TypeOf(x.Args[0]).(*types.Tuple); tuple {
						break // f(g()) passes g's results: no room for the block; the entry
					}
				}
				// A twin may leave its panic path in the spill word when it returns (the
				// entry clears it). If what else its caller's node does after the call
				// may panic, the callee must clear it (spillClear), and that panic then
				// stores nothing: the node must start a path (a cut before it), so that the
				// path it ends without a count is the caller's last; or the call goes
				// through the entry.
				nd, part := siteNode(p, x)
				if part == nil {
					break
				}
				// A quiet callee leaves the caller's spill as it found it.
				if !plans[j].pp.quiet() && panicsAfter(info, part, x, func(c *ast.CallExpr) bool {
					_, twin := byObj[calleeOf(info, c)]
					return twin || safeStdLeaf(calleeOf(info, c)) || slices.ContainsFunc(p.sites, func(s *callSite) bool { return s.call == c })
				}) {
					if !p.pp.cutAll[nd] || p.pp.cutExpr[nd] {
						break
					}
					ts.clear[j] = true
				}
				ts.calls[k] = append(ts.calls[k], x)
				callees[k] = append(callees[k], j)
			}
			return true
		})
	}
	var work []int
	for k := range list {
		if len(ts.calls[k]) > 0 {
			ts.entry[k], ts.twin[k] = true, true
			work = append(work, k)
		}
	}
	for len(work) > 0 {
		k := work[len(work)-1]
		work = work[:len(work)-1]
		for _, j := range callees[k] {
			if !ts.twin[j] {
				ts.twin[j] = true
				work = append(work, j)
			}
		}
	}
	return ts
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
			if tv, ok2 := info.Types[c.Fun]; ok2 && tv.IsType() {
				switch tv.Type.Underlying().(type) {
				case *types.Array, *types.Pointer:
					found = true
				}
				return !found
			}
			if id, isID := ast.Unparen(c.Fun).(*ast.Ident); isID {
				if b, isB := info.Uses[id].(*types.Builtin); isB && pureBuiltins[b.Name()] {
					return true
				}
			}
			if !ok(c) {
				found = true
			}
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
	// The operations that hold the call (x[f()], f() / y, *f()): checked after it returns.
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
	// The twin returned: no panic path is pending (see paths.go).
	const clear = "_augur_bb[0] = 0"
	pro := "_augur_bb := _augur_r.Get[_augur_blk](_augur_c); defer _augur_r.Put(_augur_c, _augur_bb); " +
		fmt.Sprintf("if !_augur_r.Shut(_augur_c.Window()) {_augur_r.HeldEnter(_augur_c, %d, %d, _augur_bb)}; ", p.k, p.overlaps())
	n := fn.Sig.Results().Len()
	if n == 0 {
		return pro + call + "; " + clear
	}
	var rs []string
	for i := range n {
		rs = append(rs, "_augur_r"+strconv.Itoa(i))
	}
	return pro + "var " + strings.Join(rs, ", ") + " = " + call + "; " + clear + "; return " + strings.Join(rs, ", ")
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
// else), the calls of twins (calls) and the signature. It returns the declaration's new text.
func twinText(fset *token.FileSet, src []byte, prefix string, file *ast.File, p *funcPlan, lits []*funcPlan, calls []*ast.CallExpr, info *types.Info) (string, error) {
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
	out, err := f.Apply()
	if err != nil {
		return "", err
	}
	i := bytes.IndexByte(out, 0)
	j := bytes.LastIndexByte(out, 0)
	if i < 0 || j <= i {
		return "", fmt.Errorf("%s: internal error: the twin's text is lost", p.fn.Name)
	}
	return string(out[i+1 : j]), nil
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
