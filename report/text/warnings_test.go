package text

import (
	"bytes"
	"testing"

	"github.com/augur-perf/augur/fit/board"
	"github.com/augur-perf/augur/options/study"
	"github.com/augur-perf/augur/probe/profile"
)

func TestFitWarnings(t *testing.T) {
	var b bytes.Buffer
	FitWarnings(&b, board.Result{Laws: []board.Law{{Quantity: "loop@x.go:3", Warnings: []string{"w1", "w2"}}, {Quantity: "q"}}})
	want := "augur fit: warning: loop@x.go:3: w1\naugur fit: warning: loop@x.go:3: w2\n"
	if b.String() != want {
		t.Errorf("got %q, want %q", b.String(), want)
	}
}

func TestOptionsExtrapolation(t *testing.T) {
	var b bytes.Buffer
	mf := &study.ModelFile{Numeric: map[string][]float64{"size": {256, 64, 1024}}}
	OptionsExtrapolation(&b, mf, study.Prediction{Values: map[string]float64{"size": 4096}, Extrapolated: []string{"size"}})
	want := "augur options: warning: size=4096 lies outside the measured values [64, 1024]: the prediction extrapolates\n"
	if b.String() != want {
		t.Errorf("got %q, want %q", b.String(), want)
	}
}

func TestProfiled(t *testing.T) {
	var b bytes.Buffer
	Profiled(&b, &profile.Profile{Runs: 1, Funcs: map[string]*profile.Func{"p.F": {Invocations: 1}, "p.G": {}}}, "p.json")
	want := "augur profile: 2 functions, 1 invoked, 1 invocation; wrote p.json (1 run)\n"
	if b.String() != want {
		t.Errorf("got %q, want %q", b.String(), want)
	}
}
