// Package checker owns the probabilistic model checking of DTMCs against PCTL properties with
// PRISM's semantics: graph precomputation (Prob0/Prob1), topological decomposition into strongly
// connected components, direct and iterative linear solvers, sound interval bounds, a
// PRISM-compatible Jacobi mode, and exact rational arithmetic for small models; and, on top of
// them, the evaluation of PRISM's whole property language for DTMCs: expressions, filters,
// constants and references (expr.go, filter.go), time-bounded and qualitative path formulas
// (temporal.go), LTL (ltl.go) and co-safe LTL rewards (cosafe.go).
//
// It reads models (package dtmc) and parsed properties (package pctl) and never changes either;
// it does no file I/O and no printing: callers decide how results are shown.
//
// Its size (about 5k lines) is one solver core — the predecessor graph, the SCC-ordered systems,
// elimination, dense LU, blocked Gauss–Seidel, interval iteration and exact rational arithmetic —
// shared by every operator of the language; the files above divide it by concern, and splitting
// them into packages would export that core's internal state.
package checker

import (
	"fmt"
	"math"
	"math/big"

	"github.com/augur-perf/augur/markov/dtmc"
	"github.com/augur-perf/augur/markov/pctl"
)

// Method selects how unbounded properties are solved.
type Method int

const (
	// Direct decomposes into strongly connected components and solves each by sparse elimination
	// (dense LU when elimination fills in too much), falling back to Gauss–Seidel only for
	// components too large for either.
	Direct Method = iota
	// GaussSeidel iterates every component to a relative convergence criterion.
	GaussSeidel
	// Interval returns sound lower and upper bounds on the exact values: each component solved as
	// by Direct (or Gauss–Seidel) and its solution verified, rounding outward (see interval.go).
	Interval
	// PRISM reproduces PRISM's default: Jacobi from 0, relative termination 1e-6.
	PRISM
	// Exact computes in rational arithmetic.
	Exact
)

var methodNames = []string{"direct", "gauss-seidel", "interval", "prism", "exact"}

func (m Method) String() string { return methodNames[m] }

// ParseMethod reads a method name as the CLI spells it.
func ParseMethod(s string) (Method, error) {
	for i, n := range methodNames {
		if n == s {
			return Method(i), nil
		}
	}
	return 0, fmt.Errorf("unknown method %q (choose one of %v)", s, methodNames)
}

// Options tune a check. The zero value is the direct method with default tolerances.
type Options struct {
	Method Method
	// Epsilon is the convergence threshold of iterative methods: relative change for
	// Gauss–Seidel and PRISM (default 1e-12 and 1e-6), relative half-width of the bounds for
	// Interval (default 1e-6).
	Epsilon float64
	// MaxIter bounds iterative methods (default 10000 for PRISM, as PRISM; 1e6 otherwise).
	MaxIter int
	// DenseMax is the largest component solved by dense LU when elimination fills in too much
	// (default 1000).
	DenseMax int
}

func (o *Options) epsilon() float64 {
	if o.Epsilon > 0 {
		return o.Epsilon
	}
	switch o.Method {
	case PRISM, Interval:
		return 1e-6
	}
	return 1e-12
}

func (o *Options) maxIter() int {
	if o.MaxIter > 0 {
		return o.MaxIter
	}
	if o.Method == PRISM {
		return 10000
	}
	return 1000000
}

func (o *Options) denseMax() int {
	if o.DenseMax > 0 {
		return o.DenseMax
	}
	return 1000
}

// Result is the value of a property in every state and the answer PRISM would give for it.
//
// Without a filter around the whole property, the answer is PRISM's default: for a state formula
// whether it holds in every initial state (Holds); for a number its value in the initial state,
// or, with several initial states, the range of its values over them (Min, Max). For models with
// an initial distribution, Initial is also the expectation over it.
//
// With filter(op, prop, states) around the whole property, Filter is op and the answer is Value
// (min, max, count, sum, avg, first, state), Holds (forall, exists, or first and state of a state
// formula), Min and Max (range), or States (argmin and argmax: the states attaining the optimum;
// print and printall: the states to print, whose values are in Values or Sat).
type Result struct {
	// Property is the formula as checked.
	Property string
	// Bool is set for properties with a Boolean value: Sat says where they hold.
	Bool  bool
	Sat   []bool
	Holds bool
	// Values holds the numeric value per state for numeric properties; +Inf marks infinite
	// expected rewards.
	Values []float64
	// Initial is the value for the initial distribution (Σ init(s)·Values[s]).
	Initial float64
	// Min and Max are the least and greatest value over the initial states (or, for a range
	// filter, over the filter's states).
	Min, Max float64
	// Filter is the operator of a filter around the whole property ("" when there is none);
	// Value and States are its answer as described above.
	Filter string
	Value  float64
	States []int
	// Lo and Hi are sound bounds per state (Interval method only), InitialLo/InitialHi for the
	// initial distribution.
	Lo, Hi               []float64
	InitialLo, InitialHi float64
	// Exact holds the rational values (Exact method only; nil where the value is infinite), and
	// InitialExact the initial one.
	Exact        []*big.Rat
	InitialExact *big.Rat
	// Infinite counts the states with infinite value, with the reason.
	Infinite int
	Stats    Stats
}

