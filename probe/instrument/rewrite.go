package instrument

import (
	"fmt"
	"go/ast"
	"go/scanner"
	"go/token"
	"go/types"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/augur-perf/augur/probe/srcedit"
	"github.com/augur-perf/augur/source/frontend"
)

// fileEdits collects the edits of one source file (package srcedit) and knows its syntax tree.
type fileEdits struct {
	*srcedit.File
	file *ast.File
}

// text is n's source text.
func (f *fileEdits) text(n ast.Node) string { return string(f.Src[f.Off(n.Pos()):f.Off(n.End())]) }

// regState maps the counters incremented inside register loops to locals (_augur_l<j>) and,
// in loops that may panic, to slots of the mirror array _augur_m.
type regState struct {
	plan    *funcPlan
	loops   []*regLoop
	locals  []int // local j holds counter locals[j]
	localOf map[int]int
	slot    map[int]int // local j → mirror slot
	mirrors []int       // mirror slot → counter
	// din, for a body region, holds by node the counters (offsets from base) whose locals may
	// be non-zero right before it (see dirtySets), or nil: then a flush adds every local.
	din [][]bool
	// cold is set while making the flush of a guard, which runs only before a panic.
	cold bool
	// reopen, when set, reopens the function's look window from the commits of its invocation
	// counter.
	reopen *reopen
	// held is set for a function literal that runs only while the twin it is in runs, on the
	// twin's goroutine (see syncLits): it counts into the twin's block, unpinned.
	held bool
}

// reopen is the code that reopens a function's look window (see rt.Shut) where a commit of its
// invocation counter key on a P passes a multiple of rt.WindowPeriod.
type reopen struct {
	key  int
	code string
}

// check returns the code that runs r's code when the counter's new value v, reached by adding d,
// passed a multiple of rt.WindowPeriod.
func (r *reopen) check(v, d string) string {
	return "if " + v + "&(_augur_r.WindowPeriod-1) < " + d + " {" + r.code + "}; "
}

func (r *regState) loopAt(pos token.Pos) *regLoop {
	for _, l := range r.loops {
		if l.contains(pos) {
			return l
		}
	}
	return nil
}

// add returns the code that adds d (1 or -1) to counter i at pos.
func (r *regState) add(i int, pos token.Pos, d string) string {
	if r.plan.frame {
		return "_augur_k[" + strconv.Itoa(r.plan.slot[i-r.plan.base]) + "]" + d + "; "
	}
	l := r.loopAt(pos)
	if l == nil {
		return probe(map[int]string{i: "1"}, d == "--", nil, r.held)
	}
	j := r.local(i, l)
	v := "_augur_l" + strconv.Itoa(j)
	t := v + d + "; "
	if m, ok := r.slot[j]; ok {
		t += "_augur_m[" + strconv.Itoa(m) + "] = " + v + "; "
	}
	return t
}

// local returns the local that holds counter i in register region l.
func (r *regState) local(i int, l *regLoop) int {
	j, ok := r.localOf[i]
	if !ok {
		j = len(r.locals)
		r.localOf[i] = j
		r.locals = append(r.locals, i)
		l.locals = append(l.locals, j)
		if l.mirror {
			r.slot[j] = len(r.mirrors)
			r.mirrors = append(r.mirrors, i)
		}
	}
	return j
}

// guard returns the code that flushes the locals of the register loop at pos right before
// node n, if it may panic, would panic (see guardBuilder); re (see reeval), which may be empty,
// follows the flush.
func (r *regState) guard(n int, pos token.Pos, re string) string {
	if l := r.loopAt(pos); l != nil && l.flushAt[n] {
		return r.flushSet(pos, r.dirty(n))
	}
	terms, flush := r.guardFlush(n, pos)
	if len(terms) == 0 {
		return ""
	}
	return guardChain(terms, flush+re) + "; "
}

// guardChain is "if t0 {then} else if t1 {then} ...": one block per term of a guard, so that
// each block's panic is one check the compiler can tell fails there (see reeval).
func guardChain(terms []string, then string) string {
	var b strings.Builder
	for k, t := range terms {
		if k > 0 {
			b.WriteString(" else ")
		}
		b.WriteString("if " + t + " {" + then + "}")
	}
	return b.String()
}

// guardFlush returns the terms of the guard of node n and its flush, or nothing when n has none.
func (r *regState) guardFlush(n int, pos token.Pos) (terms []string, flush string) {
	l := r.loopAt(pos)
	if l == nil || len(l.guards[n]) == 0 || l.flushAt[n] {
		return nil, ""
	}
	if r.plan.countedPan != nil && r.plan.countedPan[n] {
		return l.guards[n], r.panicFlush(n, pos)
	}
	if len(l.locals) == 0 {
		return nil, ""
	}
	r.cold = true // see probe
	flush = r.flushSet(pos, r.dirty(n))
	r.cold = false
	if flush == "" {
		return nil, ""
	}
	return l.guards[n], flush
}

