package instrument

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/augur-perf/augur/probe/profile"
	"github.com/augur-perf/augur/source/frontend"
)

// Path counting. A twin (see twins.go) counts paths, not nodes: its probes keep a path number
// in a register (_augur_pr), add a constant to it on the outcomes of its decisions, and where the
// invocation may leave or stop for long (before a call, a channel operation; at a return; on the
// back edges of a loop nothing else cuts) add one to the counter of the path so far (one plain
// increment, in the block the goroutine holds) and start a new one. The numbering is Ball and
// Larus's (Efficient path profiling, 1996) on the function's CFG, the cuts splitting it into an
// acyclic graph: the paths from a start (the entry, a cut) to an end (a cut, a return, a panic)
// are numbered, each outcome adding the number of paths through the outcomes before it. The
// register holds the index of the path's counter in the block (the function's first path
// counter plus the number), so that a commit is one increment. Collect turns each path's count
// back into the node counts and outcomes it stands for.
//
// One increment per path, not per counter, costs less than the flush of the locals of a body
// region, needs no journal (a process that ends between two increments leaves counts that
// conserve flow: a path ends before the node it stops at, that node counted, and the path that
// would have gone on is not there, so the node counts as unwound there) and no pinning (the
// block is the goroutine's).
//
// Panics need no guard either. Right before a node that may panic (and is not a cut), the twin
// stores the index (plus one) of the counter of the path that ends with that node panicking in the
// block's spill word (counter 0; one plain store, of a constant where the path number is known when
// instrumenting); a cut clears it (whatever it calls may panic), the entry clears it when the twin
// returns, and the entry's deferred rt.Put counts the path it names when it finds it set: the twin
// unwound from that node. A return counts its path before its results are evaluated; where they may
// panic, the spill names the return's undo counter instead, which Collect subtracts from the
// returns.
//
// A function gets no twin when it cannot be path-counted: when its body is no register region (a
// goto to a loop, a range over a function or a channel), when a cut or a spill would have to go
// where no code can (a switch with an init statement and a tag, a type switch with an init
// statement), or when it has more than maxPaths paths.

// maxPaths bounds the paths of one function: the counters they need are in every block.
const maxPaths = 1 << 12

// spillClear is what a twin runs where it returns, once its results are evaluated, when a node that
// may still panic after the call calls it (a node with a cut before it: such a panic, which stores
// nothing, is where the caller's last path ended; see findTwins): the spill word is clear when it
// has returned, whatever it or its callees stored.
const spillClear = "_augur_bb[0] = 0; "

// A pathPlan numbers the paths of one function's twin.
type pathPlan struct {
	p    *funcPlan
	info *types.Info
	// np is the number of paths; their counters start at base (an index of the package's),
	// followed by one undo counter for each return in undo.
	np, base int
	// clear: the twin returns with the spill word clear (spillClear).
	clear bool
	undo  map[int]int // return node → its undo counter (offset from base)
	// cutAll marks the nodes before which every path ends (cutExpr: inside their
	// condition); cutEntry the range nodes before which paths from outside their loop end;
	// backCut the nodes at which paths from inside their loop end (the loop's head, or its
	// post statement), at the end of the loop body and before continue statements.
	cutAll, cutExpr, cutEntry, backCut []bool
	// head is, for each backCut node, the head of its loop.
	head map[int]int
	// spill marks the nodes that store their panic path in the spill word (spillExpr: inside
	// their condition).
	spill, spillExpr []bool
	// order is, per node, its outcomes in numbering order (the free one first), val their
	// values; s is per node the number of paths through its outcomes, ng that times 2 to the
	// number of its ticks (see pathticks.go), which is also the value of its panic.
	order [][]int
	val   [][]int
	s, ng []int
	// ticks are per node the derived-leaf calls that add to the path number (tick j adding
	// s·2^j); sure per node and outcome the ticks that ran for sure, dyn those that ran when
	// a condition holds; after marks the loops whose false outcome's code goes after them.
	ticks [][]*callSite
	sure  [][]int
	dyn   [][][]dynTick
	after map[int]bool
	// starts are the paths' starts, in numbering order; startOf finds a node's start after a
	// cut.
	starts  []pathStart
	startOf map[int]int
	// arr and arrNoCut are per node the path register's value when control reaches it, where
	// known (see knownValues).
	arr, arrNoCut []int
	aft           []int // per node, the register's value after its code, or -1
	// read is set when the code emitted reads the path register.
	read bool
	// constant is set when the register is known wherever it is read (see tryConstant), which
	// cuts the loops in loopCut on every edge into their heads.
	constant bool
	loopCut  map[int]bool
	// pend is per node what the path register lacks there: outcome values not yet added,
	// because nothing but the node's own subtree of the paths (no join) follows (see trees);
	// skip marks the edges (numbered as in funcPlan) whose value is pending, not added.
	pend []int
	skip map[int]bool
	// regs are the loops whose cycles (the paths from their cut back to it) are counted in
	// registers, by the node their back edges are cut at.
	regs map[int]*regLoopPaths
	// tk is set when the function needs _augur_tk, the part of the path number a cut inside
	// a condition sets.
	tk bool
	// trips are the loops counted without a path register (see tripLoop), by head; tripCut
	// marks their heads, before which every path ends.
	trips   map[int]*tripLoop
	tripCut []bool
}

// Counters 0 to 10 of a block are no function's: 0 is the spill word; 1 to 4 mirror the counts of
// the cycles of a loop held in registers (see regLoopPaths), 5 to 8 name their counters; 9 and 10
// are the ownership slot of the entry that looks for other goroutines (rt.HeldEnter). The
// functions' counters start at firstCounter.
const firstCounter = 11

// A regLoopPaths is a loop of a twin whose cycles, the paths from the cut on its back edges to it
// (at most maxCycles), are counted in registers while it runs and added to their counters where
// it is left: an increment of the same counter on every iteration is a chain of stores and
// loads that costs more than a small loop body. Cycles start and end at the same node, so
// adding some and not others (a process ending between two adds) leaves counts that conserve
// flow. The loop calls nothing and holds no other loop; where something in it may panic, each
// count is also stored (mirrored) in the block, whose entry's deferred Put adds it when the
// twin unwinds.
type regLoopPaths struct {
	x, h   int
	stmt   ast.Stmt
	cycles []int // each cycle's number (its counter's index less the function's first)
	from   []int // each cycle's last node (a continue statement, or a node falling through to the end of the body)
	mirror bool
	id     int
}

// maxCycles bounds the cycles held in registers in one loop (the mirror words).
const maxCycles = 4

// nVar is the register of cycle j of loop l.
func (l *regLoopPaths) nVar(j int) string {
	return "_augur_n" + strconv.Itoa(l.id) + "_" + strconv.Itoa(j)
}

// size is the number of counters the paths need.
func (pp *pathPlan) size() int { return pp.np + len(pp.undo) }

// A pathStart is where paths start: the function's entry (kind 0), a node after a cut before
// it (1). Its paths are numbered from val.
type pathStart struct {
	node, kind int
	np, val    int
}

