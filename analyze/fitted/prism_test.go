package fitted_test

import (
	"math"
	"strconv"
	"testing"

	"github.com/augur-perf/augur/analyze/fitted"
	"github.com/augur-perf/augur/fit/board"
	"github.com/augur-perf/augur/fit/pmnf"
	"github.com/augur-perf/augur/markov/checker"
	"github.com/augur-perf/augur/markov/pctl"
	"github.com/augur-perf/augur/markov/prism"
	"github.com/augur-perf/augur/probe/instrument"
	"github.com/augur-perf/augur/source/annot"
	"github.com/augur-perf/augur/source/frontend"
)

// checkExport parses the export with augur's PRISM parser at each point, checks its
// properties and compares them with the model's own At.
func checkExport(t *testing.T, m *fitted.Model, param string, points []float64) *fitted.Export {
	t.Helper()
	ex, err := m.PRISM()
	if err != nil {
		t.Fatal(err)
	}
	id := ex.Params[param]
	for _, x := range points {
		want, err := m.At(map[string]float64{param: x})
		if err != nil {
			t.Fatalf("%s=%v: %v", param, x, err)
		}
		res, err := prism.Parse(ex.Text, prism.Options{Consts: map[string]string{id: strconv.FormatFloat(x, 'g', -1, 64)}})
		if err != nil {
			t.Fatalf("%s=%v: %v\n%s", param, x, err, ex.Text)
		}
		for _, p := range ex.Props {
			f, err := pctl.Parse(p)
			if err != nil {
				t.Fatal(err)
			}
			r, err := checker.Check(res.Model, f, checker.Options{})
			if err != nil {
				t.Fatalf("%s=%v: %s: %v", param, x, p, err)
			}
			w := want["cost"]
			if math.Abs(r.Initial-w) > 1e-9*math.Max(1, math.Abs(w)) {
				t.Errorf("%s=%v: %s = %.15g in the export, %.15g by At", param, x, p, r.Initial, w)
			}
		}
	}
	return ex
}

// TestShapes binds exact laws to shapes.Classify (a switch whose case probabilities 4/n,
// (n-4)/2n, (n-4)/2n come from the laws of its cases' counts), shapes.Under (a loop under an
// if inside a loop, the if's probability a regression tree's law) and shapes.Find (a loop left
// early by a return), checks their expected cost
// against the closed forms at sizes beyond those run, and their PRISM exports against At.
func TestShapes(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs an instrumented workload")
	}
	prog, err := frontend.Load("testdata", "./shapes")
	if err != nil {
		t.Fatal(err)
	}
	var fns []*frontend.Func
	for _, spec := range []string{"example.com/pairs/shapes.Classify", "example.com/pairs/shapes.Under", "example.com/pairs/shapes.Find"} {
		f, err := prog.Select(spec)
		if err != nil {
			t.Fatal(err)
		}
		fns = append(fns, f...)
	}
	meas, err := instrument.Measure(prog, fns, instrument.Workload{Args: []string{"go", "test", "./shapes"}, Dir: "testdata"})
	if err != nil || meas.ExitCode != 0 {
		t.Fatalf("%v %+v", err, meas)
	}
	n := pmnf.Factor{Param: "n", I: 1}
	c := func(v float64) pmnf.Term { return pmnf.Term{Coef: v} }
	nt := func(v float64) pmnf.Term { return pmnf.Term{Coef: v, Factors: []pmnf.Factor{n}} }
	for _, tc := range []struct {
		fn     *frontend.Func
		laws   []board.Law
		cost   func(n float64) float64
		points []float64
	}{
		{fns[0], []board.Law{
			{Quantity: "loop@shapes.go:11", Law: law(nt(1))},
			{Quantity: "switch@shapes.go:12:case1", Law: law(c(4))},
			{Quantity: "switch@shapes.go:12:case2", Law: law(nt(0.5), c(-2))},
			{Quantity: "switch@shapes.go:12:default", Law: law(nt(0.5), c(-2))},
		}, func(n float64) float64 { return 3.5*n + 15 }, []float64{4, 10, 41, 1000, 123456.5}},
		{fns[1], []board.Law{
			{Quantity: "loop@shapes.go:28", Law: law(nt(1))},
			{Quantity: "branch@shapes.go:29:p", Law: pmnf.Expr{Tree: &pmnf.Node{Op: "lt", Param: "n", Value: 10, Args: []*pmnf.Node{{Op: "const", Value: 0.25}, {Op: "const", Value: 0.5}}}}},
			{Quantity: "loop@shapes.go:30", Law: law(pmnf.Term{Coef: 0.25, Factors: []pmnf.Factor{{Param: "n", I: 2}}}, nt(-0.5))},
		}, func(x float64) float64 {
			p := 0.5
			if x < 10 {
				p = 0.25
			}
			inner := 0.25*x*x - 0.5*x
			return (x + 1) + x + (x*p + inner) + inner
		}, []float64{4, 8, 20, 300, 5000.5}},
		// A loop left by a return with probability 1/n per iteration, 0.5·n iterations per
		// call: its head is visited 1 + 0.5n(1 - 1/n) times, and a call costs n + 2.
		{fns[2], []board.Law{
			{Quantity: "loop@shapes.go:41", Law: law(nt(0.5))},
			{Quantity: "branch@shapes.go:42:p", Law: law(pmnf.Term{Coef: 1, Factors: []pmnf.Factor{{Param: "n", I: -1}}})},
		}, func(n float64) float64 { return n + 2 }, []float64{2, 9, 64, 1e5}},
	} {
		rewards, err := annot.ForFunc(tc.fn)
		if err != nil {
			t.Fatal(err)
		}
		res := &board.Result{Format: board.ResultFormat, Function: tc.fn.Name, Params: []string{"n"}, Laws: tc.laws}
		m, err := fitted.New(tc.fn, res, meas.Profile, rewards)
		if err != nil {
			t.Fatal(err)
		}
		for _, x := range tc.points {
			got, err := m.At(map[string]float64{"n": x})
			if want := tc.cost(x); err != nil || math.Abs(got["cost"]-want) > 1e-9*want {
				t.Errorf("%s n=%v: %v %v, closed form %.12g", tc.fn.Name, x, got, err, want)
			}
		}
		t.Log(checkExport(t, m, "n", tc.points).Text)
	}
}
