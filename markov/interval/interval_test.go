package interval

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/augur-perf/augur/markov/dtmc"
	"github.com/augur-perf/augur/markov/pctl"
)

// The code under test: a branch (p=0.2 to an expensive path of 5, else 1) then a loop that runs
// again with probability 0.8, each iteration costing 2. The expected cost is 0.2·5 + 0.8·1 +
// 2·0.8/0.2 = 9.8.
const truth = 9.8

// estimated builds the chain from transition counts (maximum-likelihood: count ratios).
func estimated(t testing.TB, branch [2]float64, loop [2]float64) *dtmc.Model {
	b := dtmc.NewBuilder(6)
	add := func(from int, c [2]float64, to0, to1 int) {
		n := c[0] + c[1]
		if n == 0 {
			b.Add(from, to0, 0.5)
			b.Add(from, to1, 0.5)
			return
		}
		if c[0] > 0 {
			b.Add(from, to0, c[0]/n)
		}
		if c[1] > 0 {
			b.Add(from, to1, c[1]/n)
		}
	}
	add(0, branch, 1, 2)
	b.Add(1, 3, 1)
	b.Add(2, 3, 1)
	add(3, loop, 4, 5)
	b.Add(4, 3, 1)
	b.Add(5, 5, 1)
	b.SetInit(0)
	b.Label("end", 5)
	b.AddStateReward("time", 1, 5)
	b.AddStateReward("time", 2, 1)
	b.AddStateReward("time", 4, 2)
	m, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// observe runs n invocations of the true code and counts each decision's outcomes.
func observe(n int, rng *rand.Rand) (branch, loop [2]float64) {
	for i := 0; i < n; i++ {
		if rng.Float64() < 0.2 {
			branch[0]++
		} else {
			branch[1]++
		}
		for rng.Float64() < 0.8 {
			loop[0]++
		}
		loop[1]++
	}
	return
}

func TestCountsRecovered(t *testing.T) {
	branch, loop := observe(200, rand.New(rand.NewPCG(1, 1)))
	m := estimated(t, branch, loop)
	counts, err := Counts(m, 200)
	if err != nil {
		t.Fatal(err)
	}
	want := map[[2]int]float64{{0, 1}: branch[0], {0, 2}: branch[1], {3, 4}: loop[0], {3, 5}: loop[1]}
	for s := 0; s < m.N; s++ {
		for k := m.RowPtr[s]; k < m.RowPtr[s+1]; k++ {
			if w, ok := want[[2]int{s, m.Col[k]}]; ok && math.Abs(counts[k]-w) > 1e-6 {
				t.Errorf("count %d→%d = %v, measured %v", s, m.Col[k], counts[k], w)
			}
		}
	}
}

// TestCalibration: over 1000 simulated profiles of 200 calls each, the 95 % intervals of both
// methods contain the true expected cost 93–97 % of the time.
func TestCalibration(t *testing.T) {
	if testing.Short() {
		t.Skip("checks 800,000 chains")
	}
	prop, err := pctl.Parse(`R{"time"}=? [ F "end" ]`)
	if err != nil {
		t.Fatal(err)
	}
	const trials = 1000
	rng := rand.New(rand.NewPCG(7, 7))
	hit := map[string]int{}
	var width float64
	for i := 0; i < trials; i++ {
		branch, loop := observe(200, rng)
		m := estimated(t, branch, loop)
		counts, err := Counts(m, 200)
		if err != nil {
			t.Fatal(err)
		}
		bayes, boot, err := Estimate(m, counts, prop, Options{Samples: 400, Seed: uint64(i)})
		if err != nil {
			t.Fatal(err)
		}
		for _, iv := range []Interval{bayes, boot} {
			if iv.Lo <= truth && truth <= iv.Hi {
				hit[iv.Method]++
			}
		}
		width += (bayes.Hi - bayes.Lo) / trials
	}
	for _, method := range []string{"bayesian", "bootstrap"} {
		cover := float64(hit[method]) / trials
		t.Logf("%s: 95 %% intervals covered the truth in %.1f %% of %d trials (mean width %.2f)", method, 100*cover, trials, width)
		if cover < 0.93 || cover > 0.97 {
			t.Errorf("%s coverage %.3f outside [0.93, 0.97]", method, cover)
		}
	}
}
