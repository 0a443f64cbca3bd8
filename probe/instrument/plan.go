package instrument

import (
	"fmt"
	"go/ast"
	"go/token"
	"math/bits"
	"sort"
	"strconv"
	"strings"

	"github.com/augur-perf/augur/source/frontend"
)

// Layout of one function's counters, from its base index:
//
//	base                 invocations (N0)
//	base+1+n             Count of node n   (only some are incremented at run time)
//	base+1+N+n           Panics of node n
//	base+1+2N+e          flow of edge e (edges numbered node by node, in Succs order)
//	base+1+2N+E+n        Recovered of node n (frame functions only)
//	base+1+3N+E          invocations that found another goroutine in the function (see rt.Enter)
//	base+2+3N+E+j        returns of call site j of a derived leaf (see derive.go)
//
// Plan decides which counts and flows the probes measure ("raw"); Solve derives the others.
type funcPlan struct {
	fn *frontend.Func
	g  *frontend.CFG
	// sitesAt indexes the calls of the function's nodes (see siteNode).
	sitesAt map[*ast.CallExpr]nodePart
	k       int // index of the function in its package
	base    int
	n, e    int
	// edge0[n] is the number of the first edge of node n.
	edge0 []int
	// frame is set when the function needs the {cur, chain} frame (it defers, or it may panic
	// and its panics cannot be derived by flow).
	frame    bool
	mayPanic []bool
	rawCount []bool
	rawFlow  []bool
	zeroFlow []bool // flows known to be zero (the self edge of select {})
	pt       []int  // frontend.PanicTargets
	// countBefore marks statements whose Count is counted right before they run.
	countBefore []bool
	// doneCount marks may-panic statements whose one outflow is counted right after they
	// complete (a return: after its results are evaluated), so that Panics = Count − outflow.
	doneCount []bool
	// mirrors lists the counters whose register-loop locals are mirrored in _augur_m (set by
	// rewriteFunc), for _augur_flush.
	mirrors []int
	// fallEnd is set when the counter of the End node counts the times the function falls off
	// the end of its body (it has no results), End being reached otherwise only from returns.
	fallEnd bool
	// slot maps each counter of a frame function (its index minus base) to its slot in the
	// per-invocation array, or -1; slotCtr is the inverse (offsets from base; see assignSlots).
	slot    []int
	slotCtr []int
	// journal is the most counters one flush of the function adds (see _augur_commit).
	journal int
	// leaves are the functions of the package register loops may call.
	leaves *leafFuncs
	// safe marks the nodes that cannot panic although nodeMayPanic says they may (see
	// derefSafe), or is nil.
	safe []bool
	// panDerived marks the nodes whose Panics are derived by flow instead of counted by the
	// frame's exit hook (every may-panic node of a frame-free function).
	panDerived []bool
	// sites are the function's calls of leaves counted at their call sites (see derive.go), in
	// its package or another; derived is set when the function is one, not rewritten, its
	// invocations the sum of the counters in from.
	sites   []*callSite
	derived bool
	from    []siteRef
	// copy is the name of the function's copy without probes that its call sites call, when
	// it is a split leaf (see leafPlan): its invocations are its own count and theirs.
	copy string
	// countedPan marks the guarded nodes of a body region whose Panics its guards count
	// instead of flow deriving them (see rewriteFunc); nil when there are none.
	countedPan []bool
	// pp numbers the paths of the function's twin when it counts paths (see paths.go); the
	// paths' counters follow the others.
	pp *pathPlan
	// paths are the counts the twin's paths add up to, set by Collect.
	paths *pathTotals
}

func (p *funcPlan) size() int {
	n := 2 + 3*p.n + p.e + len(p.sites)
	if p.pp != nil {
		n += p.pp.size()
	}
	return n
}
func (p *funcPlan) overlaps() int { return p.base + 1 + 3*p.n + p.e }
func (p *funcPlan) rec(n int) int { return p.base + 1 + 2*p.n + p.e + n }
func (p *funcPlan) cnt(n int) int { return p.base + 1 + n }
func (p *funcPlan) pan(n int) int { return p.base + 1 + p.n + n }
func (p *funcPlan) flow(n, k int) int {
	return p.base + 1 + 2*p.n + p.edge0[n] + k
}

