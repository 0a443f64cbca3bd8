package sim

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"

	"github.com/augur-perf/augur/field/plan"
	"gonum.org/v1/gonum/stat/distuv"
)

// MemoryRow compares two releases deployed one after the other — every site's first run with
// the first release, its later runs with the second — the second allocated with and without
// the memory of the first: the coverage of what both saw together, mean and sd over repeats.
type MemoryRow struct {
	Strategy                 plan.Strategy
	Variants, First, Second  int // variants per release, the bounds of the first and second release
	Repeats                  int
	With, WithSD             float64
	Without, WithoutSD       float64
	FirstAlone, FirstAloneSD float64 // the first release's own coverage of the first runs
}

// MemoryStudy runs the two-release study for every first bound (how constrained the earlier
// release was) with the second release's bound second. Each repeat allocates both releases from
// its own seed and replays the with- and without-memory pairs on the same assignment of sites.
func MemoryStudy(units []plan.Unit, runs []Run, strategies []plan.Strategy, variants int, first []int, second, repeats int, seed uint64) ([]MemoryRow, error) {
	release := func(r Run) int { return min(r.Seq, 1) }
	var firstRuns []Run
	for _, r := range runs {
		if r.Seq == 0 {
			firstRuns = append(firstRuns, r)
		}
	}
	var rows []MemoryRow
	for _, st := range strategies {
		for _, b1 := range first {
			var with, without, alone []float64
			for k := 0; k < repeats; k++ {
				s := seed + uint64(k)*7919
				m1, err := plan.Allocate("1", units, plan.Options{Variants: variants, Bound: b1, Strategy: st, Seed: s})
				if err != nil {
					return nil, err
				}
				for _, remember := range []bool{true, false} {
					o := plan.Options{Variants: variants, Bound: second, Strategy: st, Seed: s + 1}
					if remember {
						o.Previous = m1
					}
					m2, err := plan.Allocate("2", units, o)
					if err != nil {
						return nil, err
					}
					cov := ReplayReleases([]*plan.Manifest{m1, m2}, runs, release, rand.New(rand.NewPCG(s, 2))).Coverage
					if remember {
						with = append(with, cov)
					} else {
						without = append(without, cov)
					}
				}
				alone = append(alone, Replay(m1, firstRuns, rand.New(rand.NewPCG(s, 2))).Coverage)
			}
			row := MemoryRow{Strategy: st, Variants: variants, First: b1, Second: second, Repeats: repeats}
			row.With, row.WithSD = meanSD(with)
			row.Without, row.WithoutSD = meanSD(without)
			row.FirstAlone, row.FirstAloneSD = meanSD(alone)
			rows = append(rows, row)
		}
	}
	return rows, nil
}

// MemoryTable writes the memory study: the coverage of the two releases together with the
// second remembering the first and without, and the first release's own coverage.
func MemoryTable(rows []MemoryRow) string {
	var b strings.Builder
	b.WriteString("Two releases, each site's first run with the first, its later runs with the second: the coverage of both together\n\n")
	fmt.Fprintf(&b, "%-9s %8s %6s %6s %18s %18s %18s\n", "strategy", "variants", "first", "second", "first alone", "with memory", "without memory")
	for _, r := range rows {
		line := fmt.Sprintf("%-9s %8d %6d %6d %9.3f ± %-6.3f %9.3f ± %-6.3f %9.3f ± %-6.3f", r.Strategy, r.Variants, r.First, r.Second,
			r.FirstAlone, r.FirstAloneSD, r.With, r.WithSD, r.Without, r.WithoutSD)
		b.WriteString(strings.TrimRight(line, " ") + "\n")
	}
	return b.String()
}

// SamplingRow is the CBI estimator checked on real counts at one rate: every unit's count in
// every site-run sampled (Sample), the unit's total over the runs estimated (Estimate summed
// over runs), repeated.
type SamplingRow struct {
	Rate    float64
	Repeats int
	// Units is how many units the runs executed; Tested those whose estimates varied over the
	// repeats (the others were never sampled or always exactly), and Off the share of Tested
	// whose mean estimate lies outside the 95 % t interval of that mean (Student's t with
	// repeats−1 degrees of freedom, as the standard error is estimated from the same repeats)
	// around the truth: about 5 % for an unbiased estimator.
	Units, Tested int
	Off           float64
	// Intervals counts the estimates with an expected sampled count of at least 10 (where the
	// normal interval is meant to hold) and Covered the share of their 95 % intervals,
	// estimate ± 1.96 SE, holding the truth.
	Intervals int
	Covered   float64
	// TotalError is the mean relative error of the estimate of all units' executions together.
	TotalError float64
}

// SamplingStudy checks the CBI estimator on the runs' real counts at each rate (repeats ≥ 2).
func SamplingStudy(runs []Run, rates []float64, repeats int, seed uint64) []SamplingRow {
	if len(runs) == 0 {
		return nil
	}
	repeats = max(repeats, 2)
	n := len(runs[0].Counts)
	truth := make([]float64, n)
	var all float64
	for _, r := range runs {
		for i, c := range r.Counts {
			truth[i] += float64(c)
			all += float64(c)
		}
	}
	var rows []SamplingRow
	for _, rate := range rates {
		rng := rand.New(rand.NewPCG(seed, math.Float64bits(rate)))
		sum := make([]float64, n)
		sumSq := make([]float64, n)
		row := SamplingRow{Rate: rate, Repeats: repeats}
		covered := 0
		for k := 0; k < repeats; k++ {
			var total float64
			for i := range truth {
				if truth[i] == 0 {
					continue
				}
				var sampled uint64
				for _, r := range runs {
					sampled += Sample(r.Counts[i], rate, rng)
				}
				est, se := Estimate(sampled, rate)
				sum[i] += est
				sumSq[i] += est * est
				total += est
				if truth[i]*rate >= 10 {
					row.Intervals++
					if math.Abs(est-truth[i]) <= 1.96*se {
						covered++
					}
				}
			}
			row.TotalError += math.Abs(total-all) / all / float64(repeats)
		}
		off := 0
		tq := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(repeats - 1)}.Quantile(0.975)
		for i := range truth {
			if truth[i] == 0 {
				continue
			}
			row.Units++
			mean := sum[i] / float64(repeats)
			v := (sumSq[i] - float64(repeats)*mean*mean) / float64(repeats-1)
			if v <= 1e-9*mean*mean {
				continue
			}
			row.Tested++
			if math.Abs(mean-truth[i]) > tq*math.Sqrt(v/float64(repeats)) {
				off++
			}
		}
		if row.Tested > 0 {
			row.Off = float64(off) / float64(row.Tested)
		}
		if row.Intervals > 0 {
			row.Covered = float64(covered) / float64(row.Intervals)
		}
		rows = append(rows, row)
	}
	return rows
}

// SamplingTable writes the sampling check.
func SamplingTable(rows []SamplingRow) string {
	var b strings.Builder
	b.WriteString("CBI sampling of every unit in every site-run, each unit's total over the runs estimated\n\n")
	fmt.Fprintf(&b, "%-7s %7s %6s %7s %12s %10s %14s %12s\n", "rate", "repeats", "units", "tested", "mean off 5%", "intervals", "95% covered", "total error")
	for _, r := range rows {
		fmt.Fprintf(&b, "%-7g %7d %6d %7d %11.1f%% %10d %13.1f%% %11.3f%%\n", r.Rate, r.Repeats, r.Units, r.Tested, 100*r.Off, r.Intervals, 100*r.Covered, 100*r.TotalError)
	}
	return b.String()
}