// planPaths numbers the paths of p's twin, or says why it cannot.
func planPaths(p *funcPlan, info *types.Info, f *fileEdits) (*pathPlan, error) {
	src := exprSource(f.Src, f.Fset, info, p.leaves.renamed())
	if bodyRegion(p, info, src) == nil {
		return nil, fmt.Errorf("not a register region")
	}
	g := p.g
	pp := &pathPlan{p: p, info: info, cutAll: make([]bool, p.n), cutExpr: make([]bool, p.n), cutEntry: make([]bool, p.n),
		backCut: make([]bool, p.n), head: map[int]int{}, spill: make([]bool, p.n), spillExpr: make([]bool, p.n),
		startOf: map[int]int{}, undo: map[int]int{}}
	terms := make([][]string, p.n)
	for i, nd := range g.Nodes {
		if nd.AST == nil || nd.IsExit() || nd.Unreachable || nd.Kind == frontend.KindLoop {
			continue
		}
		cutHead := false
		if nd.LoopHead {
			switch nd.AST.(type) {
			case *ast.ForStmt, *ast.RangeStmt:
			default:
				cutHead = true // a goto's target: cut on every edge into it
			}
		}
		if !cutHead && !suspends(info, p.leaves, nd, false) {
			if p.mayPanic[i] {
				ts, ok := nodeGuard(info, src, p.leaves, nd.AST)
				if !ok {
					ts = []string{"?"} // may panic, somehow
				}
				terms[i] = ts
			}
			continue
		}
		switch s := nd.AST.(type) {
		case *ast.RangeStmt:
			pp.cutEntry[i] = true
		case *ast.IfStmt:
			pp.cutAll[i] = true
			pp.cutExpr[i] = s.Init != nil
		case *ast.ForStmt:
			pp.cutAll[i] = true
			pp.cutExpr[i] = s.Init != nil || s.Post != nil
		case *ast.SwitchStmt:
			pp.cutAll[i] = true
			if s.Init != nil {
				if s.Tag != nil || firstCaseExpr(s.Body) == nil {
					return nil, fmt.Errorf("%s: a cut in a switch with an init statement", nd.Pos)
				}
				pp.cutExpr[i] = true
			}
		case *ast.TypeSwitchStmt:
			if s.Init != nil {
				return nil, fmt.Errorf("%s: a cut in a type switch with an init statement", nd.Pos)
			}
			pp.cutAll[i] = true
		default:
			pp.cutAll[i] = true
		}
		pp.tk = pp.tk || pp.cutExpr[i]
	}
	// The spills: every may-panic node (those that can panic only by dereferencing a parameter
	// dereferenced before are not: see derefSafe).
	for i, ts := range terms {
		if ts == nil {
			continue
		}
		pp.spill[i] = true
		switch s := g.Nodes[i].AST.(type) {
		case *ast.IfStmt:
			pp.spillExpr[i] = s.Init != nil
		case *ast.ForStmt:
			pp.spillExpr[i] = s.Init != nil || s.Post != nil
		case *ast.SwitchStmt:
			if s.Init != nil {
				if s.Tag != nil || firstCaseExpr(s.Body) == nil {
					return nil, fmt.Errorf("%s: a spill in a switch with an init statement", g.Nodes[i].Pos)
				}
				pp.spillExpr[i] = true
			}
		case *ast.TypeSwitchStmt:
			if s.Init != nil {
				return nil, fmt.Errorf("%s: a spill in a type switch with an init statement", g.Nodes[i].Pos)
			}
		case *ast.ReturnStmt:
			pp.undo[i] = len(pp.undo)
		}
	}
	pp.planTicks(info, src)
	// The loops no cut breaks: their back edges are cut.
	for i, nd := range g.Nodes {
		if !nd.LoopHead || nd.Unreachable || pp.cutAll[i] {
			continue
		}
		x := i
		if fs, ok := nd.AST.(*ast.ForStmt); ok && fs.Post != nil {
			x = g.StmtNode[fs.Post]
			if pp.cutAll[x] {
				continue
			}
		}
		switch nd.AST.(type) {
		case *ast.ForStmt, *ast.RangeStmt:
		default:
			return nil, fmt.Errorf("%s: a loop that is no for statement", nd.Pos)
		}
		if pp.spillExpr[i] && x == i {
			// The spill of the head's condition would run before the cut.
			return nil, fmt.Errorf("%s: a spill in a loop condition with an init statement", nd.Pos)
		}
		pp.head[x] = i
		if pp.cycles(x, i) {
			pp.backCut[x] = true
		} else {
			delete(pp.head, x)
		}
	}
	pp.findTripLoops(info, src, f)
	if err := pp.number(); err != nil {
		return nil, err
	}
	pp.tripCounters()
	pp.findRegLoops()
	if inlineCost(p.fn.Decl.Body) <= 80 && len(pp.trips) == 0 {
		pp.tryConstant()
	}
	return pp, nil
}

// number numbers the paths (Ball and Larus) given the cuts: order, val, s, ng, starts, np.
func (pp *pathPlan) number() error {
	p, g := pp.p, pp.p.g
	pp.np, pp.starts, pp.startOf = 0, nil, map[int]int{}
	pp.order = make([][]int, p.n)
	pp.val = make([][]int, p.n)
	pp.s = make([]int, p.n)
	pp.ng = make([]int, p.n)
	for i, nd := range g.Nodes {
		pp.order[i] = make([]int, len(nd.Succs))
		for k := range nd.Succs {
			pp.order[i][k] = k
		}
		if nd.IsDecision() {
			free := p.freeOutcome(i)
			pp.order[i] = append([]int{free}, slices.DeleteFunc(pp.order[i], func(k int) bool { return k == free })...)
			for _, k := range pp.order[i][1:] {
				if p.outcomeSite(i, k).kind == siteNone {
					return fmt.Errorf("%s: outcome %s of %s has no site", nd.Pos, nd.Succs[k].Outcome, nd.Text)
				}
			}
		}
	}
	// Ball and Larus: the paths from each node, memoized.
	memo := map[int]int{}
	busy := map[int]bool{}
	var paths func(v int) (int, error)
	paths = func(v int) (int, error) {
		if n, ok := memo[v]; ok {
			return n, nil
		}
		if busy[v] {
			return 0, fmt.Errorf("%s: a cycle no cut breaks", g.Nodes[v].Pos)
		}
		busy[v] = true
		defer delete(busy, v)
		pp.val[v] = make([]int, len(g.Nodes[v].Succs))
		s := 0
		for _, k := range pp.order[v] {
			w := g.Nodes[v].Succs[k].To
			a := 1
			if !g.Nodes[w].IsExit() && !pp.isCut(v, w) {
				var err error
				if a, err = paths(w); err != nil {
					return 0, err
				}
			}
			pp.val[v][k] = s
			if s += a; s > maxPaths {
				return 0, fmt.Errorf("more than %d paths", maxPaths)
			}
		}
		pp.s[v] = s
		n := s << len(pp.ticks[v])
		if n > maxPaths {
			return 0, fmt.Errorf("more than %d paths", maxPaths)
		}
		pp.ng[v] = n
		if pp.spill[v] {
			n++ // the node panicking
		}
		memo[v] = n
		return n, nil
	}
	add := func(node, kind int) error {
		np := 1
		if kind != 0 || !pp.startCut(node) {
			var err error
			if np, err = paths(node); err != nil {
				return err
			}
		}
		if kind != 0 {
			pp.startOf[node] = len(pp.starts)
		}
		pp.starts = append(pp.starts, pathStart{node: node, kind: kind, np: np, val: pp.np})
		if pp.np += np; pp.np > maxPaths {
			return fmt.Errorf("more than %d paths", maxPaths)
		}
		return nil
	}
	if err := add(g.Entry, 0); err != nil {
		return err
	}
	for i, nd := range g.Nodes {
		if !nd.Unreachable && !nd.IsExit() && (pp.cutAll[i] || pp.cutEntry[i] || pp.backCut[i] || pp.tripCut[i]) {
			if err := add(i, 1); err != nil {
				return err
			}
		}
	}
	return nil
}

