package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"math/big"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/augur-perf/augur/report/html"

	"github.com/augur-perf/augur/options/influence"
	"github.com/augur-perf/augur/options/regions"
	"github.com/augur-perf/augur/options/runner"
	"github.com/augur-perf/augur/options/study"
	"github.com/augur-perf/augur/options/taint"
)

func init() {
	register(&command{
		name:    "options",
		summary: "white-box performance-influence models of configurable Go programs (ConfigCrusher)",
		usage:   "SUBCOMMAND PKGS... [options]",
		help: `Builds performance-influence models of a configurable Go program the way ConfigCrusher does
(Velez et al., ASE journal 2020): a taint analysis finds which options influence each decision
(the statement-influence map), the decisions become code regions, the configurations to measure
are compressed so that every region sees every combination of its options, each region gets a
local model from its measured times and the local models add up to the global model
T = c0 + c1·A + c2·A·B + ... whose every term is traced to the regions that cause it.

Options are found where the program loads them: the flag package (flag.Bool, fs.IntVar, ...),
os.Getenv and os.LookupEnv, and functions or struct fields you declare with --source and
--source-field. Boolean options take false/true; give other options' values with --values.

Subcommands:
  influence PKGS   the statement-influence map: each decision and the options that may
                   influence it, then the irrelevant options (--json for scripts, --all to
                   list decisions no option influences too)
  regions PKGS     the regions timed before and after ConfigCrusher's optimisation
  configs PKGS     the compressed configuration set (--method exact|greedy|pivot|auto), its
                   size against the lower bound 2^max|S| and against brute force's 2^n
  measure PKGS     measure the compressed set with region timing (--run 'TARGET / ARGS'),
                   build the local and global models, print and write them (-o model.json)
  predict MODEL    predict a configuration's time: A=1 B=0 ... or --config 'A,C'
  evaluate PKGS    compare the white-box model with black-box baselines (brute force,
                   feature-wise, pair-wise, random, each with stepwise regression) on
                   held-out configurations measured end to end: the paper's Tables 5 and 6

PKGS are package patterns (./examples/options, ./cmd/...) loaded from the module in the current
directory or --dir. --deps also analyses the module's dependencies from source, so decisions a
library takes on the options the program passes it are found (slower: the whole module graph is
built to SSA).

Examples:
  augur options influence ./examples/options
  augur options influence ./examples/lz4 --deps --json
  augur options influence ./cmd/server --source example.com/cfg.Get --source-field example.com/cfg.Config.Workers=workers --values workers=1,8
  augur options configs ./examples/options
  augur options configs ./examples/options --method pivot --json
  augur options regions ./examples/options
  augur options measure ./examples/options --run './examples/options / -unit=10ms' --reps 3 -o model.json
  augur options predict model.json A=1 C=1
  augur options predict model.json --config 'A,C'
  augur options evaluate ./examples/options --run './examples/options / -unit=10ms' --held-out 20

Run 'augur options SUBCOMMAND --help' for a subcommand's flags.`,
		run: runOptions,
	})
}

// optionsSub is one subcommand of augur options.
type optionsSub struct {
	name, usage, help string
	run               func(c *command, args []string, stdout, stderr io.Writer) error
}

var optionsSubs []*optionsSub

func runOptions(args []string, stdout, stderr io.Writer) error {
	top := commandNamed("options")
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "-help" || args[0] == "help" {
		if len(args) == 0 {
			fmt.Fprintf(stderr, "augur options: expected a subcommand\n")
			fs := top.flags(stderr)
			fs.Usage()
			return errUsage
		}
		fs := top.flags(stdout)
		fullUsage[fs]()
		return nil
	}
	for _, s := range optionsSubs {
		if s.name == args[0] {
			c := &command{name: "options " + s.name, usage: s.usage, help: s.help}
			return s.run(c, args[1:], stdout, stderr)
		}
	}
	fmt.Fprintf(stderr, "augur options: unknown subcommand %q (want influence, regions, configs, measure, predict or evaluate)\n", args[0])
	return errUsage
}

