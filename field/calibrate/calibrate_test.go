package calibrate

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/augur-perf/augur/field/plan"
	"github.com/augur-perf/augur/source/frontend"
)

// TestCalibrate calibrates field/build's CPU-bound benchmark program: with a generous target
// every bound is measured and the largest kept; a target no build can meet (a slowdown below
// -100 %) is an error naming the smallest bound's cost; a failing workload is an error with its
// output.
func TestCalibrate(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs several variants")
	}
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS("../build/testdata/bench")); err != nil {
		t.Fatal(err)
	}
	prog, err := frontend.Load(dir, "example.com/bench")
	if err != nil {
		t.Fatal(err)
	}
	fns, err := prog.Select("example.com/bench")
	if err != nil {
		t.Fatal(err)
	}
	units := plan.Units(fns, nil, filepath.Base)
	o := Options{Dir: dir, Main: ".", Units: units, Strategy: plan.RandomBalanced, Seed: 3, Variants: 4,
		Target: 100, Workload: []string{"sh", "-c", `"$AUGUR_FIELD_BIN" 2000`}, Runs: 1}
	res, err := Calibrate(o, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Points) != len(defaultBounds(len(units))) || res.Bound != len(units) || res.Plain <= 0 {
		t.Errorf("%d units: %+v", len(units), res)
	}
	o.Target, o.Bounds = -2, []int{8, 16}
	if _, err := Calibrate(o, io.Discard); err == nil || !strings.Contains(err.Error(), "even 8 probes cost") {
		t.Errorf("an unreachable target: %v", err)
	}
	o.Target, o.Workload = 1, []string{"sh", "-c", "echo broken; exit 3"}
	if _, err := Calibrate(o, io.Discard); err == nil || !strings.Contains(err.Error(), "broken") {
		t.Errorf("a failing workload: %v", err)
	}
}

// An overhead target is a percentage, never a bare number, a negative one or NaN.
func TestParseTarget(t *testing.T) {
	if v, err := ParseTarget("5%"); err != nil || v != 0.05 {
		t.Errorf("5%%: %v %v", v, err)
	}
	for _, s := range []string{"5", "-1%", "NaN%", "x%", "%"} {
		if _, err := ParseTarget(s); err == nil {
			t.Errorf("%q accepted", s)
		}
	}
}