// tryConstant cuts the loops of a small twin on every edge into their heads, when its path
// register is then known everywhere it is read: its code then needs no register at all, only
// constant increments and stores (one more per loop run, on entering it), and small enough
// functions stay inlinable (the parser's peek).
func (pp *pathPlan) tryConstant() {
	g := pp.p.g
	save := func() func() {
		ca, ce, bc, hd := slices.Clone(pp.cutAll), slices.Clone(pp.cutEntry), slices.Clone(pp.backCut), maps.Clone(pp.head)
		return func() {
			pp.cutAll, pp.cutEntry, pp.backCut, pp.head = ca, ce, bc, hd
			pp.loopCut = nil
		}
	}
	restore := save()
	pp.loopCut = map[int]bool{}
	for x, h := range pp.head {
		if !pp.backCut[x] || x != h {
			continue
		}
		switch s := g.Nodes[h].AST.(type) {
		case *ast.ForStmt:
			if s.Init != nil || s.Post != nil || pp.spillExpr[h] {
				restore()
				return
			}
			pp.cutAll[h] = true
		case *ast.RangeStmt:
			pp.cutEntry[h] = true
		default:
			restore()
			return
		}
		pp.loopCut[h] = true
	}
	if len(pp.loopCut) == 0 || pp.tk {
		restore()
		return
	}
	for x := range pp.loopCut {
		if _, isFor := g.Nodes[x].AST.(*ast.ForStmt); isFor {
			pp.backCut[x] = false
			delete(pp.head, x)
		}
	}
	undo := func() {
		restore()
		if err := pp.number(); err != nil {
			panic("instrument: internal error: paths numbered once are not any more: " + err.Error())
		}
		pp.findRegLoops()
	}
	if err := pp.number(); err != nil {
		undo()
		return
	}
	pp.findRegLoops()
	if len(pp.regs) > 0 {
		undo()
		return
	}
	for _, d := range pp.dyn {
		for _, ds := range d {
			if len(ds) > 0 {
				undo()
				return
			}
		}
	}
	pp.knownValues()
	known := pp.allKnown()
	pp.arr, pp.arrNoCut, pp.aft = nil, nil, nil
	if !known {
		undo()
		return
	}
	pp.constant = true
}

// allKnown reports whether the register's value is known wherever code reads it: at every node
// (its spill, its commit or cut), at every place a cut loop's head is reached, where the body
// falls off its end; and whether no tick or cycle needs it.
func (pp *pathPlan) allKnown() bool {
	g := pp.p.g
	for n, nd := range g.Nodes {
		if nd.Unreachable || nd.IsExit() {
			continue
		}
		if pp.arr[n] < 0 && !pp.loopCut[n] || pp.backCut[n] {
			return false
		}
		if pp.loopCut[n] {
			for _, x := range pp.loopArrivals(n) {
				if x < 0 {
					return false
				}
			}
		}
	}
	fall := -2
	for u, nd := range g.Nodes {
		for k, e := range nd.Succs {
			if e.To == g.End && nd.Kind != frontend.KindReturn && !nd.Unreachable {
				x := pp.arrival(u, k)
				if x < 0 || fall >= 0 && x != fall {
					return false
				}
				fall = x
			}
		}
	}
	return true
}

// arrival is the path number when control takes outcome k of node u (before any code of the
// node reached), if known, else -1.
func (pp *pathPlan) arrival(u, k int) int {
	a := pp.aft[u]
	ev, dynamic := pp.edgeVal(u, k)
	if a < 0 || dynamic {
		return -1
	}
	return a + ev
}

// cutLoops are the backCut nodes (the keys of head), in order: the registers of loops are named
// after them.
func (pp *pathPlan) cutLoops() []int {
	var xs []int
	for x := range pp.head {
		if pp.backCut[x] {
			xs = append(xs, x)
		}
	}
	slices.Sort(xs)
	return xs
}

// arrivalAt is the path number where control reaches node n over the edges from the nodes keep
// accepts (the function's start too, as u = -1, when n is its entry), if they all agree and it
// is known, else -1.
func (pp *pathPlan) arrivalAt(n int, keep func(u int) bool) int {
	g := pp.p.g
	x := -2
	if n == g.Entry && keep(-1) {
		x = pp.base // the function's start
	}
	for u, nd := range g.Nodes {
		if nd.Unreachable || nd.IsExit() || !keep(u) {
			continue
		}
		for k, e := range nd.Succs {
			if e.To != n {
				continue
			}
			a := pp.arrival(u, k)
			switch {
			case a < 0 || x >= 0 && a != x:
				x = -1
			case x == -2:
				x = a
			}
		}
	}
	return max(x, -1)
}

// loopArrivals are the path numbers where the loop headed by n (a for loop without init and
// post statements) is reached: before it, at the end of its body, before each of its continue
// statements (in the order of continueNodes), each if known, else -1.
func (pp *pathPlan) loopArrivals(n int) []int {
	g := pp.p.g
	meet := func(keep func(u int) bool) int { return pp.arrivalAt(n, keep) }
	in := func(u int) bool { return u >= 0 && slices.Contains(g.Nodes[u].Loops, n) }
	out := []int{meet(func(u int) bool { return !in(u) }), meet(func(u int) bool { return in(u) && !isContinue(g.Nodes[u]) })}
	for _, j := range pp.continueNodes(n) {
		out = append(out, meet(func(u int) bool { return u == j && u >= 0 }))
	}
	return out
}

// continueNodes are the continue statements that go to node n.
func (pp *pathPlan) continueNodes(n int) []int {
	var out []int
	for j, nj := range pp.p.g.Nodes {
		if isContinue(nj) && len(nj.Succs) == 1 && nj.Succs[0].To == n {
			out = append(out, j)
		}
	}
	return out
}

// findRegLoops picks the loops whose cycles are counted in registers (see regLoopPaths).
func (pp *pathPlan) findRegLoops() {
	g := pp.p.g
	pp.regs = map[int]*regLoopPaths{}
	if pp.tk {
		return
	}
	small := inlineCost(pp.p.fn.Decl.Body) <= 80
	for _, x := range pp.cutLoops() {
		h := pp.head[x]
		stmt := g.Nodes[h].AST.(ast.Stmt)
		if fs, isFor := stmt.(*ast.ForStmt); isFor && !countingLoop(fs) && small {
			// A loop that counts (a range, or a for stepping a variable to a bound) likely
			// runs for long; other loops (scanning while a condition holds) often stop
			// after one or two iterations: in a small function, whose inlining the code
			// that holds counts in registers would prevent, their few increments cost less
			// (measured: jsonLiteral, peek and skipSpace would lose their inlining; in
			// larger functions partition's scans gain, QuickSort 1.68× -> 1.41×).
			continue
		}
		ok, mirror := true, false
		for u, nd := range g.Nodes {
			if nd.Unreachable || !within(nd.AST, stmt) {
				continue
			}
			if u != h && nd.LoopHead || pp.cutAll[u] || pp.cutEntry[u] && u != h {
				ok = false
			}
			mirror = mirror || pp.spill[u]
		}
		// Its mirror words (1-8 of the block) must hold its cycles until it is left. A call
		// in it is not a cut, so its callee cannot panic and mirrors nothing; but that rests
		// on two analyses agreeing (leafFuncs and the callee's may-panic nodes), and a
		// mirrored loop's words overwritten would be wrong counts: no call then.
		if !ok || mirror && pp.callsOut(stmt) {
			continue
		}
		// The cycles: the paths from x's start that end at x, through the loop.
		var cycles, from []int
		explored := 0
		var walk func(v, acc int)
		walk = func(v, acc int) {
			if explored++; explored > 64 || len(cycles) > maxCycles {
				ok = false
				return
			}
			for _, k := range pp.order[v] {
				w := g.Nodes[v].Succs[k].To
				ev, _ := pp.edgeVal(v, k)
				// Every combination of the ticks that may run.
				as := []int{acc + ev}
				if pp.dyn[v] != nil {
					for _, d := range pp.dyn[v][k] {
						for _, a := range as {
							as = append(as, a+pp.s[v]<<d.j)
						}
					}
				}
				for _, a := range as {
					switch {
					case g.Nodes[w].IsExit():
					case pp.isCut(v, w):
						if w == x {
							cycles, from = append(cycles, a), append(from, v)
						}
					default:
						walk(w, a)
					}
				}
			}
		}
		walk(x, 0)
		if !ok || len(cycles) == 0 || len(cycles) > maxCycles {
			continue
		}
		l := &regLoopPaths{x: x, h: h, stmt: stmt, mirror: mirror, id: len(pp.regs), from: from}
		for _, c := range cycles {
			l.cycles = append(l.cycles, pp.starts[pp.startOf[x]].val+c)
		}
		pp.regs[x] = l
	}
}

