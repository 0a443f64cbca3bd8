package main

import (
	"encoding/json"
	"errors"
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
	"github.com/augur-perf/augur/analyze/synth"
	"github.com/augur-perf/augur/markov/checker"
	"github.com/augur-perf/augur/markov/export"
	"github.com/augur-perf/augur/markov/modelio"
	"github.com/augur-perf/augur/probe/instrument"
	"github.com/augur-perf/augur/probe/profile"
	reporthtml "github.com/augur-perf/augur/report/html"
	"github.com/augur-perf/augur/source/frontend"
)

func init() {
	register(&command{
		name:    "analyze",
		summary: "predict a Go function's expected time, cost, energy… from its Markov model and a usage profile",
		usage:   "FUNC (--profile PROFILE | -- WORKLOAD) [--set NAME@FILE:LINE=VALUE]... [--rewards FILE]... [--compare] [--emit FORMAT] [--html FILE [--open]] [options]",
		help:    helpText("analyze"),
		run:     runAnalyze,
	})
}

type analyzeFlags struct {
	dir      string
	profiles multi
	sets     multi
	rewards  multi
	props    multi
	compare  bool
	emit     string
	out      string
	param    bool
	unseen   string
	compact  bool
	method   string
	asJSON   bool
	time     bool
	uninvok  bool
	all      bool
	by       string
	timing   timeOptions
	ci       float64
	spread   bool
	below    string
	html     string
	open     bool
}

