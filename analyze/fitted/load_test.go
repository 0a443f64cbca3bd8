package fitted_test

import (
	"errors"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/augur-perf/augur/analyze/fitted"
	"github.com/augur-perf/augur/fit/board"
	"github.com/augur-perf/augur/fit/pmnf"
	"github.com/augur-perf/augur/probe/instrument"
	"github.com/augur-perf/augur/source/frontend"
)

// Load binds laws and a measured profile read from files; files that cannot be read and
// functions that are not there are the caller's mistake (a *LoadError).
func TestLoad(t *testing.T) {
	tmp := t.TempDir()
	var le *fitted.LoadError
	if _, err := fitted.Load("testdata", "example.com/pairs/pairs.Pairs", filepath.Join(tmp, "none.json"), "p.json"); !errors.As(err, &le) {
		t.Errorf("no fit file: %v", err)
	}
	n := pmnf.Factor{Param: "n", I: 1}
	res := &board.Result{Format: board.ResultFormat, Function: "example.com/pairs/pairs.Pairs", Params: []string{"n"}, Laws: []board.Law{
		{Quantity: "loop@pairs.go:8", Law: law(pmnf.Term{Coef: 1, Factors: []pmnf.Factor{n}}), Range: map[string][2]float64{"n": {1, 20}}},
		{Quantity: "loop@pairs.go:9", Law: law(pmnf.Term{Coef: 0.5, Factors: []pmnf.Factor{{Param: "n", I: 2}}}, pmnf.Term{Coef: 0.5, Factors: []pmnf.Factor{n}}), Range: map[string][2]float64{"n": {1, 20}}},
	}}
	fit := filepath.Join(tmp, "pairs.fit.json")
	if err := board.WriteJSON(fit, res); err != nil {
		t.Fatal(err)
	}
	if _, err := fitted.Load("testdata", "example.com/pairs/pairs.Nope", fit, "p.json"); !errors.As(err, &le) {
		t.Errorf("no such function: %v", err)
	}
	if _, err := fitted.Load("testdata", "example.com/pairs/pairs.Pairs", fit, filepath.Join(tmp, "none.json")); !errors.As(err, &le) {
		t.Errorf("no profile: %v", err)
	}
	// Analyze refuses a request that contradicts itself before it reads anything.
	for _, c := range []struct {
		r    fitted.Request
		want string
	}{
		{fitted.Request{Func: "p.F", Fit: fit}, "--fit needs --profile: a measured profile of p.F gives the decisions the laws do not cover"},
		{fitted.Request{Fit: fit, Profile: "p.json", Emit: "dot"}, `--emit "dot": with --fit, the parametric model is written as prism`},
		{fitted.Request{Fit: fit, Profile: "p.json", Out: "m"}, "-o m names the files --emit writes: give --emit prism"},
		{fitted.Request{Fit: fit, Profile: "p.json"}, "give --inputs or --at (one of them)"},
	} {
		var u interface{ UsageError() bool }
		if _, err := fitted.Analyze(c.r); !errors.As(err, &u) || err.Error() != c.want {
			t.Errorf("%+v: %v, want the usage error %q", c.r, err, c.want)
		}
	}
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
	m, err := instrument.Measure(prog, fns, instrument.Workload{Args: []string{"go", "test", "./pairs"}, Dir: "testdata"})
	if err != nil || m.ExitCode != 0 {
		t.Fatalf("%v %+v", err, m)
	}
	prof := filepath.Join(tmp, "pairs.prof.json")
	if err := m.Profile.Write(prof); err != nil {
		t.Fatal(err)
	}
	l, err := fitted.Load("testdata", "example.com/pairs/pairs.Pairs", fit, prof)
	if err != nil {
		t.Fatal(err)
	}
	if l.Fn.Name != "example.com/pairs/pairs.Pairs" || len(l.Model.Loops) != 2 || l.Base.ProfileName != prof {
		t.Errorf("loaded %s with %d loops, profile %q", l.Fn.Name, len(l.Model.Loops), l.Base.ProfileName)
	}
	// Analyze predicts at a point the laws were not fitted on: the loops iterate n and
	// (n² + n)/2 times, so the cost annotated in pairs.go is 1.5·n(n+1) + 3n + 3; with Emit it
	// writes the parametric model too, and says so.
	var log strings.Builder
	base := filepath.Join(tmp, "pairs")
	a, err := fitted.Analyze(fitted.Request{Dir: "testdata", Func: "example.com/pairs/pairs.Pairs", Fit: fit, Profile: prof,
		At: "n=100", Compare: true, Emit: "prism", Out: base, Log: &log})
	if err != nil {
		t.Fatal(err)
	}
	if want := 1.5*100*101 + 3*100 + 3; len(a.Predictions) != 1 || math.Abs(a.Predictions[0].Mean-want) > 1e-6*want || a.Inputs != "n=100" {
		t.Errorf("predictions %+v at %q, want cost %v", a.Predictions, a.Inputs, want)
	}
	if a.Measured["cost"] == 0 || log.String() != "wrote "+base+".pm, "+base+".props\n" {
		t.Errorf("measured %v, log %q", a.Measured, log.String())
	}
	// Emit alone writes the model and predicts nothing.
	if a, err := fitted.Analyze(fitted.Request{Dir: "testdata", Func: "example.com/pairs/pairs.Pairs", Fit: fit, Profile: prof, Emit: "prism", Out: base}); err != nil || a.Inputs != "" || a.Predictions != nil {
		t.Errorf("emit only: %v, %+v", err, a)
	}
}
