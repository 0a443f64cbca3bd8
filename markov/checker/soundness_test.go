package checker

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/augur-perf/augur/internal/testmodels"
	"github.com/augur-perf/augur/markov/dtmc"
	"github.com/augur-perf/augur/markov/pctl"
)

// The tests of every claim the checker makes: sound bounds contain the exact value, an error
// bound is at least the error made, and a method that stops without meeting its criterion says
// so. The exact values come from the exact method where rationals stay small, and otherwise from
// references computed here in 256-bit arithmetic (refReach, refBounded), which the exact method
// checks in turn on small chains.

const refPrec = 256

// exactRows are the model's probabilities as the exact method reads them (each row divided by
// its sum), in 256-bit floats.
func exactRows(m *dtmc.Model) []*big.Float {
	p := make([]*big.Float, len(m.Prob))
	for s := 0; s < m.N; s++ {
		sum := new(big.Rat)
		for k := m.RowPtr[s]; k < m.RowPtr[s+1]; k++ {
			sum.Add(sum, m.ExactProb(k))
		}
		for k := m.RowPtr[s]; k < m.RowPtr[s+1]; k++ {
			q := new(big.Rat).Quo(m.ExactProb(k), sum)
			p[k] = new(big.Float).SetPrec(refPrec).SetRat(q)
		}
	}
	return p
}

func bigF(v float64) *big.Float { return new(big.Float).SetPrec(refPrec).SetFloat64(v) }

// stateRewards are the rewards of one step from each state, in 256-bit floats (state rewards and
// expected transition rewards, both as the exact method reads them).
func stateRewards(m *dtmc.Model, rew *dtmc.Reward, p []*big.Float) []*big.Float {
	out := make([]*big.Float, m.N)
	for s := range out {
		out[s] = bigF(0)
		if rew == nil {
			continue
		}
		if rew.State != nil {
			out[s].SetRat(dtmc.Decimal(rew.State[s]))
		}
		if rew.Trans != nil {
			for k := m.RowPtr[s]; k < m.RowPtr[s+1]; k++ {
				r := new(big.Float).SetPrec(refPrec).SetRat(dtmc.Decimal(rew.Trans[k]))
				out[s].Add(out[s], r.Mul(r, p[k]))
			}
		}
	}
	return out
}

// refReach is the exact value of P[F target] (rew nil) or R[F target] to about 200 bits: the
// direct method's solution refined twice, each time by the direct solution of the equations
// for its residual, computed in 256 bits. nil entries are infinite.
func refReach(t testing.TB, m *dtmc.Model, target []bool, rew *dtmc.Reward) []*big.Float {
	g, err := newGraph(m)
	if err != nil {
		t.Fatal(err)
	}
	all := make([]bool, m.N)
	for s := range all {
		all[s] = true
	}
	no := g.prob0(all, target)
	yes := g.prob1(all, target, no)
	unknown := make([]bool, m.N)
	x := make([]*big.Float, m.N)
	for s := range x {
		switch {
		case rew == nil && yes[s]:
			x[s] = bigF(1)
		case rew == nil && no[s], rew != nil && target[s]:
			x[s] = bigF(0)
		case rew != nil && !yes[s]:
			x[s] = nil
		default:
			unknown[s] = true
			x[s] = bigF(0)
		}
	}
	p := exactRows(m)
	r := stateRewards(m, rew, p)
	for round := 0; round < 3; round++ {
		// The residual of x, and the equations for the correction with it on the right.
		b := make([]float64, m.N)
		for s := range b {
			if !unknown[s] {
				continue
			}
			res := new(big.Float).SetPrec(refPrec).Set(r[s])
			for k := m.RowPtr[s]; k < m.RowPtr[s+1]; k++ {
				res.Add(res, new(big.Float).SetPrec(refPrec).Mul(p[k], x[m.Col[k]]))
			}
			res.Sub(res, x[s])
			b[s], _ = res.Float64()
		}
		sys := &system{g: g, unknown: unknown, b: b}
		sol, err := sys.bySCC(&Options{})
		if err != nil {
			t.Fatal(err)
		}
		for s := range x {
			if unknown[s] {
				x[s].Add(x[s], bigF(sol.x[s]))
			}
		}
	}
	return x
}