// siteKind says where an outcome counter can go.
type siteKind int

const (
	siteNone    siteKind = iota // nowhere (the outcome leaves to code other paths also reach)
	siteAt                      // at offset pos: the start of the target block or clause
	siteElse                    // an if without else: add "else { counter }"
	siteDefault                 // a switch without default: add "default: counter"
)

type site struct {
	kind siteKind
	pos  token.Pos
}

// outcomeSite is where outcome k of decision n can be counted.
func (p *funcPlan) outcomeSite(n, k int) site {
	nd := p.g.Nodes[n]
	switch s := nd.AST.(type) {
	case *ast.IfStmt:
		if k == 0 {
			return site{siteAt, s.Body.Lbrace + 1}
		}
		switch e := s.Else.(type) {
		case nil:
			return site{kind: siteElse}
		case *ast.BlockStmt:
			return site{siteAt, e.Lbrace + 1}
		}
		return site{}
	case *ast.ForStmt:
		if nd.Kind == frontend.KindLoop || k == 0 {
			return site{siteAt, s.Body.Lbrace + 1}
		}
		return site{}
	case *ast.RangeStmt:
		if k == 0 {
			return site{siteAt, s.Body.Lbrace + 1}
		}
		return site{}
	case *ast.SwitchStmt:
		return clauseSite(s.Body, nd.Succs[k].Outcome)
	case *ast.TypeSwitchStmt:
		return clauseSite(s.Body, nd.Succs[k].Outcome)
	case *ast.SelectStmt:
		return clauseSite(s.Body, nd.Succs[k].Outcome)
	}
	return site{}
}

// switchBody is the body of switch or type switch statement s, where a site of kind siteDefault
// adds its default clause.
func switchBody(s ast.Node) *ast.BlockStmt {
	switch s := s.(type) {
	case *ast.SwitchStmt:
		return s.Body
	case *ast.TypeSwitchStmt:
		return s.Body
	}
	return nil
}

// clauseSite is where the clause of outcome (case k, the k-th clause; or the default) starts. The
// clause is found by its number, not by formatting every clause's outcome: a generated switch of
// thousands of cases made that quadratic.
func clauseSite(body *ast.BlockStmt, outcome string) site {
	if outcome == frontend.OutDefault {
		for _, c := range body.List {
			switch c := c.(type) {
			case *ast.CaseClause:
				if c.List == nil {
					return site{siteAt, c.Colon + 1}
				}
			case *ast.CommClause:
				if c.Comm == nil {
					return site{siteAt, c.Colon + 1}
				}
			}
		}
		return site{kind: siteDefault}
	}
	num, ok := strings.CutPrefix(outcome, "case ")
	k, err := strconv.Atoi(num)
	if !ok || err != nil || frontend.CaseOutcome(k) != outcome || k < 1 || k > len(body.List) {
		return site{}
	}
	switch c := body.List[k-1].(type) {
	case *ast.CaseClause:
		return site{siteAt, c.Colon + 1}
	case *ast.CommClause:
		return site{siteAt, c.Colon + 1}
	}
	return site{}
}

// freeOutcome is the outcome of decision n left to derivation when possible.
func (p *funcPlan) freeOutcome(n int) int {
	nd := p.g.Nodes[n]
	switch nd.AST.(type) {
	case *ast.IfStmt, *ast.ForStmt, *ast.RangeStmt:
		return 1
	}
	for k, e := range nd.Succs {
		if e.Outcome == frontend.OutDefault {
			return k
		}
	}
	return len(nd.Succs) - 1
}

