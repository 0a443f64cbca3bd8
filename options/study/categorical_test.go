package study

import (
	"bufio"
	"errors"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/augur-perf/augur/options/influence"
	"github.com/augur-perf/augur/options/sources"
)

// The marker after the option's name declares its values categorical; values without it are
// as before, and a later --values for the same option replaces an earlier one, marker included.
func TestParseDeclsCategorical(t *testing.T) {
	d, err := ParseDecls(nil, nil, []string{"level:cat=1,2,3,4", "mode=fast,mid,best", "size=1,2,4"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(d.Categorical, []string{"level"}) || !slices.Equal(d.Values["level"], []string{"1", "2", "3", "4"}) || len(d.Values["mode"]) != 3 {
		t.Errorf("got %+v", d)
	}
	d, err = ParseDecls(nil, nil, []string{"level:cat=1,2,3,4", "level=1,2,3,4"}, nil)
	if err != nil || len(d.Categorical) != 0 {
		t.Errorf("a later --values without the marker: %+v, %v", d, err)
	}
	var de *sources.DeclError
	for _, bad := range []string{":cat=1,2,3", "level:cat=1", "level:cat=1,1,2"} {
		if _, err := ParseDecls(nil, nil, []string{bad}, nil); !errors.As(err, &de) {
			t.Errorf("%q: %v, want a DeclError", bad, err)
		}
	}
}

// stepModelFile is a model file as measure writes it for a program whose -level selects one of
// four code paths (influence's step law): a table per region, dummy-coded against level 1.
func stepModelFile(t *testing.T) *ModelFile {
	t.Helper()
	levels := []string{"1", "2", "3", "4"}
	law := func(region string, crc bool, level string) float64 {
		switch region {
		case "find":
			return map[string]float64{"1": 0.030, "2": 0.050, "3": 0.040, "4": 0.200}[level]
		case "sum":
			if !crc {
				return 0.001
			}
			if level == "3" {
				return 0.033
			}
			return 0.021
		}
		return 0.005
	}
	var locals []influence.Local
	for _, r := range []influence.Region{
		{Name: "base", Options: []string{}},
		{Name: "R1", Position: "enc.go:10:1", Options: []string{"level"}},
		{Name: "R2", Position: "enc.go:20:1", Options: []string{"crc", "level"}},
	} {
		name := map[string]string{"base": "setup", "R1": "find", "R2": "sum"}[r.Name]
		var ms []influence.Measurement
		for _, crc := range []bool{false, true} {
			for _, lv := range levels {
				ms = append(ms, influence.Measurement{Config: influence.Config{"crc": crc}, Cat: map[string]string{"level": lv}, Seconds: law(name, crc, lv), SE: 0.0005})
			}
		}
		l, err := influence.MixedLocalModel(r, influence.Kinds{Levels: map[string][]string{"level": levels}}, ms)
		if err != nil {
			t.Fatal(err)
		}
		locals = append(locals, l)
	}
	return &ModelFile{Format: ModelFormat, System: "./step", Options: []string{"crc", "level", "v"}, Time: "wall",
		Model: influence.Global(locals...), Locals: locals, Categorical: map[string][]string{"level": levels}}
}

// A model file with a categorical option is written and read back unchanged, and predicts
// with the option's value given as predict's arguments give it; a value never measured, and a
// missing value, are refused with the measured values named.
func TestCategoricalModelFile(t *testing.T) {
	mf := stepModelFile(t)
	path := filepath.Join(t.TempDir(), "step.json")
	if err := mf.WriteFile(path); err != nil {
		t.Fatal(err)
	}
	back, err := ReadModel(path)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := back.Model.Format(back.FormatOptions()), mf.Model.Format(mf.FormatOptions()); got != want || !strings.Contains(got, "0.170·[level=4]") {
		t.Errorf("read back: %s\nwritten:      %s", got, want)
	}
	if !back.IsCategorical("level") || back.IsCategorical("crc") || back.IsNumeric("level") {
		t.Errorf("kinds: level categorical %v, crc categorical %v", back.IsCategorical("level"), back.IsCategorical("crc"))
	}
	want := map[string]float64{"1": 0.056, "2": 0.076, "3": 0.078, "4": 0.226}
	for lv, w := range want {
		on, num, err := back.ParseSetting("", []string{"crc", "level=" + lv})
		if err != nil {
			t.Fatal(err)
		}
		p, err := back.PredictAt(on, num)
		if err != nil || math.Abs(p.Seconds-w) > 1e-12 || p.Levels["level"] != lv {
			t.Errorf("crc level=%s: %+v (%v), want %v s", lv, p, err, w)
		}
		// --config takes it too.
		on, num, err = back.ParseSetting("crc,level="+lv, nil)
		if q, err2 := back.PredictAt(on, num); err != nil || err2 != nil || q.Seconds != p.Seconds {
			t.Errorf("--config crc,level=%s: %v (%v, %v)", lv, q.Seconds, err, err2)
		}
	}
	// The contributions of crc level=3: the constant, [level=3], crc and crc·[level=3].
	on, num, _ := back.ParseSetting("", []string{"crc=1", "level=3"})
	p, _ := back.PredictAt(on, num)
	var names []string
	for _, c := range p.Terms {
		names = append(names, influence.Term{Options: c.Options, Levels: c.Levels}.Name())
	}
	if got := strings.Join(names, " + "); got != " + crc + [level=3] + crc·[level=3]" {
		t.Errorf("contributions %q", got)
	}
	var ie *InputError
	if _, _, err := back.ParseSetting("", []string{"level=5"}); !errors.As(err, &ie) || !strings.Contains(err.Error(), "measured at 1, 2, 3, 4 only") {
		t.Errorf("level=5: %v", err)
	}
	if _, _, err := back.ParseSetting("", []string{"level"}); !errors.As(err, &ie) || !strings.Contains(err.Error(), "level=VALUE (one of 1, 2, 3, 4)") {
		t.Errorf("level without a value: %v", err)
	}
	if _, err := back.PredictAt(map[string]bool{"crc": true}, nil); err == nil || !strings.Contains(err.Error(), "categorical option level (one of 1, 2, 3, 4)") {
		t.Errorf("no level: %v", err)
	}
	if _, err := back.PredictAt(map[string]bool{"level=7": true}, nil); err == nil || !strings.Contains(err.Error(), "level=7 was never measured") {
		t.Errorf("PredictAt level=7: %v", err)
	}
	if _, err := back.PredictAt(map[string]bool{"level=3": true, "level=4": true}, nil); err == nil || !strings.Contains(err.Error(), "two values") {
		t.Errorf("two levels: %v", err)
	}
	if _, err := back.PredictAt(map[string]bool{"level": true}, nil); err == nil || !strings.Contains(err.Error(), "level is categorical") {
		t.Errorf("level as a boolean: %v", err)
	}
}

// A model file written before categorical options existed (measured with this repository's
// code of that time: examples/numeric, -size at 64, 256, 1024, 4096) reads and predicts as it
// did: the golden predictions were printed by that code. Without its covariances (a file older
// still) it predicts the same.
func TestModelFileBeforeCategorical(t *testing.T) {
	const path = "testdata/numeric-before-categorical.json"
	mf, err := ReadModel(path)
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	noCov := regexp.MustCompile(`(?s),\s*"cov": \{[^}]*\}`).ReplaceAll(data, nil)
	if len(noCov) == len(data) {
		t.Fatal("the file has no covariances to strip")
	}
	older := filepath.Join(t.TempDir(), "older.json")
	if err := os.WriteFile(older, noCov, 0o644); err != nil {
		t.Fatal(err)
	}
	mfOld, err := ReadModel(older)
	if err != nil {
		t.Fatal(err)
	}
	if mf.Categorical != nil || mf.Model.Levels != nil || !mf.IsNumeric("size") || mf.IsCategorical("size") {
		t.Errorf("read as categorical: %+v %+v", mf.Categorical, mf.Model.Levels)
	}
	golden, err := os.Open("testdata/numeric-before-categorical.golden")
	if err != nil {
		t.Fatal(err)
	}
	defer golden.Close()
	sc := bufio.NewScanner(golden)
	n := 0
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) != 3 || (f[0] != "true" && f[0] != "false") {
			continue // the printed model (report/text checks it)
		}
		x, _ := strconv.ParseFloat(f[1], 64)
		want, _ := strconv.ParseFloat(f[2], 64)
		for _, m := range []*ModelFile{mf, mfOld} {
			p, err := m.PredictAt(map[string]bool{"cache": f[0] == "true"}, map[string]float64{"size": x})
			if err != nil || p.Seconds != want {
				t.Errorf("cache=%s size=%v: %v (%v), want %v", f[0], x, p.Seconds, err, want)
			}
		}
		n++
	}
	if n != 10 {
		t.Errorf("%d golden predictions, want 10", n)
	}
}
