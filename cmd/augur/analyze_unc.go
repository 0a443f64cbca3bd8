package main

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/augur-perf/augur/analyze/predict"
	"github.com/augur-perf/augur/markov/checker"
)

// beyondMean is what --ci and --spread add to an analysis: error bars from the counts, and each
// reward's spread per call.
type beyondMean struct {
	Intervals []predict.Interval `json:"intervals,omitempty"`
	Spreads   []predict.Spread   `json:"spreads,omitempty"`
}

func computeBeyondMean(o *predict.Outcome, ci float64, spread bool, below []float64, opt checker.Options) (*beyondMean, error) {
	spread = spread || len(below) > 0
	if ci == 0 && !spread {
		return nil, nil
	}
	if ci < 0 || ci >= 1 {
		return nil, usagef("--ci %v: want a level between 0 and 1, such as 0.95", ci)
	}
	b := &beyondMean{}
	var err error
	if ci > 0 {
		if b.Intervals, err = o.Intervals(ci, 1000, 1); err != nil {
			return nil, fmt.Errorf("--ci: %v", err)
		}
	}
	if spread {
		if b.Spreads, err = o.Spreads(opt, below...); err != nil {
			return nil, fmt.Errorf("--spread: %v", err)
		}
	}
	return b, nil
}

func printBeyondMean(w io.Writer, b *beyondMean, invocations uint64) {
	if b == nil {
		return
	}
	if len(b.Intervals) > 0 {
		fmt.Fprintf(w, "\nUncertainty: %g %% intervals from the counts of %d invocations (1000 chains drawn per method)\n", 100*b.Intervals[0].Bayesian.Level, invocations)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "Property\tvalue\tBayesian (Dirichlet)\tbootstrap")
		for _, iv := range b.Intervals {
			fmt.Fprintf(tw, "%s\t%s\t[%s, %s]\t[%s, %s]\n", iv.Property, num(iv.Value), num(iv.Bayesian.Lo), num(iv.Bayesian.Hi), num(iv.Bootstrap.Lo), num(iv.Bootstrap.Hi))
		}
		tw.Flush()
	}
	if len(b.Spreads) > 0 {
		fmt.Fprintln(w, "\nSpread per call (the accumulated reward's distribution, not only its mean)")
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "Reward\tmean\tsd\tp50\tp90\tp99")
		for _, s := range b.Spreads {
			row := fmt.Sprintf("%s\t%s\t%s", s.Reward, num(s.Mean), num(s.SD))
			for _, p := range []string{"p50", "p90", "p99"} {
				if v, ok := s.Percentiles[p]; ok {
					row += "\t" + num(v)
				} else {
					row += "\t>" // beyond the steps analysed
				}
			}
			fmt.Fprintln(tw, row)
		}
		tw.Flush()
		for _, s := range b.Spreads {
			for _, p := range s.Below {
				if p.Hi-p.Lo <= 1e-12 {
					fmt.Fprintf(w, "P(%s ≤ %s) = %s\n", s.Reward, num(p.T), num(p.Lo))
				} else {
					fmt.Fprintf(w, "P(%s ≤ %s) in [%s, %s]\n", s.Reward, num(p.T), num(p.Lo), num(p.Hi))
				}
			}
		}
		for _, s := range b.Spreads {
			if s.Truncated > 1e-9 {
				fmt.Fprintf(w, "(%s: %.3g of the probability had not returned when the analysis stopped)\n", s.Reward, s.Truncated)
			}
		}
	}
}
