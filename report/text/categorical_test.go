package text_test

import (
	"os"
	"strings"
	"testing"

	"github.com/augur-perf/augur/options/baselines"
	"github.com/augur-perf/augur/options/influence"
	"github.com/augur-perf/augur/options/study"
	"github.com/augur-perf/augur/report/text"
)

// A model file written before categorical options existed prints as that code printed it (the
// golden text under its predictions in options/study/testdata).
func TestModelBeforeCategoricalPrinted(t *testing.T) {
	mf, err := study.ReadModel("../../options/study/testdata/numeric-before-categorical.json")
	if err != nil {
		t.Fatal(err)
	}
	golden, err := os.ReadFile("../../options/study/testdata/numeric-before-categorical.golden")
	if err != nil {
		t.Fatal(err)
	}
	want := string(golden[strings.Index(string(golden), "T = "):])
	var b strings.Builder
	if err := text.OptionsModel(&b, mf); err != nil {
		t.Fatal(err)
	}
	if b.String() != want {
		t.Errorf("printed:\n%s\nwant:\n%s", b.String(), want)
	}
}

// A model with a categorical option prints its dummy terms, names the value in a prediction,
// and evaluate's header shows the option's set of values.
func TestCategoricalPrinted(t *testing.T) {
	var ms []influence.Measurement
	for i, v := range []string{"fast", "mid", "best"} {
		ms = append(ms, influence.Measurement{Cat: map[string]string{"mode": v}, Seconds: []float64{0.1, 0.103, 0.4}[i], SE: 0.001})
	}
	l, err := influence.MixedLocalModel(influence.Region{Name: "R1", Position: "main.go:9:2", Options: []string{"mode"}}, influence.Kinds{Levels: map[string][]string{"mode": {"fast", "mid", "best"}}}, ms)
	if err != nil {
		t.Fatal(err)
	}
	mf := &study.ModelFile{Options: []string{"mode"}, Time: "wall", Model: influence.Global(l), Locals: []influence.Local{l}, Categorical: l.Levels}
	var b strings.Builder
	if err := text.OptionsModel(&b, mf); err != nil {
		t.Fatal(err)
	}
	// [mode=mid] alone is within noise, but its family stands out: both are printed.
	if !strings.HasPrefix(b.String(), "T = 0.100 + 0.003·[mode=mid] + 0.300·[mode=best]  (seconds of wall time)\n") || !strings.Contains(b.String(), "[mode=best]  0.3  ") {
		t.Errorf("model:\n%s", b.String())
	}
	on, num, err := mf.ParseSetting("", []string{"mode=best"})
	if err != nil {
		t.Fatal(err)
	}
	p, err := mf.PredictAt(on, num)
	if err != nil {
		t.Fatal(err)
	}
	b.Reset()
	if err := text.OptionsPrediction(&b, p); err != nil {
		t.Fatal(err)
	}
	if got := b.String(); !strings.HasPrefix(got, "T({mode=best}) = 0.40 s\n") || !strings.Contains(got, "[mode=best]  0.30  R1 (main.go:9:2)") {
		t.Errorf("prediction:\n%s", got)
	}
	b.Reset()
	ev := &study.Evaluation{Table: baselines.Table{System: "./m", HeldOut: 6}, Options: []string{"A", "mode"}, Categorical: map[string][]string{"mode": {"fast", "mid", "best"}}, Reps: 1, HeldOut: 6}
	text.OptionsEvaluation(&b, "./m", ev)
	if got := b.String(); !strings.HasPrefix(got, "System: ./m (2 options, 1 categorical: A, mode∈{fast,mid,best})\n") {
		t.Errorf("evaluation:\n%s", got)
	}
}
