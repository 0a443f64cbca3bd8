package html

import (
	"bytes"
	"strings"
	"testing"

	"github.com/augur-perf/augur/field/estimate"
	"github.com/augur-perf/augur/field/plan"
)

// fieldRelease is a release of four units over two variants and what three site-runs of two
// sites reported: unit 1 hot, unit 2 probed but never run, unit 4 probed by no run.
func fieldRelease() (*plan.Manifest, *estimate.Estimates) {
	units := []plan.Unit{{ID: 1, Pos: "a.go:3:2", Func: "p.F"}, {ID: 2, Pos: "a.go:4:2", Func: "p.F"}, {ID: 3, Pos: "a.go:9:2", Func: "p.G"}, {ID: 4, Pos: "a.go:10:2", Func: "p.G"}}
	m := &plan.Manifest{Format: plan.Format, Release: "r7", Units: units, Variants: []plan.Variant{{ID: 1, Probes: []int{1, 2}}, {ID: 2, Probes: []int{3, 4}}}}
	se := 12.5
	e := &estimate.Estimates{Release: "r7", Packages: 5, Runs: 3, VariantRuns: map[int]int{1: 2, 2: 1},
		Sites: []estimate.Site{{Site: "eu-1", Packages: 3, Runs: 2, Executions: 9000, PerRun: 4500}, {Site: "us-2", Packages: 2, Runs: 1, Executions: 300, PerRun: 300}},
		Units: []estimate.Unit{
			{Unit: units[0], Runs: 2, Count: 13500, SE: &se, Seen: true},
			{Unit: units[1], Runs: 2, Count: 0},
			{Unit: units[2], Runs: 1, Count: 900, Seen: true},
			{Unit: units[3], Runs: 0},
		}}
	return m, e
}

// TestFieldPage: the field report lists the hot units with positions, every unit with its state
// and heat (the hottest at the top level), and a bar per site.
func TestFieldPage(t *testing.T) {
	r := BuildField(fieldRelease())
	var b bytes.Buffer
	if err := Write(&b, r); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	for _, want := range []string{
		`<h1 id="field-release">Field report of release r7</h1>`,
		`2 of 4 units (3 probed by some run)`,
		`<tr data-unit="1"><td class="n">1</td><td>a.go:3:2</td><td class="n">13500</td><td class="n">12.5</td><td class="n">2</td></tr>`,
		`class="unit heat-9 covered" data-unit="1"`,
		`class="unit heat-0 unseen" data-unit="2"`,
		`class="unit heat-0 unprobed" data-unit="4"`,
		`data-site="eu-1" data-per-run="4500"`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %s", want)
		}
	}
	if n := strings.Count(page, `<g class="site"`); n != 2 {
		t.Errorf("%d site bars, want 2", n)
	}
}