// callsOut reports whether s calls anything but builtins, conversions and derived leaves (whose
// calls are ticks: they touch no block).
func (pp *pathPlan) callsOut(s ast.Stmt) bool {
	found := false
	ast.Inspect(s, func(n ast.Node) bool {
		c, ok := n.(*ast.CallExpr)
		if found || !ok {
			return !found
		}
		if tv, ok := pp.info.Types[c.Fun]; ok && tv.IsType() {
			return true
		}
		if id, ok := ast.Unparen(c.Fun).(*ast.Ident); ok {
			if _, ok := pp.info.Uses[id].(*types.Builtin); ok {
				return true
			}
		}
		found = !slices.ContainsFunc(pp.p.sites, func(s *callSite) bool { return s.call == c })
		return !found
	})
	return found
}

// inlineCost estimates the inliner's cost of a function's body (before the probes): a unit per
// syntax node, 57 more per call of anything but a builtin or a conversion.
func inlineCost(body *ast.BlockStmt) int {
	n := 0
	ast.Inspect(body, func(x ast.Node) bool {
		if x == nil {
			return false
		}
		n++
		if c, ok := x.(*ast.CallExpr); ok {
			if id, ok := ast.Unparen(c.Fun).(*ast.Ident); !ok || !predeclaredCall[id.Name] {
				n += 57
			}
		}
		return true
	})
	return n
}

// predeclaredCall are the builtins and conversions the inliner does not charge as calls.
var predeclaredCall = map[string]bool{"len": true, "cap": true, "append": true, "copy": true, "min": true, "max": true,
	"byte": true, "int": true, "uint64": true, "string": true, "rune": true, "int64": true, "uint": true, "float64": true}

// countingLoop reports whether s steps a variable to a bound: "for v := a; v < b; v++" (any
// comparison, the variable on either side; v--, v += c, v -= c).
func countingLoop(s *ast.ForStmt) bool {
	post, ok := s.Post.(*ast.IncDecStmt)
	var v *ast.Ident
	if ok {
		v, _ = post.X.(*ast.Ident)
	} else if as, ok := s.Post.(*ast.AssignStmt); ok && len(as.Lhs) == 1 && (as.Tok == token.ADD_ASSIGN || as.Tok == token.SUB_ASSIGN) {
		v, _ = as.Lhs[0].(*ast.Ident)
	}
	if v == nil || s.Init == nil {
		return false
	}
	c, ok := s.Cond.(*ast.BinaryExpr)
	if !ok {
		return false
	}
	switch c.Op {
	case token.LSS, token.LEQ, token.GTR, token.GEQ, token.NEQ:
	default:
		return false
	}
	is := func(e ast.Expr) bool {
		id, ok := ast.Unparen(e).(*ast.Ident)
		return ok && id.Name == v.Name
	}
	return is(c.X) || is(c.Y)
}

// within reports whether node n is (in) statement s.
func within(n ast.Node, s ast.Stmt) bool {
	return n != nil && s.Pos() <= n.Pos() && n.End() <= s.End()
}

// flushText is the code that adds the counts of loop l's cycles to their counters, and zeroes
// them if reset (if the loop may run again: not before a return).
func (pp *pathPlan) flushText(l *regLoopPaths, reset bool) string {
	t := ""
	for j, c := range l.cycles {
		t += "_augur_bb[" + strconv.Itoa(pp.base+c) + "] += " + l.nVar(j) + "; "
		if reset {
			t += l.nVar(j) + " = 0; "
		}
		if l.mirror {
			t += "_augur_bb[" + strconv.Itoa(1+j) + "] = 0; "
		}
	}
	return t
}

// fixedParams are the names of fn's parameters (and receiver) that no statement assigns or
// takes the address of.
func fixedParams(info *types.Info, d *ast.FuncDecl) map[string]bool {
	fixed := map[string]bool{}
	for _, fl := range []*ast.FieldList{d.Recv, d.Type.Params} {
		if fl == nil {
			continue
		}
		for _, f := range fl.List {
			for _, id := range f.Names {
				fixed[id.Name] = true
			}
		}
	}
	assignedIdents(d.Body, func(id *ast.Ident) { delete(fixed, id.Name) })
	ast.Inspect(d.Body, func(n ast.Node) bool {
		if x, ok := n.(*ast.Ident); ok {
			// A parameter shadowed anywhere: its name means something else there.
			if obj, ok := info.Defs[x]; ok && obj != nil {
				if _, isVar := obj.(*types.Var); isVar && fixed[x.Name] {
					if v := obj.(*types.Var); !v.IsField() && v.Parent() != nil && v.Parent() != info.Scopes[d.Type] {
						delete(fixed, x.Name)
					}
				}
			}
		}
		return true
	})
	return fixed
}

// assignedIdents calls f with every identifier that body assigns (=, :=, op=, ++, --, a range with
// =) or takes the address of.
func assignedIdents(body ast.Node, f func(*ast.Ident)) {
	id := func(e ast.Expr) {
		if x, ok := ast.Unparen(e).(*ast.Ident); ok {
			f(x)
		}
	}
	ast.Inspect(body, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.AssignStmt:
			for _, e := range x.Lhs {
				id(e)
			}
		case *ast.IncDecStmt:
			id(x.X)
		case *ast.RangeStmt:
			if x.Tok == token.ASSIGN {
				id(x.Key)
				id(x.Value)
			}
		case *ast.UnaryExpr:
			if x.Op == token.AND {
				id(x.X)
			}
		}
		return true
	})
}

// availDerefs returns, per node, the nil terms (of derefs) that every path from the entry has
// passed a node dereferencing unconditionally, or an outcome of a decision that compared the
// term's operand with nil (edge(u, k): those of node u's outcome k): they are false when the node
// runs.
func availDerefs(g *frontend.CFG, derefs [][]string, edge func(u, k int) []string) []map[string]bool {
	n := len(g.Nodes)
	all := map[string]bool{}
	for _, ts := range derefs {
		for _, t := range ts {
			all[t] = true
		}
	}
	for u, nd := range g.Nodes {
		for k := range nd.Succs {
			for _, t := range edge(u, k) {
				all[t] = true
			}
		}
	}
	in := make([]map[string]bool, n)
	for i := range in {
		in[i] = map[string]bool{}
		if i != g.Entry {
			for t := range all {
				in[i][t] = true
			}
		}
	}
	preds := g.Preds()
	for changed := true; changed; {
		changed = false
		for v := range g.Nodes {
			if v == g.Entry {
				continue
			}
			meet := map[string]bool{}
			first := true
			for _, u := range preds[v] {
				if g.Nodes[u].Unreachable {
					continue
				}
				for k, e := range g.Nodes[u].Succs {
					if e.To != v {
						continue
					}
					out := map[string]bool{}
					for t := range in[u] {
						out[t] = true
					}
					for _, t := range derefs[u] {
						out[t] = true
					}
					for _, t := range edge(u, k) {
						out[t] = true
					}
					if first {
						meet, first = out, false
						continue
					}
					for t := range meet {
						if !out[t] {
							delete(meet, t)
						}
					}
				}
			}
			if len(meet) != len(in[v]) {
				in[v] = meet
				changed = true
			}
		}
	}
	return in
}