// newPlan places the counters of fn. A function without defer statements is first planned
// frame-free: the frame and its deferred exit hook cost more per call than the body of a small
// function, and setting cur costs a store per may-panic statement in every loop, so instead its
// Panics are derived (Panics = Count − outflow) from counters added where they run least often;
// only if no such placement determines every count does the function get the frame.
//
// safe, if not nil, marks the nodes that cannot panic although they look as if they might (see
// derefSafe).
func newPlan(fn *frontend.Func, k int, safe []bool) (*funcPlan, error) {
	if len(fn.CFG.Defers) == 0 && !forceFrame && len(fn.CFG.Nodes) <= maxFrameFree {
		if p, err := planFunc(fn, k, false, nil, safe); err == nil {
			return p, nil
		}
	}
	return planFunc(fn, k, true, nil, safe)
}

// forceFrame makes every function use the frame (tests compare the two schemes).
var forceFrame bool

// maxFrameFree is the most nodes a function is planned frame-free with: placing its counters
// solves the flow equations once per counter tried, and its counts live in a local each, which
// the compiler keeps apart across the whole body. A generated switch of 1000 cases (3000 nodes)
// took augur 12 s to plan and the compiler a minute to build so; with a frame, 0.15 s for 3000
// cases (BenchmarkInstrumentSwitch) and seconds to build. No function of the 14 modules of the
// README's sweep has more than 600 nodes.
const maxFrameFree = 1000

// planFunc places the counters of fn, with the frame or without; without, the Panics of the
// nodes counted marks are counters of their own, the others' are derived. The nodes safe marks
// cannot panic.
func planFunc(fn *frontend.Func, k int, frame bool, counted, safe []bool) (*funcPlan, error) {
	g := fn.CFG
	p := &funcPlan{fn: fn, g: g, k: k, n: len(g.Nodes), safe: safe}
	p.edge0 = make([]int, p.n)
	for i, nd := range g.Nodes {
		p.edge0[i] = p.e
		p.e += len(nd.Succs)
	}
	p.mayPanic = make([]bool, p.n)
	p.rawCount = make([]bool, p.n)
	p.countBefore = make([]bool, p.n)
	p.doneCount = make([]bool, p.n)
	p.panDerived = make([]bool, p.n)
	p.rawFlow = make([]bool, p.e)
	p.zeroFlow = make([]bool, p.e)
	p.pt = frontend.PanicTargets(g)
	var info = fn.Pkg.TypesInfo
	for i, nd := range g.Nodes {
		if nodeMayPanic(info, nd) && (safe == nil || !safe[i]) {
			p.mayPanic[i] = true
			if frame {
				p.frame = true
			} else if nd.Kind != frontend.KindNoReturn {
				// An explicit panic or Goexit ends on the Panic exit through its own edge.
				p.panDerived[i] = counted == nil || !counted[i]
			}
		}
		if len(g.Defers) > 0 {
			p.frame = true
		}
		switch nd.Kind {
		case frontend.KindDeferRun:
			p.rawCount[i] = true
			if nd.IsDecision() {
				p.rawFlow[p.edge0[i]] = true
				p.rawFlow[p.edge0[i]+1] = true
			}
		case frontend.KindDeferDispatch:
			for k, e := range nd.Succs {
				if e.Outcome == frontend.OutDone {
					p.rawFlow[p.edge0[i]+k] = true
				}
			}
		case frontend.KindLoop:
			p.rawFlow[p.edge0[i]] = true
		case frontend.KindStmt:
			if len(nd.Succs) == 1 && nd.Succs[0].To == i {
				p.zeroFlow[p.edge0[i]] = true // select {}: blocks forever
			}
		}
		if nd.IsDecision() && nd.Kind == frontend.KindDecision {
			free := p.freeOutcome(i)
			for k := range nd.Succs {
				if k != free && p.outcomeSite(i, k).kind == siteAt {
					p.rawFlow[p.edge0[i]+k] = true
				}
			}
		}
	}
	if !p.determined() && frame {
		// Count the free outcomes too, decision by decision, until the equations close.
		for i, nd := range g.Nodes {
			if !nd.IsDecision() || nd.Kind != frontend.KindDecision {
				continue
			}
			changed := false
			for k := range nd.Succs {
				if !p.rawFlow[p.edge0[i]+k] && p.outcomeSite(i, k).kind != siteNone {
					p.rawFlow[p.edge0[i]+k] = true
					changed = true
				}
			}
			if changed && p.determined() {
				break
			}
		}
	}
	if !p.determined() && frame {
		for i, nd := range g.Nodes {
			if br, ok := nd.AST.(*ast.BranchStmt); ok && br.Tok == token.GOTO {
				p.countBefore[i] = true
				p.rawCount[i] = true
			}
		}
	}
	if !p.determined() && !frame {
		p.placeExtra()
	}
	if !p.determined() {
		_, bad := p.solve(nil)
		nd := g.Nodes[bad]
		return nil, fmt.Errorf("%s: %s: cannot place counters that determine node %d (%s)", nd.Pos, fn.Name, bad, nd.Text)
	}
	// Drop the Loop-node counters the other counters make redundant.
	for i, nd := range g.Nodes {
		if nd.Kind == frontend.KindLoop {
			p.rawFlow[p.edge0[i]] = false
			if !p.determined() {
				p.rawFlow[p.edge0[i]] = true
			}
		}
	}
	if p.frame {
		p.assignSlots()
	}
	return p, nil
}