func init() {
	optionsSubs = []*optionsSub{
		{name: "influence", usage: "PKGS... [--source pkg.F]... [--source-field pkg.T.F]... [--values name=v1,v2]... [--deps] [--json] [--all]",
			help: `Prints the statement-influence map: one line per decision (if, for, range, switch,
select) that some option may influence, "file:line:col  text  {options}", then every option
found and the irrelevant ones (they influence no decision, so no configuration varies them).
--all lists decisions no option influences too; --json prints one JSON object with "options",
"decisions" and "irrelevant".

Examples:
  augur options influence ./examples/options
  augur options influence ./examples/lz4 --deps
  augur options influence ./cmd/server --source example.com/cfg.Get=Mode --json`,
			run: runOptionsInfluence},
		{name: "regions", usage: "PKGS... [analysis options] [--json]",
			help: `Prints the code regions whose time the measurement records: one per influenced decision
before ConfigCrusher's optimisation, and after it (regions with the same options that nest or
follow each other merged, regions that cannot be timed separately lifted to their callers).

Examples:
  augur options regions ./examples/options
  augur options regions ./examples/lz4 --deps --json`,
			run: runOptionsRegions},
		{name: "configs", usage: "PKGS... [analysis options] [--method auto|exact|greedy|pivot] [--json]",
			help: `Prints the compressed set of configurations: every influence set S of a decision sees every
assignment of its options in some configuration, options outside all sets keep their defaults.
Reports its size against the lower bound (the product of the domains of the largest set, 2^max|S|
for boolean options) and against brute force (every combination of every option, 2^n).

Methods: auto (default) takes the exact minimum when the instance is small and the greedy
otherwise; exact, greedy and pivot (ConfigCrusher's own pivot merging) force one.

Each configuration is printed with the options on, then as the program's arguments
(-name=value for flags, NAME=value for environment variables).

Examples:
  augur options configs ./examples/options
  augur options configs ./examples/options --method pivot
  augur options configs ./examples/lz4 --deps --json`,
			run: runOptionsConfigs},
		{name: "measure", usage: "PKGS... --run 'TARGET / ARGS' [--reps 5] [--warmup 1] [--cache DIR] [-o model.json] [--json]",
			help: `Measures the compressed configurations with every region timed (the program is built
through go -overlay with timing added, nothing in the source tree changes), builds each
region's local model by the Möbius transform of its mean times, adds them into the global
model and prints it in seconds, each term followed by the regions and source positions that
cause it. -o writes the model (augur-options-model/1, read by predict and evaluate).

--run is the package to build and its fixed arguments, separated by " / ": the option flags
of each configuration are appended to those arguments.

Examples:
  augur options measure ./examples/options --run './examples/options / -unit=10ms' --reps 3 -o model.json
  augur options measure ./examples/lz4 --deps --run './examples/lz4' --reps 5 --cache /tmp/augur-cache -o lz4.json`,
			run: runOptionsMeasure},
		{name: "predict", usage: "MODEL [NAME=0|1]... [NUMERIC=VALUE]... [--config 'A,C'] [--json]",
			help: `Predicts a configuration's time from a model written by measure (or any influence model
JSON): prints the prediction and each term that contributes to it. Options not given are
off; NAME alone means NAME=1.

A numeric option (measured at three or more numeric values, given with --values) is a curve in
the model — a + b·g(N) with g linear, log2 or quadratic, chosen by cross-validation — so any
value can be asked for: NAME=VALUE (a number or a Go duration). A value outside the measured
range is predicted with a warning that it extrapolates.

Examples:
  augur options predict model.json A=1 B=0 C=1
  augur options predict model.json A=1 workers=6
  augur options predict model.json --config 'A,C'
  augur options predict model.json --config '' --json`,
			run: runOptionsPredict},
		{name: "evaluate", usage: "PKGS... --run 'TARGET / ARGS' [--model model.json] [--held-out 50] [--random K] [--reps 1] [--json]",
			help: `Compares ConfigCrusher's white-box model with black-box baselines, as the paper's Tables 5
and 6 do: brute force (when there are at most 16 options), feature-wise, pair-wise and random
sampling, each followed by stepwise regression on end-to-end times. Ground truth is measured on
held-out configurations (all of them for brute force-sized programs when --held-out is 0, a
random sample otherwise). Prints approach, configurations measured, measuring time and MAPE.

With --held-out-values NAME=v1,v2 it checks instead how well the --model predicts values of a
numeric option it never measured: every assignment of the model's boolean options with each
held-out value, run end to end (--reps runs, the median kept).

Examples:
  augur options evaluate ./examples/options --run './examples/options / -unit=10ms' --held-out 20
  augur options evaluate ./examples/numeric --values size=64,256,1024,4096 --run './examples/numeric' --model num.json --held-out-values size=128,512,2048 --reps 3
  augur options evaluate ./examples/lz4 --deps --run './examples/lz4' --model lz4.json --json`,
			run: runOptionsEvaluate},
	}
}

