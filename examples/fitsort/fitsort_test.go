package main

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/augur-perf/augur/fit/board"
	"github.com/augur-perf/augur/fit/inputs"
	"github.com/augur-perf/augur/fit/trace"
)

// TestExtrapolation learns the laws of sorting from sizes up to 16000 and predicts the expected
// comparisons and time for sizes 10× beyond (n uniform over {20000, 80000, 160000}), then sorts
// at those sizes and compares: the law's prediction against Beagle's mean and linear regression,
// in one table. Comparisons must be within 2 %; time is reported (a shared machine's cache and
// neighbours move it by more than the law can know).
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
		// The baselines, predicted the same way.
		base := map[string]float64{}
		for _, name := range []string{"mean", "linear"} {
			for _, p := range st.Proposals {
				if p.Quantity == l.Quantity && p.Analyser == name && p.Round == 1 && p.Error == "" {
					ex := p.Law.Expr
					be, _ := inputs.Expect(ds, func(at map[string]float64) float64 { return ex.Value(at) }, nil, 0, 1)
					base[name] = math.Abs(be.Mean-truth[l.Quantity]) / truth[l.Quantity]
				}
			}
		}
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