// Check evaluates one property on a model.
func Check(m *dtmc.Model, f pctl.StateFormula, opt Options) (*Result, error) {
	return CheckIn(m, f, nil, opt)
}

// CheckIn evaluates one property on a model, with constants, named properties and labels from
// env (which may be nil).
func CheckIn(m *dtmc.Model, f pctl.StateFormula, env *Env, opt Options) (*Result, error) {
	g, err := newGraph(m)
	if err != nil {
		return nil, err
	}
	if env == nil {
		env = &Env{}
	}
	if m.Vars != nil {
		if err := m.Vars.Validate(m.N); err != nil {
			return nil, err
		}
	}
	e := &evaluator{m: m, g: g, opt: &opt, env: env, stats: Stats{Method: opt.Method.String(), Converged: true}}
	res := &Result{Property: f.String()}
	var x *vec
	if fl, ok := f.(*pctl.Filter); ok {
		r, err := e.filter(fl)
		if err != nil {
			return nil, err
		}
		x = r.prop
		res.Filter, res.Value, res.Min, res.Max, res.States = r.op, r.value, r.min, r.max, r.which
		res.Holds = r.holds
	} else if x, err = e.eval(f); err != nil {
		return nil, err
	}
	res.Stats = e.stats
	if x.isBool() {
		res.Bool, res.Sat = true, x.b
		if res.Filter == "" {
			res.Holds = true
			for _, in := range m.Init {
				res.Holds = res.Holds && x.b[in.State]
			}
		}
		return res, nil
	}
	res.fill(m, x.v)
	if res.Filter == "" {
		res.Min, res.Max = math.Inf(1), math.Inf(-1)
		for _, in := range m.Init {
			res.Min, res.Max = math.Min(res.Min, x.v.x[in.State]), math.Max(res.Max, x.v.x[in.State])
		}
	}
	return res, nil
}

func (r *Result) fill(m *dtmc.Model, v *values) {
	r.Values, r.Lo, r.Hi, r.Exact = v.x, v.lo, v.hi, v.exact
	for _, in := range m.Init {
		r.Initial += in.P * v.x[in.State]
		if v.lo != nil {
			// Rounded outward, and widened by the initial probabilities' own distance from their
			// rationals (half an ulp each) when there are several.
			l, h := v.lo[in.State], v.hi[in.State]
			if len(m.Init) > 1 {
				l, h = down(in.P*l*(1-2*unit)), up(in.P*h*(1+2*unit))
			}
			r.InitialLo, r.InitialHi = down(r.InitialLo+l), up(r.InitialHi+h)
		}
	}
	if v.lo != nil && len(m.Init) == 1 {
		r.InitialLo, r.InitialHi = v.lo[m.Init[0].State], v.hi[m.Init[0].State]
	}
	for _, x := range v.x {
		if math.IsInf(x, 1) {
			r.Infinite++
		}
	}
	exact := v.exact != nil
	for _, in := range m.Init {
		exact = exact && v.exact[in.State] != nil
	}
	if exact {
		r.InitialExact = new(big.Rat)
		for _, in := range m.Init {
			w := dtmc.Decimal(in.P)
			if len(m.Init) == 1 {
				w.SetInt64(1)
			}
			r.InitialExact.Add(r.InitialExact, w.Mul(w, v.exact[in.State]))
		}
	}
}

func bound(f pctl.StateFormula) pctl.Bound {
	switch f := f.(type) {
	case *pctl.Prob:
		return f.Bound
	case *pctl.Reward:
		return f.Bound
	case *pctl.Steady:
		return f.Bound
	}
	return pctl.Bound{}
}

