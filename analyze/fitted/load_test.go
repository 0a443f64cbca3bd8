package fitted_test

import (
	"errors"
	"path/filepath"
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
}
