package main

import (
	"bytes"
	"encoding/json"
	"math"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/augur-perf/augur/analyze/timing"
)

// analyzeJSON is the part of analyze --json these tests read.
type analyzeJSON struct {
	Time      string `json:"time"`
	Scenarios []struct {
		Name       string              `json:"name"`
		Values     map[string]*float64 `json:"values"`
		StdErrors  map[string]float64  `json:"std_errors"`
		Unanswered map[string]string   `json:"unanswered"`
		HotSpots   []struct {
			Line      int                `json:"line"`
			Statement string             `json:"statement"`
			Rewards   map[string]float64 `json:"rewards"`
		} `json:"hot_spots"`
	} `json:"scenarios"`
}

const timeProp = `R{"time"}=? [ F "end" ]`

// TestTimeOnLoopBody (issue 10 item 6): the CPU samples of a loop whose body calls an
// expensive function are the body's, not the for line's, and each statement's time is divided
// by its own count.
func TestTimeOnLoopBody(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a workload twice")
	}
	code, out, errs := runCLI(t, "analyze", "github.com/augur-perf/augur/cmd/augur/testdata/loopbody.Sum", "--time", "--json",
		"--precision", "20%", "--max-runs", "3", "--", "go", "test", "./cmd/augur/testdata/loopbody", "-run", "Workload")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, errs)
	}
	var got analyzeJSON
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	total := *got.Scenarios[0].Values[timeProp]
	var body, header float64
	for _, h := range got.Scenarios[0].HotSpots {
		switch {
		case strings.HasPrefix(h.Statement, "s += expensive"):
			body = h.Rewards["time"]
		case h.Line == 8:
			header += h.Rewards["time"]
		}
	}
	if body < 0.9*total || header > 0.1*total {
		t.Errorf("per call: the body %v ns, the for line %v ns, of %v: the body's call must hold the time\n%s", body, header, total, out)
	}
	if !strings.Contains(got.Time, "CPU time (not wall time)") {
		t.Errorf("the JSON does not say what the time is: %q", got.Time)
	}
}

// TestScenarioWithoutTime: a profile that runs a statement the timed workload never ran cannot
// be given a time, and says so in its cell and in JSON (never an empty cell or values).
func TestScenarioWithoutTime(t *testing.T) {
	if testing.Short() {
		t.Skip("runs workloads")
	}
	dir := t.TempDir()
	lookups := filepath.Join(dir, "lookups.json")
	tf := filepath.Join(dir, "lookups.time.json")
	route := "github.com/augur-perf/augur/examples/router.Route"
	code, _, errs := runCLI(t, "profile", "./examples/router", "--func", route, "--time", "--precision", "50%", "--max-runs", "1",
		"-o", lookups, "--", "go", "test", "./examples/router", "-run", "^$", "-bench", "OnlyLookups", "-benchtime", "200000x")
	if code != 0 {
		t.Fatalf("profile: exit %d\n%s", code, errs)
	}
	code, out, errs := runCLI(t, "analyze", route, "--profile", lookups, "--profile", "examples/router/mixB.prof.json", "--rewards", tf, "--compare", "--json")
	if code != 0 {
		t.Fatalf("analyze: exit %d\n%s", code, errs)
	}
	var got analyzeJSON
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	a, b := got.Scenarios[0], got.Scenarios[1]
	if a.Values[timeProp] == nil || a.StdErrors[timeProp] <= 0 {
		t.Errorf("the timed usage has no time or no error: %+v", a)
	}
	if v, ok := b.Values[timeProp]; !ok || v != nil || !strings.Contains(b.Unanswered[timeProp], "never ran while the time was measured") {
		t.Errorf("mix B runs loops and hashes that were never timed: want a null value and the reason, got %v, %q", v, b.Unanswered[timeProp])
	}
	_, text, _ := runCLI(t, "analyze", route, "--profile", lookups, "--profile", "examples/router/mixB.prof.json", "--rewards", tf, "--compare")
	if !strings.Contains(text, "n/a") || !strings.Contains(text, "never ran while the time was measured") {
		t.Errorf("the text output does not say why B has no time:\n%s", text)
	}
}

