package text

import (
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/augur-perf/augur/analyze/predict"
	"github.com/augur-perf/augur/markov/checker"
	"github.com/augur-perf/augur/probe/profile"
	"github.com/augur-perf/augur/source/frontend"
)

// HotSpotRows is how many statements Analysis lists unless told to list all.
const HotSpotRows = 20

// Analysis prints a function's analysis as `augur analyze` does: the function, profile and
// model, every property of every scenario side by side (with the change from the baseline to
// the last scenario), and the baseline's hot spots sorted by their share of reward by
// (Outcome.DefaultSort when ""), the top HotSpotRows unless all.
func Analysis(w io.Writer, fn *frontend.Func, outs []*predict.Outcome, by string, all bool) {
	base := outs[0]
	m := base.Synth.Model
	fmt.Fprintf(w, "Function: %s (%s)\n", fn.Name, ShortPath(fn.Pkg.Fset.Position(fn.Decl.Pos()).String()))
	fmt.Fprintf(w, "Profile:  %s (%s)\n", base.Scenario.ProfileName, Plural(int(base.Func.Invocations), "invocation"))
	if base.Func.Concurrent {
		fmt.Fprintln(w, "Note:     it ran on several goroutines at once: the expected rewards are per call, but wall\n          time is not additive across goroutines (calls overlapped)")
	}
	fmt.Fprintf(w, "Model:    %s, %s\n", Plural(m.N, "state"), Plural(m.NumTransitions(), "transition"))
	if t := base.Scenario.Measured; t != nil {
		fmt.Fprintf(w, "Time:     %s: CPU ns per call of %s, with its callees and the call itself (not wall time; goroutines add up); ± one standard error\n",
			base.Scenario.MeasuredName, fn.Decl.Name.Name)
	}
	fmt.Fprintln(w)
	props := allProps(outs)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	header := "Property"
	for _, o := range outs {
		header += "\t" + o.Scenario.Name
	}
	if len(outs) > 1 {
		header += "\tchange"
	}
	fmt.Fprintln(tw, header)
	var notes []string
	for _, p := range props {
		row := p
		if u := base.Units[rewardOf(p)]; u != "" {
			row += " (" + u + ")"
		}
		for _, o := range outs {
			r, why := answer(o, p)
			switch {
			case r == nil:
				row += "\tn/a"
				note := fmt.Sprintf("%s, %s: %s", o.Scenario.Name, p, why)
				if o.Why != "" {
					note = o.Scenario.Name + ": " + why // the whole scenario, said once
				}
				if !slices.Contains(notes, note) {
					notes = append(notes, note)
				}
			case o.StdErr[rewardOf(p)] > 0:
				row += "\t" + describeShort(r) + " ± " + Num2(o.StdErr[rewardOf(p)])
			default:
				row += "\t" + describeShort(r)
			}
		}
		if len(outs) > 1 {
			b, _ := answer(base, p)
			s, _ := answer(outs[len(outs)-1], p)
			if b != nil && s != nil && b.Initial != 0 && !b.Bool {
				row += fmt.Sprintf("\t%+.1f%%", 100*(s.Initial-b.Initial)/b.Initial)
			}
		}
		fmt.Fprintln(tw, row)
	}
	tw.Flush()
	for _, n := range notes {
		fmt.Fprintf(w, "n/a: %s\n", n)
	}
	stmts := base.HotSpots(fn)
	if by == "" {
		by = base.DefaultSort()
	}
	var shares []float64
	order := "in source order"
	if by != "" {
		stmts, shares = predict.ByShare(stmts, by)
		order = "by share of " + by
	}
	shown := len(stmts)
	if !all && shown > HotSpotRows {
		shown = HotSpotRows
	}
	fmt.Fprintf(w, "\nHot spots (%s), %s: expected executions and reward of each statement per invocation\n", base.Scenario.Name, order)
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	header = "line\texecutions"
	measured := base.Scenario.MeasuredName
	for _, n := range base.Rewards {
		name := n
		if u := base.Units[n]; u != "" {
			name += " (" + u + ")"
		}
		header += "\t" + name
		if n == measured {
			header += "\t±\tsamples"
		}
	}
	if shares != nil {
		header += "\tshare"
	}
	fmt.Fprintln(tw, header+"\tstatement")
	for i, st := range stmts[:shown] {
		row := fmt.Sprintf("%d\t%s", st.Line, Num(st.Executions))
		for _, n := range base.Rewards {
			row += "\t" + Num(st.Rewards[n])
			if n == measured {
				row += "\t" + Num2(st.TimeErr) + "\t" + strconv.FormatFloat(st.Samples, 'g', 3, 64)
			}
		}
		if shares != nil {
			row += fmt.Sprintf("\t%.1f%%", 100*shares[i])
		}
		fmt.Fprintln(tw, row+"\t"+st.Text)
	}
	tw.Flush()
	if shown < len(stmts) {
		fmt.Fprintf(w, "(%d more statements; --all lists them)\n", len(stmts)-shown)
	}
	for _, r := range base.Values {
		for _, n := range r.Stats.Notes {
			fmt.Fprintf(w, "Note: %s\n", n)
		}
	}
	for i, r := range base.Values {
		if !r.Bool && math.IsInf(r.Initial, 1) && i < len(base.Rewards) {
			fmt.Fprintf(w, "Note: %s is infinite because some runs end in a panic, never reaching \"end\" (as in PRISM); R{%q}=? [ F \"exit\" ] counts them too (--prop)\n", base.Props[i], base.Rewards[i])
		}
	}
}