// values is a numeric result per state in the representations the method produces.
type values struct {
	x      []float64
	lo, hi []float64
	exact  []*big.Rat
}

type evaluator struct {
	m     *dtmc.Model
	g     *graph
	opt   *Options
	env   *Env
	depth int // of eval's recursion, against reference cycles
	stats Stats
	// exactP caches the exact transition probabilities (Exact method only).
	exactP []*big.Rat
}

// PositionError is an error about a part of the property, such as an unknown label.
type PositionError struct {
	Col int
	Msg string
}

func (e *PositionError) Error() string { return fmt.Sprintf("column %d: %s", e.Col, e.Msg) }

func compareFloat(a float64, op pctl.CmpOp, b float64) bool {
	switch op {
	case pctl.LT:
		return a < b
	case pctl.LE:
		return a <= b
	case pctl.GT:
		return a > b
	case pctl.GE:
		return a >= b
	case pctl.EQ:
		return a == b
	case pctl.NE:
		return a != b
	}
	return false
}

func compareRat(a *big.Rat, op pctl.CmpOp, b float64) bool {
	c := a.Cmp(dtmc.Decimal(b))
	return compareFloat(float64(c), op, 0)
}

// value evaluates a P, R or S operator to numbers per state.
func (e *evaluator) value(f pctl.StateFormula) (*values, error) {
	switch f := f.(type) {
	case *pctl.Prob:
		return e.prob(f.Path)
	case *pctl.Reward:
		return e.reward(f)
	case *pctl.Steady:
		phi, err := e.sat(f.F)
		if err != nil {
			return nil, err
		}
		return e.steady(phi)
	}
	return nil, fmt.Errorf("not a numeric operator: %s", f)
}

// complement turns P[ψ] into P[¬ψ] = 1 - P[ψ], swapping the bounds.
func (v *values) complement() *values {
	out := &values{x: make([]float64, len(v.x))}
	for i, x := range v.x {
		out.x[i] = 1 - x
	}
	if v.lo != nil {
		out.lo, out.hi = make([]float64, len(v.x)), make([]float64, len(v.x))
		for i := range v.x {
			out.lo[i], out.hi[i] = math.Max(0, down(1-v.hi[i])), math.Min(1, up(1-v.lo[i]))
		}
	}
	if v.exact != nil {
		out.exact = make([]*big.Rat, len(v.x))
		one := big.NewRat(1, 1)
		for i, r := range v.exact {
			out.exact[i] = new(big.Rat).Sub(one, r)
		}
	}
	return out
}

func (e *evaluator) next(phi []bool) *values {
	if e.opt.Method == Exact {
		return e.exactNext(phi)
	}
	return e.iterate(1, indicatorF(phi), false, func(int) float64 { return 0 }, func(int) bool { return true }).capped()
}

// iterate runs x⁰ = start, xⁱ(s) = add(s) + Σ_t P(s,t)·xⁱ⁻¹(t) for the states where step holds
// (others keep add(s)), k times: the one recurrence behind every step-bounded operator. start is
// not written to, so add may read it. add is nonnegative.
//
// For the Interval method it also runs the recurrence on a lower and an upper bound, each step's
// sums widened by their rounding error and the distance of the model's floats from its rationals
// (see rowError) and rounded outward; inexact says start's values are floats standing for
// rationals (rewards), off by up to half an ulp each.
func (e *evaluator) iterate(k int, start []float64, inexact bool, add func(int) float64, step func(int) bool) *values {
	m := e.m
	x, y := append([]float64(nil), start...), make([]float64, m.N)
	var lo, hi, lo2, hi2 []float64
	bounds := e.opt.Method == Interval
	if bounds {
		lo, hi = append([]float64(nil), start...), append([]float64(nil), start...)
		if inexact {
			for s := range lo {
				lo[s], hi[s] = down(lo[s]*(1-2*unit)), up(hi[s]*(1+2*unit))
			}
		}
		lo2, hi2 = make([]float64, m.N), make([]float64, m.N)
	}
	for i := 0; i < k; i++ {
		for s := range y {
			a := add(s)
			if !step(s) {
				y[s] = a
				if bounds {
					lo2[s], hi2[s] = a, a
				}
				continue
			}
			v, vlo, vhi, sum := a, a, a, 0.0
			for j := m.RowPtr[s]; j < m.RowPtr[s+1]; j++ {
				t, p := m.Col[j], m.Prob[j]
				v += p * x[t]
				if bounds {
					sum += p
					vlo += p * lo[t]
					vhi += p * hi[t]
				}
			}
			y[s] = v
			if bounds {
				n := m.RowPtr[s+1] - m.RowPtr[s]
				rho, d := rowError(sum, n), tiny(n)
				lo2[s], hi2[s] = math.Max(0, down(vlo*(1-rho)-d)), up(vhi*(1+rho)+d)
			}
		}
		x, y = y, x
		lo, lo2, hi, hi2 = lo2, lo, hi2, hi
	}
	if !bounds {
		return &values{x: x}
	}
	// The midpoints are the values, so that the half-widths bound their errors.
	for s := range x {
		x[s] = lo[s] + (hi[s]-lo[s])/2
		if half := (hi[s] - lo[s]) / 2; half > 0 && lo[s] > 0 {
			e.stats.ErrEstimate = math.Max(e.stats.ErrEstimate, up(half/lo[s]))
		}
	}
	return &values{x: x, lo: lo, hi: hi}
}

