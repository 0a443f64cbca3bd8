package text_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/augur-perf/augur/analyze/fitted"
	"github.com/augur-perf/augur/analyze/pipeline"
	"github.com/augur-perf/augur/analyze/timing"
	fieldpipe "github.com/augur-perf/augur/field/pipeline"
	"github.com/augur-perf/augur/fit/board"
	"github.com/augur-perf/augur/fit/inputs"
	"github.com/augur-perf/augur/markov/experiment"
	"github.com/augur-perf/augur/markov/param"
	"github.com/augur-perf/augur/options/study"
	"github.com/augur-perf/augur/report/text"
)

// must gives v, or panics with err: the fixtures of a test.
func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// Each subcommand's output in one call: with asJSON it is JSON, without it the text the
// command line prints (its first line says which); what goes to the second writer (warnings,
// notes) goes there only.
func TestOutputs(t *testing.T) {
	options := study.Request{Dir: "../..", Patterns: []string{"./examples/options"}, Fixed: []string{"unit"}}
	analysis := must(pipeline.Analyze(pipeline.Request{Dir: "../..", Func: "github.com/augur-perf/augur/examples/distance.L1",
		Profiles: []string{"../../examples/distance/usage.json"}, CI: 0.95}))
	ranking := must(pipeline.Rank(pipeline.RankRequest{Dir: "../..", Patterns: []string{"./examples/router"},
		Profile: "../../examples/router/mixA.json", By: "time"}))
	check := must(experiment.Do(experiment.Request{Model: "../../examples/die/die.json", Props: []string{`P=? [ F "six" ]`}}))
	answer := must(param.QueryFile("../../examples/die/die.json", nil, `P=? [ F "six" ]`, ""))
	laws := must(board.FitFile(board.FitRequest{Trace: "../../examples/fitsort/sort.trace.jsonl", Rounds: 10}))
	predicted := &board.Predicted{Result: &laws.Result, Inputs: "n=1e9",
		Predictions: must(laws.Result.Predict(must(parseAt("n=1e9")), "comparisons", 10, 1))}
	influence := must(study.Analyse(options))
	configs := must(study.Compressed(options, ""))
	model, prediction, err := study.PredictFile("../../options/study/testdata/model.json", "A,C", nil)
	if err != nil {
		t.Fatal(err)
	}
	validation := &timing.Validation{Function: "p.F", Workload: []string{"go", "test"},
		Predicted: timing.NewEstimate(10, 1, "t.json"), Measured: timing.NewEstimate(11, 1, "runs")}
	simulation := must(fieldpipe.Simulate(fieldpipe.SimulateRequest{Traces: "../../field/sim/testdata/study/traces.json.gz",
		Strategies: "rb", Bounds: "141", Variants: "6", Repeats: 2, Seed: 1}))
	for _, c := range []struct {
		name      string
		print     func(w, note *bytes.Buffer, asJSON bool) error
		text      string // the text's first line starts so
		note      string // and the second writer's, when it has one
		notJSON   bool   // no JSON form
		emptyNote bool
	}{
		{"analyze", func(w, _ *bytes.Buffer, j bool) error { return text.AnalyzeOutput(w, analysis, "", false, j) }, "Function: ", "", false, true},
		{"rank", func(w, _ *bytes.Buffer, j bool) error {
			return text.RankOutput(w, "./examples/router", ranking, false, j)
		}, "Packages: ./examples/router", "", false, true},
		{"check", func(w, _ *bytes.Buffer, j bool) error { return text.CheckOutput(w, check, false, j) }, "Model: ", "", false, true},
		{"param", func(w, _ *bytes.Buffer, j bool) error { return text.ParamOutput(w, answer, j) }, "", "", false, true},
		{"validate", func(w, _ *bytes.Buffer, j bool) error {
			return text.ValidateOutput(w, validation, "t.json", "u.json", j)
		}, "Function:  p.F", "", false, true},
		{"fit", func(w, n *bytes.Buffer, j bool) error { return text.FitOutput(w, n, laws.Result, j) }, "Function: slices.SortFunc", "", false, true},
		{"fit predict", func(w, n *bytes.Buffer, j bool) error { return text.FitPredictOutput(w, n, predicted, j) }, "Function: slices.SortFunc, inputs: n=1e9",
			"augur fit: warning: extrapolating", false, false},
		{"options influence", func(w, _ *bytes.Buffer, j bool) error {
			return text.OptionsInfluenceOutput(w, influence, "../..", false, j)
		}, "", "", false, true},
		{"options configs", func(w, _ *bytes.Buffer, j bool) error { return text.OptionsConfigsOutput(w, configs, j) }, "", "", false, true},
		{"options predict", func(w, n *bytes.Buffer, j bool) error { return text.OptionsPredictOutput(w, n, model, prediction, j) }, "T({A, C}) = 7.00 s", "", false, true},
		{"options measure", func(w, _ *bytes.Buffer, j bool) error { return text.OptionsMeasureOutput(w, model, j) }, "", "", false, true},
		{"field simulate", func(w, _ *bytes.Buffer, j bool) error { return text.FieldSimulateOutput(w, simulation, j, false) }, "60 site-runs from 30 sites", "", false, true},
		{"field token", func(w, n *bytes.Buffer, _ bool) error {
			return text.FieldTokenOutput(w, n, &fieldpipe.Tokens{ID: "abc", Token: "fld_abc_x", Release: "r1"})
		}, "fld_abc_x", "token abc for release r1 (shown once", true, false},
	} {
		var w, note bytes.Buffer
		if err := c.print(&w, &note, false); err != nil {
			t.Errorf("%s: %v", c.name, err)
		}
		if first, _, _ := strings.Cut(w.String(), "\n"); w.Len() == 0 || !strings.HasPrefix(first, c.text) {
			t.Errorf("%s: text starts %q, want %q", c.name, first, c.text)
		}
		if c.emptyNote != (note.Len() == 0) || !strings.HasPrefix(note.String(), c.note) {
			t.Errorf("%s: note %q", c.name, note.String())
		}
		if c.notJSON {
			continue
		}
		w.Reset()
		if err := c.print(&w, &note, true); err != nil || !json.Valid(w.Bytes()) {
			t.Errorf("%s: JSON %v:\n%s", c.name, err, w.String())
		}
	}
	// analyze --fit prints nothing when it only wrote the model; CSV is the rows'.
	var w bytes.Buffer
	if err := text.FittedOutput(&w, &fitted.Analysis{}, "p.json", false); err != nil || w.Len() != 0 {
		t.Errorf("fitted, emit only: %v, %q", err, w.String())
	}
	if err := text.FieldSimulateOutput(&w, simulation, false, true); err != nil || !strings.HasPrefix(w.String(), "strategy,variants,bound,sites") {
		t.Errorf("CSV: %v, %q", err, w.String())
	}
}

