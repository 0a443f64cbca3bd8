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
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/augur-perf/augur/analyze/synth"
	"github.com/augur-perf/augur/analyze/usage"
	"github.com/augur-perf/augur/markov/checker"
	"github.com/augur-perf/augur/markov/export"
	"github.com/augur-perf/augur/markov/modelio"
	"github.com/augur-perf/augur/markov/pctl"
	"github.com/augur-perf/augur/probe/instrument"
	"github.com/augur-perf/augur/probe/profile"
	"github.com/augur-perf/augur/source/annot"
	"github.com/augur-perf/augur/source/frontend"
)

func init() {
	register(&command{
		name:    "analyze",
		summary: "predict a Go function's expected time, cost, energy… from its Markov model and a usage profile",
		usage:   "FUNC (--profile PROFILE | -- WORKLOAD) [--set NAME@FILE:LINE=VALUE]... [--rewards FILE]... [--compare] [--emit FORMAT] [options]",
		help: `Builds the Markov model of a Go function (one state per statement and decision, PROPER's
rules), takes its branch and loop probabilities from a usage profile and its rewards from
annotations such as // @time=2.5 or // @time=2.5, @energy=85 (trailing on a statement's line or
alone on the line above it), and checks R{"name"}=? [ F "end" ] for every reward name found, plus
any --prop. Prints the expected reward per invocation and the hot spots: each line's expected
executions and expected reward per invocation.

FUNC is import/path.Func, import/path.(*T).Method or import/path.T.Method, loaded from the module
in the current directory (or --dir). The usage profile is measured by 'augur profile' (or given,
as PROPER's counts, in format augur-usage/1), or measured on the spot: a go test or go run
WORKLOAD after "--" is run on an instrumented copy of FUNC first (its output goes to stderr).
With --time the workload also records a CPU profile and the model gets a measured reward, "time"
(nanoseconds of CPU per execution of each statement; "time_measured" if an annotation already
uses "time"), so a model of expected time needs no annotation at all.

What-if, without running the code again:
  --set time@distance.go:20=1.8    the statement at that line costs 1.8 instead (a faster call)
  --rewards platform.json          rewards for another platform (format augur-rewards/1)
  --profile other.json             another usage profile (give --profile twice with --compare)
  --compare                        print the baseline and each scenario side by side

Examples:
  augur analyze github.com/augur-perf/augur/examples/distance.L1 -- go test ./examples/distance -run Workload
  augur profile ./examples/distance -o distance.prof.json -- go test ./examples/distance -run Workload
  augur analyze github.com/augur-perf/augur/examples/distance.L1 --profile distance.prof.json
  augur analyze github.com/augur-perf/augur/examples/distance.L1 --profile distance.prof.json \
      --set time@distance.go:20=1.8 --compare
  augur analyze github.com/augur-perf/augur/examples/distance.L1 --profile distance.prof.json \
      --emit prism -o out/l1`,
		run: runAnalyze,
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
}

func runAnalyze(args []string, stdout, stderr io.Writer) error {
	c := commandNamed("analyze")
	fs := c.flags(stderr)
	var fl analyzeFlags
	fs.StringVar(&fl.dir, "dir", ".", "the directory of the module to load packages from")
	fs.Var(&fl.profiles, "profile", "a usage profile (augur-profile/1); the first is the baseline, others are scenarios for --compare")
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
	fs.BoolVar(&fl.time, "time", false, "with a WORKLOAD: record a CPU profile and add a measured \"time\" reward (ns per execution)")
	fs.BoolVar(&fl.uninvok, "allow-uninvoked", false, "analyse even when the profile never invoked FUNC (every decision then follows --unseen)")
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
	if len(fl.profiles) == 0 && len(workload) == 0 {
		return fmt.Errorf("no usage profile: give --profile FILE (from 'augur profile') or a workload after \"--\" (go test ... or go run ...)")
	}
	if fl.time && len(workload) == 0 {
		return fmt.Errorf("--time needs a workload after \"--\" (or record it with 'augur profile --time')")
	}
	unseen, err := synth.ParseUnseen(fl.unseen)
	if err != nil {
		return err
	}
	meth, err := checker.ParseMethod(fl.method)
	if err != nil {
		return err
	}
	prog, fn, err := loadFunc(fl.dir, pos[0])
	if err != nil {
		return usageError{err}
	}
	base, err := annot.ForFunc(fn)
	if err != nil {
		return err
	}
	var profs []*profile.Profile
	var intr *interruptedError
	if len(workload) > 0 {
		// The workload's output goes to stderr: stdout is the analysis.
		p, err := runWorkload(prog, []*frontend.Func{fn}, instrument.Workload{Args: workload, Dir: fl.dir, CPU: fl.time,
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
		p, err := readProfile(path, fn)
		if err != nil {
			return err
		}
		profs = append(profs, p)
	}
	baseline := scenario{name: "baseline", rewards: base, prof: profs[0], profName: fl.profiles[0], allowUninvoked: fl.uninvok}
	scenarios, err := whatIf(fn, baseline, fl, profs)
	if err != nil {
		return err
	}
	if !fl.compare && len(scenarios) > 0 {
		// Without --compare every change applies at once to the one model reported.
		baseline = scenarios[len(scenarios)-1]
		baseline.name = "what-if"
		scenarios = nil
	}
	opt := synth.Options{Unseen: unseen, Compact: fl.compact}
	all := append([]scenario{baseline}, scenarios...)
	var outs []*outcome
	for _, sc := range all {
		o, err := sc.run(fn, opt, checker.Options{Method: meth}, fl.props)
		if err != nil {
			return fmt.Errorf("%s: %v", sc.name, err)
		}
		outs = append(outs, o)
	}
	for _, w := range outs[0].synth.Warnings {
		fmt.Fprintf(stderr, "warning: %s\n", w)
	}
	if fl.emit != "" {
		if err := emit(fl, fn, outs[0], stderr); err != nil {
			return err
		}
	}
	if fl.asJSON {
		if err := writeAnalyzeJSON(stdout, fn, outs); err != nil {
			return err
		}
	} else {
		printAnalysis(stdout, fn, outs)
	}
	if intr != nil {
		intr.what = "the analysis above is of the counts gathered until then (partial)"
		return intr
	}
	return nil
}

// loadFunc loads the package of spec and selects one function. The package path ends at one of
// the dots of spec's last path element (gopkg.in/yaml.v3.Unmarshal has two candidates): the
// longest that loads wins.
func loadFunc(dir, spec string) (*frontend.Program, *frontend.Func, error) {
	slash := strings.LastIndex(spec, "/") + 1
	var candidates []string
	for i := len(spec) - 1; i > slash; i-- {
		if spec[i] == '.' {
			candidates = append(candidates, spec[:i])
		}
	}
	if len(candidates) == 0 {
		return nil, nil, fmt.Errorf("%q names no function: give import/path.Func, import/path.T.Method or import/path.(*T).Method", spec)
	}
	var firstErr error
	for _, path := range candidates {
		prog, err := frontend.Load(dir, path)
		if err != nil {
			if firstErr == nil {
				firstErr = err
			}
			continue
		}
		fns, err := prog.Select(spec)
		if err != nil {
			return nil, nil, err
		}
		if len(fns) != 1 {
			names := make([]string, len(fns))
			for i, f := range fns {
				names[i] = f.Name
			}
			return nil, nil, fmt.Errorf("%s names %d functions (%s); analyze takes one", spec, len(fns), strings.Join(names, ", "))
		}
		return prog, fns[0], nil
	}
	return nil, nil, firstErr
}

// readProfile reads a measured profile (augur-profile/1) or a given one (augur-usage/1, counts as
// PROPER's logs state them), telling them apart by their format tag.
func readProfile(path string, fn *frontend.Func) (*profile.Profile, error) {
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

// scenario is one combination of rewards and usage profile to predict under.
type scenario struct {
	allowUninvoked bool
	name           string
	rewards        annot.Rewards
	prof           *profile.Profile
	profName       string
}

// outcome is a scenario's model and answers.
type outcome struct {
	sc     scenario
	pf     *profile.Func
	synth  *synth.Result
	names  []string
	props  []string
	values []*checker.Result
}

func (sc scenario) run(fn *frontend.Func, opt synth.Options, copt checker.Options, extra []string) (*outcome, error) {
	warn := ""
	pf, ok := sc.prof.Funcs[fn.Name]
	if !ok {
		return nil, fmt.Errorf("profile %s has no counts for %s (it has %d functions): profile the package that declares it", sc.profName, fn.Name, len(sc.prof.Funcs))
	}
	if pf.Invocations == 0 && !sc.allowUninvoked {
		return nil, fmt.Errorf("%s never invoked %s: its model would be made up (--allow-uninvoked to go on, every decision then following --unseen)", sc.profName, fn.Name)
	}
	if sc.prof.CPU != nil {
		// A measured time reward from the CPU samples, named so as not to hide an annotation.
		sc.rewards = cloneRewards(sc.rewards)
		name := "time"
		if _, taken := sc.rewards[name]; taken {
			name = "time_measured"
		}
		sc.rewards[name] = profile.FromCPU(fn.CFG, pf, sc.prof.CPU)
		if !slices.ContainsFunc(sc.rewards[name], func(v float64) bool { return v > 0 }) {
			warn = fmt.Sprintf("the CPU profile has no samples in %s: the workload spent too little time there (pprof samples every 10 ms); run it longer (go test -count, -benchtime)", fn.Name)
		}
	}
	opt.Rewards = sc.rewards
	res, err := synth.Synthesize(fn.CFG, pf, opt)
	if err != nil {
		return nil, err
	}
	o := &outcome{sc: sc, pf: pf, synth: res, names: sc.rewards.Names()}
	if warn != "" {
		o.synth.Warnings = append(o.synth.Warnings, synth.Warning{Msg: warn})
	}
	for _, n := range o.names {
		o.props = append(o.props, fmt.Sprintf(`R{"%s"}=? [ F "end" ]`, n))
	}
	o.props = append(o.props, extra...)
	for _, p := range o.props {
		f, err := pctl.Parse(p)
		if err != nil {
			return nil, fmt.Errorf("--prop %q: %v", p, err)
		}
		r, err := checker.Check(res.Model, f, copt)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", p, err)
		}
		o.values = append(o.values, r)
	}
	return o, nil
}

// stmtStat is one statement's share of an invocation.
type stmtStat struct {
	line   int
	text   string
	visits float64
	reward map[string]float64
}

// hotSpots gives each statement's expected executions and expected reward per invocation, in
// source order. Because the model's probabilities are count ratios, its expected visits to a
// node equal the profile's Count/Invocations exactly (the identity synth's tests check), so the
// counts give them directly.
func (o *outcome) hotSpots(fn *frontend.Func) []*stmtStat {
	var out []*stmtStat
	n0 := float64(o.pf.Invocations)
	for id, nd := range fn.CFG.Nodes {
		if nd.IsExit() || nd.Pos.Line == 0 {
			continue
		}
		st := &stmtStat{line: nd.Pos.Line, text: nd.Text, reward: map[string]float64{}}
		if n0 > 0 {
			st.visits = float64(o.pf.Nodes[id].Count) / n0
		}
		for name, rs := range o.sc.rewards {
			st.reward[name] = st.visits * rs[id]
		}
		out = append(out, st)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].line < out[j].line })
	return out
}

func printAnalysis(w io.Writer, fn *frontend.Func, outs []*outcome) {
	base := outs[0]
	m := base.synth.Model
	fmt.Fprintf(w, "Function: %s (%s)\n", fn.Name, shortPath(fn.Pkg.Fset.Position(fn.Decl.Pos()).String()))
	fmt.Fprintf(w, "Profile:  %s (%d invocations)\n", base.sc.profName, base.pf.Invocations)
	fmt.Fprintf(w, "Model:    %d states, %d transitions\n\n", m.N, m.NumTransitions())
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	header := "Property"
	for _, o := range outs {
		header += "\t" + o.sc.name
	}
	if len(outs) > 1 {
		header += "\tchange"
	}
	fmt.Fprintln(tw, header)
	for i, p := range base.props {
		row := p
		for _, o := range outs {
			if i < len(o.values) {
				row += "\t" + describeShort(o.values[i])
			}
		}
		if len(outs) > 1 && i < len(outs[len(outs)-1].values) {
			b, s := base.values[i].Initial, outs[len(outs)-1].values[i].Initial
			if b != 0 && !base.values[i].Bool {
				row += fmt.Sprintf("\t%+.1f%%", 100*(s-b)/b)
			}
		}
		fmt.Fprintln(tw, row)
	}
	tw.Flush()
	fmt.Fprintf(w, "\nHot spots (%s): expected executions and reward of each statement per invocation\n", base.sc.name)
	tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	header = "line\texecutions"
	for _, n := range base.names {
		header += "\t" + n
	}
	fmt.Fprintln(tw, header+"\tstatement")
	for _, ls := range base.hotSpots(fn) {
		row := fmt.Sprintf("%d\t%.4g", ls.line, ls.visits)
		for _, n := range base.names {
			row += fmt.Sprintf("\t%.4g", ls.reward[n])
		}
		fmt.Fprintln(tw, row+"\t"+ls.text)
	}
	tw.Flush()
	for _, r := range base.values {
		for _, n := range r.Stats.Notes {
			fmt.Fprintf(w, "Note: %s\n", n)
		}
	}
	for i, r := range base.values {
		if !r.Bool && math.IsInf(r.Initial, 1) && i < len(base.names) {
			fmt.Fprintf(w, "Note: %s is infinite because some runs end in a panic, never reaching \"end\" (as in PRISM); R{%q}=? [ F \"exit\" ] counts them too (--prop)\n", base.props[i], base.names[i])
		}
	}
}

func describeShort(r *checker.Result) string {
	if r.Bool {
		return fmt.Sprint(r.Holds)
	}
	return fmt.Sprintf("%.6g", r.Initial)
}

func shortPath(p string) string {
	if wd, err := os.Getwd(); err == nil {
		if rel, err := filepath.Rel(wd, p); err == nil && !strings.HasPrefix(rel, "..") {
			return rel
		}
	}
	return p
}

func emit(fl analyzeFlags, fn *frontend.Func, o *outcome, stderr io.Writer) error {
	base := fl.out
	if base == "" {
		base = fn.Decl.Name.Name
	}
	if dir := filepath.Dir(base); dir != "." {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
	}
	m := o.synth.Model
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
		props, err := export.Props(o.props)
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

func writeAnalyzeJSON(w io.Writer, fn *frontend.Func, outs []*outcome) error {
	type jsonLine struct {
		Line       int                `json:"line"`
		Statement  string             `json:"statement"`
		Executions float64            `json:"executions"`
		Rewards    map[string]float64 `json:"rewards"`
	}
	type jsonScenario struct {
		Name        string                `json:"name"`
		Profile     string                `json:"profile"`
		Invocations uint64                `json:"invocations"`
		States      int                   `json:"states"`
		Values      map[string]jsonNumber `json:"values"`
		HotSpots    []jsonLine            `json:"hot_spots"`
	}
	var out struct {
		Function  string         `json:"function"`
		Scenarios []jsonScenario `json:"scenarios"`
	}
	out.Function = fn.Name
	for _, o := range outs {
		js := jsonScenario{Name: o.sc.name, Profile: o.sc.profName, Invocations: o.pf.Invocations, States: o.synth.Model.N, Values: map[string]jsonNumber{}}
		for i, p := range o.props {
			js.Values[p] = jsonNumber(o.values[i].Initial)
		}
		for _, ls := range o.hotSpots(fn) {
			js.HotSpots = append(js.HotSpots, jsonLine{ls.line, ls.text, ls.visits, ls.reward})
		}
		out.Scenarios = append(out.Scenarios, js)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// whatIf makes one scenario per change given on the command line (each applied alone to the
// baseline, for --compare) and, last, one with every change applied together.
func whatIf(fn *frontend.Func, baseline scenario, fl analyzeFlags, profs []*profile.Profile) ([]scenario, error) {
	var changes []*annot.File
	var names []string
	for _, path := range fl.rewards {
		f, err := annot.ReadFile(path)
		if err != nil {
			return nil, err
		}
		changes = append(changes, f)
		names = append(names, "rewards "+filepath.Base(path))
	}
	for _, spec := range fl.sets {
		f := &annot.File{}
		if err := f.Set(spec); err != nil {
			return nil, fmt.Errorf("--set %s: %v", spec, err)
		}
		changes = append(changes, f)
		names = append(names, spec)
	}
	var out []scenario
	combined := baseline
	combined.rewards = cloneRewards(baseline.rewards)
	for i, f := range changes {
		sc := baseline
		sc.name = names[i]
		sc.rewards = cloneRewards(baseline.rewards)
		if err := f.Apply(fn.CFG, sc.rewards); err != nil {
			return nil, err
		}
		if err := f.Apply(fn.CFG, combined.rewards); err != nil {
			return nil, err
		}
		out = append(out, sc)
	}
	for i := 1; i < len(profs); i++ {
		sc := baseline
		sc.name = "profile " + filepath.Base(fl.profiles[i])
		sc.prof, sc.profName = profs[i], fl.profiles[i]
		out = append(out, sc)
		combined.prof, combined.profName = sc.prof, sc.profName
	}
	for i, f := range changes {
		if err := f.Unused(); err != nil {
			return nil, fmt.Errorf("%s: %v", names[i], err)
		}
	}
	if len(out) > 1 {
		combined.name = "all changes"
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