// analysisFlags are the flags every subcommand that analyses source shares.
type analysisFlags struct {
	dir                            string
	deps                           bool
	sources, fields, values, fixed multi
}

func addAnalysisFlags(c *command, stderr io.Writer) (*flag.FlagSet, *analysisFlags) {
	a := &analysisFlags{}
	fs := c.flags(stderr)
	fs.StringVar(&a.dir, "dir", "", "the module directory to load PKGS from (default: the current directory)")
	fs.BoolVar(&a.deps, "deps", false, "analyse dependencies from source too (finds decisions libraries take on the options)")
	fs.Var(&a.sources, "source", "declare a function whose result is an option: `import/path.Func[=Name][@env:NAME|@flag:-name|@key:name]` or import/path.Type.Method (repeatable)")
	fs.Var(&a.fields, "source-field", "declare a struct field whose reads are an option: `import/path.Type.Field[=Name][@...]` (repeatable)")
	fs.Var(&a.values, "values", "the values of a non-boolean option: `name=v1,v2[,...]` (repeatable)")
	fs.Var(&a.fixed, "fixed", "an option held at one value for the experiment (an output path, a scale knob): not analysed, not varied; give its value in --run's ARGS (repeatable)")
	return fs, a
}

// request turns the flags and package patterns into the library's request.
func (a *analysisFlags) request(pkgs []string) (study.Request, error) {
	decls, err := study.ParseDecls(a.sources, a.fields, a.values, a.fixed)
	return study.Request{Dir: a.dir, Patterns: pkgs, Deps: a.deps, Decls: decls}, err
}

// analyse runs the analysis and prints its warnings.
func (a *analysisFlags) analyse(pkgs []string, stderr io.Writer) (*taint.Result, error) {
	req, err := a.request(pkgs)
	if err != nil {
		return nil, err
	}
	res, err := study.Analyse(req)
	if res != nil {
		for _, w := range res.Options.Warnings {
			fmt.Fprintf(stderr, "warning: %v\n", w)
		}
	}
	return res, err
}

// base is the directory positions are printed relative to.
func (a *analysisFlags) base() string {
	dir := a.dir
	if dir == "" {
		dir, _ = os.Getwd()
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return dir
	}
	return abs
}

func runOptionsInfluence(c *command, args []string, stdout, stderr io.Writer) error {
	fs, a := addAnalysisFlags(c, stderr)
	asJSON := fs.Bool("json", false, "print the map as JSON")
	all := fs.Bool("all", false, "list decisions no option influences too")
	pos, err := parse(fs, args, stdout)
	if err != nil {
		return err
	}
	res, err := a.analyse(pos, stderr)
	if err != nil {
		return err
	}
	if *asJSON {
		return res.WriteJSON(stdout, a.base())
	}
	return res.WriteText(stdout, taint.TextOptions{Base: a.base(), OnlyInfluenced: !*all})
}