func parseAt(s string) ([]inputs.Dist, error) {
	_, ds, err := inputs.FromFlags("", s)
	return ds, err
}

// The collector's side of augur field on a fresh SQLite store: the release registered, its
// report with the JSON written to a file, the field profile.
func TestFieldOutputs(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	plan := fieldpipe.PlanRequest{Dir: "../..", Patterns: []string{"./examples/distance"}, Release: "r1", Variants: 2, Probes: 4,
		Strategy: "rb", Seed: 1, Out: filepath.Join(dir, "release.json")}
	must(fieldpipe.Plan(plan))
	st := fieldpipe.Store{DB: filepath.Join(dir, "f.sqlite")}
	var w bytes.Buffer
	if err := text.FieldReleaseOutput(&w, must(fieldpipe.AddRelease(ctx, st, plan.Out))); err != nil || w.String() != "release r1 registered (2 variants, 11 units)\n" {
		t.Errorf("release: %v, %q", err, w.String())
	}
	w.Reset()
	jsonFile := filepath.Join(dir, "report.json")
	e := must(fieldpipe.Report(ctx, fieldpipe.ReportRequest{Store: st, Release: plan.Out}))
	if err := text.FieldReportOutput(&w, e, "", jsonFile); err != nil || !strings.HasSuffix(w.String(), "wrote "+jsonFile+"\n") {
		t.Errorf("report: %v, %q", err, w.String())
	}
	if data, err := os.ReadFile(jsonFile); err != nil || !json.Valid(data) {
		t.Errorf("report.json: %v", err)
	}
	w.Reset()
	r := fieldpipe.ProfileRequest{Store: st, Release: plan.Out, Dir: "../..", Out: filepath.Join(dir, "field.json")}
	if err := text.FieldProfileOutput(&w, must(fieldpipe.Profile(ctx, r)), r); err != nil || !strings.HasPrefix(w.String(), "Field profile of release r1") {
		t.Errorf("profile: %v, %q", err, w.String())
	}
}
