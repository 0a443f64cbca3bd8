package main

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/augur-perf/augur/fit/board"
	"github.com/augur-perf/augur/fit/inputs"
	"github.com/augur-perf/augur/fit/trace"
)

// TestExtrapolation learns the laws of sorting from sizes up to 16000 and predicts the expected
// comparisons and time for sizes 10× beyond (n uniform over {20000, 80000, 160000}), then sorts
// at those sizes and compares: the law's prediction against Beagle's mean and linear regression,
// in one table. Comparisons must be within 2 %; time is reported (0.0-1.6 % in seven runs of
// eight at load 8-16 on the 2-core VM, once 41 % from a noisy training; a machine whose caches
// the largest size outgrows is slower there than the law knows).
func TestExtrapolation(t *testing.T) {
	if testing.Short() {
		t.Skip("sorts a few million integers")
	}
	h := trace.Header{Function: "slices.SortFunc", Params: []string{"n"}, Quantities: []string{"comparisons", "time_ns"}}
	recs := Record([]int{1000, 1414, 2000, 2828, 4000, 5657, 8000, 11314, 16000}, 5, 1)
	samples := board.Samples(h, recs)
	st := board.New(h, len(recs))
	board.Run(st, samples, nil, 10)
	res := st.Result(samples)
	ds, err := inputs.Parse("n~choice(20000:0.34,80000:0.33,160000:0.33)")
	if err != nil {
		t.Fatal(err)
	}
	// The truth, measured afterwards: the same distribution of sizes, sorted.
	rng := rand.New(rand.NewPCG(99, 7))
	truth := map[string]float64{}
	for i, n := range ds[0].Values {
		for r := 0; r < 3; r++ {
			c, ns := Sort(rng, int(n))
			truth["comparisons"] += ds[0].Probs[i] * float64(c) / 3
			truth["time_ns"] += ds[0].Probs[i] * float64(ns) / 3
		}
	}
	for _, l := range res.Laws {
		if l.Error != "" {
			t.Fatalf("%s: %s", l.Quantity, l.Error)
		}
		law := l.Law
		e, err := inputs.Expect(ds, func(at map[string]float64) float64 { return law.Value(at) }, l.Range, 0, 1)
		if err != nil || !e.Exact || e.OutOfRange != 1 {
			t.Fatalf("%s: %+v %v (every size lies beyond the fitted range)", l.Quantity, e, err)
		}
		rel := math.Abs(e.Mean-truth[l.Quantity]) / truth[l.Quantity]
		base := baselines(st, l.Quantity, ds, truth[l.Quantity])
		t.Logf("%-11s law %-36s predicted %.4g, measured %.4g: error %5.1f%% (mean %5.1f%%, linear %5.1f%%)",
			l.Quantity, l.Text, e.Mean, truth[l.Quantity], 100*rel, 100*base["mean"], 100*base["linear"])
		if l.Quantity == "comparisons" {
			if l.Law.Form() != "n·log2(n) + c" {
				t.Errorf("comparisons: %s, want the n·log2(n) law", l.Text)
			}
			if rel > 0.02 {
				t.Errorf("comparisons 10× beyond the training sizes off by %.1f%%", 100*rel)
			}
			if base["mean"] < 0.5 || base["linear"] < rel {
				t.Errorf("the baselines (%v) should do worse than the law (%v)", base, rel)
			}
		}
	}
}