// BenchmarkTimePrediction is issue 18's check, on the bundled router: time measured under mix A
// (a benchmark), predicted for A and for mix B (counts from 'augur profile' of B's test), each
// against a plain benchmark of the same mix. Run it alone, it takes a minute or two:
//
//	go test ./cmd/augur -run '^$' -bench TimePrediction -benchtime 1x
//
// The plain benchmarks report wall and CPU time per op; the check is on CPU time, the time augur
// measures, because on a machine shared with other work the wall time also counts the time the
// benchmark waited for a processor. Tolerances: 5 % for the timed mix, 10 % for the other.
func BenchmarkTimePrediction(b *testing.B) {
	for range b.N {
		dir := b.TempDir()
		route := "github.com/augur-perf/augur/examples/router.Route"
		prof := filepath.Join(dir, "b.json")
		if code, _, errs := runCLI(b, "profile", "./examples/router", "--func", route, "-o", prof,
			"--", "go", "test", "./examples/router", "-run", "TestMixB"); code != 0 {
			b.Fatalf("profile: exit %d\n%s", code, errs)
		}
		code, out, errs := runCLI(b, "analyze", route, "--time", "--precision", "2%", "--max-runs", "20", "--profile", prof,
			"--compare", "--json", "--", "go", "test", "./examples/router", "-run", "^$", "-bench", "MixA$")
		if code != 0 {
			b.Fatalf("analyze: exit %d\n%s", code, errs)
		}
		var got analyzeJSON
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			b.Fatalf("%v\n%s", err, out)
		}
		predA, predB := *got.Scenarios[0].Values[timeProp], *got.Scenarios[1].Values[timeProp]
		wall, cpu := plainBench(b, "MixA$|MixB$")
		for _, c := range []struct {
			mix        string
			pred, tol  float64
			se         float64
			wall, cpus float64
		}{
			{"A", predA, 0.05, got.Scenarios[0].StdErrors[timeProp], wall["MixA"], cpu["MixA"]},
			{"B", predB, 0.10, got.Scenarios[1].StdErrors[timeProp], wall["MixB"], cpu["MixB"]},
		} {
			errCPU, errWall := (c.pred-c.cpus)/c.cpus, (c.pred-c.wall)/c.wall
			b.Logf("mix %s: predicted %.1f ± %.1f ns per call; plain benchmark %.1f CPU ns/op (error %+.1f%%), %.1f wall ns/op (error %+.1f%%)",
				c.mix, c.pred, c.se, c.cpus, 100*errCPU, c.wall, 100*errWall)
			b.ReportMetric(100*errCPU, "err"+c.mix+"-%")
			if math.Abs(errCPU) > c.tol {
				b.Errorf("mix %s: prediction %.1f ns is %+.1f%% off the plain benchmark's %.1f CPU ns/op (tolerance %.0f%%)", c.mix, c.pred, 100*errCPU, c.cpus, 100*c.tol)
			}
		}
	}
}

// plainBench runs the router's benchmarks on the code as it is, three times each, and gives the
// median wall and CPU ns/op of each.
func plainBench(b *testing.B, pattern string) (wall, cpu map[string]float64) {
	cmd := exec.Command("go", "test", "./examples/router", "-run", "^$", "-bench", pattern, "-count", "3")
	cmd.Dir = "../.."
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		b.Fatalf("plain benchmark: %v\n%s", err, out.String())
	}
	line := regexp.MustCompile(`Benchmark(\w+)-\d+\s+\d+\s+([0-9.]+) ns/op\s+([0-9.]+) cpu-ns/op`)
	ws, cs := map[string][]float64{}, map[string][]float64{}
	for _, m := range line.FindAllStringSubmatch(out.String(), -1) {
		w, _ := strconv.ParseFloat(m[2], 64)
		c, _ := strconv.ParseFloat(m[3], 64)
		ws[m[1]], cs[m[1]] = append(ws[m[1]], w), append(cs[m[1]], c)
	}
	median := func(v []float64) float64 {
		if len(v) == 0 {
			b.Fatalf("no benchmark result in\n%s", out.String())
		}
		slices.Sort(v)
		return v[len(v)/2]
	}
	wall, cpu = map[string]float64{}, map[string]float64{}
	for k := range ws {
		wall[k], cpu[k] = median(ws[k]), median(cs[k])
	}
	return wall, cpu
}