// The flush of a guard is followed by what makes the node panic, so that the guard's block ends
// in that panic and the compiler knows it does: the prove pass, which finds the node's check
// certain to fail there, no longer joins the block to the code after it. The locals the flush
// reads then stay in registers on the path that goes on (a spill's place must dominate its
// restores, and the restores are in the block alone), the block is laid out of the loop, and the
// node's own check is dropped after the guard, which repeats it: the guard costs what the check
// did. A guard of several terms has a block per term (guardChain), each ending in one check. A
// guard may be true where the node does not panic (see guardBuilder); the node must then run
// once, as it would have. Rejoining guards made loops two deep slower than the mirror
// (InsertionSort 2.2×, MatMul 2.3×, Tokens 1.5×, against 1.6×, 1.0× and 1.3×); with these
// blocks the kernels' benchmark gives 1.1×, 1.0× and 1.2–1.3×.

// reeval returns the code, for the flush of the guard of the node that evaluates e (an if or for
// statement's condition, the value of a definition), that evaluates e again, if e has no side
// effects and is on one line: a guard that is true wrongly then only evaluates it twice. at is
// where the code goes; where its line is not e's, line directives give the evaluation e's line,
// for the panic.
func reeval(f *fileEdits, info *types.Info, e ast.Expr, at token.Pos) string {
	t, ok := nodeSource(f.Src, f.Fset, e)
	if !ok || !sideEffectFree(info, e, pureBuiltin, nil) {
		return ""
	}
	from, to := f.Fset.Position(e.Pos()), f.Fset.Position(at)
	if from.Line == to.Line {
		return "; _ = (" + t + ")"
	}
	return fmt.Sprintf("; /*line :%d:%d*/_ = (%s)/*line :%d:%d*/", from.Line, from.Column, t, to.Line, to.Column)
}

// guardStmt returns the guard of simple statement s (node n), and the code that goes after s,
// when the guard's block can end in s's panic. A definition of one value evaluates it again
// (reeval). An assignment or an increment runs in the guard's block itself: "if <guard>
// {flush; s} else {s}"; it must be on one line without calls or receives, with nothing of
// augur's inserted inside it or at its start (it is copied as the user wrote it).
func (r *regState) guardStmt(f *fileEdits, info *types.Info, n int, s ast.Stmt) (before, after string, ok bool) {
	switch x := s.(type) {
	case *ast.AssignStmt:
		if x.Tok == token.DEFINE {
			if len(x.Rhs) != 1 {
				return "", "", false
			}
			re := reeval(f, info, x.Rhs[0], s.Pos())
			if re == "" {
				return "", "", false
			}
			g := r.guard(n, s.Pos(), re)
			return g, "", g != ""
		}
	case *ast.IncDecStmt:
	default:
		return "", "", false
	}
	// The counter of the outcome whose block or clause starts with s goes at the same offset,
	// and stays out of the guard's block only because the decision is rewritten first:
	// rather than rely on that, s is not copied there.
	if o := f.Off(s.Pos()); o == 0 || !strings.ContainsRune(" \t\n\r;", rune(f.Src[o-1])) {
		return "", "", false
	}
	t, ok := nodeSource(f.Src, f.Fset, s)
	if !ok || !sideEffectFree(info, s, pureBuiltin, nil) {
		return "", "", false
	}
	terms, flush := r.guardFlush(n, s.Pos())
	if len(terms) == 0 {
		return "", "", false
	}
	chain := guardChain(terms, flush+"; "+t)
	return chain[:len(chain)-len(t)-1], "} else {" + t + "}", true
}

// dirty is the set of counters whose locals may be non-zero right before node n, nil for all.
func (r *regState) dirty(n int) []bool {
	if r.din == nil {
		return nil
	}
	return r.din[n]
}

// flushReturn returns the code that flushes the locals at return node n (after its guard or
// unconditional flush; with done, after its completion is counted).
func (r *regState) flushReturn(n int, pos token.Pos, done bool) string {
	if r.din == nil {
		return r.flush(pos) + r.returned()
	}
	set := make([]bool, len(r.din[n]))
	if l := r.loopAt(pos); l == nil || !l.kills(r.plan.g.Nodes[n], n) {
		copy(set, r.din[n])
	}
	if done {
		set[r.plan.flow(n, 0)-r.plan.base] = true
	}
	for _, s := range r.plan.sites {
		if s.local && s.node == n {
			set[s.ctr] = true // in the results, evaluated before the flush (resultsFirst)
		}
	}
	return r.flushSet(pos, set) + r.returned()
}

// returned is the code that tells the deferred closure of a function with mirrored locals, if
// it has them, that the invocation returns: every mirror is zero, flushed by the commit before
// it, and the closure need not call rt.Flush. It clears the word after the mirrors, one until
// then. (A panic, and runtime.Goexit, leave it one.)
func (r *regState) returned() string {
	if len(r.mirrors) == 0 {
		return ""
	}
	return "_augur_m[" + strconv.Itoa(len(r.mirrors)) + "] = 0; "
}

// flush returns the code that moves the locals of the register loop at pos (if any) into the
// counters.
func (r *regState) flush(pos token.Pos) string { return r.flushSet(pos, nil) }

// flushSet returns the code that moves the locals of the register loop at pos that hold the
// counters in set (offsets from base; nil for all) into the counters.
func (r *regState) flushSet(pos token.Pos, set []bool) string {
	adds, zero := r.dirtyLocals(pos, set)
	if r.plan.countedPan != nil && r.loopAt(pos) != nil {
		// A guard may have counted a panic that did not happen: its undo goes in with
		// the locals (see panicFlush).
		ix, vs := applyArgs(adds)
		return "if _augur_uv != 0 {_augur_c.Apply([]_augur_r.Int32{" + ix + "_augur_ui}, []_augur_r.Uint64{" + vs + "_augur_uv}); _augur_ui, _augur_uv = 0, 0} else {" +
			probe(adds, false, r.reopen, r.held) + "}; " + zero
	}
	if r.cold && len(adds) > 1 {
		return coldProbe(adds) + zero
	}
	return probe(adds, false, r.reopen, r.held) + zero
}