// assignSlots gives every counter a frame function increments a slot of its per-invocation
// array _augur_k (slot 0: the invocation): the probes and hooks count there, and the exit
// hook adds the array to the counters once the invocation has left (returned, unwound or
// Goexited). An invocation still running when the process ends (os.Exit, a crash in another
// goroutine, main returning) is then not counted at all instead of in part: counted in part,
// its counts break flow conservation (the exit hook counts panics; nothing counts an
// invocation cut short).
func (p *funcPlan) assignSlots() {
	p.slot = make([]int, p.size())
	for i := range p.slot {
		p.slot[i] = -1
	}
	use := func(c int) { p.useSlot(c - p.base) }
	use(p.base)
	for i, nd := range p.g.Nodes {
		if p.rawCount[i] {
			use(p.cnt(i))
		}
		if p.mayPanic[i] || nd.Kind == frontend.KindDeferRun {
			use(p.pan(i))
			use(p.rec(i))
		}
		for k := range nd.Succs {
			if p.rawFlow[p.edge0[i]+k] {
				use(p.flow(i, k))
			}
		}
	}
}

// useSlot gives counter off (an offset from base: planning happens before base is known) a
// slot of the array if it has none.
func (p *funcPlan) useSlot(off int) {
	if p.slot[off] < 0 {
		p.slot[off] = len(p.slotCtr)
		p.slotCtr = append(p.slotCtr, off)
		p.journal = len(p.slotCtr)
	}
}

// slotSites gives the counters of a frame function's calls of leaves counted at their call sites
// (derived or split), known only after planning (see derive.go), slots of its array: a site then
// counts by one increment on the stack, added with the rest by the exit hook, instead of a pinned
// add per call.
func (p *funcPlan) slotSites() {
	if !p.frame {
		return
	}
	for len(p.slot) < p.size() {
		p.slot = append(p.slot, -1)
	}
	for _, s := range p.sites {
		p.useSlot(s.ctr)
	}
}

// resultsFirst reports whether return statement n of a function without a frame evaluates its
// results before it flushes (see rewriteFunc): when its outflow is counted after them, or its
// guard counts its Panics.
func (p *funcPlan) resultsFirst(n int) bool {
	r, ok := p.g.Nodes[n].AST.(*ast.ReturnStmt)
	return ok && !p.frame && (p.doneCount[n] || p.countedPan != nil && p.countedPan[n] && len(r.Results) > 0)
}

func (p *funcPlan) determined() bool {
	_, bad := p.solve(nil)
	return bad < 0
}