func runAnalyze(args []string, stdout, stderr io.Writer) error {
	if isPackageArgs(args) {
		return runAnalyzePkgs(args, stdout, stderr)
	}
	if hasFitFlag(args) {
		return runAnalyzeFit(args, stdout, stderr)
	}
	c := commandNamed("analyze")
	fs := c.flags(stderr)
	var fl analyzeFlags
	fs.StringVar(&fl.dir, "dir", "", "the module directory FUNC is loaded from and the workload runs in (default: the current directory)")
	fs.Var(&fl.profiles, "profile", "a usage profile (augur-profile/1 or augur-usage/1); the first is the baseline, others are scenarios for --compare")
	fs.Var(&fl.sets, "set", "what-if: NAME@FILE:LINE=VALUE sets reward NAME of the statement at FILE:LINE (repeatable)")
	fs.Var(&fl.rewards, "rewards", "what-if: a rewards file (augur-rewards/1: name → position → value) (repeatable)")
	fs.Var(&fl.props, "prop", "an extra property to check, in PRISM syntax (repeatable)")
	fs.BoolVar(&fl.compare, "compare", false, "show the baseline and every what-if scenario side by side")
	fs.StringVar(&fl.emit, "emit", "", "write the model: prism, storm, dot or json")
	fs.StringVar(&fl.out, "o", "", "base path for --emit (default: the function's name)")
	fs.BoolVar(&fl.param, "parametric", false, "with --emit prism: probabilities as named constants, values given separately (PROPER-style)")
	fs.StringVar(&fl.unseen, "unseen", "uniform", "decisions the profile never reached: uniform, first or error")
	fs.BoolVar(&fl.compact, "compact", false, "merge straight-line statements into one state (for large functions)")
	fs.StringVar(&fl.method, "method", "direct", "checker method: direct, gauss-seidel, interval, prism or exact")
	fs.BoolVar(&fl.asJSON, "json", false, "print results as JSON")
	fs.BoolVar(&fl.time, "time", false, "with a go test WORKLOAD: time it on the code as it is and add a measured \"time\" reward (CPU ns per execution)")
	fl.timing.register(fs)
	fs.BoolVar(&fl.uninvok, "allow-uninvoked", false, "analyse even when the profile never invoked FUNC (every decision then follows --unseen)")
	fs.BoolVar(&fl.all, "all", false, "list every statement in the hot spots, not only the top 20")
	fs.StringVar(&fl.by, "by", "", "the reward hot spots are sorted by (default: measured time, else \"time\", else the first)")
	fs.Float64Var(&fl.ci, "ci", 0, "error bars: Bayesian and bootstrap intervals at this level (0.95) from the counts the model was estimated on")
	fs.BoolVar(&fl.spread, "spread", false, "each reward's standard deviation and percentiles (p50, p90, p99) per call, not only its mean")
	fs.StringVar(&fl.below, "below", "", "with the spread, P(reward per call ≤ t) for each t of a comma-separated list (20,50)")
	registerHTML(fs, &fl.html, &fl.open)
	flagArgs, workload := splitWorkload(args)
	pos, err := parse(fs, flagArgs, stdout)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		fmt.Fprintf(stderr, "augur analyze: expected one FUNC argument, got %d\n", len(pos))
		fs.Usage()
		return errUsage
	}
	if fl.open && fl.html == "" {
		return usagef("--open opens the --html report: give --html FILE")
	}
	if len(fl.profiles) == 0 && len(workload) == 0 {
		return usagef("no usage profile: give --profile FILE (from 'augur profile') or a workload after \"--\" (go test ... or go run ...)")
	}
	if fl.time && len(workload) == 0 {
		return usagef("--time needs a workload after \"--\" (or record it with 'augur profile --time')")
	}
	if fl.time {
		if err := instrument.CheckTimed(workload); err != nil {
			return usageError{err}
		}
	}
	unseen, err := synth.ParseUnseen(fl.unseen)
	if err != nil {
		return usageError{err}
	}
	meth, err := checker.ParseMethod(fl.method)
	if err != nil {
		return usageError{err}
	}
	prog, fn, err := predict.LoadFunc(fl.dir, pos[0])
	if err != nil {
		return usageError{err}
	}
	var profs []*profile.Profile
	var intr *interruptedError
	if len(workload) > 0 {
		// The workload's output goes to stderr: stdout is the analysis.
		p, err := runWorkload(prog, []*frontend.Func{fn}, instrument.Workload{Args: workload, Dir: fl.dir,
			Stdin: os.Stdin, Stdout: stderr, Stderr: stderr}, stderr)
		if err != nil && !(errors.As(err, &intr) && p != nil) {
			return err
		}
		profs = append(profs, p)
		name := "workload: " + strings.Join(workload, " ")
		if intr != nil {
			name += " (PARTIAL: interrupted)"
		}
		fl.profiles = append([]string{name}, fl.profiles...)
	}
	for _, path := range fl.profiles[len(profs):] {
		p, err := predict.ReadProfile(path, fn)
		if err != nil {
			return err
		}
		profs = append(profs, p)
	}
	baseline, err := predict.Baseline(fn, profs[0], fl.profiles[0])
	if err != nil {
		return err
	}
	baseline.AllowUninvoked = fl.uninvok
	var changes []predict.Change
	for _, path := range fl.rewards {
		tf, err := profile.ReadTimeFile(path)
		if err != nil {
			return err
		}
		if tf != nil {
			// Measured time: every scenario's, not a what-if.
			if baseline.Measured != nil {
				return usagef("--rewards %s: a second measured time (give one, or --time, not both)", path)
			}
			t, err := tf.For(fn)
			if err != nil {
				return fmt.Errorf("--rewards %s: %v", path, err)
			}
			if fl.time {
				return usagef("--rewards %s holds a measured time: give it or --time, not both", path)
			}
			baseline.SetMeasured(t)
			continue
		}
		ch, err := predict.RewardsFile(path)
		if err != nil {
			return err
		}
		changes = append(changes, ch)
	}
	if fl.time && intr == nil {
		var targets []timeTarget
		for i, p := range profs {
			if f := p.Funcs[fn.Name]; f != nil && f.Invocations > 0 {
				label := fl.profiles[i]
				if i == 0 {
					label = "baseline"
				}
				targets = append(targets, timeTarget{fn: fn, f: f, label: label})
			}
		}
		t, err := measureTime(prog, []*frontend.Func{fn}, profs[0], instrument.Workload{Args: workload, Dir: fl.dir,
			Stdin: os.Stdin, Stdout: stderr, Stderr: stderr}, fl.timing, targets, stderr)
		if err != nil {
			return err
		}
		baseline.SetMeasured(t.nodeTime(fn, profs[0].Funcs[fn.Name]))
	}
	for _, spec := range fl.sets {
		ch, err := predict.SetReward(spec)
		if err != nil {
			return usageError{err}
		}
		changes = append(changes, ch)
	}
	scenarios, err := predict.WhatIf(fn, baseline, changes, profs[1:], fl.profiles[1:])
	if err != nil {
		return err
	}
	if !fl.compare && len(scenarios) > 0 {
		// Without --compare every change applies at once to the one model reported.
		baseline = scenarios[len(scenarios)-1]
		baseline.Name = "what-if"
		scenarios = nil
	}
	opt := predict.Options{Synth: synth.Options{Unseen: unseen, Compact: fl.compact}, Checker: checker.Options{Method: meth}, Props: fl.props}
	var outs []*predict.Outcome
	for i, sc := range append([]predict.Scenario{baseline}, scenarios...) {
		o, err := sc.Predict(fn, opt)
		if err != nil && i == 0 {
			return fmt.Errorf("%s: %v", sc.Name, err)
		}
		if err != nil {
			// Another scenario that cannot be predicted says why, in its own column.
			o = &predict.Outcome{Scenario: sc, Why: err.Error()}
		}
		outs = append(outs, o)
	}
	if fl.by != "" && !slices.Contains(outs[0].Rewards, fl.by) {
		return usagef("--by %s: no such reward (the model has %s)", fl.by, strings.Join(outs[0].Rewards, ", "))
	}
	for _, w := range outs[0].Synth.Warnings {
		fmt.Fprintf(stderr, "warning: %s\n", w)
	}
	if fl.emit != "" {
		if err := emit(fl, fn, outs[0], stderr); err != nil {
			return err
		}
	}
	var below []float64
	if fl.below != "" {
		for _, f := range strings.Split(fl.below, ",") {
			t, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
			if err != nil || math.IsNaN(t) || math.IsInf(t, 0) {
				return usagef("--below %q: want comma-separated numbers such as 20,50", fl.below)
			}
			below = append(below, t)
		}
	}
	beyond, err := computeBeyondMean(outs[0], fl.ci, fl.spread, below, opt.Checker)
	if err != nil {
		return err
	}
	if fl.html != "" {
		by := fl.by
		if by == "" {
			by = defaultSort(outs[0])
		}
		a := reporthtml.Analysis{Func: fn, Outcomes: outs, By: by}
		if beyond != nil {
			a.Intervals, a.Spreads = beyond.Intervals, beyond.Spreads
		}
		a.Root, _ = os.Getwd()
		r, err := reporthtml.Build(a)
		if err != nil {
			return err
		}
		if err := writeHTML(fl.html, fl.open, r, stderr); err != nil {
			return err
		}
	}
	if fl.asJSON {
		if err := writeAnalyzeJSON(stdout, fn, outs, beyond); err != nil {
			return err
		}
	} else {
		printAnalysis(stdout, fn, outs, fl)
		printBeyondMean(stdout, beyond, outs[0].Func.Invocations)
	}
	if intr != nil {
		intr.what = "the analysis above is of the counts gathered until then (partial)"
		return intr
	}
	return nil
}

