package checker

import (
	"fmt"
	"math/big"
	"slices"
	"strconv"

	"github.com/augur-perf/augur/markov/dtmc"
	"github.com/augur-perf/augur/markov/pctl"
)

// LTL over a DTMC, by Courcoubetis and Yannakakis's construction (JACM 1995) rather than a
// product with a deterministic automaton: each temporal subformula ψ whose operands are state
// formulas is replaced by a fresh atomic proposition, on a chain in which every state s is split
// into (s, ψ holds on the path from here) and (s, it does not), kept only where that has positive
// probability. Going from (s, c) to (t, c') has probability P(s,t)·Pr_t(ψ=c') / Pr_s(ψ=c) when
// c is what ψ's one-step unfolding at s gives for successor t with c' (X φ: φ(t); φ1 U φ2:
// φ2(s) ∨ (φ1(s) ∧ c')), and 0 otherwise: conditioned on the truth of ψ the chain is again
// Markov, and the new proposition is exactly ψ. Each operator at most doubles the chain, so a
// formula with k temporal operators below the outermost one costs at most 2^k copies of the model;
// no automaton has to be built or determinised. Step bounds are allowed on the outermost
// operator only, which is checked on the final chain as a PCTL path formula.

// maxLTLStates bounds the chain the construction may build.
const maxLTLStates = 1 << 26

// product is the chain after some refinements: every state is a copy of an original one, whose
// weight is the probability, starting in the original state, that the new propositions take the
// values this copy has.
type product struct {
	m      *dtmc.Model
	orig   []int
	weight []float64
	// exact holds the weights as rationals under the exact method (nil otherwise).
	exact []*big.Rat
	atoms int
}

// isLTL says whether a path formula has a temporal operator under another one.
func isLTL(p pctl.PathFormula) bool {
	// Path formulas inside a nested P, E, A, S or R belong to that operator, not to p:
	// F<=1 P>0 [ X F "a" ] is plain PCTL around an LTL argument.
	// So do step bounds: F>(G "a") "a" is F with a bound that is no number (an error when the
	// bound is evaluated), not an LTL formula that no reduction can make plain.
	inner := map[pctl.Node]bool{}
	below := func(ns ...pctl.Node) {
		for _, n := range ns {
			if n != nil && !inner[n] {
				pctl.Walk(n, func(c pctl.Node) { inner[c] = true })
			}
		}
	}
	bound := func(s *pctl.Steps) {
		if s != nil {
			below(s.K, s.Lo, s.Hi)
		}
	}
	pctl.Walk(p, func(n pctl.Node) {
		switch n := n.(type) {
		case *pctl.Prob, *pctl.Quant, *pctl.Steady, *pctl.Reward:
			if !inner[n] {
				pctl.Walk(n, func(c pctl.Node) {
					if c != n {
						inner[c] = true
					}
				})
			}
		case *pctl.Until:
			bound(n.Steps)
		case *pctl.Eventually:
			bound(n.Steps)
		case *pctl.Globally:
			bound(n.Steps)
		}
	})
	found := false
	pctl.Walk(p, func(n pctl.Node) {
		switch n.(type) {
		case *pctl.PathExpr, *pctl.LTL:
			found = found || !inner[n]
		}
	})
	return found
}

// ltl reduces an LTL path formula to a chain and a formula on it: a PCTL path formula (its
// outermost operator) or, for a Boolean combination, a state formula.
func (e *evaluator) ltl(p pctl.PathFormula) (*product, *evaluator, pctl.PathFormula, pctl.StateFormula, error) {
	cur := &product{m: e.m, orig: make([]int, e.m.N), weight: make([]float64, e.m.N)}
	if e.opt.Method == Exact {
		cur.exact = make([]*big.Rat, e.m.N)
	}
	for s := range cur.orig {
		cur.orig[s], cur.weight[s] = s, 1
		if cur.exact != nil {
			cur.exact[s] = big.NewRat(1, 1)
		}
	}
	if l, ok := p.(*pctl.LTL); ok {
		f, err := e.reduce(cur, l.F)
		if err != nil {
			return nil, nil, nil, nil, err
		}
		ev, err := e.on(cur)
		return cur, ev, nil, f, err
	}
	top, err := e.reducePath(cur, p)
	if err != nil {
		return nil, nil, nil, nil, err
	}
	ev, err := e.on(cur)
	return cur, ev, top, nil, err
}

