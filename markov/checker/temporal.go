package checker

import (
	"fmt"
	"math/big"

	"github.com/augur-perf/augur/markov/pctl"
)

// untilForm is a path formula rewritten, as PRISM does, into φ1 U[lo,hi] φ2, possibly negated:
//
//	F^I φ   = true U^I φ
//	G^I φ   = ¬(true U^I ¬φ)
//	φ1 W^I φ2 = ¬((φ1∧¬φ2) U^I (¬φ1∧¬φ2))
//	φ1 R^I φ2 = ¬(¬φ1 U^I ¬φ2)
//
// hi < 0 means no upper bound. A path satisfies φ1 U[lo,hi] φ2 when φ2 holds at some step i in
// [lo,hi] and φ1 at every step before i.
type untilForm struct {
	l, r   []bool
	lo, hi int
	negate bool
}

// stepRange turns a time bound into [lo,hi] (hi < 0: unbounded): <k is <=k-1 and >k is >=k+1
// in discrete time.
func (e *evaluator) stepRange(s *pctl.Steps, at pctl.Node) (int, int, error) {
	if s == nil {
		return 0, -1, nil
	}
	if s.Interval {
		lo, err := e.steps(s.Lo)
		if err != nil {
			return 0, 0, err
		}
		hi, err := e.steps(s.Hi)
		if err != nil {
			return 0, 0, err
		}
		if lo > hi {
			return 0, 0, &PositionError{at.Pos(), fmt.Sprintf("the step interval [%d,%d] is empty", lo, hi)}
		}
		return lo, hi, nil
	}
	k, err := e.steps(s.K)
	if err != nil {
		return 0, 0, err
	}
	switch s.Op {
	case pctl.LE:
		return 0, k, nil
	case pctl.LT:
		if k == 0 {
			return 0, 0, &PositionError{at.Pos(), "the step bound <0 admits no step"}
		}
		return 0, k - 1, nil
	case pctl.GE:
		return k, -1, nil
	case pctl.GT:
		return k + 1, -1, nil
	case pctl.EQ:
		return k, k, nil
	}
	return 0, 0, &PositionError{at.Pos(), fmt.Sprintf("unsupported step bound %s", s)}
}

func not(b []bool) []bool {
	out := make([]bool, len(b))
	for i := range b {
		out[i] = !b[i]
	}
	return out
}

func and(a, b []bool) []bool {
	out := make([]bool, len(a))
	for i := range a {
		out[i] = a[i] && b[i]
	}
	return out
}

// toUntil rewrites F, G, U, W and R; X is the one path formula it does not take.
func (e *evaluator) toUntil(p pctl.PathFormula) (*untilForm, error) {
	var u untilForm
	var steps *pctl.Steps
	switch p := p.(type) {
	case *pctl.Eventually:
		r, err := e.sat(p.F)
		if err != nil {
			return nil, err
		}
		u.l, u.r, steps = e.fillBool(true), r, p.Steps
	case *pctl.Globally:
		phi, err := e.sat(p.F)
		if err != nil {
			return nil, err
		}
		u.l, u.r, u.negate, steps = e.fillBool(true), not(phi), true, p.Steps
	case *pctl.Until:
		l, err := e.sat(p.L)
		if err != nil {
			return nil, err
		}
		r, err := e.sat(p.R)
		if err != nil {
			return nil, err
		}
		steps = p.Steps
		switch p.Op {
		case pctl.U:
			u.l, u.r = l, r
		case pctl.W:
			u.l, u.r, u.negate = and(l, not(r)), and(not(l), not(r)), true
		case pctl.R:
			u.l, u.r, u.negate = not(l), not(r), true
		}
	default:
		return nil, fmt.Errorf("unsupported path formula %s", p)
	}
	var err error
	if u.lo, u.hi, err = e.stepRange(steps, p); err != nil {
		return nil, err
	}
	return &u, nil
}