// panicFlush is the flush of the guard of node n, whose Panics are counted (countedPan): the
// locals and one panic of n in one commit, so that a process ending between the flush and the
// panic leaves counts that conserve flow. A guard may be true when the node does not panic (see
// guardBuilder): the panic then stays counted until the next flush adds it back out (the undo,
// _augur_ui and _augur_uv, goes into every commit while it is set); if the process ends
// first, the counts are still consistent, the invocation counted as unwound at n. The guard of
// n repeating while its own undo is pending counts nothing more.
func (r *regState) panicFlush(n int, pos token.Pos) string {
	adds, zero := r.dirtyLocals(pos, r.dirty(n))
	pan := strconv.Itoa(r.plan.pan(n))
	ix, vs := applyArgs(adds)
	t := "if _augur_ui != " + pan + " {_augur_c.Apply([]_augur_r.Int32{" + ix + pan + ", _augur_ui}, []_augur_r.Uint64{" + vs + "1, _augur_uv}); _augur_ui, _augur_uv = " + pan + ", ^_augur_r.Uint64(0)}"
	if len(adds) > 0 {
		t += " else {" + coldProbe(adds) + "}"
	}
	return t + "; " + zero
}

// applyArgs renders the counters and values of adds as the leading elements of rt.Apply's
// slices (each followed by ", ").
func applyArgs(adds map[int]string) (ix, vs string) {
	keys := make([]int, 0, len(adds))
	for k := range adds {
		keys = append(keys, k)
	}
	sort.Ints(keys)
	for _, k := range keys {
		ix += strconv.Itoa(k) + ", "
		vs += adds[k] + ", "
	}
	return ix, vs
}

// dirtyLocals returns the locals of the register loop at pos that hold the counters in set
// (offsets from base; nil for all), as values to add by counter, and the code that zeroes them.
func (r *regState) dirtyLocals(pos token.Pos, set []bool) (map[int]string, string) {
	l := r.loopAt(pos)
	if l == nil {
		return nil, ""
	}
	var b strings.Builder
	adds := map[int]string{}
	for _, j := range l.locals {
		if set != nil && !set[r.locals[j]-r.plan.base] {
			continue
		}
		v := "_augur_l" + strconv.Itoa(j)
		adds[r.locals[j]] = v
		fmt.Fprintf(&b, "%s = 0; ", v)
		if m, ok := r.slot[j]; ok {
			fmt.Fprintf(&b, "_augur_m[%d] = 0; ", m)
		}
	}
	return adds, b.String()
}

// coldProbe is probe's commit of several counters as a call of rt's Apply: less code where it
// rarely runs (a guard's flush), so that the loop around it stays small.
func coldProbe(adds map[int]string) string {
	keys := make([]int, 0, len(adds))
	for k := range adds {
		keys = append(keys, k)
	}
	sort.Ints(keys)
	var ix, vs []string
	for _, k := range keys {
		ix = append(ix, strconv.Itoa(k))
		vs = append(vs, adds[k])
	}
	return "_augur_c.Apply([]_augur_r.Int32{" + strings.Join(ix, ", ") + "}, []_augur_r.Uint64{" + strings.Join(vs, ", ") + "}); "
}

