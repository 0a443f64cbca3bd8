package checker

import (
	"fmt"
	"math"
	"math/big"
	"slices"

	"github.com/augur-perf/augur/markov/dtmc"
)

// Sound bounds, component by component.
//
// The interval method solves U's components sinks first, as the direct method does, and gives
// every state a lower and an upper bound that contain the exact value of the model whose
// probabilities and rewards are the rationals the exact method uses. Each component's bounds
// come from an approximate solution by any method (elimination, dense LU, Gauss–Seidel) and a
// verification of it: for the component's equations (I-A)x = b, where I-A is a nonsingular
// M-matrix (every state leaves the component with probability 1), the error of an approximation
// x̃ is (I-A)⁻¹r with r = b - (I-A)x̃ its residual, and (I-A)⁻¹ is nonnegative. So with w̃ any
// vector with (I-A)w̃ ≥ q·1 for some q > 0 (an approximation of the expected number of steps in
// the component, checked), (I-A)⁻¹1 ≤ w̃/q and
//
//	x̃ - max(r⁻)·w̃/q  ≤  x  ≤  x̃ + max(r⁺)·w̃/q.
//
// This is the a-posteriori bound of verified computing (an M-matrix version of Rump's), and like
// the expected-visits bound of Baier et al. (CAV 2017) it gives a finite upper bound for rewards
// without iterating from infinity. Values of the components solved before enter b as their lower
// bounds for the lower system and upper bounds for the upper one: x is monotone in b. Every
// residual is computed in floating point with a bound on its error, from the rounding of each
// operation (|fl(Σ) - Σ| ≤ γ_m·Σ|terms|) and from the difference between the model's float64
// probabilities and its exact rationals (half an ulp each, and a row's sum off 1 by what the
// floats show), and the final operations are rounded outward (math.Nextafter). The bounds hold
// whatever the approximation's quality; a poor one only makes them wide, and a width beyond ε
// is reported as not converged.

// unit is the unit roundoff of float64: a correctly rounded operation is off by at most
// unit·|result| (plus half the smallest subnormal on underflow).
const unit = 0x1p-53

func up(x float64) float64   { return math.Nextafter(x, math.Inf(1)) }
func down(x float64) float64 { return math.Nextafter(x, math.Inf(-1)) }

// rowError bounds the relative error of a sum over a row of k transitions (and up to two more
// terms) formed in floating point, against the same sum over the model's exact rationals: each
// probability is within half an ulp of its rational before the row is normalised, and the exact
// method divides a row by its sum, which is within k ulps of the float sum. It is generous by
// a factor of two so that the products and roundings of the bound itself are covered.
func rowError(sum float64, k int) float64 {
	return 2 * (math.Abs(sum-1) + float64(2*k+8)*unit)
}

// exactMax is the largest component that is solved in rationals when floating-point bounds fail.
const exactMax = 300

// tiny covers underflow: each of a row's operations may lose up to half the smallest subnormal.
func tiny(k int) float64 { return float64(k+4) * math.SmallestNonzeroFloat64 }

// interval computes sound bounds for every state of U, component by component in topological
// order, and their midpoints as the values.
func (sys *system) interval(opt *Options) (*solution, error) {
	m := sys.g.m
	lo, hi := make([]float64, m.N), make([]float64, m.N)
	states, bounds := sys.g.sccs(sys.unknown)
	sol := &solution{lo: lo, hi: hi, stats: Stats{Method: opt.Method.String(), Converged: true}}
	sol.stats.Unknowns = len(states)
	sol.stats.SCCs = len(bounds) - 1
	loc := make([]int32, m.N)
	for i := range loc {
		loc[i] = -1
	}
	ws := &localSystem{}
	eps := opt.epsilon()
	worst, open := 0.0, 0
	sol.x = make([]float64, m.N)
	for c := 0; c+1 < len(bounds); c++ {
		comp := states[bounds[c]:bounds[c+1]]
		if len(comp) == 1 {
			sol.stats.DirectSCCs++
			if err := sys.singleBounds(lo, hi, comp[0]); err != nil {
				return nil, err
			}
		} else {
			for i, s := range comp {
				loc[s] = int32(i)
			}
			if err := sys.componentBounds(ws, comp, loc, lo, hi, opt, &sol.stats); err != nil {
				return nil, err
			}
			for _, s := range comp {
				loc[s] = -1
			}
		}
		// A component's bounds come from one residual over all of it, so a state whose value is
		// tiny next to the component's largest (or zero) may never be bounded relatively: its
		// width counts against ε times that largest value (and 1e-300 stands for zero).
		scale := 0.0
		for _, s := range comp {
			scale = math.Max(scale, hi[s])
		}
		for _, s := range comp {
			l, h := lo[s], hi[s]
			sol.x[s] = l + (h-l)/2
			if math.IsInf(h, 1) {
				sol.x[s] = l
			}
			// The midpoint's relative error is at most the half-width over the lower bound.
			if math.IsInf(h, 1) {
				worst = h
			} else if half := (h - l) / 2; half > 0 && l > 0 {
				worst = math.Max(worst, up(half/l))
			}
			if math.IsInf(h, 1) || !(h-l <= eps*math.Max(h+l, scale) || h-l <= 1e-300) {
				open++
			}
		}
	}
	sol.stats.ErrEstimate = worst
	if open > 0 {
		sol.stats.Converged = false
		sol.stats.Notes = append(sol.stats.Notes, fmt.Sprintf("interval: the bounds of %d states are further apart than ε=%g allows; they still hold", open, eps))
	}
	return sol, nil
}

