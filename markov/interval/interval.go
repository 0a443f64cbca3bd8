// Package interval puts error bars on a model's answers. The probabilities of a model built from
// a usage profile are ratios of finite counts; with 200 observed calls a 3 % difference may be
// noise. Two intervals are given for any numeric property: a Bayesian credible interval (each
// decision's outcome probabilities drawn from their Dirichlet posterior given the counts, the
// property checked on every drawn chain) and a frequentist one (a parametric bootstrap: each
// decision's counts redrawn from the multinomial its estimate defines). It owns the resampling
// of chains; the properties are the checker's. It must not know about Go source or profiles: the
// counts are recovered from the model and the number of invocations it was measured on.
package interval

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"

	"github.com/augur-perf/augur/markov/checker"
	"github.com/augur-perf/augur/markov/dtmc"
	"github.com/augur-perf/augur/markov/pctl"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat/distuv"
)

// MaxStates bounds the models Counts solves for (a dense solve).
const MaxStates = 4000

// Counts recovers each transition's count from a model whose probabilities are count ratios
// (maximum-likelihood estimates) measured over n invocations: count(s,t) = n·visits(s)·P(s,t),
// visits being the expected number of visits to s per invocation. For such a model this is
// exactly the measured count (the identity the synthesis tests check). Rows of absorbing states
// get no counts.
func Counts(m *dtmc.Model, n float64) ([]float64, error) {
	if m.N > MaxStates {
		return nil, fmt.Errorf("intervals are computed for models of at most %d states; this one has %d", MaxStates, m.N)
	}
	absorbing := make([]bool, m.N)
	for s := 0; s < m.N; s++ {
		absorbing[s] = m.RowPtr[s+1]-m.RowPtr[s] == 1 && m.Col[m.RowPtr[s]] == s
	}
	// (I - Pᵀ) v = init over every state; absorbing states' outflow is left out, so their
	// visits are the mass that reaches them (finite), and every other row is transient.
	a := mat.NewDense(m.N, m.N, nil)
	b := mat.NewVecDense(m.N, nil)
	for s := 0; s < m.N; s++ {
		a.Set(s, s, 1)
	}
	for s := 0; s < m.N; s++ {
		if absorbing[s] {
			continue
		}
		for k := m.RowPtr[s]; k < m.RowPtr[s+1]; k++ {
			t := m.Col[k]
			a.Set(t, s, a.At(t, s)-m.Prob[k])
		}
	}
	for _, e := range m.Init {
		b.SetVec(e.State, e.P)
	}
	var v mat.VecDense
	if err := v.SolveVec(a, b); err != nil {
		return nil, fmt.Errorf("the expected visits cannot be solved (%v): some states are never left", err)
	}
	counts := make([]float64, len(m.Col))
	for s := 0; s < m.N; s++ {
		if absorbing[s] {
			continue
		}
		for k := m.RowPtr[s]; k < m.RowPtr[s+1]; k++ {
			counts[k] = math.Max(0, n*v.AtVec(s)*m.Prob[k])
		}
	}
	return counts, nil
}

// Options control Estimate.
type Options struct {
	// Level is the interval's coverage (default 0.95).
	Level float64
	// Samples is the number of chains drawn per method (default 1000).
	Samples int
	// Seed makes the draws repeatable.
	Seed uint64
	// Prior is the Dirichlet prior's weight per outcome (default 0.5, Jeffreys').
	Prior float64
	// Checker are the options each drawn chain is checked with.
	Checker checker.Options
}

// Interval is one method's interval for the property's value from the initial distribution.
type Interval struct {
	Method  string  `json:"method"`
	Level   float64 `json:"level"`
	Lo      float64 `json:"lo"`
	Hi      float64 `json:"hi"`
	Samples int     `json:"samples"`
	// Infinite counts drawn chains on which the property was infinite (a reward the drawn
	// probabilities never let end): they sit above Hi when they are more than the tail.
	Infinite int `json:"infinite,omitempty"`
}