// probe returns the code that adds (or, with sub, subtracts) each value of adds to the counter
// of its key. The goroutine is pinned to its P (runtime.procPin: no preemption, no other
// goroutine on that P) around plain adds to that P's counter block, so that counts are exact
// with any number of goroutines. Measured on this project's 2-core AMD EPYC (a function with
// two probes per call, 64 goroutines): plain adds 3.4 ns per call (and lose counts), pinned
// adds 9.1 ns, sync/atomic adds 17.3 ns (whether or not the blocks are sharded: cache lines
// bounce between cores under atomics, never under pinning); a lone atomic add costs about
// 9 ns on this machine even uncontended, a pinned one 2.7 ns (recursive Fibonacci, three
// probes per call, one goroutine); atomics only in functions
// reachable from a go statement miss every library function that callers run concurrently
// (http handlers, tests with t.Parallel). Body regions (see bodyRegion) hold the counts in
// locals so that an invocation pins once per commit, not once per probe. Several counters go
// in through rt's journal, inline (the commit of rt.Counters.Apply without its call, slices
// and loop). With held, the adds go to the twin's block, _augur_bb, unpinned (see
// regState.held); where a commit adds to w's counter, it may reopen a look window (see reopen).
func probe(adds map[int]string, sub bool, w *reopen, held bool) string {
	if len(adds) == 0 {
		return ""
	}
	keys := make([]int, 0, len(adds))
	for k := range adds {
		keys = append(keys, k)
	}
	sort.Ints(keys)
	op := "+="
	if sub {
		op = "-="
	}
	if len(keys) > 1 {
		// rt's commit, inline on the P's block: the new values (each counter read once), the
		// journal at constant offsets from _augur_jc (no bounds checks), its length, the new
		// values into the counters, the length back to zero. The compiler keeps every store
		// and their order: the journal's slots are never stored to twice, and the length is
		// cleared through _augur_jn, a variable it cannot tell from _augur_jc, so the store
		// that sets the length is not seen as overwritten.
		var ix, vs []string
		var nv, jl, ad strings.Builder
		for m, k := range keys {
			ix = append(ix, strconv.Itoa(k))
			vs = append(vs, adds[k])
			fmt.Fprintf(&nv, "_augur_v%d := _augur_b[%d] + %s; ", m, k, adds[k])
			fmt.Fprintf(&jl, "_augur_b[_augur_jc+%d] = %d; _augur_b[_augur_jc+%d] = _augur_v%d; ", 1+2*m, k, 2+2*m, m)
			fmt.Fprintf(&ad, "_augur_b[%d] = _augur_v%d; ", k, m)
			if w != nil && k == w.key {
				ad.WriteString(w.check("_augur_v"+strconv.Itoa(m), adds[k]))
			}
		}
		commit := nv.String() + jl.String() + "_augur_b[_augur_jc] = " + strconv.Itoa(len(keys)) + "; " + ad.String() + "_augur_b[_augur_jn] = 0"
		if held {
			return "{_augur_b := _augur_bb; " + commit + "}; "
		}
		return "{_augur_p := _augur_r.Pin(); if _augur_p < _augur_ns {_augur_b := _augur_cs[_augur_p]; " + commit + "} else {" +
			"_augur_c.Apply([]_augur_r.Int32{" + strings.Join(ix, ", ") + "}, []_augur_r.Uint64{" + strings.Join(vs, ", ") + "})}; _augur_r.Unpin()}; "
	}
	block := "_augur_cs[_augur_p]"
	if held {
		block = "_augur_bb"
	}
	var in, over strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&in, "%s[%d] %s %s; ", block, k, op, adds[k])
		if w != nil && k == w.key && !sub {
			in.WriteString(w.check(block+"["+strconv.Itoa(k)+"]", adds[k]))
		}
		f := "_augur_c.Over"
		if sub {
			f = "_augur_c.OverSub"
		}
		fmt.Fprintf(&over, "%s(%d, %s); ", f, k, adds[k])
	}
	if held {
		return in.String()
	}
	return "{_augur_p := _augur_r.Pin(); if _augur_p < _augur_ns {" + in.String() + "} else {" + over.String() + "}; _augur_r.Unpin()}; "
}

// rewriteFunc adds the probes of one function to the file's edits. A frame-free function with
// register loops is rewritten twice: the first pass finds the locals the loops need, so that
// the second can flush them.
func rewriteFunc(f *fileEdits, p *funcPlan, info *types.Info, held bool) error {
	f.Parents(p.fn.Decl.Body)
	r := &regState{plan: p, localOf: map[int]int{}, slot: map[int]int{}, held: held && !p.frame}
	if !p.frame {
		r.loops = findRegLoops(p, info, exprSource(f.Src, f.Fset, info, p.leaves.renamed()))
		if countPanics(p, r.loops) {
			r.loops = findRegLoops(p, info, exprSource(f.Src, f.Fset, info, p.leaves.renamed()))
		}
	}
	leafCall := func(c *ast.CallExpr) bool {
		for _, s := range p.sites {
			if s.call == c {
				return true
			}
		}
		return false
	}
	for _, s := range p.sites {
		var part ast.Node
		s.node, part = siteNode(p, s.call)
		s.local = false
		if l := r.loopAt(s.call.Pos()); l != nil && s.node >= 0 {
			_, ret := p.g.Nodes[s.node].AST.(*ast.ReturnStmt)
			// A return flushes before its results are evaluated, unless its outflow is
			// counted after them. A mirrored local reaches the counters through the
			// deferred flush, whatever panics after the call.
			s.local = (!ret || p.resultsFirst(s.node)) && (l.mirror || siteExactNode(info, p, f.text, s.node, part, s.call, leafCall))
		}
	}
	e0 := f.Len()
	if err := rewriteBody(f, p, info, r); err != nil || len(r.locals) == 0 {
		return err
	}
	f.Truncate(e0)
	if len(r.loops) == 1 && r.loops[0].body {
		r.din = dirtySets(p, r, r.loops[0], f)
	}
	if err := rewriteBody(f, p, info, r); err != nil {
		return err
	}
	pro := "var "
	for j := range r.locals {
		if j > 0 {
			pro += ", "
		}
		pro += "_augur_l" + strconv.Itoa(j)
	}
	pro += " _augur_r.Uint64; "
	if p.countedPan != nil {
		pro += "var _augur_ui _augur_r.Int32; var _augur_uv _augur_r.Uint64; "
	}
	for _, l := range r.loops {
		p.journal = max(p.journal, len(l.locals))
		if p.countedPan != nil {
			p.journal = max(p.journal, len(l.locals)+2)
		}
	}
	p.journal = max(p.journal, len(r.mirrors))
	if len(r.mirrors) > 0 {
		pro += fmt.Sprintf("var _augur_m [%[1]d]_augur_r.Uint64; _augur_m[%[2]d] = 1; defer func() {if _augur_m[%[2]d] != 0 {_augur_c.Flush(_augur_m[:%[2]d], &_augur_fd[%[3]d])}}(); ", len(r.mirrors)+1, len(r.mirrors), p.k)
		p.mirrors = r.mirrors
	}
	// Before the probes at the same offset (a body region counts the invocation there).
	f.Add(p.fn.Decl.Body.Lbrace+1, token.NoPos, 0, pro)
	for _, l := range r.loops {
		switch {
		case !l.exits || len(l.locals) == 0:
		case l.body:
			// After the probes counting the fall off the end (priority 3).
			f.Add(p.fn.Decl.Body.Rbrace, token.NoPos, 6, "; "+r.flush(p.fn.Decl.Body.Rbrace))
		default:
			f.Add(l.s.End(), token.NoPos, 6, "; "+r.flush(l.s.Pos()))
		}
	}
	if t := p.fn.Decl.Type; t.Results == nil || len(t.Results.List) == 0 {
		// Falling off the end returns too (after the flushes above).
		f.Add(p.fn.Decl.Body.Rbrace, token.NoPos, 7, "; "+r.returned())
	}
	return nil
}