// refBounded is the exact value of P[F<=k target] (rew nil) or R[C<=k], by the recurrence in
// 256 bits.
func refBounded(m *dtmc.Model, target []bool, rew *dtmc.Reward, k int) []*big.Float {
	p := exactRows(m)
	r := stateRewards(m, rew, p)
	x := make([]*big.Float, m.N)
	for s := range x {
		x[s] = bigF(0)
		if rew == nil && target[s] {
			x[s] = bigF(1)
		}
	}
	for i := 0; i < k; i++ {
		y := make([]*big.Float, m.N)
		for s := range y {
			if rew == nil && target[s] {
				y[s] = bigF(1)
				continue
			}
			y[s] = new(big.Float).SetPrec(refPrec).Set(r[s])
			for j := m.RowPtr[s]; j < m.RowPtr[s+1]; j++ {
				y[s].Add(y[s], new(big.Float).SetPrec(refPrec).Mul(p[j], x[m.Col[j]]))
			}
		}
		x = y
	}
	return x
}

// claimCase is one property on one chain with its exact values.
type claimCase struct {
	name, kind string
	m          *dtmc.Model
	prop       string
	ref        []*big.Float
}

// claimCases are the property test's chains and properties at size n: a code-shaped chain and a
// random chain with three successors per state (and some traps), each with unbounded and
// bounded reachability and rewards.
func claimCases(t testing.TB, n int, seed uint64) []claimCase {
	var out []claimCase
	code := codeChain(rand.New(rand.NewPCG(seed, uint64(n))), n)
	end := labelSet(code, "end")
	// Reaching one statement half way: a probability below 1 when branches can skip it.
	mid := make([]bool, code.N)
	mid[code.N/2] = true
	time := code.Rewards[0]
	out = append(out,
		claimCase{"code", "R-reach", code, `R{"time"}=? [ F "end" ]`, refReach(t, code, end, time)},
		claimCase{"code", "P-reach", code, fmt.Sprintf(`P=? [ F s=%d ]`, code.N/2), refReach(t, code, mid, nil)},
		claimCase{"code", "P-bounded", code, `P=? [ F<=40 "end" ]`, refBounded(code, end, nil, 40)},
		claimCase{"code", "R-cumulative", code, `R{"time"}=? [ C<=30 ]`, refBounded(code, nil, time, 30)},
	)
	rnd := randomChain(rand.New(rand.NewPCG(seed+1, uint64(n))), n, 3, 0.1, true)
	goal := labelSet(rnd, "goal")
	cost := rnd.Rewards[0]
	out = append(out,
		claimCase{"random", "R-reach", rnd, `R{"cost"}=? [ F "goal" ]`, refReach(t, rnd, goal, cost)},
		claimCase{"random", "P-reach", rnd, `P=? [ F "goal" ]`, refReach(t, rnd, goal, nil)},
		claimCase{"random", "P-bounded", rnd, `P=? [ F<=10 "goal" ]`, refBounded(rnd, goal, nil, 10)},
		claimCase{"random", "R-cumulative", rnd, `R{"cost"}=? [ C<=20 ]`, refBounded(rnd, nil, cost, 20)},
	)
	return out
}

func labelSet(m *dtmc.Model, name string) []bool {
	in := make([]bool, m.N)
	for _, s := range m.Labels[name] {
		in[s] = true
	}
	return in
}

// claimReport is what checking one case with one method claimed, against the truth.
type claimReport struct {
	// relErr is the largest relative error of the values over the states with a finite, positive
	// exact value; claimed is the method's error bound (0: none claimed).
	relErr, claimed, lastChange float64
	converged                   bool
}

