// Package dist describes the reward accumulated until a target is reached beyond its expectation:
// its second moment and variance (a second linear system, solved by the model checker), and its
// distribution — percentiles, P(reward ≤ t) — by transient analysis over bounded steps, with the
// probability mass the bound leaves out reported. It owns these computations on explicit DTMCs;
// it must not know about Go source or profiles.
package dist

import (
	"fmt"
	"math"
	"sort"

	"github.com/augur-perf/augur/markov/checker"
	"github.com/augur-perf/augur/markov/dtmc"
	"github.com/augur-perf/augur/markov/pctl"
)

// Moments are the first two moments of the accumulated reward from the initial distribution.
type Moments struct {
	Mean, SecondMoment, Variance, SD float64
}

// ComputeMoments gives the mean and variance of the reward accumulated until target (a label)
// is reached, with PRISM's semantics for R=? [ F target ]: each state's reward and each
// transition's reward counted before the target is entered. With m1 the expected reward from
// each state and a(s,t) = r(s) + ρ(s,t), the second moment satisfies
//
//	m2(s) = Σ_t P(s,t)·(a(s,t)² + 2·a(s,t)·m1(t)) + Σ_t P(s,t)·m2(t),   m2 = 0 on the target,
//
// the same system as the mean's with another state reward, so the checker solves it (with
// opt's method). An infinite mean (the target not reached almost surely) is an error.
func ComputeMoments(m *dtmc.Model, reward, target string, opt checker.Options) (Moments, error) {
	r, err := m.Reward(reward)
	if err != nil {
		return Moments{}, err
	}
	goal, err := targetSet(m, target)
	if err != nil {
		return Moments{}, err
	}
	first, err := check(m, fmt.Sprintf("R{%q}=? [ F %q ]", r.Name, target), opt)
	if err != nil {
		return Moments{}, err
	}
	if math.IsInf(first.Initial, 1) {
		return Moments{}, fmt.Errorf("the expected reward is infinite: %q is not reached with probability 1", target)
	}
	m1 := first.Values
	r2 := make([]float64, m.N)
	for s := 0; s < m.N; s++ {
		// States with an infinite mean cannot be reached from the initial ones (whose mean is
		// finite): their second moment does not matter.
		if goal[s] || math.IsInf(m1[s], 0) {
			continue
		}
		for k := m.RowPtr[s]; k < m.RowPtr[s+1]; k++ {
			a := stateReward(r, s) + transReward(r, k)
			r2[s] += m.Prob[k] * (a*a + 2*a*m1[m.Col[k]])
		}
	}
	derived, err := withReward(m, "__second_moment", r2)
	if err != nil {
		return Moments{}, err
	}
	second, err := check(derived, fmt.Sprintf("R{%q}=? [ F %q ]", "__second_moment", target), opt)
	if err != nil {
		return Moments{}, err
	}
	mo := Moments{Mean: first.Initial, SecondMoment: second.Initial}
	// The variance of a sum over several initial states is the mixture's.
	mo.Variance = math.Max(0, mo.SecondMoment-mo.Mean*mo.Mean)
	mo.SD = math.Sqrt(mo.Variance)
	return mo, nil
}

func check(m *dtmc.Model, prop string, opt checker.Options) (*checker.Result, error) {
	f, err := pctl.Parse(prop)
	if err != nil {
		return nil, err
	}
	return checker.Check(m, f, opt)
}

func targetSet(m *dtmc.Model, target string) ([]bool, error) {
	st, err := m.Label(target)
	if err != nil {
		return nil, err
	}
	goal := make([]bool, m.N)
	for _, s := range st {
		goal[s] = true
	}
	return goal, nil
}

func stateReward(r *dtmc.Reward, s int) float64 {
	if r.State == nil {
		return 0
	}
	return r.State[s]
}

func transReward(r *dtmc.Reward, k int) float64 {
	if r.Trans == nil {
		return 0
	}
	return r.Trans[k]
}

// withReward copies m (transitions with their exact probabilities, initial distribution, labels,
// rewards) and adds a reward structure of state rewards.
func withReward(m *dtmc.Model, name string, state []float64) (*dtmc.Model, error) {
	b := dtmc.NewBuilder(m.N)
	for s := 0; s < m.N; s++ {
		for k := m.RowPtr[s]; k < m.RowPtr[s+1]; k++ {
			if m.Exact != nil && m.Exact[k] != nil {
				b.AddExact(s, m.Col[k], m.Exact[k])
			} else {
				b.Add(s, m.Col[k], m.Prob[k])
			}
		}
	}
	for _, e := range m.Init {
		b.AddInit(e.State, e.P)
	}
	for name, sts := range m.Labels {
		b.DeclareLabel(name)
		for _, s := range sts {
			b.Label(name, s)
		}
	}
	b.DeclareReward(name)
	for s, v := range state {
		if v != 0 {
			b.AddStateReward(name, s, v)
		}
	}
	return b.Build()
}

// Distribution is the distribution of the accumulated reward: point masses at Values (sorted)
// with probabilities Probs, and the mass Truncated that had not reached the target when the
// analysis stopped (its reward is at least the largest value reached by then).
type Distribution struct {
	Values    []float64
	Probs     []float64
	Truncated float64
	Steps     int
	// Merged is set when a state's support outgrew MaxSupport and neighbouring values were merged
	// into their probability-weighted mean: percentiles are then exact to within the merged gaps.
	Merged bool
}