// allProps lists the properties of every scenario: the baseline's, then any other's.
func allProps(outs []*predict.Outcome) []string {
	var props []string
	for _, o := range outs {
		for _, p := range o.Props {
			if !slices.Contains(props, p) {
				props = append(props, p)
			}
		}
	}
	return props
}

// rewardOf gives the reward of an expected-reward property R{"name"}=? [ F "end" ] ("" for
// other properties).
func rewardOf(prop string) string {
	name, ok := strings.CutPrefix(prop, `R{"`)
	name, rest, ok2 := strings.Cut(name, `"}`)
	if !ok || !ok2 || rest != `=? [ F "end" ]` {
		return ""
	}
	return name
}

// answer gives a scenario's result for a property, or why it has none.
func answer(o *predict.Outcome, prop string) (*checker.Result, string) {
	if o.Why != "" {
		return nil, o.Why
	}
	i := slices.Index(o.Props, prop)
	if i < 0 {
		return nil, fmt.Sprintf("this scenario has no reward %q: only the changes of other scenarios define it", rewardOf(prop))
	}
	if why := o.Unanswered[rewardOf(prop)]; why != "" {
		return nil, why
	}
	return o.Values[i], ""
}

func describeShort(r *checker.Result) string {
	if r.Bool {
		return fmt.Sprint(r.Holds)
	}
	return Num(r.Initial)
}

// ShortPath shows a path under the working directory relative to it.
func ShortPath(p string) string {
	if wd, err := os.Getwd(); err == nil {
		if rel, err := filepath.Rel(wd, p); err == nil && !strings.HasPrefix(rel, "..") {
			return rel
		}
	}
	return p
}

