package predict

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/augur-perf/augur/markov/checker"
	"github.com/augur-perf/augur/markov/dist"
	"github.com/augur-perf/augur/markov/interval"
	"github.com/augur-perf/augur/markov/pctl"
)

// Interval is one property's uncertainty from the finite counts the model was estimated on.
type Interval struct {
	Property  string            `json:"property"`
	Value     float64           `json:"value"`
	Bayesian  interval.Interval `json:"bayesian"`
	Bootstrap interval.Interval `json:"bootstrap"`
}

// Intervals gives every property of the outcome a Bayesian and a bootstrap interval at the
// level (0.95 for 95 %), from the counts of the invocations its profile measured (package
// markov/interval).
func (o *Outcome) Intervals(level float64, samples int, seed uint64) ([]Interval, error) {
	if o.Synth == nil || o.Func == nil {
		return nil, fmt.Errorf("%s has no model to put error bars on", o.Scenario.Name)
	}
	m := o.Synth.Model
	counts, err := interval.Counts(m, float64(o.Func.Invocations))
	if err != nil {
		return nil, err
	}
	var out []Interval
	for i, p := range o.Props {
		if o.Values[i].Bool {
			continue
		}
		f, err := pctl.Parse(p)
		if err != nil {
			return nil, err
		}
		bayes, boot, err := interval.Estimate(m, counts, f, interval.Options{Level: level, Samples: samples, Seed: seed})
		if err != nil {
			return nil, fmt.Errorf("%s: %v", p, err)
		}
		out = append(out, Interval{Property: p, Value: o.Values[i].Initial, Bayesian: bayes, Bootstrap: boot})
	}
	return out, nil
}

// Spread describes a reward per call beyond its mean.
type Spread struct {
	Reward string  `json:"reward"`
	Mean   float64 `json:"mean"`
	SD     float64 `json:"sd"`
	// Percentiles maps "p50", "p90", "p99" to values; missing when the analysis was truncated
	// before reaching them.
	Percentiles map[string]float64 `json:"percentiles"`
	// Truncated is the probability mass the bounded transient analysis left out.
	Truncated float64 `json:"truncated_mass"`
	// Below are P(reward ≤ T) at the thresholds asked for.
	Below []Below `json:"below,omitempty"`
}

// Below is P(reward per call ≤ T): between Lo and Hi, which differ by the mass the bounded
// analysis left out.
type Below struct {
	T      float64 `json:"t"`
	Lo, Hi float64
}

// Spreads gives each reward's standard deviation per call, its percentiles and P(reward ≤ t)
// for each t of below (package markov/dist).
func (o *Outcome) Spreads(opt checker.Options, below ...float64) ([]Spread, error) {
	if o.Synth == nil {
		return nil, fmt.Errorf("%s has no model", o.Scenario.Name)
	}
	m := o.Synth.Model
	var out []Spread
	for _, r := range o.Rewards {
		mo, err := dist.ComputeMoments(m, r, "end", opt)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", r, err)
		}
		d, err := dist.Accumulated(m, r, "end", dist.Options{})
		if err != nil {
			return nil, fmt.Errorf("%s: %v", r, err)
		}
		s := Spread{Reward: r, Mean: mo.Mean, SD: mo.SD, Percentiles: map[string]float64{}, Truncated: d.Truncated}
		for _, q := range []struct {
			name string
			q    float64
		}{{"p50", 0.5}, {"p90", 0.9}, {"p99", 0.99}} {
			if v, err := d.Quantile(q.q); err == nil {
				s.Percentiles[q.name] = v
			}
		}
		for _, t := range below {
			lo, hi := d.CDF(t)
			s.Below = append(s.Below, Below{T: t, Lo: lo, Hi: hi})
		}
		out = append(out, s)
	}
	return out, nil
}

// Uncertainty is what error bars and spreads add to an outcome's means.
type Uncertainty struct {
	Intervals []Interval `json:"intervals,omitempty"`
	Spreads   []Spread   `json:"spreads,omitempty"`
}

// ParseThresholds reads the thresholds t of P(reward per call ≤ t), comma-separated (20,50),
// for Uncertainty's below; none when list is empty.
func ParseThresholds(list string) ([]float64, error) {
	var ts []float64
	if list == "" {
		return nil, nil
	}
	for _, f := range strings.Split(list, ",") {
		t, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		if err != nil || math.IsNaN(t) || math.IsInf(t, 0) {
			return nil, fmt.Errorf("want comma-separated numbers such as 20,50")
		}
		ts = append(ts, t)
	}
	return ts, nil
}

// Uncertainty gives the outcome's intervals at level ci (none when 0) and, with spread or any
// threshold below, each reward's spread with P(reward ≤ t) for each t; nil when neither is
// asked for. ci must be in [0, 1).
func (o *Outcome) Uncertainty(ci float64, spread bool, below []float64, opt checker.Options) (*Uncertainty, error) {
	spread = spread || len(below) > 0
	if ci == 0 && !spread {
		return nil, nil
	}
	u := &Uncertainty{}
	var err error
	if ci > 0 {
		if u.Intervals, err = o.Intervals(ci, 1000, 1); err != nil {
			return nil, fmt.Errorf("--ci: %v", err)
		}
	}
	if spread {
		if u.Spreads, err = o.Spreads(opt, below...); err != nil {
			return nil, fmt.Errorf("--spread: %v", err)
		}
	}
	return u, nil
}