type term struct {
	v    int // variable: Count[n] is n, Flow[e] is N+e
	sign int8
}

// An equation says Σ sign·term = rhs − neg.
type equation struct {
	terms    []term
	rhs, neg uint64
}

// solve derives every Count, Flow and Panics from the raw counters c (the package's counter
// array, or nil to check only that the placement determines them). It returns the values (Count
// of node n at index n, flow of edge e at N+e, Panics of node n at N+E+n) and the first
// undetermined node, or -1.
func (p *funcPlan) solve(c []uint64) ([]uint64, int) {
	g := p.g
	get := func(i int) uint64 {
		if c == nil {
			return 0
		}
		return c[i]
	}
	nv := 2*p.n + p.e
	val := make([]uint64, nv)
	known := make([]bool, nv)
	pv := func(n int) int { return p.n + p.e + n } // the variable Panics[n]
	for i := 0; i < p.n; i++ {
		if p.rawCount[i] {
			known[i], val[i] = true, get(p.cnt(i))
		}
		if !p.panDerived[i] {
			known[pv(i)], val[pv(i)] = true, get(p.pan(i))
		}
	}
	for i, nd := range g.Nodes {
		for k := range nd.Succs {
			e := p.edge0[i] + k
			switch {
			case p.zeroFlow[e]:
				known[p.n+e] = true
			case p.rawFlow[e]:
				known[p.n+e], val[p.n+e] = true, get(p.flow(i, k))
			}
		}
	}
	eqs := p.equations(get)
	for progress := true; progress; {
		progress = false
		for _, eq := range eqs {
			unknown := -1
			sum := eq.rhs - eq.neg
			for _, t := range eq.terms {
				if known[t.v] {
					if t.sign > 0 {
						sum -= val[t.v]
					} else {
						sum += val[t.v]
					}
				} else if unknown >= 0 {
					unknown = -2
					break
				} else {
					unknown = t.v
				}
			}
			if unknown < 0 {
				continue
			}
			sign := int8(1)
			for _, t := range eq.terms {
				if t.v == unknown {
					sign = t.sign
				}
			}
			if sign < 0 {
				sum = -sum
			}
			val[unknown], known[unknown] = sum, true
			progress = true
		}
	}
	for i, nd := range g.Nodes {
		if !known[i] || !known[pv(i)] {
			return val, i
		}
		if nd.IsDecision() {
			for k := range nd.Succs {
				if !known[p.n+p.edge0[i]+k] {
					return val, i
				}
			}
		}
	}
	return val, -1
}

// equations are the flow equations of the function's counts (variables numbered as solve
// returns them), with get giving the raw counters' values.
func (p *funcPlan) equations(get func(int) uint64) []equation {
	g := p.g
	pv := func(n int) int { return p.n + p.e + n }
	var eqs []equation
	in := make([]equation, p.n)
	for v := range in {
		in[v].terms = []term{{v, 1}}
	}
	in[g.Entry].rhs += get(p.base)
	for i, nd := range g.Nodes {
		if nd.IsExit() {
			continue
		}
		if p.pt[i] != i {
			in[p.pt[i]].terms = append(in[p.pt[i]].terms, term{pv(i), -1})
		}
		if p.frame {
			// Recovered panics end at End, not where PanicTargets sends the others.
			r := get(p.rec(i))
			in[p.pt[i]].neg += r
			in[g.End].rhs += r
		}
		if nd.IsDecision() {
			eq := equation{terms: []term{{i, 1}, {pv(i), -1}}}
			for k := range nd.Succs {
				eq.terms = append(eq.terms, term{p.n + p.edge0[i] + k, -1})
			}
			eqs = append(eqs, eq)
		} else {
			eqs = append(eqs, equation{terms: []term{{p.n + p.edge0[i], 1}, {i, -1}, {pv(i), 1}}})
		}
		for k, e := range nd.Succs {
			in[e.To].terms = append(in[e.To].terms, term{p.n + p.edge0[i] + k, -1})
		}
	}
	eqs = append(eqs, in...)
	if p.fallEnd {
		eq := equation{terms: []term{{g.End, 1}}, rhs: get(p.cnt(g.End))}
		for i, nd := range g.Nodes {
			for k, e := range nd.Succs {
				if e.To == g.End && nd.Kind == frontend.KindReturn {
					eq.terms = append(eq.terms, term{p.n + p.edge0[i] + k, -1})
				}
			}
		}
		eqs = append(eqs, eq)
	}
	return eqs
}