// on is an evaluator for the product's chain, with this one's options and environment.
func (e *evaluator) on(cur *product) (*evaluator, error) {
	if cur.m == e.m {
		return e, nil
	}
	g, err := newGraph(cur.m)
	if err != nil {
		return nil, err
	}
	opt := e.opt
	if opt.Method == Exact && cur.exact == nil {
		// The split chain's probabilities are floating point: rationals would only dress them up.
		o := *opt
		o.Method = Direct
		opt = &o
	}
	return &evaluator{m: cur.m, g: g, opt: opt, env: e.env, depth: e.depth, stats: Stats{Method: opt.Method.String(), Converged: true}}, nil
}

// ltlProb is P=? [ φ ] for LTL φ: Σ over the copies of s of weight·P(copy ⊨ reduced φ).
func (e *evaluator) ltlProb(p pctl.PathFormula) (*values, error) {
	cur, ev, top, f, err := e.ltl(p)
	if err != nil {
		return nil, err
	}
	x := make([]float64, e.m.N)
	var exact []*big.Rat
	if cur.exact != nil {
		exact = make([]*big.Rat, e.m.N)
		for s := range exact {
			exact[s] = new(big.Rat)
		}
	}
	if top != nil {
		v, err := ev.prob(top)
		if err != nil {
			return nil, err
		}
		if v.exact == nil {
			exact = nil
		}
		for q, s := range cur.orig {
			x[s] += cur.weight[q] * v.x[q]
			if exact != nil {
				exact[s].Add(exact[s], new(big.Rat).Mul(cur.exact[q], v.exact[q]))
			}
		}
	} else {
		sat, err := ev.sat(f)
		if err != nil {
			return nil, err
		}
		for q, s := range cur.orig {
			if sat[q] {
				x[s] += cur.weight[q]
				if exact != nil {
					exact[s].Add(exact[s], cur.exact[q])
				}
			}
		}
	}
	e.mergeLTL(cur, ev)
	if exact != nil {
		return exactValues(exact), nil
	}
	return &values{x: x}, nil
}

// ltlQuant is E [ φ ] and A [ φ ] for LTL φ: P>0 holds where some copy of s (all of which have
// positive weight) satisfies the reduced formula with positive probability, P>=1 where all do
// with probability 1; both decided on the graph.
func (e *evaluator) ltlQuant(q *pctl.Quant) ([]bool, error) {
	cur, ev, top, f, err := e.ltl(q.Path)
	if err != nil {
		return nil, err
	}
	var sat []bool
	if top != nil {
		sat, err = ev.quant(&pctl.Quant{Forall: q.Forall, Path: top})
	} else {
		sat, err = ev.sat(f)
	}
	if err != nil {
		return nil, err
	}
	out := make([]bool, e.m.N)
	for s := range out {
		out[s] = q.Forall
	}
	for c, s := range cur.orig {
		if sat[c] != q.Forall {
			out[s] = !q.Forall
		}
	}
	e.mergeLTL(cur, ev)
	return out, nil
}

func (e *evaluator) mergeLTL(cur *product, ev *evaluator) {
	if ev != e {
		e.stats.merge(ev.stats)
	}
	if cur.atoms > 0 {
		how := "solved in floating point by the direct method"
		if cur.exact != nil {
			how = "in exact rationals"
		}
		e.stats.Notes = append(e.stats.Notes, fmt.Sprintf("LTL: %d temporal subformula(s) replaced by propositions on a chain of %d states (Courcoubetis-Yannakakis), %s", cur.atoms, cur.m.N, how))
	}
}

