package text

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/augur-perf/augur/field/build"
	"github.com/augur-perf/augur/field/estimate"
	"github.com/augur-perf/augur/field/plan"
	"github.com/augur-perf/augur/field/store"
	"github.com/augur-perf/augur/probe/profile"
	"github.com/augur-perf/augur/source/frontend"
)

// FieldReport prints a release's field report as `augur field report` does: coverage, the
// comparison with a fully instrumented reference (ref, from the profile refName; nil: none),
// the hot units with their standard errors and each site's probe executions.
func FieldReport(w io.Writer, m *plan.Manifest, e *estimate.Estimates, ref *estimate.Reference, refName string) {
	seen, probed := e.Covered()
	fmt.Fprintf(w, "Release %s: %d variants, %d units; %d sites, %d site-runs, %d packages\n",
		m.Release, len(m.Variants), len(m.Units), len(e.Sites), e.Runs, e.Packages)
	fmt.Fprintf(w, "Units covered: %d of %d (%d probed by some run)\n", seen, len(m.Units), probed)
	if ref != nil {
		fmt.Fprintf(w, "Against %s (full instrumentation): %d of the %d units it saw run were covered (%.3f); %d of its %d hot units found\n",
			refName, ref.Covered, ref.Seen, ref.Coverage, ref.HotFound, ref.Hot)
		if ref.Unmatched > 0 {
			fmt.Fprintf(w, "(%d units have no count in it)\n", ref.Unmatched)
		}
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "Hot units (top 5 %% by estimated count over all %d site-runs):\n", e.Runs)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "unit\tcount\t± se\truns\t  position\t")
	for _, u := range e.Hot() {
		se := "-"
		if u.SE != nil {
			se = fmt.Sprintf("%.4g", *u.SE)
		}
		fmt.Fprintf(tw, "%d\t%.6g\t%s\t%d\t  %s\t\n", u.ID, u.Count, se, u.Runs, u.Pos)
	}
	tw.Flush()
	fmt.Fprintf(w, "\nProbe executions per site (what its probes counted, the overhead proxy):\n")
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "site\tpackages\truns\texecutions\tper run\t")
	for _, s := range e.Sites {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%.1f\t\n", s.Site, s.Packages, s.Runs, s.Executions, s.PerRun)
	}
	tw.Flush()
}

// FieldReportJSON writes a release's field report as `augur field report --json FILE` does.
func FieldReportJSON(w io.Writer, m *plan.Manifest, e *estimate.Estimates, ref *estimate.Reference) error {
	seen, probed := e.Covered()
	return JSON(w, struct {
		Release  string              `json:"release"`
		Units    int                 `json:"units"`
		Probed   int                 `json:"units_probed"`
		Covered  int                 `json:"units_covered"`
		Runs     int                 `json:"site_runs"`
		Packages int                 `json:"packages"`
		Hot      []estimate.Unit     `json:"hot_units"`
		Sites    []estimate.Site     `json:"sites"`
		All      []estimate.Unit     `json:"unit_estimates"`
		Variants map[int]int         `json:"variant_runs"`
		Ref      *estimate.Reference `json:"reference,omitempty"`
	}{m.Release, len(m.Units), probed, seen, e.Runs, e.Packages, e.Hot(), e.Sites, e.Units, e.VariantRuns, ref})
}

// FieldProfile summarises a field profile as `augur field profile` does: what it covers and
// what it leaves out or took from the in-house profile base.
func FieldProfile(w io.Writer, m *plan.Manifest, e *estimate.Estimates, p *profile.Profile, notes *estimate.ProfileNotes, base string) {
	fmt.Fprintf(w, "Field profile of release %s from %d site-runs (%d packages): %d functions\n", m.Release, e.Runs, e.Packages, len(p.Funcs))
	list := func(what string, items []string) {
		if len(items) == 0 {
			return
		}
		fmt.Fprintf(w, "%s (%d):\n", what, len(items))
		for _, it := range items {
			fmt.Fprintf(w, "  %s\n", it)
		}
	}
	list("Decisions without field data (no outcomes in the profile: analyze treats them as unseen)", notes.Missing)
	list("Functions left out (their invocations cannot be estimated)", notes.NoInvocations)
	list("Filled from "+base, notes.Filled)
}

// FieldBuild lists the binaries `augur field build` wrote: path, variant, probes (and the
// deferred-call units the variant cannot count) and the start of its SHA-256.
func FieldBuild(w io.Writer, bins []build.Binary) {
	for _, b := range bins {
		fmt.Fprintf(w, "%s  variant %d: %d probes", frontend.RelPosition(b.Path), b.Variant, b.Probes)
		if len(b.Skipped) > 0 {
			fmt.Fprintf(w, " (%d deferred-call units not countable in the field: %v)", len(b.Skipped), b.Skipped)
		}
		fmt.Fprintf(w, "  sha256 %s\n", b.SHA256[:16])
	}
}

// FieldPlan summarises a release's allocation as `augur field plan` does: its variants and
// bound, the strategy and seed, the units of packages and how many some variant probes; out is
// where the manifest was written.
func FieldPlan(w io.Writer, m *plan.Manifest, st plan.Strategy, seed uint64, units int, packages, out string) {
	probed := map[int]bool{}
	for _, v := range m.Variants {
		for _, id := range v.Probes {
			probed[id] = true
		}
	}
	fmt.Fprintf(w, "Release %s: %d variants of at most %d probes (%s, seed %d) over %d units of %s; %d units probed somewhere\nwrote %s\n",
		m.Release, len(m.Variants), m.Bound, st, seed, units, packages, len(probed), out)
}

// FieldTokens lists a collector's tokens by id: id, release, live or revoked.
func FieldTokens(w io.Writer, ts []store.Token) {
	for _, t := range ts {
		state := "live"
		if t.Revoked {
			state = "revoked"
		}
		fmt.Fprintf(w, "%s\t%s\t%s\n", t.ID, t.Release, state)
	}
}