// prob is P=? [ path ] in every state.
func (e *evaluator) prob(p pctl.PathFormula) (*values, error) {
	if isLTL(p) {
		return e.ltlProb(p)
	}
	if x, ok := p.(*pctl.Next); ok {
		phi, err := e.sat(x.F)
		if err != nil {
			return nil, err
		}
		return e.next(phi), nil
	}
	u, err := e.toUntil(p)
	if err != nil {
		return nil, err
	}
	var v *values
	if u.hi < 0 {
		if v, err = e.until(u.l, u.r); err != nil {
			return nil, err
		}
	} else {
		v = e.boundedUntil(u.l, u.r, u.hi-u.lo)
	}
	if u.lo > 0 {
		v = e.stepsWithin(v, u.l, u.lo)
	}
	if u.negate {
		v = v.complement()
	}
	return v, nil
}

// stepsWithin is the first lo steps of a lower-bounded until: φ1 must hold at each of them
// (φ2 does not count yet), then v applies: xⁱ = [φ1]·P·xⁱ⁻¹ from x⁰ = v, lo times. The bounds of
// the interval method are carried through the same recurrence, which is monotone.
func (e *evaluator) stepsWithin(v *values, l []bool, lo int) *values {
	inL := func(s int) bool { return l[s] }
	if v.exact != nil {
		zero := new(big.Rat)
		return exactValues(e.exactIterate(lo, v.exact, func(int) *big.Rat { return zero }, inL))
	}
	zero := func(int) float64 { return 0 }
	out := &values{x: e.iterate(lo, v.x, false, zero, inL).x}
	if v.lo != nil {
		// The recurrence is monotone: the lower bound's run from v's lower bound, the upper's
		// from its upper bound.
		out.lo = e.iterate(lo, v.lo, false, zero, inL).lo
		out.hi = e.iterate(lo, v.hi, false, zero, inL).hi
	}
	return out.capped()
}

// quant is E [ path ] (P>0) and A [ path ] (P>=1), decided on the graph alone, so that no
// rounding can make a probability-1 path formula fail A.
func (e *evaluator) quant(q *pctl.Quant) ([]bool, error) {
	if isLTL(q.Path) {
		return e.ltlQuant(q)
	}
	if x, ok := q.Path.(*pctl.Next); ok {
		phi, err := e.sat(x.F)
		if err != nil {
			return nil, err
		}
		return e.successors(phi, q.Forall), nil
	}
	u, err := e.toUntil(q.Path)
	if err != nil {
		return nil, err
	}
	// E[¬ψ] holds where P(ψ) < 1, i.e. where A[ψ] does not; A[¬ψ] where P(ψ) = 0.
	forall := q.Forall != u.negate
	var b []bool
	switch {
	case u.hi >= 0:
		b = e.boolUntil(u.l, u.r, u.hi-u.lo, forall)
	case forall:
		b = e.g.prob1(u.l, u.r, e.g.prob0(u.l, u.r))
	default:
		b = not(e.g.prob0(u.l, u.r))
	}
	for i := 0; i < u.lo; i++ {
		b = and(u.l, e.successors(b, forall))
	}
	if u.negate {
		b = not(b)
	}
	return b, nil
}

// successors marks the states some (all, when forall) of whose successors are in b.
func (e *evaluator) successors(b []bool, forall bool) []bool {
	out := make([]bool, e.m.N)
	for s := range out {
		cols, _ := e.m.Row(s)
		out[s] = forall
		for _, t := range cols {
			if b[t] != forall {
				out[s] = !forall
				break
			}
		}
	}
	return out
}

// boolUntil is the qualitative bounded until: x⁰ = φ2, xⁱ = φ2 ∨ (φ1 ∧ some/all successors in
// xⁱ⁻¹), k times; with all successors it is P=1, with some P>0.
func (e *evaluator) boolUntil(l, r []bool, k int, forall bool) []bool {
	x := append([]bool(nil), r...)
	for i := 0; i < k; i++ {
		next := e.successors(x, forall)
		for s := range next {
			next[s] = r[s] || (l[s] && next[s])
		}
		x = next
	}
	return x
}
