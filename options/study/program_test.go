package study_test

import (
	"context"
	"errors"
	"testing"

	"github.com/augur-perf/augur/options/study"
)

var options = study.Request{Dir: "../..", Patterns: []string{"./examples/options"}, Fixed: []string{"unit"}}

// wantUsage checks that err is the caller's mistake (a usage error) saying want.
func wantUsage(t *testing.T, err error, want string) {
	t.Helper()
	var u interface{ UsageError() bool }
	if !errors.As(err, &u) || !u.UsageError() || err.Error() != want {
		t.Errorf("%v, want the usage error %q", err, want)
	}
}

// Declarations in the command line's syntax are parsed by Analyse, their mistakes usage errors;
// Compressed is augur options configs in one call.
func TestCompressed(t *testing.T) {
	c, err := study.Compressed(options, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Configs) != 8 || c.Space.BruteForce().String() != "1024" || len(c.Analysis.Irrelevant) != 1 {
		t.Errorf("%d configurations of %s, irrelevant %v", len(c.Configs), c.Space.BruteForce(), c.Analysis.Irrelevant)
	}
	bad := options
	bad.Values = []string{"x"}
	_, err = study.Compressed(bad, "")
	wantUsage(t, err, `--values "x": options: --values "x": want name=v1,v2`)
	_, err = study.Compressed(options, "bogus")
	wantUsage(t, err, `unknown --method "bogus" (want auto, exact, greedy, pivot)`)
}

func TestPredictFile(t *testing.T) {
	mf, p, err := study.PredictFile("testdata/model.json", "A", []string{"C=1"})
	if err != nil || p.Seconds != 7 || len(mf.Options) != 3 {
		t.Errorf("%v: %+v", err, p)
	}
	_, _, err = study.PredictFile("testdata/model.json", "", []string{"NOPE=1"})
	wantUsage(t, err, `"NOPE=1": unknown option "NOPE" (the model's options: A, B, C)`)
}

// The one-call measure and evaluate refuse what is missing or malformed before they build or
// run anything.
func TestProgramRefuses(t *testing.T) {
	ctx := context.Background()
	_, err := study.MeasureProgram(ctx, study.MeasureRequest{Request: options})
	wantUsage(t, err, "--run is required: the program to build and run, e.g. --run './examples/options / -unit=10ms'")
	_, err = study.MeasureProgram(ctx, study.MeasureRequest{Request: options, Program: study.Program{Run: "./examples/options", ConfigTemplate: "testdata/none"}})
	wantUsage(t, err, "--config-template: open testdata/none: no such file or directory")
	run := study.Program{Run: "./examples/options / -unit=1ms"}
	_, err = study.EvaluateProgram(ctx, study.EvaluateRequest{Request: options, Program: run})
	wantUsage(t, err, "--reps 0: want at least 1")
	r := study.EvaluateRequest{Request: options, Program: run, HeldOutValues: []string{"size=1,2"}}
	r.Reps = 1
	_, err = study.EvaluateProgram(ctx, r)
	wantUsage(t, err, "--held-out-values needs the --model to check")
}
