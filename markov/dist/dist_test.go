package dist

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/augur-perf/augur/markov/checker"
	"github.com/augur-perf/augur/markov/dtmc"
)

// loop is a loop that runs again with probability q, each iteration costing c: the reward is
// c·K with K geometric, P(K=k) = q^k·(1-q).
func loop(t *testing.T, q, c float64) *dtmc.Model {
	b := dtmc.NewBuilder(3)
	b.Add(0, 1, q)
	b.Add(0, 2, 1-q)
	b.Add(1, 0, 1)
	b.Add(2, 2, 1)
	b.SetInit(0)
	b.Label("end", 2)
	b.AddStateReward("time", 1, c)
	m, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestGeometricClosedForm(t *testing.T) {
	q, c := 0.9, 2.5
	m := loop(t, q, c)
	for _, meth := range []checker.Method{checker.Direct, checker.Exact} {
		mo, err := ComputeMoments(m, "time", "end", checker.Options{Method: meth})
		if err != nil {
			t.Fatal(err)
		}
		mean, variance := c*q/(1-q), c*c*q/((1-q)*(1-q))
		if math.Abs(mo.Mean-mean) > 1e-9*mean || math.Abs(mo.Variance-variance) > 1e-9*variance {
			t.Errorf("%v: mean %v variance %v, want %v and %v", meth, mo.Mean, mo.Variance, mean, variance)
		}
	}
	d, err := Accumulated(m, "time", "end", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if d.Truncated > 1e-12 || d.Merged {
		t.Errorf("truncated %v merged %v", d.Truncated, d.Merged)
	}
	for k := 0; k < 20; k++ {
		want := math.Pow(q, float64(k)) * (1 - q)
		if got := d.Probs[k]; math.Abs(d.Values[k]-c*float64(k)) > 1e-9 || math.Abs(got-want) > 1e-12 {
			t.Errorf("P(R=%v) = %v at %v, want %v", c*float64(k), got, d.Values[k], want)
		}
	}
	// The median: the least k with 1 - q^(k+1) ≥ 1/2, k = 6 for q = 0.9.
	if med, err := d.Quantile(0.5); err != nil || med != 6*c {
		t.Errorf("median %v, %v; want %v", med, err, 6*c)
	}
	if lo, hi := d.CDF(6 * c); math.Abs(lo-(1-math.Pow(q, 7))) > 1e-12 || hi-lo > 1e-12 {
		t.Errorf("CDF(15) = [%v, %v]", lo, hi)
	}
	// A short analysis reports what it leaves out.
	short, _ := Accumulated(m, "time", "end", Options{MaxSteps: 10})
	if want := math.Pow(q, 5); math.Abs(short.Truncated-want) > 1e-12 {
		t.Errorf("truncated after 10 steps: %v, want q^5 = %v", short.Truncated, want)
	}
	if _, err := short.Quantile(0.99); err == nil {
		t.Error("a quantile beyond the analysed steps was given")
	}
	if lo, hi := short.CDF(100); hi-lo != short.Truncated {
		t.Errorf("CDF bounds [%v, %v] do not carry the truncated mass %v", lo, hi, short.Truncated)
	}
}

// simulate runs the chain to the target n times and returns the rewards.
func simulate(m *dtmc.Model, reward string, goal []bool, n int, rng *rand.Rand) []float64 {
	r, _ := m.Reward(reward)
	out := make([]float64, n)
	for i := range out {
		s := m.Init[0].State
		var acc float64
		for !goal[s] {
			u := rng.Float64()
			k := m.RowPtr[s]
			for ; k < m.RowPtr[s+1]-1 && u >= m.Prob[k]; k++ {
				u -= m.Prob[k]
			}
			acc += stateReward(r, s) + transReward(r, k)
			s = m.Col[k]
		}
		out[i] = acc
	}
	return out
}

// A branch and a loop with transition rewards: moments and percentiles against Monte Carlo.
func TestAgainstSimulation(t *testing.T) {
	b := dtmc.NewBuilder(5)
	b.Add(0, 1, 0.3) // expensive branch
	b.Add(0, 2, 0.7)
	b.Add(1, 2, 1)
	b.Add(2, 3, 0.75) // loop body
	b.Add(2, 4, 0.25)
	b.Add(3, 2, 1)
	b.Add(4, 4, 1)
	b.SetInit(0)
	b.Label("end", 4)
	b.AddStateReward("ns", 1, 40)
	b.AddStateReward("ns", 3, 3)
	b.AddTransReward("ns", 2, 4, 1.5)
	m, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	mo, err := ComputeMoments(m, "ns", "end", checker.Options{})
	if err != nil {
		t.Fatal(err)
	}
	goal, _ := targetSet(m, "end")
	xs := simulate(m, "ns", goal, 200000, rand.New(rand.NewPCG(3, 4)))
	var mean, m2 float64
	for _, x := range xs {
		mean += x / float64(len(xs))
		m2 += x * x / float64(len(xs))
	}
	sd := math.Sqrt(m2 - mean*mean)
	se := sd / math.Sqrt(float64(len(xs)))
	if math.Abs(mo.Mean-mean) > 4*se || math.Abs(mo.SD-sd) > 0.02*sd {
		t.Errorf("mean %v sd %v; simulated %v ± %v, sd %v", mo.Mean, mo.SD, mean, se, sd)
	}
	d, err := Accumulated(m, "ns", "end", Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []float64{0.5, 0.9, 0.99} {
		v, err := d.Quantile(q)
		if err != nil {
			t.Fatal(err)
		}
		// The simulated share at or below the exact quantile brackets q.
		var below, strictly int
		for _, x := range xs {
			if x <= v+1e-9 {
				below++
			}
			if x < v-1e-9 {
				strictly++
			}
		}
		n := float64(len(xs))
		tol := 4 * math.Sqrt(q*(1-q)/n)
		if float64(below)/n < q-tol || float64(strictly)/n > q+tol {
			t.Errorf("p%v = %v: simulated P(R ≤ v) = %v, P(R < v) = %v", 100*q, v, float64(below)/n, float64(strictly)/n)
		}
	}
}

func TestErrors(t *testing.T) {
	m := loop(t, 0.5, 1)
	if _, err := ComputeMoments(m, "nosuch", "end", checker.Options{}); err == nil {
		t.Error("an unknown reward")
	}
	if _, err := ComputeMoments(m, "time", "nolabel", checker.Options{}); err == nil {
		t.Error("an unknown label")
	}
	b := dtmc.NewBuilder(3)
	b.Add(0, 1, 0.5)
	b.Add(0, 2, 0.5)
	b.Add(1, 1, 1)
	b.Add(2, 2, 1)
	b.SetInit(0)
	b.Label("end", 2)
	b.AddStateReward("time", 0, 1)
	trap, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ComputeMoments(trap, "time", "end", checker.Options{}); err == nil {
		t.Error("moments of a reward that is infinite with probability 1/2")
	}
	d, err := Accumulated(trap, "time", "end", Options{MaxSteps: 50})
	if err != nil || math.Abs(d.Truncated-0.5) > 1e-12 {
		t.Errorf("the trapped half must be reported as truncated: %+v %v", d, err)
	}
}