// checkClaims checks c with opt and fails t where a claim does not hold: bounds that miss the
// exact value, an error bound below the error made, an unconverged result without a note.
func checkClaims(t testing.TB, c claimCase, opt Options) claimReport {
	f, err := pctl.Parse(c.prop)
	if err != nil {
		t.Fatal(err)
	}
	r, err := Check(c.m, f, opt)
	if err != nil {
		// A method may refuse (PRISM's Jacobi at its iteration limit): no result, no claim.
		return claimReport{relErr: math.Inf(1)}
	}
	rep := claimReport{claimed: r.Stats.ErrEstimate, lastChange: r.Stats.LastChange, converged: r.Stats.Converged}
	if !r.Stats.Converged && len(r.Stats.Notes) == 0 {
		t.Errorf("%s %s (%v): not converged, and no note says why", c.name, c.prop, opt.Method)
	}
	for s, want := range c.ref {
		if want == nil {
			if !math.IsInf(r.Values[s], 1) {
				t.Fatalf("%s %s (%v) state %d: %v, want infinity", c.name, c.prop, opt.Method, s, r.Values[s])
			}
			continue
		}
		if r.Lo != nil && (bigF(r.Lo[s]).Cmp(want) > 0 || bigF(r.Hi[s]).Cmp(want) < 0) {
			t.Fatalf("%s %s (%v) state %d: bounds [%.17g, %.17g] miss the exact %s", c.name, c.prop, opt.Method, s, r.Lo[s], r.Hi[s], want.Text('g', 20))
		}
		if want.Sign() == 0 {
			continue
		}
		e := new(big.Float).SetPrec(refPrec).Sub(bigF(r.Values[s]), want)
		e.Quo(e, want)
		rel, _ := e.Float64()
		rep.relErr = math.Max(rep.relErr, math.Abs(rel))
		if r.Lo != nil && r.Lo[s] > 0 && math.Abs(rel) > r.Stats.ErrEstimate {
			t.Fatalf("%s %s (%v) state %d: relative error %.3g above the claimed bound %.3g", c.name, c.prop, opt.Method, s, math.Abs(rel), r.Stats.ErrEstimate)
		}
	}
	return rep
}

// TestEveryClaimHolds is the property test: on generated chains of 10^2 and 10^3 states (larger
// ones in BenchmarkClaims), every method's bounds contain the exact values, its error bound is at
// least the error, and the direct and interval methods converge.
func TestEveryClaimHolds(t *testing.T) {
	for _, n := range []int{100, 1000} {
		for seed := uint64(1); seed <= 3; seed++ {
			for _, c := range claimCases(t, n, seed) {
				for _, meth := range []Method{Direct, GaussSeidel, Interval, PRISM} {
					rep := checkClaims(t, c, Options{Method: meth})
					if (meth == Direct || meth == Interval) && !rep.converged {
						t.Errorf("n=%d seed %d %s %s (%v): not converged", n, seed, c.name, c.prop, meth)
					}
					if meth == Direct && rep.relErr > 1e-9 {
						t.Errorf("n=%d seed %d %s %s: direct is off by %.3g", n, seed, c.name, c.prop, rep.relErr)
					}
				}
			}
		}
	}
}

// BenchmarkClaims is the property test at large sizes (go test -run X -bench Claims -benchtime
// 1x -v): it fails where a claim does not hold, and logs each method's largest relative error
// against the exact values (true-err), its error bound (claimed; 0: none), the last relative
// change of its iteration where it iterates (not a bound), and whether it converged. Beyond 10^4
// states Gauss–Seidel gets 2000 sweeps per component: on code-shaped chains it needs about 10^5
// at 10^4 states and would not finish at 10^6; stopped early, it says so. PRISM's Jacobi has its
// own limit, 10000, and fails when it reaches it (true-err +Inf: no result).
func BenchmarkClaims(b *testing.B) {
	for _, n := range []int{1e4, 1e5, 1e6} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			for _, c := range claimCases(b, n, 1) {
				for _, meth := range []Method{Direct, GaussSeidel, Interval, PRISM} {
					opt := Options{Method: meth}
					if meth == GaussSeidel && n > 1e4 {
						opt.MaxIter = 2000
					}
					b.Run(fmt.Sprintf("%s/%s/%v", c.name, c.kind, meth), func(b *testing.B) {
						var rep claimReport
						for i := 0; i < b.N; i++ {
							rep = checkClaims(b, c, opt)
						}
						// Metrics print with fixed decimals, useless for 1e-16; the log has them.
						b.Logf("true-err %.3g claimed %.3g last-change %.3g converged %v", rep.relErr, rep.claimed, rep.lastChange, rep.converged)
					})
				}
			}
		})
	}
}