// Estimate gives the Bayesian and the bootstrap interval of a numeric property (P=?, R=?, S=?)
// of m, whose transitions were counted counts times (Counts).
func Estimate(m *dtmc.Model, counts []float64, prop pctl.StateFormula, o Options) (bayes, boot Interval, err error) {
	if o.Level == 0 {
		o.Level = 0.95
	}
	if o.Level <= 0 || o.Level >= 1 {
		return Interval{}, Interval{}, fmt.Errorf("level %v: want 0 < level < 1", o.Level)
	}
	if o.Samples <= 0 {
		o.Samples = 1000
	}
	if o.Prior == 0 {
		o.Prior = 0.5
	}
	if len(counts) != len(m.Col) {
		return Interval{}, Interval{}, fmt.Errorf("%d counts for %d transitions", len(counts), len(m.Col))
	}
	rng := rand.New(rand.NewPCG(o.Seed, 0x9e3779b97f4a7c15))
	gamma := func(shape float64) float64 { return distuv.Gamma{Alpha: shape, Beta: 1, Src: rng}.Rand() }
	bayes, err = run(m, prop, o, "bayesian", func(row []float64, out []float64) {
		var sum float64
		for i, c := range row {
			out[i] = gamma(c + o.Prior)
			sum += out[i]
		}
		for i := range out {
			out[i] /= sum
		}
	}, counts)
	if err != nil {
		return
	}
	boot, err = run(m, prop, o, "bootstrap", func(row []float64, out []float64) {
		var n float64
		for _, c := range row {
			n += c
		}
		total := math.Round(n)
		if total < 1 {
			// Never observed: nothing to resample; the estimate stands.
			for i, c := range row {
				out[i] = c / math.Max(n, 1)
			}
			return
		}
		// A multinomial draw as a sequence of binomials.
		left, rest := total, 1.0
		for i, c := range row {
			p := c / n
			if i == len(row)-1 || rest <= 0 {
				out[i] = left
			} else {
				out[i] = distuv.Binomial{N: left, P: math.Min(1, p/rest), Src: rng}.Rand()
			}
			left -= out[i]
			rest -= p
		}
		for i := range out {
			out[i] /= total
		}
	}, counts)
	return
}

// run draws chains with draw (which turns a row's counts into probabilities) and checks prop on
// each.
func run(m *dtmc.Model, prop pctl.StateFormula, o Options, method string, draw func(row, out []float64), counts []float64) (Interval, error) {
	iv := Interval{Method: method, Level: o.Level, Samples: o.Samples}
	var vals []float64
	for i := 0; i < o.Samples; i++ {
		b := dtmc.NewBuilder(m.N)
		for s := 0; s < m.N; s++ {
			lo, hi := m.RowPtr[s], m.RowPtr[s+1]
			if hi-lo == 1 {
				b.Add(s, m.Col[lo], 1)
				continue
			}
			out := make([]float64, hi-lo)
			draw(counts[lo:hi], out)
			// Renormalise against rounding so the row sums to 1 within the builder's tolerance.
			var sum float64
			for _, p := range out {
				sum += p
			}
			for j, p := range out {
				b.Add(s, m.Col[lo+j], p/sum)
			}
		}
		copyRest(b, m)
		dm, err := b.Build()
		if err != nil {
			return iv, fmt.Errorf("a drawn chain: %v", err)
		}
		res, err := checker.Check(dm, prop, o.Checker)
		if err != nil {
			return iv, err
		}
		if res.Bool {
			return iv, errors.New("intervals are given for numeric properties (=?), not for bounded ones")
		}
		if math.IsInf(res.Initial, 1) {
			iv.Infinite++
			continue
		}
		vals = append(vals, res.Initial)
	}
	sort.Float64s(vals)
	tail := (1 - o.Level) / 2
	n := float64(o.Samples)
	iv.Lo = quantile(vals, tail*n)
	if float64(iv.Infinite) > tail*n {
		iv.Hi = math.Inf(1)
	} else {
		iv.Hi = quantile(vals, (1-tail)*n)
	}
	return iv, nil
}

// quantile is the value at rank r (0-based, interpolated) of sorted xs.
func quantile(xs []float64, r float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	r = math.Max(0, math.Min(float64(len(xs)-1), r-0.5))
	i := int(r)
	if i+1 >= len(xs) {
		return xs[len(xs)-1]
	}
	f := r - float64(i)
	return xs[i]*(1-f) + xs[i+1]*f
}

func copyRest(b *dtmc.Builder, m *dtmc.Model) {
	for _, e := range m.Init {
		b.AddInit(e.State, e.P)
	}
	for name, sts := range m.Labels {
		b.DeclareLabel(name)
		for _, s := range sts {
			b.Label(name, s)
		}
	}
	for _, r := range m.Rewards {
		b.DeclareReward(r.Name)
		for s, v := range r.State {
			if v != 0 {
				b.AddStateReward(r.Name, s, v)
			}
		}
		for s := 0; s < m.N; s++ {
			for k := m.RowPtr[s]; k < m.RowPtr[s+1]; k++ {
				if r.Trans != nil && r.Trans[k] != 0 {
					b.AddTransReward(r.Name, s, m.Col[k], r.Trans[k])
				}
			}
		}
	}
}
