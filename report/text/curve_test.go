package text_test

import (
	"math"
	"math/rand"
	"path/filepath"
	"strings"
	"testing"

	"github.com/augur-perf/augur/options/influence"
	"github.com/augur-perf/augur/options/study"
	"github.com/augur-perf/augur/report/text"
)

// zstdLike is a model shaped like examples/zstd's: a level measured at 1..4 whose regions are
// the levels' own code (the best level's match finder runs at level 4 only, the better one's
// at 3), which no curve in the level fits, plus a region whose time grows with the level and a
// boolean crc that adds little; each configuration the median of three noisy runs.
func zstdLike(t *testing.T) *study.ModelFile {
	t.Helper()
	rng := rand.New(rand.NewSource(3))
	levels := []float64{1, 2, 3, 4}
	laws := map[string]func(level float64, crc bool) float64{
		"best":   func(l float64, _ bool) float64 { return map[bool]float64{true: 0.13, false: 0.0005}[l == 4] },
		"better": func(l float64, _ bool) float64 { return map[bool]float64{true: 0.015, false: 0.0003}[l == 3] },
		"main": func(l float64, crc bool) float64 {
			if crc {
				return 0.012 + 0.011*l
			}
			return 0.01 + 0.011*l
		},
	}
	var locals []influence.Local
	for _, name := range []string{"best", "better", "main"} {
		var ms []influence.Measurement
		for _, crc := range []bool{false, true} {
			for _, l := range levels {
				var runs []float64
				for r := 0; r < 3; r++ {
					runs = append(runs, laws[name](l, crc)*(1+0.03*rng.NormFloat64()))
				}
				ms = append(ms, influence.Measurement{Config: influence.Config{"crc": crc}, Num: map[string]float64{"level": l}, Seconds: median3(runs)})
			}
		}
		loc, err := influence.NumericLocalModel(influence.Region{Name: name, Position: name + ".go:1:1", Options: []string{"crc", "level"}}, "level", ms)
		if err != nil {
			t.Fatal(err)
		}
		locals = append(locals, loc)
	}
	base, err := influence.LocalModel(influence.Region{Name: "base"}, []influence.Measurement{{Seconds: 0.004, SE: 0.0001}})
	if err != nil {
		t.Fatal(err)
	}
	locals = append(locals, base)
	return &study.ModelFile{Format: study.ModelFormat, Options: []string{"crc", "level"}, Time: "wall",
		Model: influence.Global(locals...), Locals: locals, Numeric: map[string][]float64{"level": levels}}
}

func median3(xs []float64) float64 {
	a, b, c := xs[0], xs[1], xs[2]
	return math.Max(math.Min(a, b), math.Min(math.Max(a, b), c))
}

// printedPrediction is what the printed formula predicts: the sum of the shown terms.
func printedPrediction(m influence.Model, o influence.FormatOptions, crc bool, level float64) float64 {
	var shown []influence.Term
	for i, ok := range o.Shown(m) {
		if ok {
			shown = append(shown, m.Terms[i])
		}
	}
	v, _ := influence.PredictAt(influence.Model{Terms: shown}, influence.Config{"crc": crc}, map[string]float64{"level": level})
	return v
}

// The printed model of a zstd-like measurement predicts what the model predicts at every
// measured level (judged term by term it printed a fraction of the curve), and so does the
// model read back from its file, with or without the covariances recorded.
func TestPrintedCurveIsTheModels(t *testing.T) {
	mf := zstdLike(t)
	o := mf.FormatOptions()
	alone := o
	alone.Values = nil
	worst := 0.0
	for _, l := range mf.Numeric["level"] {
		full, err := influence.PredictAt(mf.Model, influence.Config{}, map[string]float64{"level": l})
		if err != nil {
			t.Fatal(err)
		}
		if got := printedPrediction(mf.Model, o, false, l); math.Abs(got-full) > 1e-12 {
			t.Errorf("level %v, crc off: the printed model predicts %.4f s, the model %.4f s", l, got, full)
		}
		worst = math.Max(worst, math.Abs(printedPrediction(mf.Model, alone, false, l)-full)/full)
	}
	if worst < 0.5 {
		t.Errorf("judged term by term the printed model is within %.0f%% of the model: the test no longer has the problem it guards against", 100*worst)
	}
	var before, after strings.Builder
	if err := text.OptionsModel(&after, mf); err != nil {
		t.Fatal(err)
	}
	before.WriteString(mf.Model.Format(alone))
	t.Logf("term by term: %s\nfamilies:\n%s", before.String(), after.String())

	// Written and read back; then as a file written before the covariances were recorded.
	dir := t.TempDir()
	path := filepath.Join(dir, "m.json")
	if err := mf.WriteFile(path); err != nil {
		t.Fatal(err)
	}
	back, err := study.ReadModel(path)
	if err != nil {
		t.Fatal(err)
	}
	var got strings.Builder
	if err := text.OptionsModel(&got, back); err != nil {
		t.Fatal(err)
	}
	if got.String() != after.String() {
		t.Errorf("read back:\n%s\nwant\n%s", got.String(), after.String())
	}
	old := *mf
	old.Model = influence.Model{Terms: stripCov(mf.Model.Terms)}
	old.Locals = nil
	for _, l := range mf.Locals {
		l.Terms = stripCov(l.Terms)
		old.Locals = append(old.Locals, l)
	}
	oldPath := filepath.Join(dir, "old.json")
	if err := old.WriteFile(oldPath); err != nil {
		t.Fatal(err)
	}
	back, err = study.ReadModel(oldPath)
	if err != nil {
		t.Fatal(err)
	}
	got.Reset()
	if err := text.OptionsModel(&got, back); err != nil {
		t.Fatal(err)
	}
	if got.String() != after.String() {
		t.Errorf("an old file:\n%s\nwant\n%s", got.String(), after.String())
	}
	p, err := back.PredictAt(map[string]bool{"crc": true}, map[string]float64{"level": 4})
	if want, _ := influence.PredictAt(mf.Model, influence.Config{"crc": true}, map[string]float64{"level": 4}); err != nil || p.Seconds != want {
		t.Errorf("old file predicts %v (%v), want %v", p.Seconds, err, want)
	}
}

func stripCov(ts []influence.Term) []influence.Term {
	out := append([]influence.Term(nil), ts...)
	for i := range out {
		out[i].Cov = nil
	}
	return out
}
