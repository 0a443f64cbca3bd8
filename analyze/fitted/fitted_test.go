package fitted_test

import (
	"flag"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/augur-perf/augur/analyze/fitted"
	"github.com/augur-perf/augur/fit/board"
	"github.com/augur-perf/augur/fit/inputs"
	"github.com/augur-perf/augur/fit/pmnf"
	"github.com/augur-perf/augur/probe/instrument"
	"github.com/augur-perf/augur/source/annot"
	"github.com/augur-perf/augur/source/frontend"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden")

// cost is Pairs' expected cost per call at n by its annotations: the range evaluated n+1 times
// (1 each), the inner condition n(n+1)/2 + n times (2 each), the body n(n+1)/2 times (1 each), and
// the final branch (2), taken in every call of the profile (no law is given for it here: it
// keeps the profile's probability).
func cost(n float64) float64 { return 1.5*n*(n+1) + 3*n + 1 + 2 }

func law(terms ...pmnf.Term) pmnf.Expr { return pmnf.Expr{Terms: terms} }

// TestLawsOracle measures Pairs on sizes 1..20, binds the exact laws of its loops (n and
// n(n+1)/2 iterations) and checks the model's expected cost against the closed form at points
// far beyond the sizes run, over a finite distribution (exactly) and a log-normal one (Monte
// Carlo on the same samples as the closed form).
func TestLawsOracle(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs an instrumented workload")
	}
	prog, err := frontend.Load("testdata", "./pairs")
	if err != nil {
		t.Fatal(err)
	}
	fns, err := prog.Select("example.com/pairs/pairs.Pairs")
	if err != nil {
		t.Fatal(err)
	}
	fn := fns[0]
	m, err := instrument.Measure(prog, fns, instrument.Workload{Args: []string{"go", "test", "./pairs"}, Dir: "testdata"})
	if err != nil || m.ExitCode != 0 {
		t.Fatalf("%v %+v", err, m)
	}
	rewards, err := annot.ForFunc(fn)
	if err != nil {
		t.Fatal(err)
	}
	n := pmnf.Factor{Param: "n", I: 1}
	res := &board.Result{Format: board.ResultFormat, Function: fn.Name, Params: []string{"n"}, Laws: []board.Law{
		{Quantity: "loop@pairs.go:8", Law: law(pmnf.Term{Coef: 1, Factors: []pmnf.Factor{n}}), Range: map[string][2]float64{"n": {1, 20}}},
		{Quantity: "loop@pairs.go:9", Law: law(pmnf.Term{Coef: 0.5, Factors: []pmnf.Factor{{Param: "n", I: 2}}}, pmnf.Term{Coef: 0.5, Factors: []pmnf.Factor{n}}), Range: map[string][2]float64{"n": {1, 20}}},
		{Quantity: "time_ns", Law: law(pmnf.Term{Coef: 3})},
	}}
	model, err := fitted.New(fn, res, m.Profile, rewards)
	if err != nil {
		t.Fatal(err)
	}
	if len(model.Loops) != 2 || len(model.Others) != 1 || len(model.Unfitted) != 0 {
		t.Fatalf("loops %v, others %v, unfitted %v", model.Loops, model.Others, model.Unfitted)
	}
	for _, x := range []float64{0, 1, 7, 20, 100, 1000, 12345.5} {
		got, err := model.At(map[string]float64{"n": x})
		if err != nil {
			t.Fatalf("n=%v: %v", x, err)
		}
		if want := cost(x); math.Abs(got["cost"]-want) > 1e-9*want {
			t.Errorf("n=%v: expected cost %.12g, closed form %.12g", x, got["cost"], want)
		}
	}

	ds, err := inputs.Parse("n~choice(10:0.25,100:0.5,1000:0.25)")
	if err != nil {
		t.Fatal(err)
	}
	preds, err := model.Expect(ds, 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	want := 0.25*cost(10) + 0.5*cost(100) + 0.25*cost(1000)
	if p := preds[0]; p.Reward != "cost" || !p.Exact || math.Abs(p.Mean-want) > 1e-9*want || math.Abs(p.OutOfRange-0.75) > 1e-12 {
		t.Errorf("finite inputs: %+v, want mean %v, 75%% of the mass out of range", p, want)
	}

	ds, err = inputs.Parse("n~lognormal(4,0.5)")
	if err != nil {
		t.Fatal(err)
	}
	preds, err = model.Expect(ds, 300, 7)
	if err != nil {
		t.Fatal(err)
	}
	ref, err := inputs.Expect(ds, func(at map[string]float64) float64 { return cost(at["n"]) }, nil, 300, 7)
	if err != nil {
		t.Fatal(err)
	}
	if p := preds[0]; p.Exact || p.Samples != 300 || math.Abs(p.Mean-ref.Mean) > 1e-9*ref.Mean || math.Abs(p.SE-ref.SE) > 1e-6*ref.SE {
		t.Errorf("log-normal inputs: %+v, closed form on the same samples %+v", p, ref)
	}
	t.Logf("E[cost] for n~lognormal(4,0.5): %.4g ± %.2g (300 samples)", preds[0].Mean, preds[0].SE)

	// Laws of the final if's outcomes, true 1/n times per call and false 1 - 1/n: its branch (cost
	// 2) is taken with probability 1/n.
	withBranch := *res
	withBranch.Laws = append([]board.Law{
		{Quantity: "branch@pairs.go:13:true", Law: law(pmnf.Term{Coef: 1, Factors: []pmnf.Factor{{Param: "n", I: -1}}})},
		{Quantity: "branch@pairs.go:13:false", Law: law(pmnf.Term{Coef: 1}, pmnf.Term{Coef: -1, Factors: []pmnf.Factor{{Param: "n", I: -1}}})},
	}, res.Laws...)
	bm, err := fitted.New(fn, &withBranch, m.Profile, rewards)
	if err != nil {
		t.Fatal(err)
	}
	if len(bm.Branches) != 1 {
		t.Fatalf("branches %+v", bm.Branches)
	}
	for _, x := range []float64{1, 4, 250} {
		got, err := bm.At(map[string]float64{"n": x})
		if want := cost(x) - 2 + 2/x; err != nil || math.Abs(got["cost"]-want) > 1e-9*want {
			t.Errorf("n=%v with the branch's laws: %v %v, want %.12g", x, got, err, want)
		}
	}

	// A law of the probability itself, logistic(3 - 0.5·n), wins over the outcomes' laws.
	withProb := withBranch
	withProb.Laws = append([]board.Law{{Quantity: "branch@pairs.go:13:p", Law: pmnf.Expr{Link: pmnf.Logistic, Terms: []pmnf.Term{{Coef: 3}, {Coef: -0.5, Factors: []pmnf.Factor{n}}}}}}, withBranch.Laws...)
	pm, err := fitted.New(fn, &withProb, m.Profile, rewards)
	if err != nil {
		t.Fatal(err)
	}
	for _, mod := range []*fitted.Model{model, bm, pm} {
		checkExport(t, mod, "n", []float64{1, 3, 7, 20, 100, 1000, 12345.5})
	}
	// The golden export: nested loops and a logistic law.
	ex, err := pm.PRISM()
	if err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "pairs.pm.golden")
	if *update {
		if err := os.WriteFile(golden, []byte(ex.Text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if want, err := os.ReadFile(golden); err != nil || string(want) != ex.Text {
		t.Errorf("the export differs from %s (%v; -update rewrites it):\n%s", golden, err, ex.Text)
	}
	for _, x := range []float64{1, 6, 40} {
		got, err := pm.At(map[string]float64{"n": x})
		if want := cost(x) - 2 + 2/(1+math.Exp(-(3-0.5*x))); err != nil || math.Abs(got["cost"]-want) > 1e-9*want {
			t.Errorf("n=%v with a logistic law: %v %v, want %.12g", x, got, err, want)
		}
	}

	// A loop without a law keeps a cycle no law breaks: no parametric export.
	one := *res
	one.Laws = res.Laws[:1]
	if om, err := fitted.New(fn, &one, m.Profile, rewards); err != nil {
		t.Fatal(err)
	} else if _, err := om.PRISM(); err == nil || !strings.Contains(err.Error(), "pairs.go:9") || !strings.Contains(err.Error(), "needs a law for every loop") {
		t.Errorf("an export with a loop without a law: %v", err)
	}

	// A law below zero (a fitted curve extrapolated too far) means no iterations.
	bad := *res
	bad.Laws = []board.Law{res.Laws[0], {Quantity: "loop@pairs.go:9", Law: law(pmnf.Term{Coef: -1})}}
	if model, err := fitted.New(fn, &bad, m.Profile, rewards); err != nil {
		t.Fatal(err)
	} else if _, err := model.At(map[string]float64{"n": 5}); err != nil {
		t.Errorf("a law below zero iterations is taken as none: %v", err)
	}
	other := *res
	other.Function = "example.com/pairs/pairs.Other"
	if _, err := fitted.New(fn, &other, m.Profile, rewards); err == nil || !strings.Contains(err.Error(), "the laws are of example.com/pairs/pairs.Other") {
		t.Errorf("laws of another function: %v", err)
	}
}