func rewriteBody(f *fileEdits, p *funcPlan, info *types.Info, r *regState) error {
	g, decl := p.g, p.fn.Decl
	fd := fmt.Sprintf("&_augur_fd[%d]", p.k)
	inc := func(i int) string { return r.add(i, decl.Body.Lbrace+1, "++") }
	incAt := func(i int, pos token.Pos) string { return r.add(i, pos, "++") }
	store := func(n int) string {
		if !p.frame || !p.mayPanic[n] {
			return ""
		}
		return "_augur_s.Cur = " + strconv.Itoa(n) + "; "
	}
	const ret = "_augur_s.Chain = 1; "

	// A function looks for another goroutine in it (rt.Look) while its window is open (see
	// rt.Shut), and leaves before its returns and at the end of its body (a frame function in
	// its exit hook). The invocation counter's commit reopens the window.
	wn := fmt.Sprintf("&_augur_wn[%d]", p.k)
	r.reopen = &reopen{p.base, "_augur_r.Reopen(" + wn + ")"}
	count := probe(map[int]string{p.base: "1"}, false, r.reopen, r.held)
	pro := "var _augur_o _augur_r.Uintptr; " + count + fmt.Sprintf("if !_augur_r.Shut(%[1]s) {_augur_o = _augur_c.Look(%[2]d, %[3]d, %[1]s)}; ", wn, p.k, p.overlaps())
	leave := fmt.Sprintf("if _augur_o != 0 {_augur_c.Leave(%d, _augur_o)}; ", p.k)
	if !p.frame && slices.Contains(p.mayPanic, true) {
		// It may unwind past the code before its returns: it only looks (rt.Peek).
		pro = count + fmt.Sprintf("if !_augur_r.Shut(%[1]s) {_augur_c.Peek(%[2]d, %[3]d, %[1]s)}; ", wn, p.k, p.overlaps())
		leave = ""
	}
	if len(r.loops) == 1 && r.loops[0].body {
		// The invocation is counted in a local like the rest, and looks through the window
		// too. One that may panic would only look (rt.Peek) for an owner, and only its own
		// invocations could be one: it does not look at all. Nor does a brief one (no loop,
		// no call it commits before: it cannot run for long), where the look at entry would
		// cost more than its body (isDigit passed as a function value).
		in := r.add(p.base, decl.Body.Lbrace+1, "++")
		if leave == "" || len(r.loops[0].flushAt) == 0 && !loops(decl.Body) {
			pro, leave, r.reopen = in, "", nil
		} else {
			pro = fmt.Sprintf("var _augur_o _augur_r.Uintptr; if !_augur_r.Shut(%s) {_augur_o = _augur_c.Look(%d, %d, %s)}; ", wn, p.k, p.overlaps(), wn) + in
		}
	}
	if p.frame {
		pro = fmt.Sprintf("var _augur_k [%d]_augur_r.Uint64; _augur_k[0] = 1; var _augur_s = _augur_r.Frame{Cur: -1, N: _augur_k[:], W: %s}; if !_augur_r.Shut(%s) {_augur_s.O = _augur_c.Look(%d, %d, %s)}; defer _augur_c.Exit(&_augur_s, %s); ", len(p.slotCtr), wn, wn, p.k, p.overlaps(), wn, fd)
		leave = ""
	}
	f.Insert(decl.Body.Lbrace+1, pro)

	// Headers: init and post statements are not in statement lists.
	initOf, postOf := headers(g)

	for i, nd := range g.Nodes {
		if nd.Kind == frontend.KindDeferRun || nd.Kind == frontend.KindDeferDispatch || nd.IsExit() {
			continue
		}
		switch s := nd.AST.(type) {
		case *ast.IfStmt:
			if p.frame && p.mayPanic[i] {
				f.Insert(s.Cond.Pos(), "_augur_r.Cond(&_augur_s, "+strconv.Itoa(i)+") && _augur_r.Bool(")
				f.Add(s.Cond.End(), token.NoPos, 0, ")")
			}
			t := ""
			if p.countBefore[i] {
				t = incAt(p.cnt(i), s.Pos())
			}
			re := ""
			if s.Init == nil {
				re = reeval(f, info, s.Cond, s.Pos())
			}
			if t += r.guard(i, s.Pos(), re); t != "" {
				f.BeforeStmt(s, t)
			}
		case *ast.ForStmt:
			if s.Cond != nil && p.frame && p.mayPanic[i] {
				f.Insert(s.Cond.Pos(), "_augur_r.Cond(&_augur_s, "+strconv.Itoa(i)+") && _augur_r.Bool(")
				f.Add(s.Cond.End(), token.NoPos, 0, ")")
			}
			re := func(at token.Pos) string {
				if s.Cond == nil {
					return ""
				}
				return reeval(f, info, s.Cond, at)
			}
			if t := r.guard(i, s.Pos(), re(s.Pos())); t != "" {
				// The condition runs on entry, after the body falls through and after a
				// continue (the loop has no post statement). After the body's own probes and
				// closing braces at the same offset.
				var at ast.Node = s // where BeforeStmt puts the code
				for {
					l, ok := f.Parent[at].(*ast.LabeledStmt)
					if !ok {
						break
					}
					at = l
				}
				f.BeforeStmt(s, r.guard(i, s.Pos(), re(at.Pos())))
				f.Add(s.Body.Rbrace, token.NoPos, 7, "; "+r.guard(i, s.Pos(), re(s.Body.Rbrace)))
				for _, nj := range g.Nodes {
					if isContinue(nj) && len(nj.Succs) == 1 && nj.Succs[0].To == i {
						f.BeforeStmt(nj.AST.(ast.Stmt), r.guard(i, s.Pos(), re(nj.AST.Pos())))
					}
				}
			}
		case *ast.RangeStmt, *ast.SelectStmt, *ast.TypeSwitchStmt:
			if t := r.guard(i, s.Pos(), ""); t != "" {
				f.BeforeStmt(s.(ast.Stmt), t)
			}
			if t := store(i); t != "" {
				if ts, ok := s.(*ast.TypeSwitchStmt); ok && ts.Init != nil {
					if p.mayPanic[g.StmtNode[ts.Init]] {
						break // attributed to the init statement (documented imprecision)
					}
				}
				f.BeforeStmt(s.(ast.Stmt), t)
			}
		case *ast.SwitchStmt:
			cb := ""
			if p.countBefore[i] {
				cb = incAt(p.cnt(i), s.Pos())
			}
			if cb += r.guard(i, s.Pos(), ""); cb != "" {
				f.BeforeStmt(s, cb)
			}
			t := store(i)
			if t == "" {
				break
			}
			if s.Init == nil {
				f.BeforeStmt(s, t)
				break
			}
			if s.Tag == nil {
				if first := firstCaseExpr(s.Body); first != nil {
					f.Insert(first.Pos(), "_augur_r.Cond(&_augur_s, "+strconv.Itoa(i)+") && _augur_r.Bool(")
					f.Add(first.End(), token.NoPos, 0, ")")
					break
				}
			}
			if !p.mayPanic[g.StmtNode[s.Init]] {
				f.BeforeStmt(s, t)
			}
		case *ast.ReturnStmt:
			before := leave
			if p.countBefore[i] {
				before += incAt(p.cnt(i), s.Pos())
			}
			before += r.guard(i, s.Pos(), "")
			var err error
			switch {
			case p.frame && p.mayPanic[i] && len(s.Results) > 0:
				err = rewriteReturn(f, p, info, i, s, before+"_augur_s.Cur = "+strconv.Itoa(i)+"; ", ret)
			case p.doneCount[i]: // see resultsFirst
				err = rewriteReturn(f, p, info, i, s, before, incAt(p.flow(i, 0), s.Pos())+r.flushReturn(i, s.Pos(), true))
			case p.countedPan != nil && p.countedPan[i] && len(s.Results) > 0:
				// The results first: the flush adds back a panic its guard counted, so
				// it must come after the node, not between the guard and the node.
				err = rewriteReturn(f, p, info, i, s, before, r.flushReturn(i, s.Pos(), false))
			case p.frame:
				f.BeforeStmt(s, before+store(i)+ret)
			case before+r.flushReturn(i, s.Pos(), false) != "":
				f.BeforeStmt(s, before+r.flushReturn(i, s.Pos(), false))
			}
			if err != nil {
				return err
			}
		case *ast.DeferStmt:
			if !p.frame {
				break
			}
			k := deferOrdinal(g, i)
			f.BeforeStmt(s, store(i)+fmt.Sprintf("defer _augur_c.Post(&_augur_s, %s, %d); ", fd, k))
			f.Insert(s.End(), fmt.Sprintf("; defer _augur_c.Pre(&_augur_s, %s, %d)", fd, k))
		case ast.Stmt:
			if p.doneCount[i] {
				f.Add(s.End(), token.NoPos, 4, "; "+incAt(p.flow(i, 0), s.End()))
			}
			t := store(i)
			if p.countBefore[i] {
				t += incAt(p.cnt(i), s.Pos())
			}
			if br, ok := s.(*ast.BranchStmt); ok && br.Tok == token.FALLTHROUGH {
				if d, k := fallthroughTarget(f, g, br); d >= 0 && p.rawFlow[p.edge0[d]+k] {
					t += r.add(p.flow(d, k), s.Pos(), "--")
				}
			}
			_, isInit := initOf[s]
			_, isPost := postOf[s]
			if !isInit && !isPost {
				if before, after, ok := r.guardStmt(f, info, i, s); ok {
					f.BeforeStmt(s, t+before)
					if after != "" {
						f.Add(s.End(), token.NoPos, 2, after)
					}
					break
				}
			}
			t += r.guard(i, s.Pos(), "")
			if t == "" {
				break
			}
			if parent, ok := initOf[s]; ok {
				f.BeforeStmt(parent, t)
			} else if loop, ok := postOf[s]; ok {
				// The post statement runs after the body falls through or continues. (A
				// break out of a switch or select that ends the body also leads to it, but
				// through the end of the body.)
				f.Insert(loop.Body.Rbrace, "; "+t)
				post := g.StmtNode[s]
				for _, nj := range g.Nodes {
					if isContinue(nj) && len(nj.Succs) == 1 && nj.Succs[0].To == post {
						f.BeforeStmt(nj.AST.(ast.Stmt), t)
					}
				}
			} else {
				f.BeforeStmt(s, t)
			}
		}
		// Outcome counters.
		for k := range nd.Succs {
			if !p.rawFlow[p.edge0[i]+k] || p.doneCount[i] {
				continue
			}
			c := func(pos token.Pos) string { return incAt(p.flow(i, k), pos) }
			switch st := p.outcomeSite(i, k); st.kind {
			case siteAt:
				f.Insert(st.pos, c(st.pos))
			case siteElse:
				end := nd.AST.(*ast.IfStmt).Body.End()
				f.Add(end, token.NoPos, 2, " else {"+c(end)+"}")
			case siteDefault:
				end := switchBody(nd.AST).Rbrace
				f.Add(end, token.NoPos, 2, "; default: "+c(end))
			default:
				return fmt.Errorf("%s: internal error: outcome %q of %s has no counter site", nd.Pos, nd.Succs[k].Outcome, nd.Text)
			}
		}
	}
	// Calls of derived leaves, innermost at their offsets (see derive.go).
	renameSites(f, p)
	for _, s := range p.sites {
		if s.local {
			j := r.local(p.base+s.ctr, r.loopAt(s.call.Pos()))
			if m, ok := r.slot[j]; ok {
				f.Add(s.call.Pos(), token.NoPos, 9, "_augur_r.TickM(&_augur_l"+strconv.Itoa(j)+", &_augur_m["+strconv.Itoa(m)+"], ")
			} else {
				f.Add(s.call.Pos(), token.NoPos, 9, "_augur_r.Tick(&_augur_l"+strconv.Itoa(j)+", ")
			}
		} else if p.frame {
			f.Add(s.call.Pos(), token.NoPos, 9, "_augur_r.Tick(&_augur_k["+strconv.Itoa(p.slot[s.ctr])+"], ")
		} else {
			f.Add(s.call.Pos(), token.NoPos, 9, "_augur_r.TickP(_augur_c, "+strconv.Itoa(p.base+s.ctr)+", ")
		}
		f.Add(s.call.End(), token.NoPos, -1, ")")
	}
	if p.fallEnd {
		f.Add(decl.Body.Rbrace, token.NoPos, 3, "; "+inc(p.cnt(g.End)))
	}
	if leave != "" && (decl.Type.Results == nil || len(decl.Type.Results.List) == 0) {
		f.Add(decl.Body.Rbrace, token.NoPos, 3, "; "+leave)
	}
	if p.frame && (decl.Type.Results == nil || len(decl.Type.Results.List) == 0) {
		f.Add(decl.Body.Rbrace, token.NoPos, 3, "; "+ret)
	}
	return nil
}