// singleBounds bounds the value of a component of one state s, x = (b + Σ_{t≠s} p·x_t) / rate,
// from the bounds of its successors.
func (sys *system) singleBounds(lo, hi []float64, s int) error {
	m := sys.g.m
	sum, rate, nlo, nhi := 0.0, 0.0, sys.b[s], sys.b[s]
	for k := m.RowPtr[s]; k < m.RowPtr[s+1]; k++ {
		t, p := m.Col[k], m.Prob[k]
		sum += p
		if t == s {
			continue
		}
		rate += p
		if sys.unknown[t] {
			nlo += p * lo[t]
			nhi += p * hi[t]
		}
	}
	if rate == 0 {
		return fmt.Errorf("internal error: state %d never leaves the unknown states", s)
	}
	k := m.RowPtr[s+1] - m.RowPtr[s]
	rho, d := rowError(sum, k), tiny(k)
	// Every term of both sums is nonnegative, so their relative errors are bounded by rho.
	nlo, nhi = down(nlo*(1-rho)-d), up(nhi*(1+rho)+d)
	rlo, rhi := down(rate*(1-rho)), up(rate*(1+rho))
	if rlo <= 0 {
		lo[s], hi[s] = 0, math.Inf(1)
		return nil
	}
	lo[s], hi[s] = math.Max(0, down(nlo/rhi)), up(nhi/rlo)
	return nil
}

