package main

import (
	"encoding/json"
	"github.com/augur-perf/augur/internal/cli"
	"math"
	"path/filepath"
	"strconv"
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
		if code != cli.ExitUsage || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, %s; want usage error %q", c.args, code, errs, c.want)
		}
	}
}

// TestAnalyzeFitPRISM runs Beagle's loop on analyze/fitted's shapes.Classify (a switch whose
// cases' probabilities 4/n, (n-4)/2n and (n-4)/2n depend on the size) and shapes.Under (a loop
// under an if inside a loop), recorded on even sizes 4..40, exports each fitted model with
// --emit prism, and checks that augur check of the export at sizes in and far beyond the
// recorded ones gives what analyze --fit --at gives, to 1e-9; Classify's against its closed
// form 3.5n + 15 too.
func TestAnalyzeFitPRISM(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs instrumented workloads")
	}
	tmp := t.TempDir()
	dir := filepath.Join("analyze", "fitted", "testdata")
	prof := filepath.Join(tmp, "p.json")
	if code, _, errs := runCLI(t, "profile", "./shapes", "--dir", dir, "-o", prof, "--", "go", "test", "./shapes"); code != 0 {
		t.Fatalf("profile: exit %d\n%s", code, errs)
	}
	for _, name := range []string{"Classify", "Under"} {
		fn := "example.com/pairs/shapes." + name
		trace, laws, base := filepath.Join(tmp, name+".jsonl"), filepath.Join(tmp, name+".fit.json"), filepath.Join(tmp, name)
		for _, args := range [][]string{
			{"fit", "record", fn, "--dir", dir, "-o", trace, "--", "go", "test", "./shapes"},
			{"fit", trace, "-o", laws},
			{"analyze", fn, "--dir", dir, "--fit", laws, "--profile", prof, "--emit", "prism", "-o", base},
		} {
			if code, out, errs := runCLI(t, args...); code != 0 {
				t.Fatalf("%v: exit %d\n%s%s", args, code, out, errs)
			}
		}
		for _, n := range []float64{6, 40, 400, 12345.5} {
			v := strconv.FormatFloat(n, 'g', -1, 64)
			code, out, errs := runCLI(t, "analyze", fn, "--dir", dir, "--fit", laws, "--profile", prof, "--at", "len(xs)="+v, "--json")
			if code != 0 {
				t.Fatalf("analyze --at %v: exit %d\n%s", n, code, errs)
			}
			var got struct {
				Switches    []map[string]string      `json:"switches"`
				Predictions []struct{ Mean float64 } `json:"predictions"`
			}
			if err := json.Unmarshal([]byte(out), &got); err != nil || len(got.Predictions) != 1 {
				t.Fatalf("%v\n%s", err, out)
			}
			if name == "Classify" && (len(got.Switches) != 1 || got.Switches[0]["case1"] != "4" || got.Switches[0]["default"] != "-2 + 0.5·len(xs)") {
				t.Errorf("Classify's switch laws %v, want case1 4 and default -2 + 0.5·len(xs)", got.Switches)
			}
			code, out, errs = runCLI(t, "check", base+".pm", "--props", base+".props", "--const", "len_xs="+v, "--json")
			if code != 0 {
				t.Fatalf("check at %v: exit %d\n%s%s", n, code, out, errs)
			}
			var checked struct {
				Results []struct{ Value float64 } `json:"results"`
			}
			if err := json.Unmarshal([]byte(out), &checked); err != nil || len(checked.Results) != 1 {
				t.Fatalf("%v\n%s", err, out)
			}
			a, c := got.Predictions[0].Mean, checked.Results[0].Value
			t.Logf("%s at n=%v: analyze --at %.15g, check %.15g, relative difference %.2g", name, n, a, c, math.Abs(a-c)/a)
			if math.Abs(a-c) > 1e-9*a {
				t.Errorf("%s at n=%v: analyze --at %.15g, check of the export %.15g", name, n, a, c)
			}
			if want := 3.5*n + 15; name == "Classify" && math.Abs(a-want) > 1e-6*want {
				t.Errorf("Classify at n=%v: %.12g, closed form %.12g", n, a, want)
			}
		}
	}
}