func runOptionsConfigs(c *command, args []string, stdout, stderr io.Writer) error {
	fs, a := addAnalysisFlags(c, stderr)
	method := fs.String("method", "auto", "compression: auto, exact, greedy or pivot")
	asJSON := fs.Bool("json", false, "print the configurations as JSON")
	pos, err := parse(fs, args, stdout)
	if err != nil {
		return err
	}
	res, err := a.analyse(pos, stderr)
	if err != nil {
		return err
	}
	sp, err := study.NewSpace(res)
	if err != nil {
		return err
	}
	start := time.Now()
	cr, err := sp.Compress(*method)
	if err != nil {
		return err
	}
	took := time.Since(start)
	brute := sp.BruteForce()
	if *asJSON {
		type cfgJSON struct {
			On       []string        `json:"on"`
			Settings []study.Setting `json:"settings"`
			Args     []string        `json:"args"`
			Env      []string        `json:"env,omitempty"`
		}
		out := struct {
			Options    []string   `json:"options"`
			Relevant   []string   `json:"relevant"`
			Irrelevant []string   `json:"irrelevant"`
			Sets       [][]string `json:"influence_sets"`
			Method     string     `json:"method"`
			Optimal    bool       `json:"optimal"`
			LowerBound int        `json:"lower_bound"`
			MaxSet     int        `json:"max_set"`
			BruteForce string     `json:"brute_force"`
			Configs    []cfgJSON  `json:"configurations"`
		}{Options: res.Options.Names(), Relevant: sp.Names, Irrelevant: res.Irrelevant, Sets: sp.SetNames,
			Method: cr.Method, Optimal: cr.Optimal, LowerBound: cr.LowerBound, MaxSet: sp.MaxSet(), BruteForce: brute.String()}
		if out.Irrelevant == nil {
			out.Irrelevant = []string{}
		}
		for _, cfg := range cr.Configs {
			j := cfgJSON{On: []string{}, Settings: sp.Settings(cfg), Args: []string{}}
			for _, s := range j.Settings {
				j.On = append(j.On, s.Name)
				if s.Arg != "" {
					j.Args = append(j.Args, s.Arg)
				}
				if s.Env != "" {
					j.Env = append(j.Env, s.Env)
				}
			}
			out.Configs = append(out.Configs, j)
		}
		return writeJSON(stdout, out)
	}
	fmt.Fprintf(stdout, "Options: %d found; %d influence some decision: {%s}; irrelevant: {%s}\n",
		len(res.Options.Options), len(sp.Names), strings.Join(sp.Names, ", "), strings.Join(res.Irrelevant, ", "))
	fmt.Fprintf(stdout, "Influence sets (%d distinct, largest %d):", len(sp.SetNames), sp.MaxSet())
	for _, s := range sp.SetNames {
		fmt.Fprintf(stdout, " {%s}", strings.Join(s, ", "))
	}
	fmt.Fprintln(stdout)
	opt := "not proven minimal"
	if cr.Optimal {
		opt = "minimal"
	}
	fmt.Fprintf(stdout, "\n%d configurations (%s, %s, %s):\n", len(cr.Configs), cr.Method, opt, took.Round(time.Microsecond))
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	for i, cfg := range cr.Configs {
		var args []string
		for _, s := range sp.Settings(cfg) {
			args = append(args, s.String())
		}
		fmt.Fprintf(tw, "  %d\t%s\t%s\n", i+1, cfg.Format(sp.Names, sp.Domains), strings.Join(args, " "))
	}
	tw.Flush()
	fmt.Fprintf(stdout, "\nLower bound: %d (2^max|S| = 2^%d for boolean options)\n", cr.LowerBound, sp.MaxSet())
	fmt.Fprintf(stdout, "Brute force: %s configurations (2^n, n = %d options with values)\n", brute, sp.Enumerable())
	ratio := new(big.Float).Quo(new(big.Float).SetInt(brute), big.NewFloat(float64(max(1, len(cr.Configs)))))
	r, _ := ratio.Float64()
	fmt.Fprintf(stdout, "Compression: %d of %s configurations (%.4g× fewer)\n", len(cr.Configs), brute, r)
	return nil
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

func runOptionsPredict(c *command, args []string, stdout, stderr io.Writer) error {
	fs := c.flags(stderr)
	config := fs.String("config", "", "the options that are on, comma-separated: `A,C` (others are off)")
	asJSON := fs.Bool("json", false, "print the prediction as JSON")
	pos, err := parse(fs, args, stdout)
	if err != nil {
		return err
	}
	if len(pos) == 0 {
		return usagef("expected a MODEL argument (a file written by 'augur options measure -o')")
	}
	mf, err := study.ReadModel(pos[0])
	if err != nil {
		return err
	}
	on := map[string]bool{}
	for _, name := range strings.Split(*config, ",") {
		if name = strings.TrimSpace(name); name == "" {
			continue
		}
		if err := mf.Check(name); err != nil {
			return usagef("--config: %v", err)
		}
		on[name] = true
	}
	num := map[string]float64{}
	for _, a := range pos[1:] {
		name, val, hasVal := strings.Cut(a, "=")
		if mf.IsNumeric(name) {
			xs, ok := runner.NumericValues([]string{val, val, val})
			if !hasVal || !ok {
				return usagef("%q: %s is numeric: give its value, %s=NUMBER or a duration", a, name, name)
			}
			num[name] = xs[0]
			continue
		}
		v := true
		if hasVal {
			if v, err = parseOnOff(val); err != nil {
				return usagef("%q: %v", a, err)
			}
		}
		if err := mf.Check(name); err != nil {
			return usagef("%q: %v", a, err)
		}
		on[name] = v
	}
	p, err := mf.PredictAt(on, num)
	if err != nil {
		return usageError{err}
	}
	if *asJSON {
		return writeJSON(stdout, p)
	}
	setting := slices.Clone(p.On)
	for name, x := range p.Values {
		setting = append(setting, fmt.Sprintf("%s=%v", name, x))
	}
	sort.Strings(setting)
	fmt.Fprintf(stdout, "T({%s}) = %s s\n", strings.Join(setting, ", "), fmtSeconds(p.Seconds))
	for _, name := range p.Extrapolated {
		xs := mf.Numeric[name]
		fmt.Fprintf(stderr, "augur options: warning: %s=%v lies outside the measured values [%v, %v]: the prediction extrapolates\n", name, p.Values[name], slices.Min(xs), slices.Max(xs))
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	for _, term := range p.Terms {
		parts := slices.Clone(term.Options)
		coef := term.Coef
		if term.Numeric != "" {
			parts = append(parts, influence.FormString(term.Form, term.Numeric))
			coef *= term.Factor
		}
		name := "1"
		if len(parts) > 0 {
			name = strings.Join(parts, "·")
		}
		var where []string
		for _, s := range term.Sources {
			where = append(where, sourceText(s))
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\n", name, fmtSeconds(coef), strings.Join(where, "; "))
	}
	return tw.Flush()
}

func sourceText(s influence.Source) string {
	if s.Position != "" && s.Position != s.Region {
		return s.Region + " (" + s.Position + ")"
	}
	return s.Region
}

func fmtSeconds(v float64) string {
	switch a := math.Abs(v); {
	case a == 0:
		return "0"
	case a >= 0.1:
		return strconv.FormatFloat(v, 'f', 2, 64)
	default:
		return strconv.FormatFloat(v, 'g', 3, 64)
	}
}

func parseOnOff(s string) (bool, error) {
	switch strings.ToLower(s) {
	case "1", "true", "on", "yes":
		return true, nil
	case "0", "false", "off", "no":
		return false, nil
	}
	return false, fmt.Errorf("want 0 or 1 (or true/false), got %q", s)
}

func runOptionsRegions(c *command, args []string, stdout, stderr io.Writer) error {
	fs, a := addAnalysisFlags(c, stderr)
	asJSON := fs.Bool("json", false, "print the regions as JSON: {\"before\": [...], \"after\": [...]}")
	pos, err := parse(fs, args, stdout)
	if err != nil {
		return err
	}
	res, err := a.analyse(pos, stderr)
	if err != nil {
		return err
	}
	before, after, err := regions.Find(res)
	if err != nil {
		return err
	}
	o := regions.TextOptions{Base: a.base()}
	if *asJSON {
		var b, f strings.Builder
		if err := regions.WriteJSON(&b, before, o); err != nil {
			return err
		}
		if err := regions.WriteJSON(&f, after, o); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "{\"before\": %s,\n\"after\": %s}\n", strings.TrimSpace(b.String()), strings.TrimSpace(f.String()))
		return nil
	}
	fmt.Fprintf(stdout, "Before optimisation (Algorithm 2): %d regions\n", len(before))
	if err := regions.WriteText(stdout, before, o); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "\nAfter optimisation (Algorithms 3 and 4): %d regions\n", len(after))
	return regions.WriteText(stdout, after, o)
}

// runFlag is the --run flag measure and evaluate share, and the configuration-file template
// for options set by file keys.
type runFlag struct{ run, config string }

func addRunFlag(fs *flag.FlagSet) *runFlag {
	r := &runFlag{}
	fs.StringVar(&r.run, "run", "", "the program to measure: `'PACKAGE / ARGS'` (the configuration's flags are appended)")
	fs.StringVar(&r.config, "config-template", "", "a configuration `file` for options set by file keys: {{key}} is replaced by each run's value and CONFIG in --run's ARGS by the written file's path")
	return r
}

func (r *runFlag) target() (study.Target, string, string, error) {
	if r.run == "" {
		return study.Target{}, "", "", usagef("--run is required: the program to build and run, e.g. --run './examples/options / -unit=10ms'")
	}
	t, err := study.ParseTarget(r.run)
	if err != nil || r.config == "" {
		return t, "", "", err
	}
	data, err := os.ReadFile(r.config)
	if err != nil {
		return t, "", "", usagef("--config-template: %v", err)
	}
	return t, string(data), filepath.Base(r.config), nil
}

func runOptionsMeasure(c *command, args []string, stdout, stderr io.Writer) error {
	fs, a := addAnalysisFlags(c, stderr)
	rf := addRunFlag(fs)
	reps := fs.Int("reps", 5, "runs per configuration")
	warmup := fs.Int("warmup", 1, "unrecorded runs per configuration before the measured ones")
	cache := fs.String("cache", "", "a directory caching measurements across invocations (an interrupted run resumes)")
	method := fs.String("method", "auto", "compression: auto, exact, greedy or pivot")
	seed := fs.Uint64("seed", 1, "seed of the randomised run order")
	out := fs.String("o", "", "write the model to this `file` (augur-options-model/1)")
	asJSON := fs.Bool("json", false, "print the model as JSON")
	htmlOut := fs.String("html", "", "also write the model as a self-contained HTML report to this `file`")
	pos, err := parse(fs, args, stdout)
	if err != nil {
		return err
	}
	t, tmpl, tmplName, err := rf.target()
	if err != nil {
		return err
	}
	req, err := a.request(pos)
	if err != nil {
		return err
	}
	res, before, after, err := study.Regions(req)
	if err != nil {
		return err
	}
	start := time.Now()
	m, err := study.Measure(context.Background(), a.dir, res, before, after, study.MeasureOptions{
		Target: t, Method: *method, ConfigTemplate: tmpl, ConfigName: tmplName, Log: stderr,
		Run: runner.Options{Reps: *reps, WarmUp: *warmup, Seed: *seed, CacheDir: *cache, Progress: stderr}})
	if err != nil {
		return err
	}
	fmt.Fprintf(stderr, "augur options: %d runs measured, %d from the cache, in %s\n", m.Runs.Measured, m.Runs.Cached, time.Since(start).Round(time.Millisecond))
	if *out != "" {
		if err := m.Model.WriteFile(*out); err != nil {
			return err
		}
	}
	if *htmlOut != "" {
		if err := html.WriteFile(*htmlOut, html.BuildOptions(m.Model)); err != nil {
			return err
		}
	}
	if *asJSON {
		return writeJSON(stdout, m.Model)
	}
	// Three standard errors: a term that small could be the noise of the repetitions.
	show := influence.FormatOptions{Precision: 3, Noise: 3, Scale: m.Model.Scales()}
	if err := m.Model.Model.WriteText(stdout, show, "wall time", shortPath); err != nil || m.Model.Summed == nil {
		return err
	}
	fmt.Fprintf(stdout, "\nRegions ran on up to %d goroutines at once. Summed over goroutines (each region's time on every goroutine it ran on; CPU time where they run without waiting):\n", m.Model.Goroutines)
	return m.Model.Summed.Model.WriteText(stdout, show, "time summed over goroutines", shortPath)
}

func runOptionsEvaluate(c *command, args []string, stdout, stderr io.Writer) error {
	fs, a := addAnalysisFlags(c, stderr)
	rf := addRunFlag(fs)
	modelPath := fs.String("model", "", "a model written by 'augur options measure -o' to add as ConfigCrusher's row")
	heldOut := fs.Int("held-out", 50, "held-out configurations measured for the ground truth (0: all 2^n when n ≤ 16)")
	randomK := fs.Int("random", 0, "configurations random sampling measures (0: as many as pair-wise)")
	reps := fs.Int("reps", 1, "runs per configuration, averaged")
	seed := fs.Uint64("seed", 1, "seed of the random sample and of the held-out sample")
	noBrute := fs.Bool("no-brute", false, "skip brute force even when there are at most 16 options")
	quiet := fs.Bool("quiet", false, "no progress on stderr")
	asJSON := fs.Bool("json", false, "print the table as JSON")
	var heldValues multi
	fs.Var(&heldValues, "held-out-values", "`NAME=v1,v2,...`: check the --model's predictions at values of a numeric option it never measured, instead of the baselines (repeatable)")
	pos, err := parse(fs, args, stdout)
	if err != nil {
		return err
	}
	t, tmpl, tmplName, err := rf.target()
	if err != nil {
		return err
	}
	if *reps < 1 {
		return usagef("--reps %d: want at least 1", *reps)
	}
	res, err := a.analyse(pos, stderr)
	if err != nil {
		return err
	}
	system := strings.Join(pos, " ")
	o := study.EvaluateOptions{Target: t, System: system, HeldOut: *heldOut, RandomK: *randomK, Reps: *reps, Seed: *seed, NoBrute: *noBrute,
		ConfigTemplate: tmpl, ConfigName: tmplName}
	if !*quiet {
		o.Progress = stderr
	}
	if *modelPath != "" {
		if o.Model, err = study.ReadModel(*modelPath); err != nil {
			return err
		}
	}
	if len(heldValues) > 0 {
		return evaluateValues(stdout, a.dir, res, o, heldValues, *asJSON)
	}
	ev, err := study.Evaluate(context.Background(), a.dir, res, o)
	if err != nil {
		return err
	}
	if *asJSON {
		return writeJSON(stdout, ev)
	}
	fmt.Fprintf(stdout, "System: %s (%d boolean options: %s)\n", system, len(ev.Options), strings.Join(ev.Options, ", "))
	fmt.Fprintf(stdout, "Ground truth: %d held-out configurations, %d run(s) each, measured end to end\n\n", ev.HeldOut, ev.Reps)
	fmt.Fprint(stdout, ev.String())
	return nil
}

// evaluateValues is evaluate --held-out-values: the model against fresh runs at numeric values
// it never measured.
func evaluateValues(stdout io.Writer, dir string, res *taint.Result, o study.EvaluateOptions, specs []string, asJSON bool) error {
	if o.Model == nil {
		return usagef("--held-out-values needs the --model to check")
	}
	held := map[string][]string{}
	for _, spec := range specs {
		name, vals, ok := strings.Cut(spec, "=")
		if !ok || name == "" || vals == "" {
			return usagef("--held-out-values %q: want NAME=v1,v2,...", spec)
		}
		held[name] = strings.Split(vals, ",")
	}
	ev, err := study.EvaluateValues(context.Background(), dir, res, o.Model, held, o)
	if err != nil {
		return err
	}
	if asJSON {
		return writeJSON(stdout, ev)
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "configuration\tpredicted s\tmeasured s\terror")
	for _, c := range ev.Checks {
		note := ""
		if c.Extrapolated {
			note = "  (extrapolated)"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%.1f%%%s\n", c.Setting, fmtSeconds(c.Predicted), fmtSeconds(c.Measured), 100*c.Error, note)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "MAPE over %d held-out configurations: %.2f%% (median of %d fresh runs each, plain program)\n", len(ev.Checks), ev.MAPE, max(o.Reps, 1))
	return nil
}
