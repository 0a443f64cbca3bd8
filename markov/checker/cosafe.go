package checker

import (
	"fmt"
	"math/big"
	"sort"
	"strings"

	"github.com/augur-perf/augur/markov/dtmc"
	"github.com/augur-perf/augur/markov/pctl"
)

// Rewards of co-safe LTL formulas (R=? [ ψ ]): the reward gathered until the path read so far
// guarantees ψ, and +Inf where that happens with probability below 1, as in PRISM. ψ must be
// syntactically co-safe: after negations are pushed to the propositions, only X, U, F, & and |.
//
// The deterministic automaton is built by formula progression (Bacchus and Kabanza): its state is
// what remains to be shown of ψ from the next position on, a monotone Boolean combination of
// temporal subformulas kept as its minimal disjunctive normal form (the set of its prime
// implicants, which is canonical, so equal states are equal sets and the automaton is finite).
// The empty conjunction among the disjuncts means ψ is guaranteed; no disjunct, that it failed.
// The product with the chain is explored from every state, and the reward until acceptance is an
// ordinary R[F accept] on it.

// ltlNode is a co-safe formula in negation normal form.
type ltlNode struct {
	op   string // "lit", "and", "or", "X", "U", "F"
	atom int    // for lit: the index of the state formula
	neg  bool   // for lit: negated
	l, r *ltlNode
	id   int // index among the temporal nodes (X, U, F), which are the automaton's obligations
}

// clause is a conjunction of obligations (sorted ids); dnf a disjunction of clauses.
type clause []int
type dnf []clause

func (c clause) key() string { return fmt.Sprint([]int(c)) }

func (d dnf) key() string {
	parts := make([]string, len(d))
	for i, c := range d {
		parts[i] = c.key()
	}
	return strings.Join(parts, "|")
}

var dnfTrue = dnf{clause{}}

func (d dnf) accepting() bool { return len(d) == 1 && len(d[0]) == 0 }

// subset says whether every obligation of a is in b (both sorted).
func subset(a, b clause) bool {
	i := 0
	for _, x := range b {
		if i < len(a) && a[i] == x {
			i++
		}
	}
	return i == len(a)
}

// minimal removes duplicate and subsumed clauses and sorts the rest: the prime implicants of a
// monotone function, its canonical form.
func minimal(d dnf) dnf {
	sort.Slice(d, func(i, j int) bool {
		if len(d[i]) != len(d[j]) {
			return len(d[i]) < len(d[j])
		}
		return d[i].key() < d[j].key()
	})
	var out dnf
	for _, c := range d {
		keep := true
		for _, o := range out {
			if subset(o, c) {
				keep = false
				break
			}
		}
		if keep {
			out = append(out, c)
		}
	}
	return out
}

func or(a, b dnf) dnf { return minimal(append(append(dnf{}, a...), b...)) }

func andDNF(a, b dnf) dnf {
	var out dnf
	for _, x := range a {
		for _, y := range b {
			c := append(append(clause{}, x...), y...)
			sort.Ints(c)
			u := c[:0]
			for i, v := range c {
				if i == 0 || v != c[i-1] {
					u = append(u, v)
				}
			}
			out = append(out, u)
		}
	}
	return minimal(out)
}

// cosafe is a formula ready for progression: its state formulas and temporal nodes.
type cosafe struct {
	root  *ltlNode
	atoms []pctl.StateFormula
	// temporal are the X, U and F nodes. An obligation o < len(temporal) asks temporal[o] to hold
	// from the position about to be read; o >= len(temporal) asks that of the argument of the X
	// node temporal[o-len(temporal)].
	temporal []*ltlNode
}