func firstCaseExpr(body *ast.BlockStmt) ast.Expr {
	for _, c := range body.List {
		if cc, ok := c.(*ast.CaseClause); ok && len(cc.List) > 0 {
			return cc.List[0]
		}
	}
	return nil
}

// deferOrdinal is the 1-based ordinal of Defer node id among the function's defer statements.
func deferOrdinal(g *frontend.CFG, id int) int {
	for k, d := range g.Defers {
		if d == id {
			return k + 1
		}
	}
	return 0
}

// fallthroughTarget finds the switch decision and the outcome index whose clause a fallthrough
// statement enters.
func fallthroughTarget(f *fileEdits, g *frontend.CFG, br *ast.BranchStmt) (int, int) {
	cc, ok := f.Parent[br].(*ast.CaseClause)
	if !ok {
		return -1, 0
	}
	body, ok := f.Parent[cc].(*ast.BlockStmt)
	if !ok {
		return -1, 0
	}
	sw, ok := f.Parent[body].(*ast.SwitchStmt)
	if !ok {
		return -1, 0
	}
	d, ok := g.StmtNode[sw]
	if !ok || !g.Nodes[d].IsDecision() {
		return -1, 0
	}
	for j, c := range body.List {
		if c != cc || j+1 >= len(body.List) {
			continue
		}
		next := body.List[j+1].(*ast.CaseClause)
		name := frontend.CaseOutcome(j + 2)
		if next.List == nil {
			name = frontend.OutDefault
		}
		for k, e := range g.Nodes[d].Succs {
			if e.Outcome == name {
				return d, k
			}
		}
	}
	return -1, 0
}

