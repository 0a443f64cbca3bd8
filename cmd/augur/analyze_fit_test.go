package main

import (
	"encoding/json"
	"math"
	"path/filepath"
	"strings"
	"testing"
)

// TestAnalyzeFit runs Beagle's loop end to end on analyze/fitted's Pairs: profile and record it
// on sizes 1..20, fit the laws of its loops, and predict its expected cost for sizes 100 and
// 1000 (a tenfold and fiftyfold extrapolation) without running it: the closed form of its
// annotations, 1.5·n(n+1) + 3n + 3, exactly (its final if is taken always: laws 1 and 0).
func TestAnalyzeFit(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs instrumented workloads")
	}
	tmp := t.TempDir()
	dir := filepath.Join("analyze", "fitted", "testdata")
	fn := "example.com/pairs/pairs.Pairs"
	prof, trace, laws := filepath.Join(tmp, "p.json"), filepath.Join(tmp, "t.jsonl"), filepath.Join(tmp, "fit.json")
	for _, args := range [][]string{
		{"profile", "./pairs", "--dir", dir, "-o", prof, "--", "go", "test", "./pairs"},
		{"fit", "record", fn, "--dir", dir, "-o", trace, "--", "go", "test", "./pairs"},
		{"fit", trace, "-o", laws},
	} {
		if code, _, errs := runCLI(t, args...); code != 0 {
			t.Fatalf("%v: exit %d\n%s", args, code, errs)
		}
	}
	code, out, errs := runCLI(t, "analyze", fn, "--dir", dir, "--fit", laws, "--profile", prof, "--inputs", "len(xs)~choice(100:0.5,1000:0.5)", "--compare", "--json")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, errs)
	}
	var got struct {
		Loops       []map[string]string `json:"loops"`
		Branches    []map[string]string `json:"branches"`
		Predictions []struct {
			Reward     string  `json:"reward"`
			Mean       float64 `json:"mean"`
			Exact      bool    `json:"exact"`
			OutOfRange float64 `json:"extrapolated_probability"`
			Measured   float64 `json:"measured_profile"`
		} `json:"predictions"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	cost := func(n float64) float64 { return 1.5*n*(n+1) + 3*n + 3 }
	want := (cost(100) + cost(1000)) / 2
	if len(got.Loops) != 2 || len(got.Branches) != 1 || len(got.Predictions) != 1 {
		t.Fatalf("%s", out)
	}
	p := got.Predictions[0]
	// The profile's own prediction is the mean cost over sizes 1..20.
	if p.Reward != "cost" || !p.Exact || math.Abs(p.Mean-want) > 1e-6*want || p.OutOfRange != 1 || math.Abs(p.Measured-265.5) > 1e-9 {
		t.Errorf("prediction %+v, want mean %v (closed form), all of it extrapolated, 265.5 measured", p, want)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--fit", laws, "--inputs", "len(xs)=5"}, "--fit needs --profile"},
		{[]string{"--fit", laws, "--profile", prof, "--inputs", "n=5"}, "needs parameter len(xs)"},
		{[]string{"--fit", laws, "--profile", prof, "--at", "len(xs)~normal(1,2)"}, "--at takes values"},
		{[]string{"--fit", laws, "--profile", prof}, "give --inputs or --at"},
	} {
		code, _, errs := runCLI(t, append([]string{"analyze", fn, "--dir", dir}, c.args...)...)
		if code != exitUsage || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, %s; want usage error %q", c.args, code, errs, c.want)
		}
	}
}