// Uncertainty prints an outcome's error bars and spreads (nothing for nil), as `augur analyze
// --ci --spread` does after the analysis.
func Uncertainty(w io.Writer, b *predict.Uncertainty, invocations uint64) {
	if b == nil {
		return
	}
	if len(b.Intervals) > 0 {
		fmt.Fprintf(w, "\nUncertainty: %g %% intervals from the counts of %d invocations (1000 chains drawn per method)\n", 100*b.Intervals[0].Bayesian.Level, invocations)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "Property\tvalue\tBayesian (Dirichlet)\tbootstrap")
		for _, iv := range b.Intervals {
			fmt.Fprintf(tw, "%s\t%s\t[%s, %s]\t[%s, %s]\n", iv.Property, Num(iv.Value), Num(iv.Bayesian.Lo), Num(iv.Bayesian.Hi), Num(iv.Bootstrap.Lo), Num(iv.Bootstrap.Hi))
		}
		tw.Flush()
	}
	if len(b.Spreads) > 0 {
		fmt.Fprintln(w, "\nSpread per call (the accumulated reward's distribution, not only its mean)")
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "Reward\tmean\tsd\tp50\tp90\tp99")
		for _, s := range b.Spreads {
			row := fmt.Sprintf("%s\t%s\t%s", s.Reward, Num(s.Mean), Num(s.SD))
			for _, p := range []string{"p50", "p90", "p99"} {
				if v, ok := s.Percentiles[p]; ok {
					row += "\t" + Num(v)
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
					fmt.Fprintf(w, "P(%s ≤ %s) = %s\n", s.Reward, Num(p.T), Num(p.Lo))
				} else {
					fmt.Fprintf(w, "P(%s ≤ %s) in [%s, %s]\n", s.Reward, Num(p.T), Num(p.Lo), Num(p.Hi))
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

// AnalysisJSON writes a function's analysis as `augur analyze --json` does: every scenario with
// every property (null with the reason when it has none), full precision and exact fractions,
// every statement; u, when not nil, as the baseline's uncertainty.
func AnalysisJSON(w io.Writer, fn *frontend.Func, outs []*predict.Outcome, u *predict.Uncertainty) error {
	type jsonLine struct {
		Line       int                `json:"line"`
		Statement  string             `json:"statement"`
		Executions float64            `json:"executions"`
		Rewards    map[string]float64 `json:"rewards"`
		// With a measured time: the samples behind it and its standard error (null: unknown).
		Samples *float64 `json:"samples,omitempty"`
		TimeErr *Number  `json:"time_std_error,omitempty"`
	}
	type jsonScenario struct {
		Name        string             `json:"name"`
		Profile     string             `json:"profile"`
		Partial     bool               `json:"partial,omitempty"`
		Why         string             `json:"why,omitempty"`
		Invocations uint64             `json:"invocations"`
		States      int                `json:"states"`
		Values      map[string]*Number `json:"values"`
		StdErrors   map[string]Number  `json:"std_errors,omitempty"`
		Unanswered  map[string]string  `json:"unanswered,omitempty"`
		Exact       map[string]string  `json:"exact,omitempty"`
		Units       map[string]string  `json:"units,omitempty"`
		HotSpots    []jsonLine         `json:"hot_spots"`
	}
	var out struct {
		Function  string         `json:"function"`
		Time      string         `json:"time,omitempty"`
		Scenarios []jsonScenario `json:"scenarios"`
		// Baseline's error bars and spreads (--ci, --spread).
		Beyond *predict.Uncertainty `json:"baseline_uncertainty,omitempty"`
	}
	out.Function = fn.Name
	out.Beyond = u
	if outs[0].Scenario.Measured != nil {
		out.Time = outs[0].Scenario.MeasuredName + ": " + profile.TimeWhat
	}
	props := allProps(outs)
	for _, o := range outs {
		js := jsonScenario{Name: o.Scenario.Name, Profile: o.Scenario.ProfileName, Partial: o.Scenario.Profile.Partial,
			Why: o.Why, Values: map[string]*Number{}}
		if o.Synth != nil {
			js.Invocations, js.States = o.Func.Invocations, o.Synth.Model.N
		}
		// Every property has an entry: a value, or null with the reason in unanswered.
		for _, p := range props {
			r, why := answer(o, p)
			if r == nil {
				js.Values[p] = nil
				if js.Unanswered == nil {
					js.Unanswered = map[string]string{}
				}
				js.Unanswered[p] = why
				continue
			}
			js.Values[p] = ptr(r.Initial)
			if se, ok := o.StdErr[rewardOf(p)]; ok {
				if js.StdErrors == nil {
					js.StdErrors = map[string]Number{}
				}
				js.StdErrors[p] = Number(se)
			}
			if x := r.InitialExact; x != nil {
				if js.Exact == nil {
					js.Exact = map[string]string{}
				}
				js.Exact[p] = x.RatString()
			}
		}
		for n, u := range o.Units {
			if js.Units == nil {
				js.Units = map[string]string{}
			}
			js.Units[n] = u
		}
		if o.Synth != nil {
			for _, st := range o.HotSpots(fn) {
				jl := jsonLine{Line: st.Line, Statement: st.Text, Executions: st.Executions, Rewards: st.Rewards}
				if o.Scenario.Measured != nil {
					jl.Samples = &st.Samples
					if !math.IsNaN(st.TimeErr) {
						jl.TimeErr = ptr(st.TimeErr)
					}
				}
				js.HotSpots = append(js.HotSpots, jl)
			}
		}
		out.Scenarios = append(out.Scenarios, js)
	}
	return JSON(w, out)
}