// check verifies that the counts val derived from the raw counters c satisfy every flow
// equation, the redundant ones included, with no count negative (wrapped around as a uint64).
// It returns a description of the first violation, or "".
func (p *funcPlan) check(c []uint64, val []uint64) string {
	const negative = 1 << 63
	for v, x := range val {
		if x >= negative {
			what := "count"
			i := v
			switch {
			case v >= p.n+p.e:
				what, i = "panics", v-p.n-p.e
			case v >= p.n:
				what, i = "an outcome", p.edgeNode(v-p.n)
			}
			nd := p.g.Nodes[i]
			return fmt.Sprintf("node %d (%s, %s) has %s of %d", i, nd.Text, nd.Pos, what, int64(x))
		}
	}
	for _, eq := range p.equations(func(i int) uint64 { return c[i] }) {
		// Σ positive terms = rhs + Σ negative terms, in 128 bits.
		var ph, pl, nh, nl uint64
		pl, nl = eq.neg, eq.rhs
		for _, t := range eq.terms {
			var carry uint64
			if t.sign > 0 {
				pl, carry = bits.Add64(pl, val[t.v], 0)
				ph += carry
			} else {
				nl, carry = bits.Add64(nl, val[t.v], 0)
				nh += carry
			}
		}
		if ph != nh || pl != nl {
			v := eq.terms[0].v
			switch {
			case v >= p.n+p.e:
				v -= p.n + p.e
			case v >= p.n:
				v = p.edgeNode(v - p.n)
			}
			nd := p.g.Nodes[v]
			return fmt.Sprintf("the counts around node %d (%s, %s) do not add up", v, nd.Text, nd.Pos)
		}
	}
	return ""
}

// edgeNode is the node edge e leaves.
func (p *funcPlan) edgeNode(e int) int {
	i := sort.Search(p.n, func(i int) bool { return p.edge0[i] > e })
	return i - 1
}

// candidate is a counter placeExtra may add: the Count of a statement counted before it runs
// (before), the outflow of a may-panic statement counted after it completes (done), or a
// decision's outcome (outcome k of node n).
type candidate struct {
	kind  int // 0 before, 1 done, 2 outcome, 3 fallEnd
	n, k  int
	depth int // loop nesting where the counter runs
}

func (p *funcPlan) setCandidate(c candidate, on bool) {
	switch c.kind {
	case 0:
		p.countBefore[c.n], p.rawCount[c.n] = on, on
	case 1:
		p.doneCount[c.n], p.rawFlow[p.edge0[c.n]] = on, on
	case 2:
		p.rawFlow[p.edge0[c.n]+c.k] = on
	case 3:
		p.fallEnd = on
	}
}

