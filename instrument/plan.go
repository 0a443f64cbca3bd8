package instrument

import (
	"fmt"
	"go/ast"
	"go/token"

	"github.com/augur-perf/augur/frontend"
	"github.com/augur-perf/augur/synth"
)

// Layout of one function's counters, from its base index:
//
//	base                 invocations (N0)
//	base+1+n             Count of node n   (only some are incremented at run time)
//	base+1+N+n           Panics of node n
//	base+1+2N+e          flow of edge e (edges numbered node by node, in Succs order)
//
// Plan decides which counts and flows the probes measure ("raw"); Solve derives the others.
type funcPlan struct {
	fn   *frontend.Func
	g    *frontend.CFG
	k    int // index of the function in its package
	base int
	n, e int
	// edge0[n] is the number of the first edge of node n.
	edge0 []int
	// frame is set when the function needs the {cur, chain} frame (it may panic or defers).
	frame    bool
	mayPanic []bool
	rawCount []bool
	rawFlow  []bool
	zeroFlow []bool // flows known to be zero (the self edge of select {})
	pt       []int  // synth.PanicTargets
	// gotoCount marks goto Jump nodes counted before the statement (fallback for goto loops).
	gotoCount []bool
}

func (p *funcPlan) size() int     { return 1 + 2*p.n + p.e }
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

func clauseSite(body *ast.BlockStmt, outcome string) site {
	for i, c := range body.List {
		switch c := c.(type) {
		case *ast.CaseClause:
			if outcome == frontend.CaseOutcome(i+1) || outcome == frontend.OutDefault && c.List == nil {
				return site{siteAt, c.Colon + 1}
			}
		case *ast.CommClause:
			if outcome == frontend.CaseOutcome(i+1) || outcome == frontend.OutDefault && c.Comm == nil {
				return site{siteAt, c.Colon + 1}
			}
		}
	}
	if outcome == frontend.OutDefault {
		return site{kind: siteDefault}
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

func newPlan(fn *frontend.Func, k int) (*funcPlan, error) {
	g := fn.CFG
	p := &funcPlan{fn: fn, g: g, k: k, n: len(g.Nodes)}
	p.edge0 = make([]int, p.n)
	for i, nd := range g.Nodes {
		p.edge0[i] = p.e
		p.e += len(nd.Succs)
	}
	p.mayPanic = make([]bool, p.n)
	p.rawCount = make([]bool, p.n)
	p.gotoCount = make([]bool, p.n)
	p.rawFlow = make([]bool, p.e)
	p.zeroFlow = make([]bool, p.e)
	p.pt = synth.PanicTargets(g)
	var info = fn.Pkg.TypesInfo
	for i, nd := range g.Nodes {
		if nodeMayPanic(info, nd) {
			p.mayPanic[i] = true
			p.frame = true
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
	if !p.determined() {
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
	if !p.determined() {
		for i, nd := range g.Nodes {
			if br, ok := nd.AST.(*ast.BranchStmt); ok && br.Tok == token.GOTO {
				p.gotoCount[i] = true
				p.rawCount[i] = true
			}
		}
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
	return p, nil
}

func (p *funcPlan) determined() bool {
	_, bad := p.solve(nil)
	return bad < 0
}

type term struct {
	v    int // variable: Count[n] is n, Flow[e] is N+e
	sign int8
}

type equation struct {
	terms []term
	rhs   uint64
}

// solve derives every Count and Flow from the raw counters c (the package's counter array, or
// nil to check only that the placement determines them). It returns the values (Count of node n
// at index n, flow of edge e at N+e) and the first undetermined node, or -1.
func (p *funcPlan) solve(c []uint64) ([]uint64, int) {
	g := p.g
	get := func(i int) uint64 {
		if c == nil {
			return 0
		}
		return c[i]
	}
	nv := p.n + p.e
	val := make([]uint64, nv)
	known := make([]bool, nv)
	for i := 0; i < p.n; i++ {
		if p.rawCount[i] {
			known[i], val[i] = true, get(p.cnt(i))
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
	var eqs []equation
	in := make([]equation, p.n)
	for v := range in {
		in[v].terms = []term{{v, 1}}
	}
	in[g.Entry].rhs += get(p.base)
	for i, nd := range g.Nodes {
		pi := get(p.pan(i))
		if !nd.IsExit() && p.pt[i] != i {
			in[p.pt[i]].rhs += pi
		}
		switch {
		case nd.IsExit():
		case nd.IsDecision():
			eq := equation{terms: []term{{i, 1}}, rhs: pi}
			for k := range nd.Succs {
				eq.terms = append(eq.terms, term{p.n + p.edge0[i] + k, -1})
			}
			eqs = append(eqs, eq)
		default:
			eqs = append(eqs, equation{terms: []term{{p.n + p.edge0[i], 1}, {i, -1}}, rhs: -pi})
		}
		for k, e := range nd.Succs {
			in[e.To].terms = append(in[e.To].terms, term{p.n + p.edge0[i] + k, -1})
		}
	}
	eqs = append(eqs, in...)
	for progress := true; progress; {
		progress = false
		for _, eq := range eqs {
			unknown := -1
			sum := eq.rhs
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
		if !known[i] {
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