// hotSpotRows is how many statements the text output lists without --all.
const hotSpotRows = 20

func printAnalysis(w io.Writer, fn *frontend.Func, outs []*predict.Outcome, fl analyzeFlags) {
	base := outs[0]
	m := base.Synth.Model
	fmt.Fprintf(w, "Function: %s (%s)\n", fn.Name, shortPath(fn.Pkg.Fset.Position(fn.Decl.Pos()).String()))
	fmt.Fprintf(w, "Profile:  %s (%s)\n", base.Scenario.ProfileName, plural(int(base.Func.Invocations), "invocation"))
	if base.Func.Concurrent {
		fmt.Fprintln(w, "Note:     it ran on several goroutines at once: the expected rewards are per call, but wall\n          time is not additive across goroutines (calls overlapped)")
	}
	fmt.Fprintf(w, "Model:    %s, %s\n", plural(m.N, "state"), plural(m.NumTransitions(), "transition"))
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
				row += "\t" + describeShort(r) + " ± " + num2(o.StdErr[rewardOf(p)])
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
	by := fl.by
	if by == "" {
		by = defaultSort(base)
	}
	var shares []float64
	order := "in source order"
	if by != "" {
		stmts, shares = predict.ByShare(stmts, by)
		order = "by share of " + by
	}
	shown := len(stmts)
	if !fl.all && shown > hotSpotRows {
		shown = hotSpotRows
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
		row := fmt.Sprintf("%d\t%s", st.Line, num(st.Executions))
		for _, n := range base.Rewards {
			row += "\t" + num(st.Rewards[n])
			if n == measured {
				row += "\t" + num2(st.TimeErr) + "\t" + strconv.FormatFloat(st.Samples, 'g', 3, 64)
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

// num2 prints an error bar with two significant digits.
func num2(v float64) string { return strconv.FormatFloat(v, 'g', 2, 64) }

// defaultSort is the reward hot spots are sorted by unless --by says: measured time first, then
// an annotated time, then the first reward.
func defaultSort(o *predict.Outcome) string {
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

// num prints a value with five significant digits, and more for large values so that they keep
// two decimals (33590104.08, not 3.35901e+07): enough to compare scenarios, without the noise
// of a measured ratio's last digits (0.7, not 0.6999999). --json has every digit.
func num(v float64) string {
	prec := 5
	if a := math.Abs(v); a >= 1e5 && !math.IsInf(a, 0) {
		prec = int(math.Floor(math.Log10(a))) + 3
	}
	return strconv.FormatFloat(v, 'g', min(prec, 17), 64)
}

func describeShort(r *checker.Result) string {
	if r.Bool {
		return fmt.Sprint(r.Holds)
	}
	return num(r.Initial)
}

func shortPath(p string) string {
	if wd, err := os.Getwd(); err == nil {
		if rel, err := filepath.Rel(wd, p); err == nil && !strings.HasPrefix(rel, "..") {
			return rel
		}
	}
	return p
}

func emit(fl analyzeFlags, fn *frontend.Func, o *predict.Outcome, stderr io.Writer) error {
	base := fl.out
	if base == "" {
		base = fn.Decl.Name.Name
	}
	if dir := filepath.Dir(base); dir != "." {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
	}
	m := o.Synth.Model
	var written []string
	switch fl.emit {
	case "prism":
		pm, err := export.PRISM(m, export.PRISMOptions{Parametric: fl.param})
		if err != nil {
			return err
		}
		if err := os.WriteFile(base+".pm", []byte(pm.Text), 0o644); err != nil {
			return err
		}
		written = append(written, base+".pm")
		if fl.param {
			if err := os.WriteFile(base+".values", []byte(pm.ValuesFile()), 0o644); err != nil {
				return err
			}
			written = append(written, base+".values")
		}
		props, err := export.Props(o.Props)
		if err != nil {
			return err
		}
		if err := os.WriteFile(base+".props", []byte(props), 0o644); err != nil {
			return err
		}
		written = append(written, base+".props")
	case "storm":
		files, err := modelio.WriteStormFiles(base, m)
		if err != nil {
			return err
		}
		written = append(written, files.Tra, files.Lab)
	case "dot":
		if err := os.WriteFile(base+".dot", []byte(export.DOT(m)), 0o644); err != nil {
			return err
		}
		written = append(written, base+".dot")
	case "json":
		if err := modelio.WriteJSONFile(base+".json", m); err != nil {
			return err
		}
		written = append(written, base+".json")
	default:
		return fmt.Errorf("--emit %q: choose prism, storm, dot or json", fl.emit)
	}
	fmt.Fprintf(stderr, "wrote %s\n", strings.Join(written, ", "))
	return nil
}

func writeAnalyzeJSON(w io.Writer, fn *frontend.Func, outs []*predict.Outcome, beyond *beyondMean) error {
	type jsonLine struct {
		Line       int                `json:"line"`
		Statement  string             `json:"statement"`
		Executions float64            `json:"executions"`
		Rewards    map[string]float64 `json:"rewards"`
		// With a measured time: the samples behind it and its standard error (null: unknown).
		Samples *float64    `json:"samples,omitempty"`
		TimeErr *jsonNumber `json:"time_std_error,omitempty"`
	}
	type jsonScenario struct {
		Name        string                 `json:"name"`
		Profile     string                 `json:"profile"`
		Partial     bool                   `json:"partial,omitempty"`
		Why         string                 `json:"why,omitempty"`
		Invocations uint64                 `json:"invocations"`
		States      int                    `json:"states"`
		Values      map[string]*jsonNumber `json:"values"`
		StdErrors   map[string]jsonNumber  `json:"std_errors,omitempty"`
		Unanswered  map[string]string      `json:"unanswered,omitempty"`
		Exact       map[string]string      `json:"exact,omitempty"`
		Units       map[string]string      `json:"units,omitempty"`
		HotSpots    []jsonLine             `json:"hot_spots"`
	}
	var out struct {
		Function  string         `json:"function"`
		Time      string         `json:"time,omitempty"`
		Scenarios []jsonScenario `json:"scenarios"`
		// Baseline's error bars and spreads (--ci, --spread).
		Beyond *beyondMean `json:"baseline_uncertainty,omitempty"`
	}
	out.Function = fn.Name
	out.Beyond = beyond
	if outs[0].Scenario.Measured != nil {
		out.Time = outs[0].Scenario.MeasuredName + ": " + profile.TimeWhat
	}
	props := allProps(outs)
	for _, o := range outs {
		js := jsonScenario{Name: o.Scenario.Name, Profile: o.Scenario.ProfileName, Partial: o.Scenario.Profile.Partial,
			Why: o.Why, Values: map[string]*jsonNumber{}}
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
			v := jsonNumber(r.Initial)
			js.Values[p] = &v
			if se, ok := o.StdErr[rewardOf(p)]; ok {
				if js.StdErrors == nil {
					js.StdErrors = map[string]jsonNumber{}
				}
				js.StdErrors[p] = jsonNumber(se)
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
						e := jsonNumber(st.TimeErr)
						jl.TimeErr = &e
					}
				}
				js.HotSpots = append(js.HotSpots, jl)
			}
		}
		out.Scenarios = append(out.Scenarios, js)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}
