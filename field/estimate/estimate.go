// Package estimate reconstructs, from the packages a release's deployed variants sent, what full
// instrumentation would have counted: coverage, hot units, probe executions per site, and an
// augur-profile/1 usage profile for augur analyze. It owns the estimators and their variances;
// it reads stored packages (field/store's records) and must not serve, store or model anything.
//
// # Site-runs
//
// A site-run is one process of a deployed variant: a maximal sequence of a site's packages, in
// seq order, of one variant whose uptimes do not decrease (a restarted process starts again
// from a small uptime). A restart whose first package reports a larger uptime than the previous
// run's last is taken for the same run: runs are then undercounted, which changes the spread
// of the per-run counts but not their sum.
//
// # The estimator
//
// A package's counts are scaled by 1/rate when it was sampled (CBI: each execution counted with
// probability rate, so count/rate is unbiased). Let x_r be unit u's scaled count in site-run r,
// R_u the n_u site-runs of the variants that carry u, and N the site-runs of all variants. Then
// u's estimated count, as if every one of the N runs had probed it, is
//
//	Count_u = N · (1/n_u) Σ_{r∈R_u} x_r,   SE(Count_u) = N · s_u / √n_u
//
// with s_u the sample standard deviation of x_r over R_u (which includes the sampling noise,
// since x_r does). It is unbiased when variants are assigned to sites independently of their
// usage. For a decision with scaled outcome counts o_{r,k} and d_r = Σ_k o_{r,k}, outcome k's
// probability is the ratio estimator
//
//	P_k = Σ_r o_{r,k} / Σ_r d_r,   Var(P_k) ≈ Σ_r (o_{r,k} − P_k d_r)² / (n_u (n_u−1) d̄²)
//
// (delta method, d̄ the mean of d_r). A unit no run probed has no estimate: it is reported, never
// invented.
package estimate

import (
	"fmt"
	"math"
	"sort"

	"github.com/augur-perf/augur/field/plan"
	"github.com/augur-perf/augur/field/store"
)

// Unit is one unit's estimate.
type Unit struct {
	plan.Unit
	// Runs is n_u, the site-runs that probed the unit (0: no estimate).
	Runs int `json:"runs"`
	// Count is the estimated count over all site-runs; SE its standard error (absent with
	// fewer than two runs).
	Count float64  `json:"count"`
	SE    *float64 `json:"se,omitempty"`
	// Out are a decision's estimated outcome counts, P their probabilities and PSE the
	// probabilities' standard errors; absent when no run took any outcome.
	Out []float64 `json:"out,omitempty"`
	P   []float64 `json:"p,omitempty"`
	PSE []float64 `json:"p_se,omitempty"`
	// Seen is set when some run counted the unit at least once.
	Seen bool `json:"seen"`
}

// Site is what one site sent.
type Site struct {
	Site     string `json:"site"`
	Packages int    `json:"packages"`
	Runs     int    `json:"runs"`
	// Executions are the probe executions its packages counted (unscaled: what its probes
	// did, the overhead proxy); PerRun their mean per site-run.
	Executions uint64  `json:"probe_executions"`
	PerRun     float64 `json:"probe_executions_per_run"`
}

// Estimates are a release's field estimates.
type Estimates struct {
	Release  string `json:"release"`
	Packages int    `json:"packages"`
	// Runs is N, the site-runs of all variants; VariantRuns the site-runs of each variant.
	Runs        int         `json:"runs"`
	VariantRuns map[int]int `json:"variant_runs"`
	Sites       []Site      `json:"sites"`
	Units       []Unit      `json:"units"`
}

type run struct {
	variant int
	counts  map[int][]float64 // probe → scaled N followed by scaled outcomes
}