// edgeVal is what taking outcome k of node u adds to the path number for sure (the outcome's
// value and the ticks it implies); dynamic reports ticks that add more when a condition holds.
func (pp *pathPlan) edgeVal(u, k int) (v int, dynamic bool) {
	v = pp.val[u][k]
	if pp.sure[u] != nil {
		v += pp.s[u] * pp.sure[u][k]
		dynamic = len(pp.dyn[u][k]) > 0
	}
	return v, dynamic
}

// isCut reports whether the edge from u to w ends a path.
func (pp *pathPlan) isCut(u, w int) bool {
	switch {
	case pp.cutAll[w], pp.tripCut[w]:
		return true
	case pp.cutEntry[w]:
		return !slices.Contains(pp.p.g.Nodes[u].Loops, w)
	case pp.backCut[w]:
		return slices.Contains(pp.p.g.Nodes[u].Loops, pp.head[w])
	}
	return false
}

// cycles reports whether a path leads from x back to x (x is h, the head of a loop, or its post
// statement) through the loop without passing a cut.
func (pp *pathPlan) cycles(x, h int) bool {
	g := pp.p.g
	seen := map[int]bool{}
	var walk func(v int) bool
	walk = func(v int) bool {
		for _, e := range g.Nodes[v].Succs {
			w := e.To
			if w == x {
				return true
			}
			if seen[w] || g.Nodes[w].IsExit() || pp.cutAll[w] || pp.cutEntry[w] && !slices.Contains(g.Nodes[v].Loops, w) ||
				!slices.Contains(g.Nodes[w].Loops, h) {
				continue
			}
			seen[w] = true
			if walk(w) {
				return true
			}
		}
		return false
	}
	return walk(x)
}

// start is the path register's value at the start after a cut before node n.
func (pp *pathPlan) start(n int) int {
	return pp.base + pp.starts[pp.startOf[n]].val
}

// knownValues works out, per node, the path register's value when control reaches it (arr:
// over every edge into it; arrNoCut: over the edges that do not end a path there), where the
// same on every path; -1 elsewhere.
func (pp *pathPlan) knownValues() {
	g := pp.p.g
	const unset, unknown = -2, -1
	all, nocut := make([]int, pp.p.n), make([]int, pp.p.n)
	for i := range all {
		all[i], nocut[i] = unset, unset
	}
	all[g.Entry], nocut[g.Entry] = pp.base, pp.base
	meet := func(a, b int) int {
		switch {
		case a == unset:
			return b
		case b == unset || a == b:
			return a
		}
		return unknown
	}
	// after is the register's value after u's own code (a cut before it starts a path).
	after := func(u int) int {
		switch {
		case pp.cutAll[u], pp.tripCut[u]:
			return pp.start(u)
		case pp.cutEntry[u] || pp.backCut[u]:
			return meet(pp.start(u), nocut[u])
		}
		return all[u]
	}
	for changed := true; changed; {
		changed = false
		for u, nd := range g.Nodes {
			if nd.IsExit() || nd.Unreachable {
				continue
			}
			a := after(u)
			if a == unset {
				continue
			}
			for k, e := range nd.Succs {
				w := e.To
				if g.Nodes[w].IsExit() {
					continue
				}
				x := a
				ev, dynamic := pp.edgeVal(u, k)
				if dynamic {
					x = unknown
				}
				if x >= 0 {
					x += ev
				}
				if nv := meet(all[w], x); nv != all[w] {
					all[w] = nv
					changed = true
				}
				if !pp.isCut(u, w) {
					if nv := meet(nocut[w], x); nv != nocut[w] {
						nocut[w] = nv
						changed = true
					}
				}
			}
		}
	}
	pp.aft = make([]int, pp.p.n)
	for i := range all {
		pp.aft[i] = max(after(i), unknown)
	}
	for i := range all {
		all[i], nocut[i] = max(all[i], unknown), max(nocut[i], unknown)
	}
	pp.arr, pp.arrNoCut = all, nocut
}

// reg is the path register's value, a constant where known (x: one of arr, arrNoCut).
func reg(x int) string {
	if x >= 0 {
		return strconv.Itoa(x)
	}
	return "_augur_pr"
}

// regAt is the path number at node n (x: its value where known, -1 if not): the register plus
// what is pending there.
func (pp *pathPlan) regAt(n, x int) string {
	if x >= 0 {
		return strconv.Itoa(x)
	}
	return plus("_augur_pr", pp.pend[n])
}

// plus is "r+k".
func plus(r string, k int) string {
	switch {
	case k > 0:
		return r + "+" + strconv.Itoa(k)
	case k < 0:
		return r + "-" + strconv.Itoa(-k)
	}
	return r
}

// trees finds the outcomes whose value need not be added to the register where they are taken:
// those into a node that no other edge reaches and from which no path reaches another such
// join before it ends (a return, a cut whose code only this path runs): the value stays pending
// (pend) and is added to the constant of the code that reads the register (a commit, a spill).
// An addition less is an instruction less, and code less keeps small functions inlinable.
func (pp *pathPlan) trees() {
	g := pp.p.g
	pp.pend = make([]int, pp.p.n)
	pp.skip = map[int]bool{}
	if pp.tk {
		return
	}
	in := make([]int, pp.p.n)
	in[g.Entry]++         // the function's start reaches it too (a loop at the top of the body)
	fallOff := 0          // edges that fall off the end of the body into End
	body := map[int]int{} // per back-cut node, the cut edges into it from the end of the body
	for u, nd := range g.Nodes {
		if nd.Unreachable || nd.IsExit() {
			continue
		}
		for _, e := range nd.Succs {
			in[e.To]++
			if e.To == g.End && nd.Kind != frontend.KindReturn {
				fallOff++
			}
			if pp.backCut[e.To] && pp.isCut(u, e.To) && !isContinue(nd) {
				body[e.To]++
			}
		}
	}
	// leaf: a path ending on the edge from u to w runs code that only it runs.
	leaf := func(u, w int) bool {
		switch {
		case w == g.Panic:
			return true
		case w == g.End:
			return g.Nodes[u].Kind == frontend.KindReturn || fallOff == 1
		case pp.tripCut[w]:
			return false
		case pp.cutAll[w] || pp.cutEntry[w] && !pp.backCut[w]:
			return in[w] == 1
		case pp.backCut[w]:
			return isContinue(g.Nodes[u]) || body[w] == 1 && !pp.cutEntry[w]
		}
		return false
	}
	memo := map[int]bool{}
	var tree func(w int) bool
	tree = func(w int) bool {
		if v, ok := memo[w]; ok {
			return v
		}
		memo[w] = false
		nd := g.Nodes[w]
		if in[w] != 1 || nd.IsExit() || nd.Unreachable || pp.cutAll[w] || pp.cutEntry[w] || pp.backCut[w] || pp.tripCut[w] {
			return false
		}
		for _, e := range nd.Succs {
			if g.Nodes[e.To].IsExit() || pp.isCut(w, e.To) {
				if !leaf(w, e.To) {
					return false
				}
			} else if !tree(e.To) {
				return false
			}
		}
		memo[w] = true
		return true
	}
	// Top-down from the roots: a node's pend is its parent's plus the outcome's value (a cut's
	// pend is for its commit: after it, the register starts afresh).
	var set func(u int)
	set = func(u int) {
		for k, e := range g.Nodes[u].Succs {
			w := e.To
			switch {
			case g.Nodes[w].IsExit():
			case pp.isCut(u, w):
				// A cut that only this edge reaches adds what is pending to its commit.
				if ev, dynamic := pp.edgeVal(u, k); (pp.cutAll[w] || pp.cutEntry[w] && !pp.backCut[w]) && in[w] == 1 && !dynamic {
					pp.skip[pp.p.edge0[u]+k] = true
					pp.pend[w] = pp.pendAfter(u) + ev
				}
			case tree(w):
				ev, dynamic := pp.edgeVal(u, k)
				if dynamic {
					continue
				}
				pp.skip[pp.p.edge0[u]+k] = true
				pp.pend[w] = pp.pendAfter(u) + ev
				set(w)
			}
		}
	}
	for u, nd := range g.Nodes {
		if !nd.Unreachable && !nd.IsExit() && !tree(u) {
			set(u)
		}
	}
}