// TestReferencesAreExact: the 256-bit references agree with the exact method's rationals to far
// better than any float64 method could, on chains small enough for rationals.
func TestReferencesAreExact(t *testing.T) {
	for seed := uint64(1); seed <= 3; seed++ {
		for _, c := range claimCases(t, 40, seed) {
			ex := check(t, c.m, c.prop, Options{Method: Exact})
			for s, want := range c.ref {
				if (want == nil) != (ex.Exact[s] == nil) {
					t.Fatalf("%s %s state %d: reference %v, exact %v", c.name, c.prop, s, want, ex.Exact[s])
				}
				if want == nil {
					continue
				}
				d := new(big.Float).SetPrec(refPrec).SetRat(ex.Exact[s])
				d.Sub(d, want)
				if diff, _ := d.Float64(); math.Abs(diff) > 1e-40*math.Max(1, ex.Values[s]) {
					t.Fatalf("%s %s state %d: reference off the exact value by %g", c.name, c.prop, s, diff)
				}
			}
		}
	}
}

// TestIntervalContainsExact: on every model of the test suite (the shared samples and the
// checker's own), the interval method's bounds contain the exact method's rationals for every
// query property, point intervals included.
func TestIntervalContainsExact(t *testing.T) {
	type model struct {
		name string
		m    *dtmc.Model
	}
	var models []model
	for _, smp := range testmodels.Samples {
		models = append(models, model{smp.Name, smp.Model(t)})
	}
	models = append(models,
		model{"geometric 0.9", geometricLoop(0.9)},
		model{"geometric 0.999", geometricLoop(0.999)},
		model{"knuth die", knuthDie()},
		model{"birth-death 3/10", birthDeath(60, big.NewRat(3, 10))},
		model{"birth-death 1/3", birthDeath(20, big.NewRat(1, 3))},
		model{"code 200", codeChain(rand.New(rand.NewPCG(3, 4)), 200)},
		model{"random 50", randomChain(rand.New(rand.NewPCG(5, 6)), 50, 3, 0.1, true)},
	)
	points, checked := 0, 0
	for _, md := range models {
		for _, prop := range queries(md.m) {
			ex := check(t, md.m, prop, Options{Method: Exact})
			iv := check(t, md.m, prop, Options{Method: Interval})
			if iv.Lo == nil {
				continue
			}
			for s := range iv.Lo {
				want := ex.Exact[s]
				if want == nil {
					if !math.IsInf(iv.Hi[s], 1) {
						t.Errorf("%s %s state %d: upper bound %v, exact value infinite", md.name, prop, s, iv.Hi[s])
					}
					continue
				}
				checked++
				if iv.Lo[s] == iv.Hi[s] {
					points++
				}
				lo, hi := new(big.Rat).SetFloat64(iv.Lo[s]), new(big.Rat).SetFloat64(iv.Hi[s])
				if lo.Cmp(want) > 0 || (hi != nil && hi.Cmp(want) < 0) {
					t.Errorf("%s %s state %d: bounds [%.17g, %.17g] miss the exact %s", md.name, prop, s, iv.Lo[s], iv.Hi[s], want.FloatString(20))
				}
			}
		}
	}
	t.Logf("%d state values checked, %d of them point intervals", checked, points)
}

// queries are the query properties that make sense on m: reachability and rewards to every
// label, bounded ones, and the step-bounded reward operators.
func queries(m *dtmc.Model) []string {
	var out []string
	for _, l := range m.LabelNames() {
		out = append(out, fmt.Sprintf(`P=? [ F %q ]`, l), fmt.Sprintf(`P=? [ F<=7 %q ]`, l), fmt.Sprintf(`P=? [ G %q ]`, l))
		for _, r := range m.Rewards {
			out = append(out, fmt.Sprintf(`R{%q}=? [ F %q ]`, r.Name, l))
		}
	}
	for _, r := range m.Rewards {
		out = append(out, fmt.Sprintf(`R{%q}=? [ C<=9 ]`, r.Name), fmt.Sprintf(`R{%q}=? [ I=4 ]`, r.Name), fmt.Sprintf(`R{%q}=? [ C ]`, r.Name))
	}
	return out
}