// placeExtra adds counters until the flow equations determine every Count, outcome and Panics
// of a frame-free function: the candidates are tried from the least nested outward, then those
// that the later ones made redundant are dropped, the most nested first. This keeps counters off
// loop bodies wherever a count outside the loop determines the same quantity (the usual case:
// the panics of a loop body follow from the count of the statement after the loop).
func (p *funcPlan) placeExtra() {
	g := p.g
	listed, headers := stmtPlaces(p.fn.Decl.Body)
	labelled := map[ast.Stmt]bool{}
	ast.Inspect(p.fn.Decl.Body, func(n ast.Node) bool {
		if ls, ok := n.(*ast.LabeledStmt); ok {
			labelled[ls.Stmt] = true
		}
		return true
	})
	depth := func(n int) int { return len(g.Nodes[n].Loops) }
	var cands []candidate
	for i, nd := range g.Nodes {
		if nd.IsExit() || nd.Unreachable {
			continue
		}
		s, _ := nd.AST.(ast.Stmt)
		switch nd.Kind {
		case frontend.KindStmt, frontend.KindReturn, frontend.KindJump, frontend.KindNoReturn, frontend.KindGo:
			if s != nil && !p.rawCount[i] && (listed[s] || headers[s]) {
				if _, ok := s.(*ast.SelectStmt); !ok {
					cands = append(cands, candidate{0, i, 0, depth(i)})
				}
			}
		}
		if p.panDerived[i] && len(nd.Succs) == 1 && s != nil {
			switch s := s.(type) {
			case *ast.ReturnStmt:
				if len(s.Results) > 0 {
					cands = append(cands, candidate{1, i, 0, depth(i)})
				}
			case *ast.AssignStmt, *ast.ExprStmt, *ast.IncDecStmt, *ast.SendStmt, *ast.DeclStmt, *ast.GoStmt:
				if listed[s] && !p.rawFlow[p.edge0[i]] {
					cands = append(cands, candidate{1, i, 0, depth(i)})
				}
			}
		}
		if nd.IsDecision() && nd.Kind == frontend.KindDecision {
			for k, e := range nd.Succs {
				if !p.rawFlow[p.edge0[i]+k] && p.outcomeSite(i, k).kind != siteNone {
					cands = append(cands, candidate{2, i, k, depth(e.To)})
				}
			}
			// An if or expression switch without init, in a statement list and unlabelled,
			// runs its node only from the statement before it: its Count can be counted right
			// before it (a may-panic condition then needs no frame).
			switch d := s.(type) {
			case *ast.IfStmt:
				if d.Init == nil && listed[s] && !labelled[s] {
					cands = append(cands, candidate{0, i, 0, depth(i)})
				}
			case *ast.SwitchStmt:
				if d.Init == nil && listed[s] && !labelled[s] {
					cands = append(cands, candidate{0, i, 0, depth(i)})
				}
			}
		}
	}
	if t := p.fn.Decl.Type; t.Results == nil || len(t.Results.List) == 0 {
		cands = append(cands, candidate{kind: 3, n: g.End})
	}
	sort.SliceStable(cands, func(a, b int) bool { return cands[a].depth < cands[b].depth })
	var added []candidate
	for _, c := range cands {
		p.setCandidate(c, true)
		added = append(added, c)
		if p.determined() {
			break
		}
	}
	if !p.determined() {
		return
	}
	for j := len(added) - 1; j >= 0; j-- {
		p.setCandidate(added[j], false)
		if !p.determined() {
			p.setCandidate(added[j], true)
		}
	}
}

// stmtPlaces returns the statements of body that sit in a statement list (so that code can be
// inserted before and after them) and the init and post statements of if, switch and for
// headers (code for them goes before the header statement, or at the end of the loop body).
func stmtPlaces(body *ast.BlockStmt) (listed, headers map[ast.Stmt]bool) {
	listed, headers = map[ast.Stmt]bool{}, map[ast.Stmt]bool{}
	list := func(l []ast.Stmt) {
		for _, s := range l {
			listed[s] = true
			for {
				ls, ok := s.(*ast.LabeledStmt)
				if !ok {
					break
				}
				s = ls.Stmt
				listed[s] = true
			}
		}
	}
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.BlockStmt:
			list(n.List)
		case *ast.CaseClause:
			list(n.Body)
		case *ast.CommClause:
			list(n.Body)
		case *ast.IfStmt:
			headers[n.Init] = true
		case *ast.SwitchStmt:
			headers[n.Init] = true
		case *ast.TypeSwitchStmt:
			headers[n.Init] = true
		case *ast.ForStmt:
			headers[n.Init], headers[n.Post] = true, true
		}
		return true
	})
	delete(headers, nil)
	return listed, headers
}