// build turns a path or state formula (negated when neg) into negation normal form, failing on
// what is not co-safe.
func (c *cosafe) build(f pctl.Node, neg bool) (*ltlNode, error) {
	temporal := func(n *ltlNode) *ltlNode {
		n.id = len(c.temporal)
		c.temporal = append(c.temporal, n)
		return n
	}
	notCoSafe := func() error {
		return &PositionError{f.Pos(), fmt.Sprintf("%s is not co-safe LTL (only X, U, F, & and | may remain once negations are pushed inwards)", f)}
	}
	switch f := f.(type) {
	case *pctl.PathExpr:
		return c.build(f.P, neg)
	case *pctl.LTL:
		return c.build(f.F, neg)
	case *pctl.Not:
		return c.build(f.F, !neg)
	case *pctl.Binary:
		op := map[pctl.BinOp]string{pctl.And: "and", pctl.Or: "or"}[f.Op]
		l, r := pctl.Node(f.L), pctl.Node(f.R)
		ln, rn := neg, neg
		switch f.Op {
		case pctl.Implies: // a => b is !a | b
			op, ln = "or", !neg
		case pctl.Iff:
			if !containsTemporal(f) {
				return c.lit(f, neg), nil
			}
			return nil, notCoSafe()
		}
		if op == "" || !containsTemporal(f) {
			return c.lit(f, neg), nil
		}
		if neg { // De Morgan
			op = map[string]string{"and": "or", "or": "and"}[op]
		}
		a, err := c.build(l, ln)
		if err != nil {
			return nil, err
		}
		b, err := c.build(r, rn)
		if err != nil {
			return nil, err
		}
		return &ltlNode{op: op, l: a, r: b}, nil
	case *pctl.Next:
		// !X a is X !a: a DTMC path always has a next state.
		a, err := c.build(f.F, neg)
		if err != nil {
			return nil, err
		}
		return temporal(&ltlNode{op: "X", l: a}), nil
	case *pctl.Eventually:
		if f.Steps != nil || neg {
			return nil, notCoSafe()
		}
		a, err := c.build(f.F, false)
		if err != nil {
			return nil, err
		}
		return temporal(&ltlNode{op: "F", l: a}), nil
	case *pctl.Globally:
		if f.Steps != nil || !neg {
			return nil, notCoSafe()
		}
		a, err := c.build(f.F, true) // !G a is F !a
		if err != nil {
			return nil, err
		}
		return temporal(&ltlNode{op: "F", l: a}), nil
	case *pctl.Until:
		if f.Steps != nil || neg || f.Op != pctl.U {
			return nil, notCoSafe()
		}
		a, err := c.build(f.L, false)
		if err != nil {
			return nil, err
		}
		b, err := c.build(f.R, false)
		if err != nil {
			return nil, err
		}
		return temporal(&ltlNode{op: "U", l: a, r: b}), nil
	case pctl.StateFormula:
		if containsTemporal(f) {
			return nil, notCoSafe()
		}
		return c.lit(f, neg), nil
	}
	return nil, notCoSafe()
}

func (c *cosafe) lit(f pctl.StateFormula, neg bool) *ltlNode {
	c.atoms = append(c.atoms, f)
	return &ltlNode{op: "lit", atom: len(c.atoms) - 1, neg: neg}
}

func containsTemporal(f pctl.Node) bool {
	found := false
	pctl.Walk(f, func(n pctl.Node) {
		if _, ok := n.(*pctl.PathExpr); ok {
			found = true
		}
	})
	return found
}

// prog is what n requires of the rest of the path, having read a state with atom values sat.
func (c *cosafe) prog(n *ltlNode, sat func(int) bool) dnf {
	switch n.op {
	case "lit":
		if sat(n.atom) != n.neg {
			return dnfTrue
		}
		return nil
	case "and":
		return andDNF(c.prog(n.l, sat), c.prog(n.r, sat))
	case "or":
		return or(c.prog(n.l, sat), c.prog(n.r, sat))
	case "X":
		return dnf{clause{n.id + len(c.temporal)}} // its argument, from the next position
	case "F":
		return or(c.prog(n.l, sat), dnf{clause{n.id}})
	default: // U
		return or(c.prog(n.r, sat), andDNF(c.prog(n.l, sat), dnf{clause{n.id}}))
	}
}

// step progresses an automaton state, whose obligations are temporal nodes (id) or, offset by
// len(temporal), the arguments of X nodes.
func (c *cosafe) step(d dnf, sat func(int) bool) dnf {
	var out dnf
	for _, cl := range d {
		acc := dnfTrue
		for _, o := range cl {
			var n *ltlNode
			if o < len(c.temporal) {
				n = c.temporal[o]
			} else {
				n = c.temporal[o-len(c.temporal)].l
			}
			acc = andDNF(acc, c.prog(n, sat))
			if len(acc) == 0 {
				break
			}
		}
		out = append(out, acc...)
	}
	return minimal(out)
}

// maxCoSafeStates bounds the product of chain and automaton.
const maxCoSafeStates = 1 << 24

