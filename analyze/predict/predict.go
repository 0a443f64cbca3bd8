// Package predict owns PROPER's predictions for one Go function under scenarios: a scenario is a
// usage profile and a set of rewards (the source's annotations, a rewards file, --set changes, a
// measured CPU time); predicting it synthesises the function's Markov model, checks its
// properties and gives each statement's share. What-if analysis is a list of scenarios built
// from the baseline, each change alone and all of them together, compared without running the
// code again.
//
// It may use the source, probe, analyze and markov groups; it must not run workloads (package
// instrument does) or print anything: the command line formats what it returns.
package predict

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/augur-perf/augur/analyze/synth"
	"github.com/augur-perf/augur/analyze/usage"
	"github.com/augur-perf/augur/markov/checker"
	"github.com/augur-perf/augur/markov/pctl"
	"github.com/augur-perf/augur/probe/instrument"
	"github.com/augur-perf/augur/probe/profile"
	"github.com/augur-perf/augur/source/annot"
	"github.com/augur-perf/augur/source/frontend"
)

// ReadProfile reads a measured profile (augur-profile/1) or a given one (augur-usage/1, counts as
// PROPER's logs state them), telling them apart by their format tag. A measured profile of other
// source than fn's (it changed since) is refused.
func ReadProfile(path string, fn *frontend.Func) (*profile.Profile, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var head struct {
		Format string `json:"format"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return nil, fmt.Errorf("%s: not a profile: %v", path, err)
	}
	switch head.Format {
	case profile.Format:
		p, err := profile.Read(path)
		if err != nil {
			return nil, err
		}
		if pf, ok := p.Funcs[fn.Name]; ok && pf.Hash != "" {
			hash, err := instrument.FuncHash(fn)
			if err != nil {
				return nil, err
			}
			if pf.Hash != hash {
				return nil, fmt.Errorf("%s: %s was measured on other source (it changed since): run 'augur profile' again", path, fn.Name)
			}
		}
		return p, nil
	case usage.Format:
		u, err := usage.ReadFile(path)
		if err != nil {
			return nil, err
		}
		return u.Profile([]*frontend.Func{fn})
	}
	return nil, fmt.Errorf("%s: format %q is neither %q (measured) nor %q (given)", path, head.Format, profile.Format, usage.Format)
}

// A Scenario is one combination of rewards and usage profile to predict under.
type Scenario struct {
	Name    string
	Rewards annot.Rewards
	// Profile is the usage profile, described by ProfileName.
	Profile     *profile.Profile
	ProfileName string
	// AllowUninvoked predicts even when the profile never invoked the function (every decision
	// then follows the synthesis's unseen policy); otherwise that is an error.
	AllowUninvoked bool
	// Measured is a measured time (see SetMeasured), its reward named MeasuredName.
	Measured     *profile.NodeTime
	MeasuredName string
}

// SetMeasured makes a measured time one of the scenario's rewards, named "time", or
// "time_measured" when an annotation already uses "time". Set on the baseline, before WhatIf,
// it is a reward of every scenario: a --set of that name changes it like any other.
func (sc *Scenario) SetMeasured(t *profile.NodeTime) {
	sc.Rewards = cloneRewards(sc.Rewards)
	sc.MeasuredName = "time"
	if _, taken := sc.Rewards["time"]; taken {
		sc.MeasuredName = "time_measured"
	}
	sc.Rewards[sc.MeasuredName] = slices.Clone(t.NS)
	sc.Measured = t
}

// Baseline is the scenario of the source's own annotations under profile p.
func Baseline(fn *frontend.Func, p *profile.Profile, profileName string) (Scenario, error) {
	r, err := annot.ForFunc(fn)
	if err != nil {
		return Scenario{}, err
	}
	return Scenario{Name: "baseline", Rewards: r, Profile: p, ProfileName: profileName}, nil
}

// A Change is one what-if change of rewards: a rewards file (augur-rewards/1) or a --set
// NAME@FILE:LINE=VALUE.
type Change struct {
	Name string
	File *annot.File
}

// RewardsFile reads a rewards file as a change.
func RewardsFile(path string) (Change, error) {
	f, err := annot.ReadFile(path)
	if err != nil {
		return Change{}, err
	}
	return Change{Name: "rewards " + filepath.Base(path), File: f}, nil
}

// SetReward parses NAME@FILE:LINE=VALUE as a change.
func SetReward(spec string) (Change, error) {
	f := &annot.File{}
	if err := f.Set(spec); err != nil {
		return Change{}, fmt.Errorf("--set %s: %v", spec, err)
	}
	return Change{Name: spec, File: f}, nil
}

// WhatIf makes one scenario per change (each applied alone to the baseline) and one per other
// profile (named by names), with every change applied: each scenario then has every reward the
// baseline and the changes define. With several changes and no other profile, a last scenario
// has every change together.
func WhatIf(fn *frontend.Func, baseline Scenario, changes []Change, profiles []*profile.Profile, names []string) ([]Scenario, error) {
	var out []Scenario
	combined := baseline
	combined.Rewards = cloneRewards(baseline.Rewards)
	for _, c := range changes {
		sc := baseline
		sc.Name = c.Name
		sc.Rewards = cloneRewards(baseline.Rewards)
		if err := c.File.Apply(fn.CFG, sc.Rewards); err != nil {
			return nil, err
		}
		if err := c.File.Apply(fn.CFG, combined.Rewards); err != nil {
			return nil, err
		}
		out = append(out, sc)
	}
	for _, c := range changes {
		if err := c.File.Unused(); err != nil {
			return nil, fmt.Errorf("%s: %v", c.Name, err)
		}
	}
	for i, p := range profiles {
		sc := combined
		sc.Name = "profile " + filepath.Base(names[i])
		sc.Profile, sc.ProfileName = p, names[i]
		out = append(out, sc)
	}
	if len(changes) > 1 && len(profiles) == 0 {
		combined.Name = "all changes"
		out = append(out, combined)
	}
	return out, nil
}

func cloneRewards(r annot.Rewards) annot.Rewards {
	out := annot.Rewards{}
	for n, v := range r {
		out[n] = append([]float64(nil), v...)
	}
	return out
}

// Options control Predict.
type Options struct {
	Synth   synth.Options
	Checker checker.Options
	// Props are properties to check besides every reward's R{"name"}=? [ F "end" ].
	Props []string
}

// An Outcome is a scenario's model and answers.
type Outcome struct {
	Scenario Scenario
	// Func is the profile's counts of the function.
	Func  *profile.Func
	Synth *synth.Result
	// Rewards names the reward structures, Props the properties checked (one per reward, then
	// Options.Props) and Values their results, in the same order.
	Rewards []string
	Props   []string
	Values  []*checker.Result
	// Units gives the unit of a reward where it is known ("ns" for measured CPU time).
	Units map[string]string
	// StdErr gives the standard error of a measured reward's expected value, from the number of
	// CPU samples behind each statement's time.
	StdErr map[string]float64
	// Unanswered says, for a reward whose expected value cannot be predicted, why.
	Unanswered map[string]string
	// Why, when set, says why the scenario has no model at all (its profile never invoked the
	// function, say); only Scenario is set then. Predict never returns such an outcome: it is
	// how a caller keeps a scenario that failed beside those that did not.
	Why string
}

// Predict synthesises fn's model under the scenario and checks its properties. With a measured
// time, the outcome also has that reward's standard error, or says why it cannot be predicted.
func (sc Scenario) Predict(fn *frontend.Func, opt Options) (*Outcome, error) {
	pf, ok := sc.Profile.Funcs[fn.Name]
	if !ok {
		return nil, fmt.Errorf("profile %s has no counts for %s (it has %d functions): profile the package that declares it", sc.ProfileName, fn.Name, len(sc.Profile.Funcs))
	}
	if pf.Invocations == 0 && !sc.AllowUninvoked {
		return nil, fmt.Errorf("%s never invoked %s: its model would be made up (--allow-uninvoked to go on, every decision then following --unseen)", sc.ProfileName, fn.Name)
	}
	units := map[string]string{}
	if sc.Measured != nil {
		units[sc.MeasuredName] = "ns"
	}
	so := opt.Synth
	so.Rewards = sc.Rewards
	res, err := synth.Synthesize(fn.CFG, pf, so)
	if err != nil {
		return nil, err
	}
	o := &Outcome{Scenario: sc, Func: pf, Synth: res, Rewards: sc.Rewards.Names(), Units: units}
	o.measuredError(fn)
	for _, n := range o.Rewards {
		o.Props = append(o.Props, fmt.Sprintf(`R{"%s"}=? [ F "end" ]`, n))
	}
	o.Props = append(o.Props, opt.Props...)
	for _, p := range o.Props {
		f, err := pctl.Parse(p)
		if err != nil {
			return nil, fmt.Errorf("--prop %q: %v", p, err)
		}
		r, err := checker.Check(res.Model, f, opt.Checker)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", p, err)
		}
		o.Values = append(o.Values, r)
	}
	return o, nil
}

// A Stmt is one statement's expected executions and expected reward per invocation.
type Stmt struct {
	Line int
	// Offset is the statement's byte offset in its file: with the file's own lines it places the
	// statement where a //line directive names another file.
	Offset     int
	Text       string
	Executions float64
	Rewards    map[string]float64
	// With a measured time: the CPU samples behind the statement's time (fractional where
	// statements share a line) and the standard error of its time per invocation (NaN when it
	// never ran while the time was measured).
	Samples, TimeErr float64
}

// HotSpots gives every statement's expected executions and rewards per invocation, in source
// order. Because the model's probabilities are count ratios, its expected visits to a node equal
// the profile's Count/Invocations exactly (the identity synth's tests check), so the counts give
// them directly.
func (o *Outcome) HotSpots(fn *frontend.Func) []Stmt {
	var out []Stmt
	n0 := float64(o.Func.Invocations)
	for id, nd := range fn.CFG.Nodes {
		if nd.IsExit() || nd.Pos.Line == 0 {
			continue
		}
		st := Stmt{Line: nd.Pos.Line, Offset: nd.Pos.Offset, Text: nd.Text, Rewards: map[string]float64{}}
		if n0 > 0 {
			st.Executions = float64(o.Func.Nodes[id].Count) / n0
		}
		for name, rs := range o.Scenario.Rewards {
			st.Rewards[name] = st.Executions * rs[id]
		}
		if t := o.Scenario.Measured; t != nil {
			st.Samples = t.Samples[id]
			if st.Executions > 0 {
				st.TimeErr = st.Executions * t.StdErr(id)
			}
		}
		out = append(out, st)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Line < out[j].Line })
	return out
}

// ByShare orders statements by their share of reward name, largest first (source order among
// equals), and gives each share of the total.
func ByShare(stmts []Stmt, name string) (sorted []Stmt, shares []float64) {
	sorted = slices.Clone(stmts)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].Rewards[name] > sorted[j].Rewards[name] })
	total := 0.0
	for _, s := range stmts {
		total += s.Rewards[name]
	}
	shares = make([]float64, len(sorted))
	for i, s := range sorted {
		if total > 0 {
			shares[i] = s.Rewards[name] / total
		}
	}
	return sorted, shares
}

// measuredError fills StdErr, or Unanswered, for the measured time.
func (o *Outcome) measuredError(fn *frontend.Func) {
	t, name := o.Scenario.Measured, o.Scenario.MeasuredName
	if t == nil {
		return
	}
	if o.Func.Invocations == 0 {
		o.Unanswered = map[string]string{name: "the profile never invoked the function: there is no time per call"}
		return
	}
	_, se, unknown := measuredSE(fn, t, o.Scenario.Rewards[name], o.Func)
	if len(unknown) > 0 {
		o.Unanswered = map[string]string{name: "its time is unknown: " + strings.Join(unknown, "; ") + ", but never ran while the time was measured (time a workload that runs it, or --set its time)"}
		return
	}
	o.StdErr = map[string]float64{name: se}
}

// MeasuredPrecision is the relative standard error of the expected measured time per call of
// fn under the counts f (+Inf when a statement f runs has no time).
func MeasuredPrecision(fn *frontend.Func, t *profile.NodeTime, f *profile.Func) float64 {
	v, se, unknown := measuredSE(fn, t, t.NS, f)
	if len(unknown) > 0 || v == 0 {
		return math.Inf(1)
	}
	return se / v
}

// measuredSE gives the expected time per call under counts f with rewards r (the measured time,
// perhaps changed by --set) and its standard error (profile.NodeTime.Variance, over the
// statements whose time is the measured one). A statement f runs that never ran while the time
// was measured has no time: it is listed in unknown (a --set of its time answers it).
func measuredSE(fn *frontend.Func, t *profile.NodeTime, r []float64, f *profile.Func) (value, se float64, unknown []string) {
	if f.Invocations == 0 {
		return 0, 0, nil
	}
	n0 := float64(f.Invocations)
	w := make([]float64, len(fn.CFG.Nodes))
	for id, nd := range fn.CFG.Nodes {
		visits := float64(f.Nodes[id].Count) / n0
		if visits == 0 || nd.IsExit() {
			continue
		}
		value += visits * r[id]
		if r[id] != t.NS[id] {
			continue // its time was set (--set)
		}
		if t.Runs[id] == 0 {
			unknown = append(unknown, fmt.Sprintf("line %d (%s) runs %s times per call here", nd.Pos.Line, nd.Text, strconv.FormatFloat(visits, 'g', 4, 64)))
			continue
		}
		w[id] = visits
	}
	return value, math.Sqrt(t.Variance(w)), unknown
}

// Expected gives each reward's expected value from the initial distribution, by name
// (rewards whose property has no value left out).
func (o *Outcome) Expected() map[string]float64 {
	m := map[string]float64{}
	for k, name := range o.Rewards {
		if o.Values[k] != nil {
			m[name] = o.Values[k].Initial
		}
	}
	return m
}

// DefaultSort is the reward hot spots are sorted by unless the caller says: measured time
// first, then an annotated "time", then the first reward ("" when there is none).
func (o *Outcome) DefaultSort() string {
	for n, u := range o.Units {
		if u == "ns" {
			return n
		}
	}
	if slices.Contains(o.Rewards, "time") {
		return "time"
	}
	if len(o.Rewards) > 0 {
		return o.Rewards[0]
	}
	return ""
}