// TestProfileScenarioGetsChanges (issue 18 item 1): a --profile scenario has every reward,
// the --set changes included, and every scenario has a value for every property.
func TestProfileScenarioGetsChanges(t *testing.T) {
	code, out, errs := runCLI(t, "analyze", l1, "--profile", "examples/distance/usage.json", "--profile", "examples/distance/usage.json",
		"--set", "time@distance.go:21=1.8", "--set", "energy@distance.go:21=3", "--compare", "--json")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, errs)
	}
	var got analyzeJSON
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	last := got.Scenarios[len(got.Scenarios)-1]
	near := func(v *float64, want float64) bool { return v != nil && math.Abs(*v-want) < 1e-9 }
	if !strings.HasPrefix(last.Name, "profile ") || !near(last.Values[timeProp], 1.8*9) || !near(last.Values[`R{"energy"}=? [ F "end" ]`], 27) {
		t.Errorf("the profile scenario lacks the changes: %+v", last)
	}
	base := got.Scenarios[0]
	if v, ok := base.Values[`R{"energy"}=? [ F "end" ]`]; !ok || v != nil || base.Unanswered[`R{"energy"}=? [ F "end" ]`] == "" {
		t.Errorf("the baseline has no energy reward: want null and why, got %v %q", v, base.Unanswered)
	}
}

// TestScenarioWithoutFunction: a --profile that never measured the function cannot be predicted
// and says so in its own column; the other scenarios are still given.
func TestScenarioWithoutFunction(t *testing.T) {
	code, out, errs := runCLI(t, "analyze", l1, "--profile", "examples/distance/usage.json", "--profile", "examples/router/mixB.prof.json", "--compare", "--json")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, errs)
	}
	var got analyzeJSON
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if len(got.Scenarios) != 2 || got.Scenarios[0].Values[timeProp] == nil {
		t.Fatalf("scenarios %+v", got.Scenarios)
	}
	b := got.Scenarios[1]
	if v, ok := b.Values[timeProp]; !ok || v != nil || !strings.Contains(b.Unanswered[timeProp], "has no counts for") {
		t.Errorf("the router's profile has no counts of L1: want null and why, got %v %q", v, b.Unanswered)
	}
}

// TestValidate: augur validate predicts mix B from the saved time of mix A and measures B on the
// code as it is; both come with 95 % intervals and the error is theirs.
func TestValidate(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a workload")
	}
	code, out, errs := runCLI(t, "validate", "github.com/augur-perf/augur/examples/router.Route", "--rewards", "examples/router/mixA.time.json",
		"--profile", "examples/router/mixB.prof.json", "--precision", "30%", "--max-runs", "2", "--json",
		"--", "go", "test", "./examples/router", "-run", "^$", "-bench", "MixB$", "-benchtime", "300000x")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, errs)
	}
	var v timing.Validation
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	for _, e := range []timing.Estimate{v.Predicted, v.Measured} {
		if !(e.NS > 0 && e.StdErr > 0 && e.CI95[0] < e.NS && e.NS < e.CI95[1]) {
			t.Errorf("estimate %+v: want a positive time inside its interval", e)
		}
	}
	if want := (v.Predicted.NS - v.Measured.NS) / v.Measured.NS; math.Abs(v.RelErr-want) > 1e-12 {
		t.Errorf("relative error %v, want %v", v.RelErr, want)
	}
	if !strings.Contains(v.What, "CPU time (not wall time)") {
		t.Errorf("what is measured: %q", v.What)
	}
}
