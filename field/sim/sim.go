// Package sim replays probe allocations on full traces — per site-run counts of every unit,
// recorded with full instrumentation — to measure what each strategy would have seen in the
// field: the coverage it reconstructs (relative to full instrumentation), the share of the true
// hot spots it finds, and the probe executions it costs (the overhead proxy), each over repeated
// random assignments of sites to variants; over two releases, with and without the memory of
// the first; and the CBI estimator checked on the traces' counts. It owns the replay, the
// studies' tables and the traces file (augur-field-traces/1); it must not allocate (field/plan
// does) nor collect anything.
package sim

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"strings"

	"github.com/augur-perf/augur/field/plan"
)

// Run is one site-run of the program with full instrumentation: Counts[i] is how often unit i
// (the i-th of the units given to the study) ran.
type Run struct {
	Site int `json:"site"`
	// Seq is the run's place among its site's runs (0 first): the memory study deploys a site's
	// first run with one release and its later runs with the next.
	Seq    int      `json:"seq"`
	Counts []uint64 `json:"counts"`
}

// Metrics is what one replay observed.
type Metrics struct {
	// Coverage is the share of the units the runs executed that some probe saw execute.
	Coverage float64
	// HotFound is the share of the true hot units (top 5 % by total count) among the top 5 % of
	// the field's estimates (each unit's observed count scaled by the runs that probed it).
	HotFound float64
	// ProbeExecs is the mean number of probe executions per site-run.
	ProbeExecs float64
}

// Replay assigns each site a variant of m at random and measures what the probes saw.
func Replay(m *plan.Manifest, runs []Run, rng *rand.Rand) Metrics {
	return ReplayReleases([]*plan.Manifest{m}, runs, func(Run) int { return 0 }, rng)
}

// ReplayReleases deploys several releases to the same sites: release(r) says which of ms run r
// ran, each site gets a variant of each release at random, and what every release's probes saw
// is pooled — the field data of a program over its releases.
func ReplayReleases(ms []*plan.Manifest, runs []Run, release func(Run) int, rng *rand.Rand) Metrics {
	n := len(ms[0].Units)
	index := map[int]int{}
	for i, u := range ms[0].Units {
		index[u.ID] = i
	}
	probes := make([][][]int, len(ms))
	for k, m := range ms {
		probes[k] = make([][]int, len(m.Variants))
		for v, vr := range m.Variants {
			for _, id := range vr.Probes {
				probes[k][v] = append(probes[k][v], index[id])
			}
		}
	}
	type deployment struct{ release, site int }
	variantOf := map[deployment]int{}
	total := make([]float64, n)
	seen := make([]float64, n)
	probedRuns := make([]int, n)
	var execs float64
	for _, r := range runs {
		k := release(r)
		d := deployment{k, r.Site}
		v, ok := variantOf[d]
		if !ok {
			v = rng.IntN(len(ms[k].Variants))
			variantOf[d] = v
		}
		for i, c := range r.Counts {
			total[i] += float64(c)
		}
		for _, i := range probes[k][v] {
			seen[i] += float64(r.Counts[i])
			probedRuns[i]++
			execs += float64(r.Counts[i])
		}
	}
	var met Metrics
	executed, covered := 0, 0
	est := make([]float64, n)
	for i := range total {
		if total[i] > 0 {
			executed++
			if seen[i] > 0 {
				covered++
			}
		}
		if probedRuns[i] > 0 {
			est[i] = seen[i] * float64(len(runs)) / float64(probedRuns[i])
		}
	}
	if executed > 0 {
		met.Coverage = float64(covered) / float64(executed)
	}
	k := max(1, int(math.Ceil(0.05*float64(n))))
	trueHot := top(total, k)
	found := top(est, k)
	hit := 0
	for i := range trueHot {
		if found[i] {
			hit++
		}
	}
	met.HotFound = float64(hit) / float64(len(trueHot))
	met.ProbeExecs = execs / float64(max(1, len(runs)))
	return met
}

// top returns the k units with the largest values (ties by index).
func top(v []float64, k int) map[int]bool {
	idx := make([]int, len(v))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return v[idx[a]] > v[idx[b]] })
	out := map[int]bool{}
	for _, i := range idx[:min(k, len(idx))] {
		if v[i] > 0 {
			out[i] = true
		}
	}
	return out
}

// Row is one configuration of the study with the mean and standard deviation of each metric
// over the repeats.
type Row struct {
	Strategy plan.Strategy `json:"strategy"`
	Bound    int           `json:"bound"`
	Variants int           `json:"variants"`
	// Sites is how many sites each repeat deploys (drawn from the traces' sites).
	Sites        int     `json:"sites"`
	Repeats      int     `json:"repeats"`
	Coverage     float64 `json:"coverage"`
	CoverageSD   float64 `json:"coverage_sd"`
	HotFound     float64 `json:"hot_found"`
	HotFoundSD   float64 `json:"hot_found_sd"`
	ProbeExecs   float64 `json:"probe_execs"`
	ProbeExecsSD float64 `json:"probe_execs_sd"`
}

