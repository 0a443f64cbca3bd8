package study

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/augur-perf/augur/options/influence"
	"github.com/augur-perf/augur/options/runner"
	"github.com/augur-perf/augur/options/sources"
)

// The worker pool end to end: its regions run on four workers and main, and both models match
// the closed forms of examples/pool (in units of 40 ms, long enough that a loaded machine's
// sleep overshoot stays a few per cent): wall time 6·compress + 3·check +
// 3·report (three rounds of four jobs); the jobs sleep, so CPU time summed over goroutines has
// every term within 10 ms of zero, where the goroutines' summed wall time would be 24·compress +
// 12·check + 3·report (twelve jobs). The model file says which model is which and reads back.
func TestWorkerPool(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the example")
	}
	dir, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	req := Request{Dir: dir, Patterns: []string{"./examples/pool"}, Decls: mustDecls(t, []string{"unit"})}
	res, before, after, err := Regions(req)
	if err != nil {
		t.Fatal(err)
	}
	const u = 0.040
	wall := map[string]float64{"compress": 6 * u, "check": 3 * u, "report": 3 * u}
	var problems []string
	for attempt := 1; attempt <= 2; attempt++ {
		target := Target{Pkg: "./examples/pool", Args: []string{"-unit=40ms"}}
		m, err := Measure(context.Background(), dir, res, before, after, MeasureOptions{Target: target, Run: runner.Options{Reps: 3}})
		if err != nil {
			t.Fatal(err)
		}
		mf := m.Model
		if mf.Summed == nil || mf.Goroutines != 5 || mf.Time != "wall" || mf.Summed.Time != "CPU time summed over goroutines" {
			t.Fatalf("summed model %v on %d goroutines, times %q", mf.Summed, mf.Goroutines, mf.Time)
		}
		t.Logf("wall: %s\nCPU: %s", mf.Model, mf.Summed.Model)
		problems = append(checkTerms("wall", mf.Model, wall), checkTerms("CPU", mf.Summed.Model, nil)...)
		path := filepath.Join(t.TempDir(), "pool.json")
		if err := mf.WriteFile(path); err != nil {
			t.Fatal(err)
		}
		back, err := ReadModel(path)
		if err != nil || back.Summed == nil || len(back.Summed.Model.Terms) != len(mf.Summed.Model.Terms) {
			t.Fatalf("read back: %v, %+v", err, back)
		}
		if len(problems) == 0 {
			return
		}
		t.Logf("attempt %d: %s", attempt, strings.Join(problems, "; "))
	}
	t.Error(strings.Join(problems, "\n"))
}

// checkTerms compares the model's one-option terms with want: within 8 % and 3 ms (sleeps
// overshoot, most on a loaded machine); every other term within 10 ms of zero, the constant
// (start-up) between -5 and 30 ms.
func checkTerms(name string, m influence.Model, want map[string]float64) []string {
	var problems []string
	seen := map[string]bool{}
	for _, term := range m.Terms {
		key := strings.Join(term.Options, "·")
		w, ok := want[key]
		seen[key] = ok
		switch {
		case key == "":
			if term.Coef < -0.005 || term.Coef > 0.030 {
				problems = append(problems, fmt.Sprintf("%s: constant %.4f s", name, term.Coef))
			}
		case ok:
			if math.Abs(term.Coef-w) > 0.08*w+0.003 {
				problems = append(problems, fmt.Sprintf("%s: %s = %.4f s, want %.3f", name, key, term.Coef, w))
			}
		case math.Abs(term.Coef) > 0.010:
			problems = append(problems, fmt.Sprintf("%s: unexpected term %s = %.4f s", name, key, term.Coef))
		}
	}
	for key := range want {
		if !seen[key] {
			problems = append(problems, fmt.Sprintf("%s: no term %s", name, key))
		}
	}
	return problems
}

func mustDecls(t *testing.T, fixed []string) sources.Decls {
	t.Helper()
	d, err := ParseDecls(nil, nil, nil, fixed)
	if err != nil {
		t.Fatal(err)
	}
	return d
}