// reduce replaces every path formula in f by a fresh proposition, refining cur for each.
func (e *evaluator) reduce(cur *product, f pctl.StateFormula) (pctl.StateFormula, error) {
	// The reduced nodes are copies of the originals, so that an error about one has the user's
	// column; a path formula where a number belongs is refused here, in the user's words, before
	// it becomes one of the product's atoms.
	switch f := f.(type) {
	case *pctl.PathExpr:
		p, err := e.reducePath(cur, f.P)
		if err != nil {
			return nil, err
		}
		return e.refine(cur, p, f)
	case *pctl.Not:
		n := *f
		var err error
		n.F, err = e.reduce(cur, f.F)
		return &n, err
	case *pctl.Binary:
		if f.Op >= pctl.Add {
			if err := pathAsNumber(f.L, f.R); err != nil {
				return nil, err
			}
		}
		n := *f
		var err error
		if n.L, err = e.reduce(cur, f.L); err != nil {
			return nil, err
		}
		n.R, err = e.reduce(cur, f.R)
		return &n, err
	case *pctl.Compare:
		if f.Op != pctl.EQ && f.Op != pctl.NE {
			if err := pathAsNumber(f.L, f.R); err != nil {
				return nil, err
			}
		} else if other := f.R; holdsPath(f.L) != holdsPath(f.R) {
			if holdsPath(f.R) {
				other = f.L
			}
			if x, err := e.eval(other); err == nil && !x.isBool() {
				return nil, &PositionError{f.Pos(), fmt.Sprintf("%s compares a path formula with a number", f)}
			}
		}
		n := *f
		var err error
		if n.L, err = e.reduce(cur, f.L); err != nil {
			return nil, err
		}
		n.R, err = e.reduce(cur, f.R)
		return &n, err
	case *pctl.Ternary:
		n := *f
		var err error
		if n.Cond, err = e.reduce(cur, f.Cond); err != nil {
			return nil, err
		}
		if n.Then, err = e.reduce(cur, f.Then); err != nil {
			return nil, err
		}
		n.Else, err = e.reduce(cur, f.Else)
		return &n, err
	case *pctl.Neg:
		return f, pathAsNumber(f.X)
	case *pctl.Call:
		return f, pathAsNumber(f.Args...)
	}
	// The parser allows path formulas nowhere else.
	return f, nil
}

// pathAsNumber refuses an operand of arithmetic that holds a path formula of the LTL formula
// being reduced (a path formula holds or not on a path: it is no number).
func pathAsNumber(fs ...pctl.StateFormula) error {
	for _, f := range fs {
		if !holdsPath(f) {
			continue
		}
		// The culprit is the operand the arithmetic gets, not the arithmetic around it.
		switch g := f.(type) {
		case *pctl.Binary:
			if g.Op >= pctl.Add {
				return pathAsNumber(g.L, g.R)
			}
		case *pctl.Neg:
			return pathAsNumber(g.X)
		case *pctl.Call:
			return pathAsNumber(g.Args...)
		case *pctl.Ternary:
			return pathAsNumber(g.Then, g.Else)
		}
		return typeError(f, "a number (it holds a path formula)")
	}
	return nil
}

// holdsPath reports whether f has a path formula of the LTL formula among its operands, at any
// depth of Boolean, arithmetic and comparison operators (not inside P, R or S: those are
// operators of their own).
func holdsPath(f pctl.StateFormula) bool {
	switch f := f.(type) {
	case *pctl.PathExpr:
		return true
	case *pctl.Not:
		return holdsPath(f.F)
	case *pctl.Neg:
		return holdsPath(f.X)
	case *pctl.Binary:
		return holdsPath(f.L) || holdsPath(f.R)
	case *pctl.Compare:
		return holdsPath(f.L) || holdsPath(f.R)
	case *pctl.Ternary:
		// The condition may be a path formula: it only chooses between numbers.
		return holdsPath(f.Then) || holdsPath(f.Else)
	case *pctl.Call:
		return slices.ContainsFunc(f.Args, holdsPath)
	}
	return false
}