// rewriteReturn turns "return e0, e1" whose results may panic into
// "{head var _augur_r0 T0 = e0; var _augur_r1 T1 = e1; tail return _augur_r0, _augur_r1}"
// on the same lines, so that tail runs only once the results are evaluated: with a frame, head
// sets cur and tail sets chain to "returning" (a panic while evaluating the results is charged
// to the return node); frame-free, tail counts the return's completions.
func rewriteReturn(f *fileEdits, p *funcPlan, info *types.Info, id int, s *ast.ReturnStmt, head, tail string) error {
	sig := p.fn.Sig
	if sig == nil {
		return fmt.Errorf("%s: no type information for %s", p.g.Nodes[id].Pos, p.fn.Name)
	}
	res := sig.Results()
	qual := qualifier(f.file, p.fn.Pkg.Types)
	head = "{" + head
	var names []string
	for i := 0; i < res.Len(); i++ {
		names = append(names, "_augur_r"+strconv.Itoa(i))
	}
	tail = "; " + tail + "return " + strings.Join(names, ", ") + "}"
	if len(s.Results) == 1 && res.Len() > 1 {
		f.BeforeStmt(s, head)
		f.Add(s.Return, s.Results[0].Pos(), 1, "var "+strings.Join(names, ", ")+" = ")
		f.Insert(s.End(), tail)
		return nil
	}
	if len(s.Results) != res.Len() {
		return fmt.Errorf("%s: return with %d results in a function with %d", p.g.Nodes[id].Pos, len(s.Results), res.Len())
	}
	f.BeforeStmt(s, head)
	for i, e := range s.Results {
		decl := "var " + names[i] + " " + typeText(res.At(i).Type(), qual) + " = "
		if i == 0 {
			f.Add(s.Return, e.Pos(), 1, decl)
			continue
		}
		// Replace ", " (which may span lines) keeping its newlines.
		between := string(f.Src[f.Off(s.Results[i-1].End()):f.Off(e.Pos())])
		f.Add(s.Results[i-1].End(), e.Pos(), 1, "; "+decl+strings.Repeat("\n", strings.Count(between, "\n")))
	}
	f.Insert(s.End(), tail)
	return nil
}