// Options bound the transient analysis.
type Options struct {
	// MaxSteps bounds the steps (default 100000); Epsilon is the mass left below which it stops
	// (default 1e-12); MaxSupport bounds the distinct reward values kept per state (default 4096).
	MaxSteps   int
	Epsilon    float64
	MaxSupport int
}

// Accumulated computes the distribution of the reward accumulated until target by transient
// analysis: the joint distribution of (state, reward so far) is pushed one step at a time, and
// mass entering the target is kept, until the mass still travelling is below Epsilon or MaxSteps
// steps have run.
func Accumulated(m *dtmc.Model, reward, target string, o Options) (*Distribution, error) {
	if o.MaxSteps <= 0 {
		o.MaxSteps = 100000
	}
	if o.Epsilon <= 0 {
		o.Epsilon = 1e-12
	}
	if o.MaxSupport <= 0 {
		o.MaxSupport = 4096
	}
	r, err := m.Reward(reward)
	if err != nil {
		return nil, err
	}
	goal, err := targetSet(m, target)
	if err != nil {
		return nil, err
	}
	d := &Distribution{}
	done := map[float64]float64{}
	cur := map[int]map[float64]float64{}
	for _, e := range m.Init {
		if goal[e.State] {
			done[0] += e.P
			continue
		}
		if cur[e.State] == nil {
			cur[e.State] = map[float64]float64{}
		}
		cur[e.State][0] += e.P
	}
	for len(cur) > 0 && d.Steps < o.MaxSteps {
		var left float64
		for _, dist := range cur {
			for _, p := range dist {
				left += p
			}
		}
		if left < o.Epsilon {
			break
		}
		d.Steps++
		next := map[int]map[float64]float64{}
		// States in a fixed order: sums of floats depend on it, and runs must agree.
		states := make([]int, 0, len(cur))
		for s := range cur {
			states = append(states, s)
		}
		sort.Ints(states)
		for _, s := range states {
			for _, v := range sortedKeys(cur[s]) {
				p := cur[s][v]
				for k := m.RowPtr[s]; k < m.RowPtr[s+1]; k++ {
					t := m.Col[k]
					nv := v + stateReward(r, s) + transReward(r, k)
					q := p * m.Prob[k]
					if goal[t] {
						done[nv] += q
						continue
					}
					if next[t] == nil {
						next[t] = map[float64]float64{}
					}
					next[t][nv] += q
				}
			}
		}
		for t, dist := range next {
			if len(dist) > o.MaxSupport {
				next[t] = merge(dist, o.MaxSupport)
				d.Merged = true
			}
		}
		cur = next
	}
	for _, dist := range cur {
		for _, p := range dist {
			d.Truncated += p
		}
	}
	d.Values = sortedKeys(done)
	for _, v := range d.Values {
		d.Probs = append(d.Probs, done[v])
	}
	return d, nil
}

func sortedKeys(m map[float64]float64) []float64 {
	ks := make([]float64, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Float64s(ks)
	return ks
}

// merge halves a support by merging neighbouring values pairwise (weighted means) until it fits.
func merge(dist map[float64]float64, max int) map[float64]float64 {
	vs := sortedKeys(dist)
	ps := make([]float64, len(vs))
	for i, v := range vs {
		ps[i] = dist[v]
	}
	for len(vs) > max {
		var nv, np []float64
		for i := 0; i < len(vs); i += 2 {
			if i+1 == len(vs) {
				nv, np = append(nv, vs[i]), append(np, ps[i])
				continue
			}
			p := ps[i] + ps[i+1]
			v := vs[i]
			if p > 0 {
				v = (vs[i]*ps[i] + vs[i+1]*ps[i+1]) / p
			}
			nv, np = append(nv, v), append(np, p)
		}
		vs, ps = nv, np
	}
	out := make(map[float64]float64, len(vs))
	for i, v := range vs {
		out[v] += ps[i]
	}
	return out
}

// CDF bounds P(reward ≤ t): lo counts the mass that reached the target with reward at most t,
// hi adds the truncated mass, whose final reward is unknown.
func (d *Distribution) CDF(t float64) (lo, hi float64) {
	for i, v := range d.Values {
		if v > t {
			break
		}
		lo += d.Probs[i]
	}
	return lo, math.Min(1, lo+d.Truncated)
}

// Quantile is the smallest value v with P(reward ≤ v) ≥ q; an error when the truncated mass
// leaves it undetermined.
func (d *Distribution) Quantile(q float64) (float64, error) {
	if q <= 0 || q > 1 {
		return 0, fmt.Errorf("quantile %v: want 0 < q ≤ 1", q)
	}
	var c float64
	for i, v := range d.Values {
		c += d.Probs[i]
		if c >= q*(1-1e-12) {
			return v, nil
		}
	}
	return 0, fmt.Errorf("the %g-quantile lies beyond the %d steps analysed (%.3g of the mass had not reached the target)", q, d.Steps, d.Truncated)
}