// TestExtrapolationInCache is the extrapolation of time where the law can hold: trained on sizes
// 100 to 1600, it predicts the expected time of sorting sizes 10× beyond (n uniform over {2000,
// 8000, 16000}: 16 to 128 kB, in the caches like the training sizes), and sorts them. Time must
// come within 5 % of the measurement and comparisons within 3 % (the law a + b·n·log2(n) fitted on
// these small sizes falls 1.1-2.6 % short on the three attempts' inputs), each closer than Beagle's
// mean and linear regression predicting the same way (logged in one table). A shared machine's
// neighbours slow the sorts down while they run: the training sorts and those of the truth are made
// in one shuffled sequence, nine rounds of every size, so that a neighbour slows both alike and no
// size more than another (trained first and measured after, under go test ./... on the 2-core VM
// all three attempts came out 14-136 % off); up to three attempts are made, each logged.
func TestExtrapolationInCache(t *testing.T) {
	if testing.Short() {
		t.Skip("sorts and times")
	}
	ds, err := inputs.Parse("n~choice(2000:0.34,8000:0.33,16000:0.33)")
	if err != nil {
		t.Fatal(err)
	}
	var errs []string
	for attempt := 1; attempt <= 3; attempt++ {
		h := trace.Header{Function: "slices.SortFunc", Params: []string{"n"}, Quantities: []string{"comparisons", "time_ns"}}
		train := []int{100, 141, 200, 283, 400, 566, 800, 1131, 1600}
		const rounds = 9
		rng := rand.New(rand.NewPCG(99, uint64(attempt)))
		var recs []trace.Record
		truth := map[string]float64{}
		for range rounds {
			for _, k := range rng.Perm(len(train) + len(ds[0].Values)) {
				if k < len(train) {
					c, ns := Sort(rng, train[k])
					recs = append(recs, trace.Record{P: []float64{float64(train[k])}, Q: []float64{float64(c), float64(ns)}})
					continue
				}
				i := k - len(train)
				c, ns := Sort(rng, int(ds[0].Values[i]))
				truth["comparisons"] += ds[0].Probs[i] * float64(c) / rounds
				truth["time_ns"] += ds[0].Probs[i] * float64(ns) / rounds
			}
		}
		samples := board.Samples(h, recs)
		st := board.New(h, len(recs))
		board.Run(st, samples, nil, 10)
		res := st.Result(samples)
		rel := map[string]float64{}
		beaten := false // a baseline predicting as well as the law
		for _, l := range res.Laws {
			if l.Error != "" {
				t.Fatalf("%s: %s", l.Quantity, l.Error)
			}
			law := l.Law
			e, err := inputs.Expect(ds, func(at map[string]float64) float64 { return law.Value(at) }, l.Range, 0, 1)
			if err != nil || e.OutOfRange != 1 {
				t.Fatalf("%s: %+v %v (every size lies beyond the fitted range)", l.Quantity, e, err)
			}
			rel[l.Quantity] = math.Abs(e.Mean-truth[l.Quantity]) / truth[l.Quantity]
			base := baselines(st, l.Quantity, ds, truth[l.Quantity])
			t.Logf("attempt %d: %-11s law %-40s predicted %.4g, measured %.4g: error %5.1f%% (mean %5.1f%%, linear %5.1f%%)",
				attempt, l.Quantity, l.Text, e.Mean, truth[l.Quantity], 100*rel[l.Quantity], 100*base["mean"], 100*base["linear"])
			if base["mean"] <= rel[l.Quantity] || base["linear"] <= rel[l.Quantity] {
				beaten = true
			}
		}
		if rel["comparisons"] <= 0.03 && rel["time_ns"] <= 0.05 && !beaten {
			return
		}
		errs = append(errs, fmt.Sprintf("attempt %d: comparisons %.1f%%, time %.1f%% off", attempt, 100*rel["comparisons"], 100*rel["time_ns"]))
	}
	t.Errorf("10× beyond the training sizes, in the caches: %s", strings.Join(errs, "; "))
}

// baselines are the relative errors of Beagle's mean and of linear regression, the first round's
// proposals for quantity, predicting the expectation over ds as the laws do.
func baselines(st *board.State, quantity string, ds []inputs.Dist, truth float64) map[string]float64 {
	base := map[string]float64{}
	for _, name := range []string{"mean", "linear"} {
		for _, p := range st.Proposals {
			if p.Quantity == quantity && p.Analyser == name && p.Round == 1 && p.Error == "" {
				ex := p.Law.Expr
				be, _ := inputs.Expect(ds, func(at map[string]float64) float64 { return ex.Value(at) }, nil, 0, 1)
				base[name] = math.Abs(be.Mean-truth) / truth
			}
		}
	}
	return base
}
