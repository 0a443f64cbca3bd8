package sim

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/augur-perf/augur/field/plan"
)

// program makes traces shaped like a program's: 240 units in 24 features of 10 units each (a
// feature's units run together, a few of them much more often — loop bodies); 30 sites, each
// using its own mix of features (a few popular everywhere, most used by some sites only, some by
// none); in-house tests exercise a different mix.
func program(seed uint64) ([]plan.Unit, []Run) {
	rng := rand.New(rand.NewPCG(seed, 3))
	const features, per = 24, 10
	weight := make([]float64, features*per)
	for i := range weight {
		weight[i] = 1
		if rng.Float64() < 0.2 {
			weight[i] = 50 // a loop body
		}
	}
	var units []plan.Unit
	for i := range weight {
		f := i / per
		inHouse := uint64(0)
		if f%3 != 2 { // in-house tests reach two features in three
			inHouse = uint64(weight[i] * float64(1+f%5))
		}
		units = append(units, plan.Unit{ID: i + 1, Pos: "u", InHouse: inHouse})
	}
	var runs []Run
	for site := 0; site < 30; site++ {
		use := make([]float64, features)
		for f := range use {
			switch {
			case f < 3:
				use[f] = 1 // used everywhere
			case f >= 20:
				use[f] = 0 // dead in the field
			case rng.Float64() < 0.3:
				use[f] = rng.Float64()
			}
		}
		for run := 0; run < 3; run++ {
			counts := make([]uint64, len(weight))
			for i := range counts {
				if f := i / per; use[f] > 0 && rng.Float64() < use[f] {
					counts[i] = uint64(weight[i] * (1 + 10*rng.Float64()))
				}
			}
			runs = append(runs, Run{Site: site, Counts: counts})
		}
	}
	return units, runs
}

func row(rows []Row, st plan.Strategy, variants, bound int) Row {
	for _, r := range rows {
		if r.Strategy == st && r.Variants == variants && r.Bound == bound {
			return r
		}
	}
	panic("no such row")
}

// The study's table on traces shaped like a program's. What holds here is asserted: with
// bounds where duplicate probes start to matter, the balanced allocation covers more than plain
// Random. The paper's other findings (the gap closing, more variants making up for fewer
// probes, grouping adding coverage) do not all show on these synthetic traces, whose sites use
// few features each; TestStudy checks them on the real traces of docs/field.md's study.
func TestFindings(t *testing.T) {
	units, runs := program(1)
	rows, err := Study(units, runs, plan.Strategies, []int{5, 10, 25, 50, 100}, []int{6, 12, 18}, 0, 20, 1)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("\n%s", Table(rows))
	for _, v := range []int{6, 12, 18} {
		for _, b := range []int{25, 50} {
			if rb, r := row(rows, plan.RandomBalanced, v, b), row(rows, plan.Random, v, b); rb.Coverage <= r.Coverage {
				t.Errorf("%d variants, bound %d: RB coverage %.3f not above Random's %.3f", v, b, rb.Coverage, r.Coverage)
			}
		}
	}
	// Full bounds see everything the runs executed, whatever the strategy.
	for _, st := range plan.Strategies {
		if r := row(rows, st, 18, 100); r.Coverage < 0.95 {
			t.Errorf("%s with 18 variants of 100 probes covers %.3f", st, r.Coverage)
		}
	}
}

// 4. Remembering an earlier, constrained release's allocation helps: the two releases together
// see more than two releases allocated independently.
func TestMemory(t *testing.T) {
	units, runs := program(2)
	var with, without float64
	const repeats = 30
	for r := 0; r < repeats; r++ {
		seed := uint64(100 + r)
		first, _ := plan.Allocate("1", units, plan.Options{Variants: 6, Bound: 5, Strategy: plan.RandomBalanced, Seed: seed})
		for _, remember := range []bool{true, false} {
			o := plan.Options{Variants: 6, Bound: 5, Strategy: plan.RandomBalanced, Seed: seed + 1000}
			if remember {
				o.Previous = first
			}
			second, _ := plan.Allocate("2", units, o)
			union := &plan.Manifest{Units: units, Variants: append(append([]plan.Variant(nil), first.Variants...), second.Variants...)}
			cov := Replay(union, runs, rand.New(rand.NewPCG(seed, 9))).Coverage
			if remember {
				with += cov / repeats
			} else {
				without += cov / repeats
			}
		}
	}
	t.Logf("two constrained releases: coverage %.3f remembering the first, %.3f not", with, without)
	if with <= without {
		t.Errorf("memory does not help: %.3f with, %.3f without", with, without)
	}
}