// reducePath reduces the operands of a path formula to state formulas.
func (e *evaluator) reducePath(cur *product, p pctl.PathFormula) (pctl.PathFormula, error) {
	var err error
	switch p := p.(type) {
	case *pctl.Next:
		n := *p
		n.F, err = e.reduce(cur, p.F)
		return &n, err
	case *pctl.Eventually:
		n := *p
		n.F, err = e.reduce(cur, p.F)
		return &n, err
	case *pctl.Globally:
		n := *p
		n.F, err = e.reduce(cur, p.F)
		return &n, err
	case *pctl.Until:
		n := *p
		if n.L, err = e.reduce(cur, p.L); err != nil {
			return nil, err
		}
		n.R, err = e.reduce(cur, p.R)
		return &n, err
	}
	return nil, fmt.Errorf("unsupported path formula %s", p)
}

// refine splits cur by the truth of p (whose operands are state formulas of cur) and returns
// the proposition that now stands for it.
func (e *evaluator) refine(cur *product, p pctl.PathFormula, at pctl.Node) (pctl.StateFormula, error) {
	ev, err := e.on(cur)
	if err != nil {
		return nil, err
	}
	m := cur.m
	n := m.N
	// u is the probability of the unnegated form; unfold gives u's truth at s from the next
	// state t and u's truth there.
	var u []float64
	var uq []*big.Rat // u exactly, under the exact method
	var canT, canF []bool
	var unfold func(s, t int, next bool) bool
	negate := false
	if x, ok := p.(*pctl.Next); ok {
		phi, err := ev.sat(x.F)
		if err != nil {
			return nil, err
		}
		canT, canF = ev.successors(phi, false), not(ev.successors(phi, true))
		nv := ev.next(phi)
		u, uq = nv.x, nv.exact
		unfold = func(_, t int, _ bool) bool { return phi[t] }
	} else {
		f, err := ev.toUntil(p)
		if err != nil {
			return nil, err
		}
		if f.lo != 0 || f.hi >= 0 {
			return nil, &PositionError{at.Pos(), fmt.Sprintf("step bounds inside an LTL formula are supported on the outermost temporal operator only, not on %s", p)}
		}
		no := ev.g.prob0(f.l, f.r)
		yes := ev.g.prob1(f.l, f.r, no)
		v, err := ev.until(f.l, f.r)
		if err != nil {
			return nil, err
		}
		u, uq, canT, canF, negate = v.x, v.exact, not(no), not(yes), f.negate
		l, r := f.l, f.r
		unfold = func(s, _ int, next bool) bool { return r[s] || (l[s] && next) }
	}
	if ev != e {
		e.stats.merge(ev.stats)
	}
	count := 0
	for s := 0; s < n; s++ {
		if canT[s] {
			count++
		}
		if canF[s] {
			count++
		}
	}
	if count > maxLTLStates {
		return nil, &PositionError{at.Pos(), fmt.Sprintf("the LTL construction needs more than %d states", maxLTLStates)}
	}
	// Copies in state order, the true copy first.
	idx := make([][2]int32, n)
	src := make([]int, 0, count) // the state of cur each copy was made from
	next := &product{orig: make([]int, 0, count), weight: make([]float64, 0, count), atoms: cur.atoms + 1}
	if cur.exact == nil || uq == nil {
		uq = nil // a float on the way: the rest is floats too
	} else {
		next.exact = make([]*big.Rat, 0, count)
	}
	// wq is u's or 1 - u's rational at t for copy c.
	wq := func(t, c int) *big.Rat {
		if c == 0 {
			return uq[t]
		}
		return new(big.Rat).Sub(big.NewRat(1, 1), uq[t])
	}
	for s := 0; s < n; s++ {
		idx[s] = [2]int32{-1, -1}
		for c, ok := range [2]bool{canT[s], canF[s]} {
			if ok {
				w := u[s]
				if c == 1 {
					w = 1 - u[s]
				}
				idx[s][c] = int32(len(next.orig))
				src = append(src, s)
				next.orig = append(next.orig, cur.orig[s])
				next.weight = append(next.weight, cur.weight[s]*w)
				if uq != nil {
					next.exact = append(next.exact, new(big.Rat).Mul(cur.exact[s], wq(s, c)))
				}
			}
		}
	}
	b := dtmc.NewBuilder(count)
	atom := "ltl\n" + strconv.Itoa(next.atoms) // no parsed label can hold a newline
	b.DeclareLabel(atom)
	type arc struct {
		to int
		w  float64
		q  *big.Rat
	}
	var arcs []arc // one row's transitions, reused
	for s := 0; s < n; s++ {
		for c := 0; c < 2; c++ {
			q := idx[s][c]
			if q < 0 {
				continue
			}
			truth := c == 0
			if truth != negate {
				b.Label(atom, int(q))
			}
			cols, probs := m.Row(s)
			sum := 0.0
			sumq := new(big.Rat)
			arcs = arcs[:0]
			for k, t := range cols {
				for c2 := 0; c2 < 2; c2++ {
					if idx[t][c2] < 0 || unfold(s, t, c2 == 0) != truth {
						continue
					}
					w := u[t]
					if c2 == 1 {
						w = 1 - u[t]
					}
					var q *big.Rat
					if uq != nil {
						q = new(big.Rat).Mul(m.ExactProb(m.RowPtr[s]+k), wq(t, c2))
						if q.Sign() <= 0 {
							continue
						}
						sumq.Add(sumq, q)
					}
					if w = probs[k] * w; w > 0 || q != nil {
						arcs = append(arcs, arc{int(idx[t][c2]), w, q})
						sum += w
					}
				}
			}
			if uq == nil && sum == 0 || uq != nil && sumq.Sign() == 0 {
				return nil, &PositionError{at.Pos(), fmt.Sprintf("the LTL construction lost all probability in state %d (the probabilities of %s underflow)", s, p)}
			}
			// Dividing by the row's sum rather than by Pr_s(ψ=c) keeps rows stochastic to rounding.
			for _, a := range arcs {
				if uq != nil {
					b.AddExact(int(q), a.to, new(big.Rat).Quo(a.q, sumq))
				} else {
					b.Add(int(q), a.to, a.w/sum)
				}
			}
		}
	}
	for name, st := range m.Labels {
		b.DeclareLabel(name)
		for _, s := range st {
			for c := 0; c < 2; c++ {
				if q := idx[s][c]; q >= 0 {
					b.Label(name, int(q))
				}
			}
		}
	}
	// "init" is the original chain's, carried to its copies.
	if _, ok := m.Labels["init"]; !ok {
		init, _ := m.Label("init")
		b.DeclareLabel("init")
		for _, s := range init {
			for c := 0; c < 2; c++ {
				if q := idx[s][c]; q >= 0 {
					b.Label("init", int(q))
				}
			}
		}
	}
	b.SetInit(0)
	nm, err := b.Build()
	if err != nil {
		return nil, fmt.Errorf("LTL construction: %v", err)
	}
	if m.Vars != nil {
		k := len(m.Vars.Names)
		vals := make([]int, 0, count*k)
		for _, s := range src {
			vals = append(vals, m.Vars.Values[s*k:(s+1)*k]...)
		}
		nm.Vars = &dtmc.Vars{Names: m.Vars.Names, Bool: m.Vars.Bool, Values: vals}
	}
	// Reward structures carry over to the copies, so that operators nested in the formula mean
	// on the chain what they meant on the model.
	for _, r := range m.Rewards {
		nr := &dtmc.Reward{Name: r.Name}
		if r.State != nil {
			nr.State = make([]float64, count)
			for q, s := range src {
				nr.State[q] = r.State[s]
			}
		}
		if r.Trans != nil {
			nr.Trans = make([]float64, nm.NumTransitions())
			for q, s := range src {
				for k := nm.RowPtr[q]; k < nm.RowPtr[q+1]; k++ {
					if j, ok := m.Find(s, src[nm.Col[k]]); ok {
						nr.Trans[k] = r.Trans[j]
					}
				}
			}
		}
		nm.Rewards = append(nm.Rewards, nr)
	}
	next.m = nm
	*cur = *next
	return pctl.NewLabel(atom, at.Pos()), nil
}
