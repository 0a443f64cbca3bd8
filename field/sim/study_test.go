package sim

import (
	"math"
	"os"
	"testing"

	"github.com/augur-perf/augur/field/plan"
)

// studyTraces are the traces of docs/field.md's study (field/sim/testdata/study/study.sh):
// blackfriday v2.1.0 rendering the Markdown of 30 projects, two runs each, 2817 units.
func studyTraces(t *testing.T) *Traces {
	f, err := os.Open("testdata/study/traces.json.gz")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tr, err := ReadTraces(f)
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Runs) != 60 || tr.Sites != 30 || len(tr.Units) != 2817 {
		t.Fatalf("%d runs of %d sites over %d units, want the study's 60, 30, 2817", len(tr.Runs), tr.Sites, len(tr.Units))
	}
	return tr
}

// The paper's findings on the study's traces, as far as they hold there (docs/field.md says
// where and why they do not). Bounds are shares of the 2817 units: 0.5, 1, 2.5, 5, 10, 25, 50 %.
func TestStudy(t *testing.T) {
	tr := studyTraces(t)
	bounds := []int{14, 28, 70, 141, 282, 704, 1409}
	rows, err := Study(tr.Units, tr.Runs, plan.Strategies, bounds, []int{6, 18}, 0, 10, 1)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("\n%s", Table(rows))
	get := func(st plan.Strategy, v, b int) Row { return row(rows, st, v, b) }

	// 1. Balanced beats Random once the variants' probes are a sizeable share of the units, and
	// the gap closes as the bound grows (both approach full coverage).
	gap := func(b int) float64 { return get(plan.RandomBalanced, 6, b).Coverage - get(plan.Random, 6, b).Coverage }
	for _, b := range []int{141, 282, 704} {
		if gap(b) < 0.02 {
			t.Errorf("1: 6 variants of %d probes: RB covers only %.3f more than Random", b, gap(b))
		}
	}
	if gap(1409) > gap(282)/2 {
		t.Errorf("1: the gap does not close: %.3f at 1409 probes, %.3f at 282", gap(1409), gap(282))
	}

	// 2. 18 variants of half the probes cover as much as 6 variants of all of them.
	for _, b := range []int{28, 141, 282} {
		six, eighteen := get(plan.RandomBalanced, 6, b).Coverage, get(plan.RandomBalanced, 18, b/2).Coverage
		if eighteen < 0.95*six {
			t.Errorf("2: 18 variants of %d probes cover %.3f, 6 of %d %.3f", b/2, eighteen, b, six)
		}
	}

	// 3. Grouped RB costs fewer probe executions than RB as long as its probes stay short of the
	// most executed in-house quartile (beyond, both probe the hot units and cost about the
	// same), and covers more once the probes number the units run in-house.
	ran := 0
	for _, u := range tr.Units {
		if u.InHouse > 0 {
			ran++
		}
	}
	for _, v := range []int{6, 18} {
		for _, b := range bounds {
			if v*b >= 3*ran/4 {
				continue
			}
			if g, r := get(plan.GroupedRB, v, b).ProbeExecs, get(plan.RandomBalanced, v, b).ProbeExecs; g >= r {
				t.Errorf("3: %d×%d: Grouped RB %.0f probe executions per run, RB %.0f", v, b, g, r)
			}
		}
	}
	for _, c := range [][2]int{{6, 704}, {18, 141}, {18, 282}} {
		if g, r := get(plan.GroupedRB, c[0], c[1]).Coverage, get(plan.RandomBalanced, c[0], c[1]).Coverage; g <= r {
			t.Errorf("3: %d×%d: Grouped RB covers %.3f, RB %.3f", c[0], c[1], g, r)
		}
	}
}

// 4. Remembering a constrained earlier release helps the balanced strategies; when the earlier
// release probed every unit, memory changes next to nothing (every unit starts equal but the
// three 6×470 − 2817 units probed twice).
func TestStudyMemory(t *testing.T) {
	tr := studyTraces(t)
	rows, err := MemoryStudy(tr.Units, tr.Runs, []plan.Strategy{plan.RandomBalanced, plan.GroupedRB}, 6, []int{70, 141, 282, 470}, 141, 10, 1)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("\n%s", MemoryTable(rows))
	for _, r := range rows {
		switch {
		case r.Variants*r.First < len(tr.Units) && r.With <= r.Without+0.01:
			t.Errorf("%s, first release %d×%d: %.3f with memory, %.3f without", r.Strategy, r.Variants, r.First, r.With, r.Without)
		case r.Variants*r.First >= len(tr.Units) && math.Abs(r.With-r.Without) > 0.005:
			t.Errorf("%s, first release %d×%d probing every unit: memory changed coverage %.3f → %.3f", r.Strategy, r.Variants, r.First, r.Without, r.With)
		}
	}
}

// The CBI estimator on the study's real counts: unbiased (about 5 % of the units' mean estimates
// outside their 95 % t intervals) and its 95 % intervals hold the truth about 95 % of the time.
func TestStudySampling(t *testing.T) {
	tr := studyTraces(t)
	rows := SamplingStudy(tr.Runs, []float64{0.01, 0.001}, 10, 1)
	t.Logf("\n%s", SamplingTable(rows))
	for _, r := range rows {
		if r.Tested < 1000 || r.Off < 0.02 || r.Off > 0.09 {
			t.Errorf("rate %g: %.1f %% of %d units' mean estimates off their 95 %% interval", r.Rate, 100*r.Off, r.Tested)
		}
		if r.Intervals < 1000 || r.Covered < 0.93 || r.Covered > 0.97 {
			t.Errorf("rate %g: %.1f %% of %d intervals hold the truth", r.Rate, 100*r.Covered, r.Intervals)
		}
	}
}
