package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"math/big"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/augur-perf/augur/options/baselines"
	"github.com/augur-perf/augur/options/compress"
	"github.com/augur-perf/augur/options/influence"
	"github.com/augur-perf/augur/options/regions"
	"github.com/augur-perf/augur/options/runner"
	"github.com/augur-perf/augur/options/sources"
	"github.com/augur-perf/augur/options/taint"
	"github.com/augur-perf/augur/options/timing"
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
		{name: "predict", usage: "MODEL [NAME=0|1]... [--config 'A,C'] [--json]",
			help: `Predicts a configuration's time from a model written by measure (or any influence model
JSON): prints the prediction and each term that contributes to it. Options not given are
off; NAME alone means NAME=1.

Examples:
  augur options predict model.json A=1 B=0 C=1
  augur options predict model.json --config 'A,C'
  augur options predict model.json --config '' --json`,
			run: runOptionsPredict},
		{name: "evaluate", usage: "PKGS... --run 'TARGET / ARGS' [--model model.json] [--held-out 50] [--random K] [--reps 1] [--json]",
			help: `Compares ConfigCrusher's white-box model with black-box baselines, as the paper's Tables 5
and 6 do: brute force (when there are at most 16 options), feature-wise, pair-wise and random
sampling, each followed by stepwise regression on end-to-end times. Ground truth is measured on
held-out configurations (all of them for brute force-sized programs when --held-out is 0, a
random sample otherwise). Prints approach, configurations measured, measuring time and MAPE.

Examples:
  augur options evaluate ./examples/options --run './examples/options / -unit=10ms' --held-out 20
  augur options evaluate ./examples/lz4 --deps --run './examples/lz4' --model lz4.json --json`,
			run: runOptionsEvaluate},
	}
}

// analysisFlags are the flags every subcommand that analyses source shares.
type analysisFlags struct {
	dir     string
	deps    bool
	sources multi
	fields  multi
	values  multi
	fixed   multi
}

func addAnalysisFlags(c *command, stderr io.Writer) (*flag.FlagSet, *analysisFlags) {
	a := &analysisFlags{}
	fs := c.flags(stderr)
	fs.StringVar(&a.dir, "dir", "", "the module directory to load PKGS from (default: the current directory)")
	fs.BoolVar(&a.deps, "deps", false, "analyse dependencies from source too (finds decisions libraries take on the options)")
	fs.Var(&a.sources, "source", "declare a function whose result is an option: `import/path.Func[=Name]` or import/path.Type.Method (repeatable)")
	fs.Var(&a.fields, "source-field", "declare a struct field whose reads are an option: `import/path.Type.Field[=Name]` (repeatable)")
	fs.Var(&a.values, "values", "the values of a non-boolean option: `name=v1,v2[,...]` (repeatable)")
	fs.Var(&a.fixed, "fixed", "an option held at one value for the experiment (an output path, a scale knob): not analysed, not varied; give its value in --run's ARGS (repeatable)")
	return fs, a
}

// regions runs the analysis and finds the regions before and after optimisation.
func (a *analysisFlags) regions(pkgs []string, stderr io.Writer) (*taint.Result, []regions.Region, []regions.Region, error) {
	res, err := a.analyse(pkgs, stderr)
	if err != nil {
		return nil, nil, nil, err
	}
	before, after, err := regions.Find(res)
	return res, before, after, err
}