// universeAlias names package rt's alias of each predeclared type.
var universeAlias = map[string]string{
	"bool": "Bool", "byte": "Byte", "complex64": "Complex64", "complex128": "Complex128",
	"error": "Error", "float32": "Float32", "float64": "Float64", "int": "Int", "int8": "Int8",
	"int16": "Int16", "int32": "Int32", "int64": "Int64", "rune": "Rune", "string": "String",
	"uint": "Uint", "uint8": "Uint8", "uint16": "Uint16", "uint32": "Uint32", "uint64": "Uint64",
	"uintptr": "Uintptr", "any": "Any",
}

// typeText writes t for code inserted into the function, where the predeclared names may be
// shadowed (a package-level type int, a parameter named string): predeclared types become
// package rt's aliases. The qualifier marks the package's own names with "\x01." first, so
// that its own type int is told from the predeclared one, then the mark is dropped. (A struct
// field or parameter named like a predeclared type inside t would be renamed too.)
func typeText(t types.Type, qual types.Qualifier) string {
	text := types.TypeString(t, func(p *types.Package) string {
		if q := qual(p); q != "" {
			return q
		}
		return "\x01"
	})
	var b strings.Builder
	var s scanner.Scanner
	fset := token.NewFileSet()
	src := []byte(text)
	s.Init(fset.AddFile("", -1, len(src)), src, nil, 0)
	last, prev := 0, token.ILLEGAL
	for {
		pos, tok, lit := s.Scan()
		if tok == token.EOF {
			break
		}
		off := fset.Position(pos).Offset
		if a, ok := universeAlias[lit]; ok && tok == token.IDENT && prev != token.PERIOD {
			b.WriteString(text[last:off])
			b.WriteString("_augur_r." + a)
			last = off + len(lit)
		}
		prev = tok
	}
	b.WriteString(text[last:])
	return strings.ReplaceAll(b.String(), "\x01.", "")
}

// qualifier names packages as the file's imports do.
func qualifier(file *ast.File, self *types.Package) types.Qualifier {
	names := map[string]string{}
	for _, im := range file.Imports {
		path, _ := strconv.Unquote(im.Path.Value)
		if im.Name != nil {
			names[path] = im.Name.Name
		}
	}
	return func(p *types.Package) string {
		if p == self {
			return ""
		}
		if n, ok := names[p.Path()]; ok {
			if n == "." {
				return ""
			}
			return n
		}
		return p.Name()
	}
}

// headers maps the init statements of CFG g's if, switch and for statements to their
// statement, and the post statements of its for loops to their loop: probes for them go before
// the statement they head, or at the end of the loop's body.
func headers(g *frontend.CFG) (initOf map[ast.Stmt]ast.Stmt, postOf map[ast.Stmt]*ast.ForStmt) {
	initOf, postOf = map[ast.Stmt]ast.Stmt{}, map[ast.Stmt]*ast.ForStmt{}
	for s := range g.StmtNode {
		switch s := s.(type) {
		case *ast.IfStmt:
			if s.Init != nil {
				initOf[s.Init] = s
			}
		case *ast.SwitchStmt:
			if s.Init != nil {
				initOf[s.Init] = s
			}
		case *ast.TypeSwitchStmt:
			if s.Init != nil {
				initOf[s.Init] = s
			}
		case *ast.ForStmt:
			if s.Init != nil {
				initOf[s.Init] = s
			}
			if s.Post != nil {
				postOf[s.Post] = s
			}
		}
	}
	return initOf, postOf
}

// loops reports whether body has a loop (a for or range statement, or a goto) outside function
// literals.
func loops(body *ast.BlockStmt) bool {
	found := false
	ast.Inspect(body, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ForStmt, *ast.RangeStmt:
			found = true
		case *ast.BranchStmt:
			found = found || x.Tok == token.GOTO
		}
		return !found
	})
	return found
}