// componentBounds bounds the values of a component of several states: approximate solutions of
// its lower and upper systems, and a bound w on its expected steps, then the verification.
//
// Components solved directly get w as one more right-hand side. For iterated ones, where every
// state earns at least β > 0 per step (b ≥ β, as with time rewards), the lower system's own
// solution serves: (I-A)x̃ ≈ b ≥ β·1, so x̃/β bounds the expected steps and costs no solve.
// Otherwise, or if that does not verify, w is iterated for.
func (sys *system) componentBounds(ws *localSystem, comp []int, loc []int32, lo, hi []float64, opt *Options, st *Stats) error {
	n := len(comp)
	m := sys.g.m
	// The upper system's right-hand side differs from the lower's by what the solved successors'
	// bounds differ by; an infinite upper bound there leaves this component's infinite too.
	extra := make([]float64, n)
	infinite, beta := false, math.Inf(1)
	for i, s := range comp {
		b := sys.b[s]
		for k := m.RowPtr[s]; k < m.RowPtr[s+1]; k++ {
			if t := m.Col[k]; sys.unknown[t] && loc[t] < 0 {
				b += m.Prob[k] * lo[t]
				extra[i] += m.Prob[k] * (hi[t] - lo[t])
			}
		}
		beta = math.Min(beta, b)
		infinite = infinite || math.IsInf(extra[i], 1)
	}
	earning := beta > 0 && !math.IsInf(beta, 1)
	var xlo, xhi, w []float64
	var local *localSystem
	if sys.g.eliminationLikely(comp, loc) || n <= opt.denseMax() {
		local = ws.fill(sys, comp, loc, lo)
		xlo = append([]float64(nil), local.b...)
		rhs := [][]float64{xlo}
		if !infinite {
			xhi = append([]float64(nil), local.b...)
			for i := range xhi {
				xhi[i] += extra[i]
			}
			rhs = append(rhs, xhi)
		}
		// Elimination carries another right-hand side almost for free, and the expected steps
		// bound far tighter than x̃/β where x̃ is mostly what the component's successors earn.
		w = ones(n)
		rhs = append(rhs, w)
		ok, err := local.directSolve(sys.g, comp, loc, rhs, opt, st)
		if err != nil {
			return err
		}
		if !ok {
			local, xhi, w = nil, nil, nil
		}
	}
	var z *seidel
	if local == nil {
		var err error
		if z, err = newSeidel(sys, comp, loc, lo); err != nil {
			return err
		}
		xlo = make([]float64, n)
		it, _ := z.iterate(xlo, math.Min(1e-12, opt.epsilon()/100), opt.maxIter())
		st.IterSCCs++
		st.Iterations += it
	}
	if xhi == nil || infinite {
		xhi = xlo
	}
	verified := false
	if earning && w == nil {
		verified = sys.verify(comp, loc, lo, hi, xlo, xhi, nil, 1/beta)
	}
	if !verified {
		var err error
		if w == nil {
			if local != nil {
				w = ones(n)
				_, err = local.directSolve(sys.g, comp, loc, [][]float64{w}, opt, st)
				verified = err == nil && sys.verify(comp, loc, lo, hi, xlo, xhi, w, 0)
			} else {
				verified = sys.iterateSteps(z, comp, loc, lo, hi, xlo, xhi, opt, st)
			}
		} else {
			verified = sys.verify(comp, loc, lo, hi, xlo, xhi, w, 0)
		}
		if err != nil {
			return err
		}
	}
	if !verified {
		// Stiff components (expected times of 1e22 steps) defeat any residual formed in floats.
		// Small ones are solved in rationals instead.
		if n <= exactMax && sys.exact != nil {
			st.Notes = append(st.Notes, fmt.Sprintf("interval: a component of %d states did not verify in floating point and was solved in rational arithmetic", n))
			return sys.exact(comp, lo, hi)
		}
		st.Notes = append(st.Notes, fmt.Sprintf("interval: the expected steps in a component of %d states could not be bounded (the approximation was too poor); its upper bounds are left infinite", n))
	}
	if infinite {
		for _, s := range comp {
			hi[s] = math.Inf(1)
		}
	}
	return nil
}

func ones(n int) []float64 {
	w := make([]float64, n)
	for i := range w {
		w[i] = 1
	}
	return w
}

// iterateSteps approximates the component's expected steps w (the system with b = 1) by
// Gauss–Seidel on z, which verification needs only roughly: it asks for a few digits and more
// only if they do not verify. It returns whether the bounds verified.
func (sys *system) iterateSteps(z *seidel, comp []int, loc []int32, lo, hi, xlo, xhi []float64, opt *Options, st *Stats) bool {
	m := sys.g.m
	for i, s := range comp {
		rate := 0.0
		for k := m.RowPtr[s]; k < m.RowPtr[s+1]; k++ {
			if m.Col[k] != s {
				rate += m.Prob[k]
			}
		}
		z.b[i] = 1 / rate
	}
	z.sumB = float64(len(comp))
	w := make([]float64, len(comp))
	for tol := 1e-3; tol >= 1e-12; tol *= 1e-3 {
		it, _ := z.iterate(w, tol, opt.maxIter())
		st.Iterations += it
		if sys.verify(comp, loc, lo, hi, xlo, xhi, w, 0) {
			return true
		}
	}
	return false
}