// pendAfter is what is pending after node u's own code: nothing after a cut, which starts the
// register afresh.
func (pp *pathPlan) pendAfter(u int) int {
	if pp.cutAll[u] || pp.cutEntry[u] || pp.backCut[u] || pp.tripCut[u] {
		return 0
	}
	return pp.pend[u]
}

// isContinue reports whether nd is a continue statement.
func isContinue(nd *frontend.Node) bool {
	br, ok := nd.AST.(*ast.BranchStmt)
	return ok && br.Tok == token.CONTINUE
}

// reads notes the code t emitted, which may read the path register.
func (pp *pathPlan) reads(t string) string {
	for _, r := range []string{"_augur_pr]", "_augur_pr+", "-_augur_pr", "_augur_pr,"} {
		if strings.Contains(t, r) {
			pp.read = true
		}
	}
	return t
}

// commit is the code that counts the path whose counter's index reg is: the register's value
// (an expression of _augur_pr), to which a cut inside a condition may have left the rest in
// _augur_tk, or a constant, the whole path number.
func (pp *pathPlan) commit(reg string) string {
	if _, err := strconv.Atoi(reg); err != nil && pp.tk {
		reg += "+_augur_tk"
	}
	return "_augur_bb[" + reg + "] += 1; "
}

// restart is the code that starts the paths from node n after a cut.
func (pp *pathPlan) restart(n int) string {
	if pp.constant {
		return ""
	}
	t := "_augur_pr = " + strconv.Itoa(pp.start(n)) + "; "
	if pp.tk {
		t += "_augur_tk = 0; "
	}
	return t
}

// quiet reports whether the twin never stores the spill word: nothing in it may panic (no spill)
// and its only cuts are those of loops that keep the register constant (which call nothing and
// leave the spill as it is).
func (pp *pathPlan) quiet() bool {
	for i := range pp.p.g.Nodes {
		if pp.spill[i] || (pp.cutAll[i] || pp.cutEntry[i]) && !pp.loopCut[i] {
			return false
		}
	}
	return true
}

// cutText is the code of a cut before node n: the path ends, the spill is cleared (n may call
// what panics), the next starts.
func (pp *pathPlan) cutText(n int) string { return pp.cutTextAt(n, pp.arr[n]) }

// cutTextAt is cutText where the register is known to be x (-1: not known). A loop's head cut
// only to keep the register constant (loopCut) calls nothing: the spill stays.
func (pp *pathPlan) cutTextAt(n, x int) string {
	t := pp.commit(pp.regAt(n, x))
	if !pp.loopCut[n] {
		t += "_augur_bb[0] = 0; "
	}
	return t + pp.restart(n)
}

// backText is the code of a cut on the back edges into node n, at the end of the loop's body
// (jump -1) or before the continue statement jump: the path ends, the next starts (with n's
// spill, the register being known).
func (pp *pathPlan) backText(n, jump int) string {
	// What is pending where the paths arrive (trees lets only one arrive here if any is).
	pend := 0
	if jump >= 0 {
		pend = pp.pendAfter(jump)
	} else {
		for u, nd := range pp.p.g.Nodes {
			if !nd.Unreachable && !isContinue(nd) && pp.pendAfter(u) != 0 {
				for _, e := range nd.Succs {
					if e.To == n && pp.isCut(u, n) {
						pend = pp.pendAfter(u)
					}
				}
			}
		}
	}
	r := plus("_augur_pr", pend)
	t := pp.commit(r)
	if l := pp.regs[n]; l != nil {
		// A cycle counts in its register (mirrored); the first iteration's path, which
		// started before the loop, in its counter.
		t = ""
		for j, c := range l.cycles {
			if _, isJump := pp.p.g.Nodes[l.from[j]].AST.(*ast.BranchStmt); isJump && l.from[j] != jump || !isJump && jump >= 0 {
				continue // a cycle that does not end here
			}
			t += "if _augur_pr == " + strconv.Itoa(pp.base+c-pend) + " {" + l.nVar(j) + "++"
			if l.mirror {
				t += "; _augur_bb[" + strconv.Itoa(1+j) + "] = " + l.nVar(j)
			}
			t += "} else "
		}
		t += "{" + strings.TrimSuffix(pp.commit(r), "; ") + "}; "
	}
	t += pp.restart(n)
	if pp.spill[n] {
		t += "_augur_bb[0] = " + pp.spillValue(n, pp.start(n)) + "; "
	}
	return t
}

// spillValue is the value node n's spill stores (the index of its panic's counter, plus one),
// the path register holding x (-1: not known).
func (pp *pathPlan) spillValue(n, x int) string {
	if u, ok := pp.undo[n]; ok {
		return strconv.Itoa(pp.base + pp.np + u + 1)
	}
	v := pp.ng[n] + 1
	if x >= 0 && !pp.tk {
		return strconv.Itoa(x + v)
	}
	r := "_augur_pr"
	if pp.tk {
		r += "+_augur_tk"
	}
	return plus(r, v+pp.pend[n])
}