// coSafeReward is R=? [ ψ ] for co-safe ψ.
func (e *evaluator) coSafeReward(k *pctl.CoSafe, rew *dtmc.Reward) (*values, error) {
	c := &cosafe{}
	root, err := c.build(k.Path, false)
	if err != nil {
		return nil, err
	}
	// The start state asks for ψ at the position about to be read, as the argument of an X whose
	// own position is before the path; the automaton reads the first state before anything else,
	// as PRISM's product does.
	c.root = root
	wrap := &ltlNode{op: "X", l: root, id: len(c.temporal)}
	c.temporal = append(c.temporal, wrap)
	sats := make([][]bool, len(c.atoms))
	for i, a := range c.atoms {
		if sats[i], err = e.sat(a); err != nil {
			return nil, err
		}
	}
	// Automaton states, numbered as found; transitions memoised by (state, letter).
	var states []dnf
	index := map[string]int{}
	intern := func(d dnf) int {
		key := d.key()
		if i, ok := index[key]; ok {
			return i
		}
		index[key] = len(states)
		states = append(states, d)
		return len(states) - 1
	}
	letter := func(s int) string {
		var b strings.Builder
		for i := range sats {
			if sats[i][s] {
				b.WriteByte('1')
			} else {
				b.WriteByte('0')
			}
		}
		return b.String()
	}
	memo := map[string]int{}
	delta := func(q, s int) int {
		key := fmt.Sprint(q, ":", letter(s))
		if r, ok := memo[key]; ok {
			return r
		}
		r := intern(c.step(states[q], func(i int) bool { return sats[i][s] }))
		memo[key] = r
		return r
	}
	start := intern(dnf{clause{wrap.id + len(c.temporal)}})
	// Explore the product from every state of the chain.
	type pair struct{ s, q int }
	id := map[pair]int{}
	var pairs []pair
	visit := func(p pair) int {
		if i, ok := id[p]; ok {
			return i
		}
		id[p] = len(pairs)
		pairs = append(pairs, p)
		return len(pairs) - 1
	}
	first := make([]int, e.m.N)
	for s := range first {
		first[s] = visit(pair{s, delta(start, s)})
	}
	type arc struct {
		from, to int
		p        float64
		k        int // the model's transition
	}
	var arcs []arc
	for i := 0; i < len(pairs); i++ {
		if len(pairs) > maxCoSafeStates {
			return nil, &PositionError{k.Pos(), fmt.Sprintf("the product with the automaton of %s has more than %d states", k.Path, maxCoSafeStates)}
		}
		p := pairs[i]
		d := states[p.q]
		if d.accepting() || len(d) == 0 {
			arcs = append(arcs, arc{i, i, 1, -1})
			continue
		}
		for j := e.m.RowPtr[p.s]; j < e.m.RowPtr[p.s+1]; j++ {
			t := e.m.Col[j]
			arcs = append(arcs, arc{i, visit(pair{t, delta(p.q, t)}), e.m.Prob[j], j})
		}
	}
	b := dtmc.NewBuilder(len(pairs))
	const accept = "accept"
	b.DeclareLabel(accept)
	for i, p := range pairs {
		if states[p.q].accepting() {
			b.Label(accept, i)
		}
		if rew.State != nil && rew.State[p.s] != 0 {
			b.AddStateReward(rew.Name, i, rew.State[p.s])
		}
	}
	b.DeclareReward(rew.Name)
	for _, a := range arcs {
		switch {
		case e.opt.Method != Exact:
			b.Add(a.from, a.to, a.p)
		case a.k < 0:
			b.AddExact(a.from, a.to, big.NewRat(1, 1))
		default:
			// The model's own rationals, so that exact mode stays exact through the product.
			b.AddExact(a.from, a.to, e.m.ExactProb(a.k))
		}
		if a.k >= 0 && rew.Trans != nil && rew.Trans[a.k] != 0 {
			b.AddTransReward(rew.Name, a.from, a.to, rew.Trans[a.k])
		}
	}
	b.SetInit(0)
	pm, err := b.Build()
	if err != nil {
		return nil, fmt.Errorf("co-safe reward product: %v", err)
	}
	pg, err := newGraph(pm)
	if err != nil {
		return nil, err
	}
	opt := *e.opt
	pe := &evaluator{m: pm, g: pg, opt: &opt, env: e.env, depth: e.depth, stats: Stats{Method: opt.Method.String(), Converged: true}}
	target := make([]bool, pm.N)
	for _, s := range pm.Labels[accept] {
		target[s] = true
	}
	v, err := pe.reach(target, pm.Rewards[0])
	if err != nil {
		return nil, err
	}
	e.stats.merge(pe.stats)
	e.stats.Notes = append(e.stats.Notes, fmt.Sprintf("co-safe LTL reward: automaton of %d states by formula progression, product of %d states", len(states), pm.N))
	out := &values{x: make([]float64, e.m.N)}
	if v.exact != nil {
		out.exact = make([]*big.Rat, e.m.N)
	}
	if v.lo != nil {
		out.lo, out.hi = make([]float64, e.m.N), make([]float64, e.m.N)
	}
	for s, q := range first {
		out.x[s] = v.x[q]
		if v.exact != nil {
			out.exact[s] = v.exact[q]
		}
		if v.lo != nil {
			out.lo[s], out.hi[s] = v.lo[q], v.hi[q]
		}
	}
	return out, nil
}