// Build estimates release m from its packages, which scan delivers ordered by site and seq (as
// store.Store.Scan does).
func Build(m *plan.Manifest, scan func(func(*store.Record) error) error) (*Estimates, error) {
	carried := map[int]map[int]bool{}
	for _, v := range m.Variants {
		carried[v.ID] = map[int]bool{}
		for _, id := range v.Probes {
			carried[v.ID][id] = true
		}
	}
	e := &Estimates{Release: m.Release, VariantRuns: map[int]int{}}
	var runs []*run
	var cur *run
	var site *Site
	lastUptime := 0.0
	err := scan(func(r *store.Record) error {
		if r.Release != m.Release {
			return fmt.Errorf("package (%s, %s, %d) is not of release %s", r.Site, r.Release, r.Seq, m.Release)
		}
		if carried[r.Variant] == nil {
			return fmt.Errorf("package (%s, %s, %d): the release has no variant %d", r.Site, r.Release, r.Seq, r.Variant)
		}
		e.Packages++
		if site == nil || site.Site != r.Site {
			e.Sites = append(e.Sites, Site{Site: r.Site})
			site = &e.Sites[len(e.Sites)-1]
			cur = nil
		}
		site.Packages++
		if cur == nil || cur.variant != r.Variant || r.Uptime < lastUptime {
			cur = &run{variant: r.Variant, counts: map[int][]float64{}}
			runs = append(runs, cur)
			site.Runs++
			e.VariantRuns[r.Variant]++
		}
		lastUptime = r.Uptime
		scale := 1.0
		if r.Rate > 0 {
			scale = 1 / r.Rate
		}
		for _, c := range r.Counts {
			if !carried[r.Variant][c.Probe] {
				return fmt.Errorf("package (%s, %s, %d): variant %d carries no probe %d", r.Site, r.Release, r.Seq, r.Variant, c.Probe)
			}
			site.Executions += c.N
			acc := cur.counts[c.Probe]
			if acc == nil {
				acc = make([]float64, 1+len(c.Out))
				cur.counts[c.Probe] = acc
			}
			if len(acc) == 1 && len(c.Out) > 0 {
				acc = append(acc, make([]float64, len(c.Out))...)
				cur.counts[c.Probe] = acc
			}
			if len(c.Out) > 0 && len(acc) != 1+len(c.Out) {
				return fmt.Errorf("package (%s, %s, %d): probe %d has %d outcomes, earlier %d", r.Site, r.Release, r.Seq, c.Probe, len(c.Out), len(acc)-1)
			}
			acc[0] += float64(c.N) * scale
			for k, o := range c.Out {
				acc[1+k] += float64(o) * scale
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	for i := range e.Sites {
		if s := &e.Sites[i]; s.Runs > 0 {
			s.PerRun = float64(s.Executions) / float64(s.Runs)
		}
	}
	e.Runs = len(runs)
	N := float64(e.Runs)
	for _, u := range m.Units {
		eu := Unit{Unit: u}
		var xs []float64
		var outs [][]float64 // per run: the outcome counts (zeros when none)
		for _, r := range runs {
			if !carried[r.variant][u.ID] {
				continue
			}
			acc := r.counts[u.ID]
			x := 0.0
			if acc != nil {
				x = acc[0]
			}
			xs = append(xs, x)
			if u.Outcomes > 0 {
				o := make([]float64, u.Outcomes)
				if len(acc) == 1+u.Outcomes {
					copy(o, acc[1:])
				}
				outs = append(outs, o)
			}
			if x > 0 {
				eu.Seen = true
			}
		}
		eu.Runs = len(xs)
		if eu.Runs > 0 {
			mean, sd := meanSD(xs)
			eu.Count = N * mean
			if eu.Runs > 1 {
				se := N * sd / math.Sqrt(float64(eu.Runs))
				eu.SE = &se
			}
			if u.Outcomes > 0 {
				eu.Out, eu.P, eu.PSE = ratios(outs, N)
			}
		}
		e.Units = append(e.Units, eu)
	}
	return e, nil
}

func meanSD(xs []float64) (mean, sd float64) {
	for _, x := range xs {
		mean += x
	}
	mean /= float64(len(xs))
	if len(xs) < 2 {
		return mean, 0
	}
	var ss float64
	for _, x := range xs {
		ss += (x - mean) * (x - mean)
	}
	return mean, math.Sqrt(ss / float64(len(xs)-1))
}

// ratios are a decision's estimated outcome counts (N times the mean per run), probabilities
// (the ratio estimator) and their delta-method standard errors; nil when no run took an outcome.
func ratios(outs [][]float64, N float64) (counts, p, pse []float64) {
	k := len(outs[0])
	n := float64(len(outs))
	d := make([]float64, len(outs))
	var total float64
	sums := make([]float64, k)
	for r, o := range outs {
		for j, v := range o {
			sums[j] += v
			d[r] += v
		}
		total += d[r]
	}
	if total == 0 {
		return nil, nil, nil
	}
	dbar := total / n
	for j := range sums {
		counts = append(counts, N*sums[j]/n)
		pj := sums[j] / total
		p = append(p, pj)
		if len(outs) < 2 {
			pse = append(pse, math.NaN())
			continue
		}
		var ss float64
		for r, o := range outs {
			dev := o[j] - pj*d[r]
			ss += dev * dev
		}
		pse = append(pse, math.Sqrt(ss/(n*(n-1)))/dbar)
	}
	if len(outs) < 2 {
		pse = nil
	}
	return counts, p, pse
}

// Covered counts the units some run saw, and the units probed by at least one run.
func (e *Estimates) Covered() (seen, probed int) {
	for _, u := range e.Units {
		if u.Seen {
			seen++
		}
		if u.Runs > 0 {
			probed++
		}
	}
	return seen, probed
}

// Hot returns the top 5 % of the release's units (rounded up) by estimated count, highest first:
// units without an estimate or never seen are not among them, so fewer come back when the field
// saw fewer.
func (e *Estimates) Hot() []Unit {
	var est []Unit
	for _, u := range e.Units {
		if u.Runs > 0 && u.Count > 0 {
			est = append(est, u)
		}
	}
	sort.SliceStable(est, func(a, b int) bool { return est[a].Count > est[b].Count })
	k := int(math.Ceil(0.05 * float64(len(e.Units))))
	return est[:min(k, len(est))]
}

// Reference compares the estimates with a profile of the same release's code under full
// instrumentation (every unit counted): of the units the reference saw run, how many the field
// saw (coverage relative to full instrumentation), and of the reference's top 5 % units by
// count, how many are among the field's hot units.
type Reference struct {
	Seen      int     `json:"reference_units_seen"`
	Covered   int     `json:"field_units_seen_of_them"`
	Coverage  float64 `json:"relative_coverage"`
	Hot       int     `json:"reference_hot_units"`
	HotFound  int     `json:"hot_units_found"`
	HotShare  float64 `json:"hot_share_found"`
	Unmatched int     `json:"units_not_in_reference"`
}

// Against compares e with the reference counts ref (unit id → count, absent when the reference
// has no count for the unit).
func (e *Estimates) Against(ref map[int]uint64) Reference {
	var r Reference
	type uc struct {
		id int
		n  uint64
	}
	var counted []uc
	for _, u := range e.Units {
		n, ok := ref[u.ID]
		if !ok {
			r.Unmatched++
			continue
		}
		counted = append(counted, uc{u.ID, n})
		if n > 0 {
			r.Seen++
			if u.Seen {
				r.Covered++
			}
		}
	}
	if r.Seen > 0 {
		r.Coverage = float64(r.Covered) / float64(r.Seen)
	}
	sort.SliceStable(counted, func(a, b int) bool { return counted[a].n > counted[b].n })
	k := int(math.Ceil(0.05 * float64(len(e.Units))))
	hot := map[int]bool{}
	for _, u := range e.Hot() {
		hot[u.ID] = true
	}
	for i := 0; i < k && i < len(counted) && counted[i].n > 0; i++ {
		r.Hot++
		if hot[counted[i].id] {
			r.HotFound++
		}
	}
	if r.Hot > 0 {
		r.HotShare = float64(r.HotFound) / float64(r.Hot)
	}
	return r
}