// rewritePath adds the probes of p's twin, counting paths (pp), to the file's edits.
func rewritePath(f *fileEdits, p *funcPlan, pp *pathPlan, info *types.Info) error {
	f.Parents(p.fn.Decl.Body)
	g, decl := p.g, p.fn.Decl
	if pp.arr == nil {
		pp.knownValues()
		pp.trees()
	}
	pro := ""
	if pp.tk {
		pro += "var _augur_tk _augur_r.Uint64; "
	}
	leave := ""
	if !slices.Contains(p.mayPanic, true) && inlineCost(p.fn.Decl.Body) > 80 {
		// One invocation in 16, by a random draw, looks for another goroutine in the function
		// (a function that may panic could leave a stale owner: it does not look): a twin has
		// no invocation counter whose commits could reopen a look window (see rt.Shut), and
		// one this large costs more than the draw. A small twin does not look either: the
		// calls would stop its inlining.
		pro += fmt.Sprintf("var _augur_o _augur_r.Uintptr; if _augur_r.Rand()&15 == 0 {_augur_o = _augur_c.Enter(%d, %d)}; ", p.k, p.overlaps())
		leave = fmt.Sprintf("if _augur_o != 0 {_augur_c.Leave(%d, _augur_o)}; ", p.k)
	}
	// A twin some node calls that may panic after it returns clears the spill word (see
	// spillClear) where it returns.
	clear := ""
	if pp.clear {
		clear = spillClear
	}
	initOf, postOf := headers(g)
	// continues puts t before the continue statements that go to node n.
	continues := func(n int, t string) {
		for _, nj := range g.Nodes {
			if nj.Kind == frontend.KindJump && len(nj.Succs) == 1 && nj.Succs[0].To == n {
				if br, ok := nj.AST.(*ast.BranchStmt); ok && br.Tok == token.CONTINUE {
					f.BeforeStmt(br, pp.reads(t))
				}
			}
		}
	}
	loopBody := func(n int) *ast.BlockStmt {
		switch s := g.Nodes[n].AST.(type) {
		case *ast.ForStmt:
			return s.Body
		case *ast.RangeStmt:
			return s.Body
		}
		return nil
	}
	// The loops counting their cycles in registers: their registers, the mirror words'
	// counters (before the loop), the flushes where the loop is left (after it, before a
	// return in it, before a jump out of it to an outer loop).
	ids := make([]int, 0, len(pp.regs))
	for x := range pp.regs {
		ids = append(ids, x)
	}
	slices.Sort(ids)
	for _, x := range ids {
		l := pp.regs[x]
		for j := range l.cycles {
			pro += "var " + l.nVar(j) + " _augur_r.Uint64; "
		}
		if l.mirror {
			t := ""
			for j, c := range l.cycles {
				t += "_augur_bb[" + strconv.Itoa(5+j) + "] = " + strconv.Itoa(pp.base+c) + "; "
			}
			f.BeforeStmt(l.stmt, t)
		}
		flush := pp.flushText(l, true)
		// After the loop, its registers need zeroing only if an outer loop may run it again.
		f.Add(l.stmt.End(), token.NoPos, 5, "; "+pp.flushText(l, len(g.Nodes[l.h].Loops) > 1))
		after := -1 // the node after the loop
		for _, e := range g.Nodes[l.h].Succs {
			if !slices.Contains(g.Nodes[e.To].Loops, l.h) {
				after = e.To
			}
		}
		for _, nd := range g.Nodes {
			if nd.Unreachable || !within(nd.AST, l.stmt) {
				continue
			}
			switch s := nd.AST.(type) {
			case *ast.ReturnStmt:
				f.BeforeStmt(s, pp.flushText(l, false))
			case *ast.BranchStmt:
				if len(nd.Succs) == 1 {
					w := nd.Succs[0].To
					if w != after && !within(g.Nodes[w].AST, l.stmt) {
						f.BeforeStmt(s, flush)
					}
				}
			}
		}
	}
	// The loops counted without a path register (see tripLoop).
	for _, h := range slices.Sorted(maps.Keys(pp.trips)) {
		if err := pp.rewriteTrip(f, pp.trips[h], &pro, initOf); err != nil {
			return err
		}
	}
	// exprOpen opens the cut or the spill of node i made inside its condition (from pos to end).
	exprOpen := func(i int, pos, end token.Pos) {
		if pp.cutExpr[i] {
			f.Insert(pos, pp.reads(fmt.Sprintf("_augur_cx(_augur_bb, &_augur_tk, _augur_pr, %d-_augur_pr) && _augur_r.Bool(", pp.start(i))))
		} else {
			f.Insert(pos, pp.reads("_augur_spx(_augur_bb, "+pp.spillValue(i, pp.arr[i])+") && _augur_r.Bool("))
		}
		f.Add(end, token.NoPos, 0, pp.reads(")"))
	}
	for i, nd := range g.Nodes {
		if nd.IsExit() || nd.Unreachable || nd.AST == nil {
			continue
		}
		if tl := pp.tripOf(i); tl != nil {
			if err := pp.rewriteTripNode(f, tl, i, initOf); err != nil {
				return err
			}
			continue
		}
		if pp.backCut[i] {
			body := loopBody(pp.head[i])
			if body == nil {
				return fmt.Errorf("%s: internal error: a cut loop without a body", nd.Pos)
			}
			f.Add(body.Rbrace, token.NoPos, 6, pp.reads("; "+pp.backText(i, -1)))
			for j, nj := range g.Nodes {
				if nj.Kind == frontend.KindJump && len(nj.Succs) == 1 && nj.Succs[0].To == i {
					if br, ok := nj.AST.(*ast.BranchStmt); ok && br.Tok == token.CONTINUE {
						f.BeforeStmt(br, pp.reads(pp.backText(i, j)))
					}
				}
			}
		}
		code := ""
		if pp.cutAll[i] && !pp.cutExpr[i] {
			code = pp.cutText(i)
		}
		if pp.spill[i] && !pp.spillExpr[i] {
			x := pp.arr[i]
			if pp.backCut[i] {
				x = pp.arrNoCut[i] // before the loop; after the cut, see backText
			}
			code += "_augur_bb[0] = " + pp.spillValue(i, x) + "; "
		}
		switch s := nd.AST.(type) {
		case *ast.IfStmt:
			if pp.cutExpr[i] || pp.spillExpr[i] {
				exprOpen(i, s.Cond.Pos(), s.Cond.End())
			}
			if code != "" {
				f.BeforeStmt(s, pp.reads(code))
			}
		case *ast.ForStmt:
			if pp.cutExpr[i] || pp.spillExpr[i] {
				exprOpen(i, s.Cond.Pos(), s.Cond.End())
			}
			if pp.cutAll[i] && !pp.cutExpr[i] {
				// Before the loop, after the body falls through and before its continues
				// (the condition runs at each; the loop has no init and post statement),
				// each with what the register holds there.
				xs := pp.loopArrivals(i)
				spill := func(string) string { return "" }
				if pp.spill[i] {
					spill = func(string) string {
						return "_augur_bb[0] = " + pp.spillValue(i, pp.start(i)) + "; "
					}
				}
				f.BeforeStmt(s, pp.reads(pp.cutTextAt(i, xs[0])+spill("")))
				f.Add(s.Body.Rbrace, token.NoPos, 7, pp.reads("; "+pp.cutTextAt(i, xs[1])+spill("")))
				for c, j := range pp.continueNodes(i) {
					f.BeforeStmt(g.Nodes[j].AST.(ast.Stmt), pp.reads(pp.cutTextAt(i, xs[2+c])+spill("")))
				}
			} else if code != "" {
				f.BeforeStmt(s, pp.reads(code))
				if !pp.backCut[i] {
					f.Add(s.Body.Rbrace, token.NoPos, 7, pp.reads("; "+code))
					continues(i, code)
				}
			}
		case *ast.RangeStmt:
			if pp.cutEntry[i] {
				code = pp.cutText(i)
				if pp.spill[i] {
					code += "_augur_bb[0] = " + pp.spillValue(i, pp.start(i)) + "; "
				}
			}
			if code != "" {
				f.BeforeStmt(s, pp.reads(code))
			}
		case *ast.SwitchStmt:
			if pp.cutExpr[i] || pp.spillExpr[i] {
				first := firstCaseExpr(s.Body)
				exprOpen(i, first.Pos(), first.End())
			}
			if code != "" {
				f.BeforeStmt(s, pp.reads(code))
			}
		case *ast.TypeSwitchStmt, *ast.SelectStmt:
			if code != "" {
				f.BeforeStmt(s.(ast.Stmt), pp.reads(code))
			}
		case *ast.ReturnStmt:
			if pp.cutAll[i] {
				// The path so far ends before the results, the one from the return
				// after them (the return completed): a constant, nothing being chosen
				// in between.
				if err := rewriteReturn(f, p, info, i, s, pp.reads(leave+code), pp.reads(pp.commit(strconv.Itoa(pp.start(i)))+clear)); err != nil {
					return err
				}
				break
			}
			if pp.spill[i] && clear != "" {
				// Results that may panic (the spill names the undo counter): the
				// spill is cleared once they are evaluated.
				if err := rewriteReturn(f, p, info, i, s, pp.reads(leave+code+pp.commit(pp.regAt(i, pp.arr[i]))), clear); err != nil {
					return err
				}
				break
			}
			f.BeforeStmt(s, pp.reads(leave+code+pp.commit(pp.regAt(i, pp.arr[i]))+clear))
		case ast.Stmt:
			if br, ok := s.(*ast.BranchStmt); ok && br.Tok == token.FALLTHROUGH {
				if d, k := fallthroughTarget(f, g, br); d >= 0 && pp.val[d][k] != 0 && !pp.constant {
					code += "_augur_pr -= " + strconv.Itoa(pp.val[d][k]) + "; "
				}
			}
			if code == "" {
				break
			}
			if parent, ok := initOf[s]; ok {
				f.BeforeStmt(parent, pp.reads(code))
			} else if loop, ok := postOf[s]; ok {
				if !pp.backCut[i] {
					f.Add(loop.Body.Rbrace, token.NoPos, 7, pp.reads("; "+code))
					continues(i, code)
				}
			} else {
				f.BeforeStmt(s, pp.reads(code))
			}
		}
		// The outcomes' values (with the ticks they imply, and those that ran when a condition
		// holds).
		for k, e := range nd.Succs {
			v, dynamic := pp.edgeVal(i, k)
			if dynamic && !pp.backCut[e.To] && !g.Nodes[e.To].IsExit() {
				// What is pending stops at an edge whose value is not known before it runs
				// (see trees): the register takes it here. (Into a back cut, the cut's code
				// adds it.)
				v += pp.pendAfter(i)
			}
			c := ""
			if v != 0 {
				c = "_augur_pr += " + strconv.Itoa(v) + "; "
			}
			if pp.dyn[i] != nil {
				for _, d := range pp.dyn[i][k] {
					c += "if " + d.cond + " {_augur_pr += " + strconv.Itoa(pp.s[i]<<d.j) + "}; "
				}
			}
			if c == "" || pp.skip[p.edge0[i]+k] || pp.constant {
				continue
			}
			st := p.outcomeSite(i, k)
			if st.kind == siteNone && pp.after[i] {
				// A loop's false outcome: after the loop, which no break leaves.
				f.Add(nd.AST.(*ast.ForStmt).End(), token.NoPos, 4, pp.reads("; "+c))
				continue
			}
			switch st.kind {
			case siteAt:
				f.Add(st.pos, token.NoPos, 0, pp.reads(c))
			case siteElse:
				f.Add(nd.AST.(*ast.IfStmt).Body.End(), token.NoPos, 2, pp.reads(" else {"+c+"}"))
			case siteDefault:
				f.Add(switchBody(nd.AST).Rbrace, token.NoPos, 2, pp.reads("; default: "+c))
			default:
				return fmt.Errorf("%s: internal error: outcome %q of %s has no site", nd.Pos, nd.Succs[k].Outcome, nd.Text)
			}
		}
	}
	// The calls of derived leaves that are no ticks of the paths: an increment of their site's
	// counter each.
	ticked := map[*callSite]bool{}
	for _, ts := range pp.ticks {
		for _, s := range ts {
			ticked[s] = true
		}
	}
	renameSites(f, p)
	for _, s := range p.sites {
		if ticked[s] {
			continue
		}
		f.Add(s.call.Pos(), token.NoPos, 9, pp.reads("_augur_r.Tick(&_augur_bb["+strconv.Itoa(p.base+s.ctr)+"], "))
		f.Add(s.call.End(), token.NoPos, -1, pp.reads(")"))
	}
	if t := decl.Type.Results; t == nil || len(t.List) == 0 {
		pend := 0 // of the one edge that falls off the end, if any is pending
		for u, nd := range g.Nodes {
			for _, e := range nd.Succs {
				if e.To == g.End && nd.Kind != frontend.KindReturn && !nd.Unreachable {
					pend = max(pend, pp.pendAfter(u))
				}
			}
		}
		r := plus("_augur_pr", pend)
		if pp.constant {
			for u, nd := range g.Nodes {
				for k, e := range nd.Succs {
					if e.To == g.End && nd.Kind != frontend.KindReturn && !nd.Unreachable {
						r = strconv.Itoa(pp.arrival(u, k))
					}
				}
			}
		}
		f.Add(decl.Body.Rbrace, token.NoPos, 3, pp.reads("; "+pp.commit(r)+leave+clear))
	}
	if !pp.constant {
		pro = "var _augur_pr _augur_r.Uint64 = " + strconv.Itoa(pp.base) + "; " + pro
		if !pp.read {
			pro += "_ = _augur_pr; " // only assigned: its values were all known
		}
	}
	// Before everything at the same offset (the first statement's code).
	f.Add(decl.Body.Lbrace+1, token.NoPos, -5, pp.reads(pro))
	return nil
}