// verify turns approximate solutions xlo and xhi of the component's lower and upper systems (the
// same slice when only one was solved), and w of its expected steps (all in the component's
// order; nil for w = scale·xlo), into sound bounds lo and hi for its states, as explained at the
// top of this file. It returns false when w does not verify; then the lower bounds are 0 and the
// upper ones infinite.
func (sys *system) verify(comp []int, loc []int32, lo, hi, xlo, xhi, w []float64, scale float64) bool {
	m := sys.g.m
	same := &xlo[0] == &xhi[0]
	q := math.Inf(1)
	// rlo bounds the negative part of the lower system's residual, rhi the positive part of the
	// upper one's, both over the whole component.
	rlo, rhi := 0.0, 0.0
	for i, s := range comp {
		// Sums over the component's states (c…), the solved successors (s…) and their
		// magnitudes (m…); the upper system's component sums are the lower's when same.
		sum, rate := 0.0, 0.0
		clo, chi, mclo, mchi, slo, shi, aw, mw := 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0
		for k := m.RowPtr[s]; k < m.RowPtr[s+1]; k++ {
			t, p := m.Col[k], m.Prob[k]
			sum += p
			if t == s {
				continue
			}
			rate += p
			if j := loc[t]; j >= 0 {
				xl := xlo[j]
				clo += p * xl
				mclo += p * math.Abs(xl)
				if !same {
					xh := xhi[j]
					chi += p * xh
					mchi += p * math.Abs(xh)
				}
				wj := xl * scale
				if w != nil {
					wj = w[j]
				}
				aw += p * wj
				mw += p * math.Abs(wj)
			} else if sys.unknown[t] {
				slo += p * lo[t]
				shi += p * hi[t]
			}
		}
		if same {
			chi, mchi = clo, mclo
		}
		b := sys.b[s]
		alo, ahi := b+clo+slo, b+chi+shi
		mlo, mhi := b+mclo+slo, b+mchi+shi
		k := m.RowPtr[s+1] - m.RowPtr[s]
		rho, d := rowError(sum, k), tiny(k)
		wi := xlo[i] * scale
		if w != nil {
			wi = w[i]
		}
		mlo += rate * math.Abs(xlo[i])
		mhi += rate * math.Abs(xhi[i])
		mw += rate * math.Abs(wi)
		// The true residuals are within rho·magnitude (+d) of the computed ones.
		rlo = math.Max(rlo, up(up(rho*mlo+d)-(alo-rate*xlo[i])))
		rhi = math.Max(rhi, up(up(rho*mhi+d)+(ahi-rate*xhi[i])))
		if qi := down(rate*wi - aw - up(rho*mw+d)); !(qi >= q) {
			q = qi
		}
	}
	if !(q > 0) || math.IsNaN(rlo) || math.IsNaN(rhi) {
		for _, s := range comp {
			lo[s], hi[s] = 0, math.Inf(1)
		}
		return false
	}
	for i, s := range comp {
		wi := xlo[i] * scale
		if w != nil {
			wi = w[i]
		}
		steps := up(wi / q)
		lo[s] = math.Max(0, down(xlo[i]-up(rlo*steps)))
		hi[s] = up(xhi[i] + up(rhi*steps))
	}
	return true
}

// exactBounds bounds the values of component comp in rational arithmetic: it solves the
// component's equations exactly with the lower bounds of the states it leaves to, and again with
// their upper bounds, and rounds the solutions outward. The values of states outside U (known) are
// exact.
func (e *evaluator) exactBounds(comp []int, unknown []bool, known func(int) float64, rew *dtmc.Reward, lo, hi []float64) error {
	var step []*big.Rat
	if rew != nil {
		step = e.exactStepRewards(rew)
	}
	m := e.m
	sorted := append([]int(nil), comp...)
	for pass, side := range [][]float64{lo, hi} {
		vals := make([]*big.Rat, m.N)
		infinite := false
		for _, s := range comp {
			for _, t := range m.Col[m.RowPtr[s]:m.RowPtr[s+1]] {
				switch {
				case vals[t] != nil:
				case !unknown[t]:
					v := known(t)
					if math.IsInf(v, 1) {
						return fmt.Errorf("internal error: state %d reaches state %d of infinite value", s, t)
					}
					vals[t] = dtmc.Decimal(v)
				case !slices.Contains(comp, t):
					if math.IsInf(side[t], 1) {
						infinite = true
						continue
					}
					vals[t] = new(big.Rat).SetFloat64(side[t])
				}
			}
		}
		if infinite {
			for _, s := range comp {
				hi[s] = math.Inf(1)
			}
			continue
		}
		if err := e.exactComponent(sorted, vals, step); err != nil {
			return err
		}
		for _, s := range comp {
			f, _ := vals[s].Float64()
			c := new(big.Rat).SetFloat64(f)
			if pass == 0 {
				if c.Cmp(vals[s]) > 0 {
					f = down(f)
				}
				lo[s] = f
			} else {
				if c.Cmp(vals[s]) < 0 {
					f = up(f)
				}
				hi[s] = f
			}
		}
	}
	return nil
}