func TestAllocate(t *testing.T) {
	units, _ := program(3)
	for _, st := range plan.Strategies {
		a, err := plan.Allocate("r1", units, plan.Options{Variants: 12, Bound: 20, Strategy: st, Seed: 7})
		if err != nil {
			t.Fatal(err)
		}
		b, _ := plan.Allocate("r1", units, plan.Options{Variants: 12, Bound: 20, Strategy: st, Seed: 7})
		for v := range a.Variants {
			if len(a.Variants[v].Probes) != 20 || math.Abs(float64(len(a.Variants[v].Probes)-len(b.Variants[v].Probes))) > 0 {
				t.Fatalf("%s: variant %d has %d probes", st, v, len(a.Variants[v].Probes))
			}
			for k := range a.Variants[v].Probes {
				if a.Variants[v].Probes[k] != b.Variants[v].Probes[k] {
					t.Fatalf("%s: the same seed gave another allocation", st)
				}
			}
		}
		// Balanced strategies probe every unit once before any twice: 12×20 = 240 = every unit.
		if st == plan.RandomBalanced || st == plan.GroupedRB {
			seen := map[int]int{}
			for _, v := range a.Variants {
				for _, id := range v.Probes {
					seen[id]++
				}
			}
			if len(seen) != len(units) {
				t.Errorf("%s: %d of %d units probed", st, len(seen), len(units))
			}
		}
	}
	if _, err := plan.Allocate("r", units, plan.Options{Variants: 0, Bound: 3, Strategy: plan.Random}); err == nil {
		t.Error("no variants")
	}
}

// The CBI estimator is unbiased: over 2000 sampled runs of a probe that executed 5000 times,
// the mean estimate lies within four standard errors of the truth at every rate, and each
// estimate's own 95 % interval covers the truth about 95 % of the time.
func TestSamplingUnbiased(t *testing.T) {
	const truth, runs = 5000, 2000
	rng := rand.New(rand.NewPCG(11, 12))
	for _, rate := range []float64{1, 0.1, 0.01, 0.001} {
		var sum, sumSq float64
		covered := 0
		for r := 0; r < runs; r++ {
			est, se := Estimate(Sample(truth, rate, rng), rate)
			sum += est
			sumSq += est * est
			if math.Abs(est-truth) <= 1.96*se || (se == 0 && est == truth) {
				covered++
			}
		}
		mean := sum / runs
		sd := math.Sqrt(sumSq/runs - mean*mean)
		if rate == 1 {
			if mean != truth || sd != 0 {
				t.Errorf("rate 1: mean %v sd %v, want the exact count", mean, sd)
			}
			continue
		}
		if math.Abs(mean-truth) > 4*sd/math.Sqrt(runs) {
			t.Errorf("rate %v: mean estimate %.1f, truth %d (sd %.1f): biased", rate, mean, truth, sd)
		}
		want := math.Sqrt(truth * (1 - rate) / rate)
		if math.Abs(sd-want) > 0.1*want {
			t.Errorf("rate %v: sd %.1f, the binomial %.1f", rate, sd, want)
		}
		if cov := float64(covered) / runs; rate >= 0.01 && (cov < 0.93 || cov > 0.97) {
			t.Errorf("rate %v: 95 %% intervals covered the truth %.1f %% of the time", rate, 100*cov)
		}
		t.Logf("rate %v: mean %.1f (truth %d), sd %.1f, 95 %% coverage %.1f %%", rate, mean, truth, sd, 100*float64(covered)/runs)
	}
}