// Study replays every strategy, bound and number of variants repeats times, each repeat with
// its own allocation and assignment of sites, from seed. With sites > 0 (and fewer than the
// traces have) each repeat deploys that many sites, drawn at random, and replays their runs only.
func Study(units []plan.Unit, runs []Run, strategies []plan.Strategy, bounds, variants []int, sites, repeats int, seed uint64) ([]Row, error) {
	all := countSites(runs)
	if sites <= 0 || sites > all {
		sites = all
	}
	var rows []Row
	for _, st := range strategies {
		for _, v := range variants {
			for _, b := range bounds {
				var cov, hot, ex []float64
				for r := 0; r < repeats; r++ {
					s := seed + uint64(r)*7919
					m, err := plan.Allocate("study", units, plan.Options{Variants: v, Bound: b, Strategy: st, Seed: s})
					if err != nil {
						return nil, err
					}
					rng := rand.New(rand.NewPCG(s, 1))
					met := Replay(m, siteRuns(runs, all, sites, rng), rng)
					cov, hot, ex = append(cov, met.Coverage), append(hot, met.HotFound), append(ex, met.ProbeExecs)
				}
				row := Row{Strategy: st, Bound: b, Variants: v, Sites: sites, Repeats: repeats}
				row.Coverage, row.CoverageSD = meanSD(cov)
				row.HotFound, row.HotFoundSD = meanSD(hot)
				row.ProbeExecs, row.ProbeExecsSD = meanSD(ex)
				rows = append(rows, row)
			}
		}
	}
	return rows, nil
}

// countSites is the number of sites of runs, whose sites are numbered from 0.
func countSites(runs []Run) int {
	n := 0
	for _, r := range runs {
		n = max(n, r.Site+1)
	}
	return n
}

// siteRuns are the runs of k of the all sites, drawn by rng (runs itself when k is all).
func siteRuns(runs []Run, all, k int, rng *rand.Rand) []Run {
	if k >= all {
		return runs
	}
	keep := map[int]bool{}
	for _, s := range rng.Perm(all)[:k] {
		keep[s] = true
	}
	var out []Run
	for _, r := range runs {
		if keep[r.Site] {
			out = append(out, r)
		}
	}
	return out
}

func meanSD(xs []float64) (float64, float64) {
	var m float64
	for _, x := range xs {
		m += x / float64(len(xs))
	}
	var ss float64
	for _, x := range xs {
		ss += (x - m) * (x - m)
	}
	if len(xs) < 2 {
		return m, 0
	}
	return m, math.Sqrt(ss / float64(len(xs)-1))
}

// Table writes rows as the paper's tables: coverage ratio, share of true hot units found, probe
// executions per site-run, each mean ± sd.
func Table(rows []Row) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%-9s %8s %6s %18s %18s %22s\n", "strategy", "variants", "bound", "coverage", "hot units found", "probe execs per run")
	for _, r := range rows {
		line := fmt.Sprintf("%-9s %8d %6d %9.3f ± %-6.3f %9.3f ± %-6.3f %12.1f ± %-8.1f", r.Strategy, r.Variants, r.Bound,
			r.Coverage, r.CoverageSD, r.HotFound, r.HotFoundSD, r.ProbeExecs, r.ProbeExecsSD)
		b.WriteString(strings.TrimRight(line, " ") + "\n")
	}
	return b.String()
}

// CSV writes rows for plotting, one line each after a header, every metric's mean and sd.
func CSV(rows []Row) string {
	var b strings.Builder
	b.WriteString("strategy,variants,bound,sites,repeats,coverage,coverage_sd,hot_found,hot_found_sd,probe_execs,probe_execs_sd\n")
	for _, r := range rows {
		fmt.Fprintf(&b, "%s,%d,%d,%d,%d,%g,%g,%g,%g,%g,%g\n", r.Strategy, r.Variants, r.Bound, r.Sites, r.Repeats,
			r.Coverage, r.CoverageSD, r.HotFound, r.HotFoundSD, r.ProbeExecs, r.ProbeExecsSD)
	}
	return b.String()
}

// Sample is CBI-style sampling (Liblit et al.) of one probe's executions: instead of counting
// every execution, a countdown drawn from a geometric distribution of mean 1/rate decides which
// ones are counted, so each execution is counted with probability rate, independently, at the
// cost of one decrement per execution. The estimate of the true count is the sampled count
// scaled by 1/rate (unbiased), with variance count·(1-rate)/rate estimated by the sampled
// count·(1-rate)/rate².
func Sample(count uint64, rate float64, rng *rand.Rand) (sampled uint64) {
	switch {
	case rate >= 1:
		return count
	case rate <= 0:
		return 0
	}
	// Geometric countdowns: the gap to the next counted execution (kept in floating point: at
	// tiny rates a gap can exceed any integer type).
	next := func() float64 { return math.Floor(math.Log1p(-rng.Float64()) / math.Log1p(-rate)) }
	for pos := next(); pos < float64(count); pos += next() + 1 {
		sampled++
	}
	return sampled
}

// Estimate is the unbiased estimate of a count from its sampled count, and its standard error.
func Estimate(sampled uint64, rate float64) (count, se float64) {
	count = float64(sampled) / rate
	se = math.Sqrt(float64(sampled)*(1-rate)) / rate
	return count, se
}
