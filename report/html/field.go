package html

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/augur-perf/augur/field/estimate"
	"github.com/augur-perf/augur/field/plan"
)

// FieldReport is what a release's deployed variants reported (augur field report): coverage,
// hot units, every unit's estimated count, and each site's probe executions.
type FieldReport struct {
	Release                   string
	Variants, Units           int
	Probed, Covered           int
	Sites, SiteRuns, Packages int
	Hot                       []FieldUnit
	// All lists every unit in manifest order.
	All   []FieldUnit
	Execs []FieldSite
}

// FieldUnit is one unit's estimate.
type FieldUnit struct {
	ID        int
	Func, Pos string
	Runs      int
	Count     float64
	// SE is the count's standard error (0 when fewer than two runs probed it).
	SE float64
	// State is "covered", "unseen" (probed, never ran) or "unprobed" (no run carried it).
	State string
	// Level is the count's heat, 0 to Levels (log scale against the largest).
	Level int
}

// FieldSite is one site's probe executions.
type FieldSite struct {
	Site       string
	Runs       int
	Executions uint64
	PerRun     float64
}

// BuildField turns a release and its field estimates into a report.
func BuildField(m *plan.Manifest, e *estimate.Estimates) *Report {
	covered, probed := e.Covered()
	r := &FieldReport{Release: m.Release, Variants: len(m.Variants), Units: len(m.Units), Probed: probed, Covered: covered,
		Sites: len(e.Sites), SiteRuns: e.Runs, Packages: e.Packages}
	var most float64
	for _, u := range e.Units {
		most = math.Max(most, u.Count)
	}
	unit := func(u estimate.Unit) FieldUnit {
		fu := FieldUnit{ID: u.ID, Func: u.Func, Pos: u.Pos, Runs: u.Runs, Count: u.Count, State: "covered"}
		if u.SE != nil {
			fu.SE = *u.SE
		}
		switch {
		case u.Runs == 0:
			fu.State = "unprobed"
		case !u.Seen:
			fu.State = "unseen"
		}
		if u.Count > 0 && most > 0 {
			// Log scale: counts span orders of magnitude; the largest is the hottest level.
			fu.Level = max(1, min(Levels, int(math.Ceil(float64(Levels)*(1+math.Log10(u.Count/most)/4)))))
		}
		return fu
	}
	for _, u := range e.Hot() {
		r.Hot = append(r.Hot, unit(u))
	}
	for _, u := range e.Units {
		r.All = append(r.All, unit(u))
	}
	sort.SliceStable(r.All, func(a, b int) bool { return r.All[a].ID < r.All[b].ID })
	for _, s := range e.Sites {
		r.Execs = append(r.Execs, FieldSite{Site: s.Site, Runs: s.Runs, Executions: s.Executions, PerRun: s.PerRun})
	}
	return &Report{Title: "augur field: release " + m.Release, Field: r}
}

// sitesChart draws each site's probe executions per run (the overhead proxy) as bars.
func sitesChart(r *FieldReport) string {
	const w, rowH, left, right, top = 960.0, 18.0, 200.0, 110.0, 8.0
	h := top + rowH*float64(len(r.Execs)) + 10
	var most float64
	for _, s := range r.Execs {
		most = math.Max(most, s.PerRun)
	}
	if most <= 0 {
		most = 1
	}
	var b strings.Builder
	fmt.Fprintf(&b, `<svg id="sites-chart" class="sites" role="img" width="%s" height="%s" viewBox="0 0 %s %s">`, f1(w), f1(h), f1(w), f1(h))
	b.WriteString(`<title>Probe executions per site-run, each site</title>`)
	for i, s := range r.Execs {
		y := top + rowH*float64(i)
		bw := s.PerRun / most * (w - left - right)
		fmt.Fprintf(&b, `<g class="site" data-site="%s" data-per-run="%s"><title>%s: %s probe executions per run (%d runs)</title>`, esc(s.Site), num(s.PerRun), esc(s.Site), num(s.PerRun), s.Runs)
		fmt.Fprintf(&b, `<text class="name" x="%s" y="%s" text-anchor="end">%s</text>`, f1(left-8), f1(y+13), esc(truncate(s.Site, 28)))
		fmt.Fprintf(&b, `<rect x="%s" y="%s" width="%s" height="%s"/>`, f1(left), f1(y+3), f1(bw), f1(rowH-6))
		fmt.Fprintf(&b, `<text class="value" x="%s" y="%s">%s</text></g>`, f1(left+bw+6), f1(y+13), num(s.PerRun))
	}
	b.WriteString(`</svg>`)
	return b.String()
}
