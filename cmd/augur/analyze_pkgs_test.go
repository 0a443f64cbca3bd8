package main

import (
	"encoding/json"
	"github.com/augur-perf/augur/internal/cli"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// analyze PKGS ranks every invoked function by its inclusive expected reward per call: the
// recursion in analyze/calls/testdata (Walk recurses with probability 3/4) composes to about
// 2/(1-3/4) = 8, and Top, which calls Walk twice and Leaf once, to its own 0.5 plus theirs.
func TestAnalyzePackages(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs an instrumented workload")
	}
	page := filepath.Join(t.TempDir(), "rank.html")
	code, out, errs := runCLI(t, "analyze", "./rec", "--dir", "analyze/calls/testdata", "--json", "--html", page, "--", "go", "test", "./rec")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, errs)
	}
	if html, err := os.ReadFile(page); err != nil || !strings.Contains(string(html), `data-function="example.com/rec.Top"`) {
		t.Errorf("--html: the ranking report has no bar for Top (%v)", err)
	}
	var got struct {
		Reward string `json:"reward"`
		Funcs  []struct {
			Func      string             `json:"function"`
			Exclusive float64            `json:"exclusive"`
			Inclusive float64            `json:"inclusive"`
			Calls     map[string]float64 `json:"calls_per_invocation"`
		} `json:"functions"`
		Dynamic []string `json:"dynamic_call_sites"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if got.Reward != "cost" || len(got.Funcs) < 3 || got.Funcs[0].Func != "example.com/rec.Top" {
		t.Fatalf("%+v", got)
	}
	top, walk := got.Funcs[0], got.Funcs[1]
	f := walk.Calls["example.com/rec.Walk"]
	if walk.Func != "example.com/rec.Walk" || math.Abs(walk.Inclusive-2/(1-f)) > 1e-9 || math.Abs(f-0.75) > 0.03 {
		t.Errorf("Walk: %+v", walk)
	}
	// Top's inclusive reward is its own plus each callee's inclusive reward times its calls: Walk
	// and Leaf, a method, an interface of two implementations and functions holding literals.
	inclusive := map[string]float64{}
	for _, r := range got.Funcs {
		inclusive[r.Func] = r.Inclusive
	}
	want := top.Exclusive
	for g, n := range top.Calls {
		want += n * inclusive[g]
	}
	if top.Exclusive != 0.5 || len(top.Calls) != 8 || top.Calls["example.com/rec.Walk"] != 2 || math.Abs(top.Inclusive-want) > 1e-9 {
		t.Errorf("Top inclusive %v, want %v; calls %v", top.Inclusive, want, top.Calls)
	}
	if len(got.Dynamic) != 1 || !strings.HasSuffix(got.Dynamic[0], "rec.go:105:6") {
		t.Errorf("dynamic call sites %v", got.Dynamic)
	}
	code, _, errs = runCLI(t, "analyze", "./rec", "--dir", "analyze/calls/testdata")
	if code != cli.ExitUsage || !strings.Contains(errs, "--profile") {
		t.Errorf("no profile: exit %d\n%s", code, errs)
	}
}