// analyse loads the packages and runs the taint analysis.
func (a *analysisFlags) analyse(pkgs []string, stderr io.Writer) (*taint.Result, error) {
	if len(pkgs) == 0 {
		return nil, fmt.Errorf("no packages given (e.g. ./examples/options)")
	}
	var decls sources.Decls
	for _, s := range a.sources {
		src, err := sources.ParseSource(s)
		if err != nil {
			return nil, fmt.Errorf("--source %q: %v", s, err)
		}
		decls.Sources = append(decls.Sources, src)
	}
	for _, s := range a.fields {
		f, err := sources.ParseField(s)
		if err != nil {
			return nil, fmt.Errorf("--source-field %q: %v", s, err)
		}
		decls.Fields = append(decls.Fields, f)
	}
	for _, s := range a.values {
		name, vals, err := sources.ParseValues(s)
		if err != nil {
			return nil, fmt.Errorf("--values %q: %v", s, err)
		}
		if decls.Values == nil {
			decls.Values = map[string][]string{}
		}
		decls.Values[name] = vals
	}
	decls.Fixed = a.fixed
	loaded, err := taint.Load(taint.Config{Dir: a.dir, Deps: a.deps}, pkgs...)
	if err != nil {
		return nil, err
	}
	res, err := taint.Analyze(loaded, decls)
	if err != nil {
		return nil, err
	}
	for _, w := range res.Options.Warnings {
		fmt.Fprintf(stderr, "warning: %v\n", w)
	}
	for name := range decls.Values {
		if res.Options.Lookup(name) == nil {
			return nil, fmt.Errorf("--values %s: no option %q was found (options: %s)", name, name, strings.Join(res.Options.Names(), ", "))
		}
	}
	return res, nil
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

// space is the configuration space of the relevant options: those in some influence set.
type space struct {
	all      *sources.Set
	names    []string // relevant option names, sorted
	opts     []*sources.Option
	domains  []int
	sets     [][]int // influence sets over names, distinct, sorted
	setNames [][]string
}

// newSpace collects the distinct influence sets of the decisions. Relevant non-boolean options
// must have values.
func newSpace(res *taint.Result) (*space, error) {
	sp := &space{all: res.Options}
	seen := map[string]bool{}
	var setNames [][]string
	for _, d := range res.Decisions {
		if len(d.Options) == 0 {
			continue
		}
		key := strings.Join(d.Options, "\x00")
		if seen[key] {
			continue
		}
		seen[key] = true
		setNames = append(setNames, d.Options)
	}
	rel := map[string]bool{}
	for _, s := range setNames {
		for _, o := range s {
			rel[o] = true
		}
	}
	for name := range rel {
		sp.names = append(sp.names, name)
	}
	sort.Strings(sp.names)
	index := map[string]int{}
	var missing []string
	for i, name := range sp.names {
		index[name] = i
		o := res.Options.Lookup(name)
		sp.opts = append(sp.opts, o)
		switch {
		case o.IsBool():
			sp.domains = append(sp.domains, 2)
		case len(o.Values) >= 2:
			sp.domains = append(sp.domains, len(o.Values))
		default:
			missing = append(missing, fmt.Sprintf("%s (%s, %s)", name, o.Type, o.Sites[0].Position))
			sp.domains = append(sp.domains, 2)
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("non-boolean options influence decisions but have no values; give them with --values name=v1,v2: %s", strings.Join(missing, "; "))
	}
	sort.Slice(setNames, func(i, j int) bool {
		if len(setNames[i]) != len(setNames[j]) {
			return len(setNames[i]) > len(setNames[j])
		}
		return strings.Join(setNames[i], ",") < strings.Join(setNames[j], ",")
	})
	for _, s := range setNames {
		var idx []int
		for _, o := range s {
			idx = append(idx, index[o])
		}
		sp.sets = append(sp.sets, idx)
	}
	sp.setNames = setNames
	return sp, nil
}

func (sp *space) value(o int, v int) string {
	if sp.opts[o].IsBool() {
		return strconv.FormatBool(v == 1)
	}
	return sp.opts[o].Values[v]
}

// bruteForce is the number of configurations of every option found, relevant or not:
// the product of their domains (2 for booleans and for options without values).
func (sp *space) bruteForce() *big.Int {
	n := big.NewInt(1)
	for _, o := range sp.all.Options {
		if d := domainOf(o); d > 0 {
			n.Mul(n, big.NewInt(int64(d)))
		}
	}
	return n
}

// domainOf is an option's number of values: 2 for booleans, its --values otherwise, 0 when it
// has none (such an option is left at its default and cannot be enumerated).
func domainOf(o *sources.Option) int {
	switch {
	case o.IsBool():
		return 2
	case len(o.Values) >= 2:
		return len(o.Values)
	}
	return 0
}

// enumerable counts the options brute force would vary.
func (sp *space) enumerable() int {
	n := 0
	for _, o := range sp.all.Options {
		if domainOf(o) > 0 {
			n++
		}
	}
	return n
}

// setting says how one option of a configuration is given to the program.
type setting struct {
	Name  string `json:"name"`
	Value string `json:"value"`
	// Arg is the command-line argument (flags) or Env the environment entry (os.Getenv);
	// neither for options loaded through declared sources.
	Arg string `json:"arg,omitempty"`
	Env string `json:"env,omitempty"`
}

func (sp *space) settings(c compress.Config) []setting {
	var out []setting
	for o, v := range c {
		if v == 0 {
			continue
		}
		s := setting{Name: sp.names[o], Value: sp.value(o, v)}
		switch kind := siteKind(sp.opts[o]); kind {
		case "flag":
			s.Arg = "-" + s.Name + "=" + s.Value
		case "env":
			s.Env = s.Name + "=" + s.Value
		}
		out = append(out, s)
	}
	return out
}

// siteKind is "flag", "env" or "declared".
func siteKind(o *sources.Option) string {
	for _, s := range o.Sites {
		switch {
		case strings.HasPrefix(s.Callee, "flag.") || strings.Contains(s.Callee, "flag.FlagSet"):
			return "flag"
		case s.Callee == "os.Getenv" || s.Callee == "os.LookupEnv":
			return "env"
		}
	}
	return "declared"
}

func (sp *space) compress(method string) (compress.Result, error) {
	opts := compress.Options{Names: sp.names, Domains: sp.domains, Method: method}
	if method == "auto" {
		opts.Method = ""
	}
	switch method {
	case "auto", "exact", "greedy", "pivot":
	default:
		return compress.Result{}, fmt.Errorf("unknown --method %q (want auto, exact, greedy or pivot)", method)
	}
	return compress.Compress(sp.sets, len(sp.names), opts)
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
	sp, err := newSpace(res)
	if err != nil {
		return err
	}
	start := time.Now()
	cr, err := sp.compress(*method)
	if err != nil {
		return err
	}
	took := time.Since(start)
	brute := sp.bruteForce()
	maxS := 0
	for _, s := range sp.sets {
		maxS = max(maxS, len(s))
	}
	if *asJSON {
		type cfgJSON struct {
			On       []string  `json:"on"`
			Settings []setting `json:"settings"`
			Args     []string  `json:"args"`
			Env      []string  `json:"env,omitempty"`
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
		}{Options: res.Options.Names(), Relevant: sp.names, Irrelevant: res.Irrelevant, Sets: sp.setNames,
			Method: cr.Method, Optimal: cr.Optimal, LowerBound: cr.LowerBound, MaxSet: maxS, BruteForce: brute.String()}
		if out.Irrelevant == nil {
			out.Irrelevant = []string{}
		}
		for _, cfg := range cr.Configs {
			j := cfgJSON{On: []string{}, Settings: sp.settings(cfg), Args: []string{}}
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
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	}
	fmt.Fprintf(stdout, "Options: %d found; %d influence some decision: {%s}; irrelevant: {%s}\n",
		len(res.Options.Options), len(sp.names), strings.Join(sp.names, ", "), strings.Join(res.Irrelevant, ", "))
	fmt.Fprintf(stdout, "Influence sets (%d distinct, largest %d):", len(sp.setNames), maxS)
	for _, s := range sp.setNames {
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
		for _, s := range sp.settings(cfg) {
			switch {
			case s.Arg != "":
				args = append(args, s.Arg)
			case s.Env != "":
				args = append(args, s.Env)
			default:
				args = append(args, s.Name+"="+s.Value+" (declared)")
			}
		}
		fmt.Fprintf(tw, "  %d\t%s\t%s\n", i+1, cfg.Format(sp.names, sp.domains), strings.Join(args, " "))
	}
	tw.Flush()
	fmt.Fprintf(stdout, "\nLower bound: %d (2^max|S| = 2^%d for boolean options)\n", cr.LowerBound, maxS)
	fmt.Fprintf(stdout, "Brute force: %s configurations (2^n, n = %d options with values)\n", brute, sp.enumerable())
	ratio := new(big.Float).Quo(new(big.Float).SetInt(brute), big.NewFloat(float64(max(1, len(cr.Configs)))))
	r, _ := ratio.Float64()
	fmt.Fprintf(stdout, "Compression: %d of %s configurations (%.4g× fewer)\n", len(cr.Configs), brute, r)
	return nil
}

// modelFile is what measure writes and predict reads.
type modelFile struct {
	Format  string            `json:"format"`
	System  string            `json:"system,omitempty"`
	Options []string          `json:"options"`
	Model   influence.Model   `json:"model"`
	Locals  []influence.Local `json:"locals,omitempty"`
	// Configurations measured and their end-to-end means (seconds), when known.
	Configs   [][]string `json:"configurations,omitempty"`
	Measuring float64    `json:"measuring_time_s,omitempty"`
}

const modelFormat = "augur-options-model/1"

// readModel reads a model file, or a bare influence model ({"terms": [...]}).
func readModel(path string) (*modelFile, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var probe struct {
		Format string          `json:"format"`
		Model  json.RawMessage `json:"model"`
	}
	if err := json.Unmarshal(data, &probe); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	mf := &modelFile{}
	raw := data
	if probe.Format != "" {
		if probe.Format != modelFormat {
			return nil, fmt.Errorf("%s: format %q, want %q", path, probe.Format, modelFormat)
		}
		if err := json.Unmarshal(data, mf); err != nil {
			return nil, fmt.Errorf("%s: %v", path, err)
		}
		raw = probe.Model
	}
	m, err := influence.ParseModel(raw)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	mf.Model = m
	if len(mf.Options) == 0 {
		mf.Options = m.Options()
	}
	return mf, nil
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
		fmt.Fprintf(stderr, "augur options predict: expected a MODEL argument\n")
		fs.Usage()
		return errUsage
	}
	mf, err := readModel(pos[0])
	if err != nil {
		return err
	}
	known := map[string]bool{}
	for _, o := range mf.Options {
		known[o] = true
	}
	for _, o := range mf.Model.Options() {
		known[o] = true
	}
	cfg := influence.Config{}
	set := func(name string, on bool) error {
		if !known[name] {
			return fmt.Errorf("unknown option %q (the model's options: %s)", name, strings.Join(slices.Sorted(mapsKeys(known)), ", "))
		}
		cfg[name] = on
		return nil
	}
	if *config != "" {
		for _, name := range strings.Split(*config, ",") {
			if name = strings.TrimSpace(name); name == "" {
				continue
			}
			if err := set(name, true); err != nil {
				return fmt.Errorf("--config: %v", err)
			}
		}
	}
	for _, a := range pos[1:] {
		name, val, hasVal := strings.Cut(a, "=")
		on := true
		if hasVal {
			b, err := parseOnOff(val)
			if err != nil {
				return fmt.Errorf("%q: %v", a, err)
			}
			on = b
		}
		if err := set(name, on); err != nil {
			return fmt.Errorf("%q: %v", a, err)
		}
	}
	t := influence.Predict(mf.Model, cfg)
	var on []string
	for name, v := range cfg {
		if v {
			on = append(on, name)
		}
	}
	sort.Strings(on)
	type contrib struct {
		Options []string           `json:"options"`
		Coef    float64            `json:"coef"`
		Sources []influence.Source `json:"sources,omitempty"`
	}
	var terms []contrib
	for _, term := range mf.Model.Terms {
		active := true
		for _, o := range term.Options {
			active = active && cfg[o]
		}
		if active {
			terms = append(terms, contrib{Options: term.Options, Coef: term.Coef, Sources: term.Sources})
		}
	}
	if *asJSON {
		if on == nil {
			on = []string{}
		}
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(struct {
			On      []string  `json:"on"`
			Seconds float64   `json:"seconds"`
			Terms   []contrib `json:"terms"`
		}{on, t, terms})
	}
	fmt.Fprintf(stdout, "T({%s}) = %s s\n", strings.Join(on, ", "), fmtSeconds(t))
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	for _, term := range terms {
		name := "1"
		if len(term.Options) > 0 {
			name = strings.Join(term.Options, "·")
		}
		var where []string
		for _, s := range term.Sources {
			where = append(where, sourceText(s))
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\n", name, fmtSeconds(term.Coef), strings.Join(where, "; "))
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
	a := v
	if a < 0 {
		a = -a
	}
	switch {
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

func mapsKeys(m map[string]bool) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

func runOptionsRegions(c *command, args []string, stdout, stderr io.Writer) error {
	fs, a := addAnalysisFlags(c, stderr)
	asJSON := fs.Bool("json", false, "print the regions as JSON: {\"before\": [...], \"after\": [...]}")
	pos, err := parse(fs, args, stdout)
	if err != nil {
		return err
	}
	_, before, after, err := a.regions(pos, stderr)
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

func runOptionsMeasure(c *command, args []string, stdout, stderr io.Writer) error {
	fs, a := addAnalysisFlags(c, stderr)
	run := fs.String("run", "", "the program to measure: `'PACKAGE / ARGS'` (the configuration's flags are appended)")
	reps := fs.Int("reps", 5, "runs per configuration")
	warmup := fs.Int("warmup", 1, "unrecorded runs per configuration before the measured ones")
	cache := fs.String("cache", "", "a directory caching measurements across invocations (an interrupted run resumes)")
	method := fs.String("method", "auto", "compression: auto, exact, greedy or pivot")
	seed := fs.Uint64("seed", 1, "seed of the randomised run order")
	out := fs.String("o", "", "write the model to this `file` (augur-options-model/1)")
	asJSON := fs.Bool("json", false, "print the model as JSON")
	pos, err := parse(fs, args, stdout)
	if err != nil {
		return err
	}
	t, err := requireRun(fs, *run, "measure", stderr)
	if err != nil {
		return err
	}
	res, before, after, err := a.regions(pos, stderr)
	if err != nil {
		return err
	}
	// The configurations cover every assignment of every region's options (ConfigCrusher
	// compresses over the regions before optimisation; optimisation only merges regions whose
	// union is already one of those sets).
	names := res.Options.Names()
	index := map[string]int{}
	domains := make([]int, len(names))
	for i, o := range res.Options.Options {
		index[o.Name] = i
		domains[i] = max(len(o.Values), 1)
	}
	var sets [][]int
	seen := map[string]bool{}
	for _, r := range before {
		key := strings.Join(r.Options, "\x00")
		if len(r.Options) == 0 || seen[key] {
			continue
		}
		seen[key] = true
		var set []int
		for _, o := range r.Options {
			set = append(set, index[o])
		}
		sets = append(sets, set)
	}
	m := *method
	if m == "auto" {
		m = ""
	}
	cr, err := compress.Compress(sets, len(names), compress.Options{Names: names, Domains: domains, Method: m})
	if err != nil {
		return err
	}
	fmt.Fprintf(stderr, "augur options: %d regions (%d before optimisation), %d configurations to measure (%s, lower bound %d), %d runs each\n",
		len(after), len(before), len(cr.Configs), cr.Method, cr.LowerBound, *reps)

	work, err := os.MkdirTemp("", "augur-options-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	tb, err := timing.Instrument(res, after, filepath.Join(work, "timing"))
	if err != nil {
		return err
	}
	dir := a.dir
	if dir == "" {
		dir = "."
	}
	setup := runner.Setup{Dir: dir, Build: []string{"go", "build", "-o", "BIN", t.pkg}, Args: t.args, Options: res.Options, Timing: tb}
	start := time.Now()
	rr, err := runner.Run(context.Background(), setup, cr.Configs, runner.Options{Reps: *reps, WarmUp: *warmup, Seed: *seed, CacheDir: *cache, Progress: stderr})
	if err != nil {
		return err
	}
	// Timing problems are never silent: each is reported, and concurrency stops the model.
	for _, cfg := range rr.Configs {
		for _, issue := range cfg.Issues {
			fmt.Fprintf(stderr, "augur options: warning: %s: %s\n", cfg.Text, issue)
		}
	}
	if rr.Concurrent {
		return fmt.Errorf("timed regions were entered concurrently: region times would be wrong, so no model is built (regions must run on one goroutine)")
	}
	model, locals, err := runner.Model(rr, after)
	if err != nil {
		return err
	}
	mf := &modelFile{Format: modelFormat, System: t.pkg, Options: names, Model: model, Locals: locals}
	for _, cfg := range rr.Configs {
		var on []string
		for i, v := range cfg.Config {
			if v != 0 {
				on = append(on, names[i])
			}
		}
		mf.Configs = append(mf.Configs, on)
		mf.Measuring += cfg.Wall.Mean * float64(cfg.Wall.N)
	}
	fmt.Fprintf(stderr, "augur options: %d runs measured, %d from the cache, in %s\n", rr.Measured, rr.Cached, time.Since(start).Round(time.Millisecond))
	if *out != "" {
		data, err := json.MarshalIndent(mf, "", "  ")
		if err != nil {
			return err
		}
		if err := os.WriteFile(*out, append(data, '\n'), 0o644); err != nil {
			return err
		}
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(mf)
	}
	// Three standard errors: a term that small could be the noise of the repetitions.
	show := influence.FormatOptions{Precision: 3, Noise: 3}
	fmt.Fprintf(stdout, "%s  (seconds)\n", model.Format(show))
	var noise []string
	for _, term := range model.Terms {
		if !show.Shows(term) && math.Abs(term.Coef) >= 0.5e-3 {
			noise = append(noise, strings.Join(term.Options, "·"))
		}
	}
	if len(noise) > 0 {
		fmt.Fprintf(stdout, "(left out, within 3 standard errors of zero: %s; -o keeps every term)\n", strings.Join(noise, ", "))
	}
	fmt.Fprintln(stdout)
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "term\tseconds\tregions")
	for _, term := range model.Terms {
		if !show.Shows(term) {
			continue
		}
		var where []string
		for _, src := range term.Sources {
			if src.Position == "" {
				where = append(where, src.Region)
				continue
			}
			where = append(where, fmt.Sprintf("%s (%s)", shortPath(src.Position), src.Region))
		}
		name := strings.Join(term.Options, "·")
		if name == "" {
			name = "1"
		}
		fmt.Fprintf(tw, "%s\t%.4g\t%s\n", name, term.Coef, strings.Join(where, ", "))
	}
	return tw.Flush()
}

// requireRun reads the --run flag that measure and evaluate need.
func requireRun(fs *flag.FlagSet, run, sub string, stderr io.Writer) (target, error) {
	if run == "" {
		fmt.Fprintf(stderr, "augur options %s: --run is required\n", sub)
		fs.Usage()
		return target{}, errUsage
	}
	return parseRun(run)
}

// target is a --run argument: the package to build and its fixed arguments.
type target struct {
	pkg  string
	args []string
}

func parseRun(s string) (target, error) {
	pkg, rest, _ := strings.Cut(s, " / ")
	pkg = strings.TrimSpace(pkg)
	if pkg == "" || strings.Contains(pkg, " ") {
		return target{}, fmt.Errorf("--run %q: want 'PACKAGE / ARGS' (e.g. './examples/options / -unit=10ms')", s)
	}
	return target{pkg: pkg, args: strings.Fields(rest)}, nil
}

func runOptionsEvaluate(c *command, args []string, stdout, stderr io.Writer) error {
	fs, a := addAnalysisFlags(c, stderr)
	run := fs.String("run", "", "the program to measure: `'PACKAGE / ARGS'` (the configuration's flags are appended)")
	modelPath := fs.String("model", "", "a model written by 'augur options measure -o' to add as ConfigCrusher's row")
	heldOut := fs.Int("held-out", 50, "held-out configurations measured for the ground truth (0: all 2^n when n ≤ 16)")
	randomK := fs.Int("random", 0, "configurations random sampling measures (0: as many as pair-wise)")
	reps := fs.Int("reps", 1, "runs per configuration, averaged")
	seed := fs.Uint64("seed", 1, "seed of the random sample and of the held-out sample")
	noBrute := fs.Bool("no-brute", false, "skip brute force even when there are at most 16 options")
	quiet := fs.Bool("quiet", false, "no progress on stderr")
	asJSON := fs.Bool("json", false, "print the table as JSON")
	pos, err := parse(fs, args, stdout)
	if err != nil {
		return err
	}
	t, err := requireRun(fs, *run, "evaluate", stderr)
	if err != nil {
		return err
	}
	if *reps < 1 {
		return fmt.Errorf("--reps %d: want at least 1", *reps)
	}
	res, err := a.analyse(pos, stderr)
	if err != nil {
		return err
	}
	// The black-box approaches see every boolean option, relevant or not, as the paper's do.
	var names []string
	var index []int // position of each of names among all options
	for i, o := range res.Options.Options {
		if o.IsBool() {
			names = append(names, o.Name)
			index = append(index, i)
		}
	}
	if len(names) == 0 {
		return fmt.Errorf("no boolean options found in %s", strings.Join(pos, " "))
	}
	var mf *modelFile
	if *modelPath != "" {
		if mf, err = readModel(*modelPath); err != nil {
			return err
		}
		for _, o := range mf.Model.Options() {
			if !slices.Contains(names, o) {
				return fmt.Errorf("%s: the model's option %q is not a boolean option of %s", *modelPath, o, strings.Join(pos, " "))
			}
		}
	}
	moduleDir := a.dir
	if moduleDir == "" {
		moduleDir = "."
	}
	// The plain program (no timing probes), built once and timed end to end.
	setup := runner.Setup{Dir: moduleDir, Build: []string{"go", "build", "-o", "BIN", t.pkg}, Args: t.args, Options: res.Options}
	once, closeBin, err := runner.Oracle(context.Background(), setup, runner.Options{})
	if err != nil {
		return err
	}
	defer closeBin()
	var progress io.Writer
	if !*quiet {
		progress = stderr
	}
	label, runs := "", 0
	measure := func(cfg []bool) (float64, error) {
		full := make([]bool, len(res.Options.Options))
		for i, on := range cfg {
			full[index[i]] = on
		}
		total := 0.0
		for r := 0; r < *reps; r++ {
			v, err := once(full)
			if err != nil {
				return 0, err
			}
			total += v
		}
		runs++
		if progress != nil && runs%100 == 0 {
			fmt.Fprintf(progress, "  %s: %d configurations measured\n", label, runs)
		}
		return total / float64(*reps), nil
	}
	// The approaches share one cache, so a configuration two of them measure runs once;
	// each still counts the time it would have cost.
	cache := map[string]float64{}
	cached := func(cfg []bool) (float64, error) {
		key := fmt.Sprint(cfg)
		if v, ok := cache[key]; ok {
			return v, nil
		}
		v, err := measure(cfg)
		if err == nil {
			cache[key] = v
		}
		return v, err
	}
	n := len(names)
	var entries []baselines.Entry
	step := func(name string, f func() (baselines.Run, error)) error {
		if progress != nil {
			fmt.Fprintf(progress, "evaluate: %s...\n", name)
		}
		label, runs = name, 0
		r, err := f()
		if err != nil {
			return fmt.Errorf("%s: %v", name, err)
		}
		entries = append(entries, r.Entry())
		return nil
	}
	if mf != nil {
		entries = append(entries, baselines.Entry{Approach: "ConfigCrusher (white-box)", Configs: len(mf.Configs), MeasuringTime: mf.Measuring, Model: mf.Model})
	}
	bopts := baselines.Options{}
	if n <= baselines.MaxBruteForce && !*noBrute {
		if err := step("brute force", func() (baselines.Run, error) { return baselines.BruteForce(names, cached, bopts) }); err != nil {
			return err
		}
	}
	if err := step("feature-wise", func() (baselines.Run, error) { return baselines.FeatureWise(names, cached, bopts) }); err != nil {
		return err
	}
	pairs := 0
	if err := step("pair-wise", func() (baselines.Run, error) {
		r, err := baselines.PairWise(names, cached, bopts)
		pairs = len(r.Configs)
		return r, err
	}); err != nil {
		return err
	}
	k := *randomK
	if k == 0 {
		k = max(pairs, 2)
	}
	if n < 62 {
		k = min(k, 1<<n)
	}
	if err := step("random", func() (baselines.Run, error) { return baselines.Random(names, k, *seed, cached, bopts) }); err != nil {
		return err
	}
	// Ground truth: fresh runs, not the cache, so no approach is judged on its own measurements.
	held := heldOutSample(n, *heldOut, *seed)
	if progress != nil {
		fmt.Fprintf(progress, "evaluate: ground truth on %d held-out configurations...\n", len(held))
	}
	label, runs = "held-out", 0
	truth := make([]float64, len(held))
	for i, cfg := range held {
		if truth[i], err = measure(cfg); err != nil {
			return err
		}
	}
	system := strings.Join(pos, " ")
	tab, err := baselines.Evaluate(system, names, entries, held, truth)
	if err != nil {
		return err
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(struct {
			baselines.Table
			Options []string `json:"options"`
			Reps    int      `json:"reps"`
		}{tab, names, *reps})
	}
	fmt.Fprintf(stdout, "System: %s (%d boolean options: %s)\n", system, n, strings.Join(names, ", "))
	fmt.Fprintf(stdout, "Ground truth: %d held-out configurations, %d run(s) each, measured end to end\n\n", len(held), *reps)
	fmt.Fprint(stdout, tab.String())
	return nil
}

// heldOutSample is every configuration when k is 0 (or at least 2^n) and n ≤ 16, else k distinct
// configurations drawn with the seed.
func heldOutSample(n, k int, seed uint64) [][]bool {
	all := n <= baselines.MaxBruteForce && (k == 0 || k >= 1<<n)
	if all {
		var out [][]bool
		for m := 0; m < 1<<n; m++ {
			out = append(out, maskBools(n, uint64(m)))
		}
		return out
	}
	if k == 0 {
		k = 50
	}
	rng := rand.New(rand.NewPCG(seed^0x9e3779b97f4a7c15, 7))
	seen := map[string]bool{}
	var out [][]bool
	for len(out) < k {
		cfg := make([]bool, n)
		for i := range cfg {
			cfg[i] = rng.IntN(2) == 1
		}
		if key := fmt.Sprint(cfg); !seen[key] {
			seen[key] = true
			out = append(out, cfg)
		}
	}
	return out
}

func maskBools(n int, m uint64) []bool {
	c := make([]bool, n)
	for i := range c {
		c[i] = m>>i&1 == 1
	}
	return c
}