// pathTotals are what one function's paths add up to: invocations, node counts and outcome
// flows (edges numbered as in funcPlan).
type pathTotals struct {
	inv   uint64
	count []uint64
	flow  []uint64
	ticks map[*callSite]uint64
}

// startCut reports whether the function's first node, n, cuts the path from its start, which is
// then the empty one: a node that cuts every path, and one that cuts those from outside its loop
// (a range calling in its expression, a counted loop's head), for the start is outside every loop.
func (pp *pathPlan) startCut(n int) bool {
	return pp.cutAll[n] || pp.cutEntry[n] || pp.tripCut[n]
}

// decode turns the paths' counters (in c, the package's counters) into the counts they stand
// for.
func (pp *pathPlan) decode(c []uint64) (*pathTotals, error) {
	p, g := pp.p, pp.p.g
	t := &pathTotals{count: make([]uint64, p.n), flow: make([]uint64, p.e), ticks: map[*callSite]uint64{}}
	for id := 0; id < pp.np; id++ {
		n := c[pp.base+id]
		if n == 0 {
			continue
		}
		j := len(pp.starts) - 1
		for pp.starts[j].val > id {
			j--
		}
		st := pp.starts[j]
		rem := id - st.val
		v := st.node
		if st.kind == 0 {
			t.inv += n
			t.count[v] += n
			if pp.startCut(v) {
				continue
			}
		}
		for {
			if rem == pp.ng[v] && pp.spill[v] {
				break // it panicked
			}
			if rem >= pp.ng[v] {
				return nil, fmt.Errorf("internal error: path %d of %s out of range at node %d", id, p.fn.Name, v)
			}
			mask := rem / pp.s[v]
			rem %= pp.s[v]
			for j, site := range pp.ticks[v] {
				if mask>>j&1 != 0 {
					t.ticks[site] += n
				}
			}
			k := -1
			for _, kk := range pp.order[v] {
				if pp.val[v][kk] <= rem {
					k = kk
				}
			}
			rem -= pp.val[v][k]
			t.flow[p.edge0[v]+k] += n
			w := g.Nodes[v].Succs[k].To
			if g.Nodes[w].IsExit() {
				break
			}
			t.count[w] += n
			if pp.isCut(v, w) {
				break
			}
			v = w
		}
	}
	// Returns that counted their path, then panicked evaluating their results.
	for r, u := range pp.undo {
		n := c[pp.base+pp.np+u]
		e := p.edge0[r]
		if n > t.flow[e] {
			return nil, fmt.Errorf("%s: %s: %d returns undone of %d", g.Nodes[r].Pos, p.fn.Name, n, t.flow[e])
		}
		t.flow[e] -= n
	}
	return t, nil
}

// addPaths adds the counts of the paths (t) to f, the profile of p's function: node counts,
// outcomes, and the panics and exits they imply (a node's count beyond its outflow unwound
// there; an explicit panic or exit leaves through its own edge). It reports counts that do not
// conserve flow.
func (p *funcPlan) addPaths(f *profile.Func, t *pathTotals) error {
	g := p.g
	f.Invocations += t.inv
	for i, nd := range g.Nodes {
		if nd.IsExit() {
			continue
		}
		out := uint64(0)
		for k := range nd.Succs {
			out += t.flow[p.edge0[i]+k]
		}
		if out > t.count[i] {
			return fmt.Errorf("%s: node %d (%s, %s): %d paths leave it, %d reach it", p.fn.Name, i, nd.Text, nd.Pos, out, t.count[i])
		}
		stopped := t.count[i] - out
		if nd.Kind == frontend.KindNoReturn && len(nd.Succs) == 1 {
			t.flow[p.edge0[i]] += stopped
			stopped = 0
		}
		f.Nodes[i].Count += t.count[i]
		f.Nodes[i].Panics += stopped
		f.Nodes[p.pt[i]].Count += stopped
		for k, e := range nd.Succs {
			x := t.flow[p.edge0[i]+k]
			if nd.IsDecision() {
				f.Nodes[i].Outcomes[k] += x
			}
			if g.Nodes[e.To].IsExit() {
				f.Nodes[e.To].Count += x
			}
		}
	}
	return nil
}