// capped keeps probabilities and their bounds within [0, 1]: outward rounding may carry a
// bound, and the midpoint with it, an ulp past either end.
func (v *values) capped() *values {
	for s := range v.hi {
		v.hi[s] = math.Min(v.hi[s], 1)
		v.lo[s] = math.Max(v.lo[s], 0)
	}
	for s := range v.x {
		v.x[s] = math.Min(math.Max(v.x[s], 0), 1)
	}
	return v
}

func indicatorF(b []bool) []float64 {
	x := make([]float64, len(b))
	for i, in := range b {
		if in {
			x[i] = 1
		}
	}
	return x
}

// boundedUntil iterates k steps: x⁰ = [φ2], xⁱ = [φ2] + [φ1∧¬φ2]·P·xⁱ⁻¹.
func (e *evaluator) boundedUntil(l, r []bool, k int) *values {
	if e.opt.Method == Exact {
		return e.exactBoundedUntil(l, r, k)
	}
	ind := indicatorF(r)
	return e.iterate(k, ind, false, func(s int) float64 { return ind[s] }, func(s int) bool { return l[s] && !r[s] }).capped()
}

// until solves unbounded φ1 U φ2 after Prob0/Prob1 precomputation.
func (e *evaluator) until(l, r []bool) (*values, error) {
	no := e.g.prob0(l, r)
	yes := e.g.prob1(l, r, no)
	unknown := make([]bool, e.m.N)
	for s := range unknown {
		unknown[s] = !no[s] && !yes[s]
	}
	known := func(s int) float64 {
		if yes[s] {
			return 1
		}
		return 0
	}
	return e.solve(unknown, known, nil, true)
}

// solve runs the chosen method on x_s = Σ_t P(s,t)·(rew(s,t) + x_t) + rew(s) for s in unknown,
// with x_t = known(t) elsewhere, and completes the result with the known values.
func (e *evaluator) solve(unknown []bool, known func(int) float64, rew *dtmc.Reward, isProb bool) (*values, error) {
	if e.opt.Method == Exact {
		return e.exactSolve(unknown, known, rew)
	}
	b := make([]float64, e.m.N)
	both(func(h int) {
		for s := h * e.m.N / 2; s < (h+1)*e.m.N/2; s++ {
			if !unknown[s] {
				continue
			}
			if rew != nil && rew.State != nil {
				b[s] = rew.State[s]
			}
			for k := e.m.RowPtr[s]; k < e.m.RowPtr[s+1]; k++ {
				t, p := e.m.Col[k], e.m.Prob[k]
				if rew != nil && rew.Trans != nil {
					b[s] += p * rew.Trans[k]
				}
				if !unknown[t] {
					b[s] += p * known(t)
				}
			}
		}
	})
	sys := &system{g: e.g, unknown: unknown, b: b}
	if e.opt.Method == Interval {
		sys.exact = func(comp []int, lo, hi []float64) error { return e.exactBounds(comp, unknown, known, rew, lo, hi) }
	}
	sol, err := sys.solve(e.opt)
	if err != nil {
		return nil, err
	}
	e.stats.merge(sol.stats)
	v := &values{x: sol.x, lo: sol.lo, hi: sol.hi}
	for s := range v.x {
		if !unknown[s] {
			v.x[s] = known(s)
			if v.lo != nil {
				v.lo[s], v.hi[s] = v.x[s], v.x[s]
			}
		} else if isProb && v.hi != nil {
			v.hi[s] = math.Min(v.hi[s], 1)
		}
	}
	return v, nil
}
