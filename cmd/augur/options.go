package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/augur-perf/augur/report/html"
	"github.com/augur-perf/augur/report/text"

	"github.com/augur-perf/augur/options/regions"
	"github.com/augur-perf/augur/options/runner"
	"github.com/augur-perf/augur/options/study"
	"github.com/augur-perf/augur/options/taint"
)

var optionsCommand = &command{
	name:     "options",
	summary:  "white-box performance-influence models of configurable Go programs (ConfigCrusher)",
	help:     helpText("options"),
	missing:  "expected a subcommand\nRun 'augur options --help' for its usage and examples.",
	unknown:  "unknown subcommand %q (want influence, regions, configs, measure, predict or evaluate)",
	helpWord: true,
	subs: []*command{
		{name: "influence", help: helpText("options-influence"), flags: optionsInfluenceFlags},
		{name: "regions", help: helpText("options-regions"), flags: optionsRegionsFlags},
		{name: "configs", help: helpText("options-configs"), flags: optionsConfigsFlags},
		{name: "measure", help: helpText("options-measure"), flags: optionsMeasureFlags},
		{name: "predict", help: helpText("options-predict"), flags: optionsPredictFlags},
		{name: "evaluate", help: helpText("options-evaluate"), flags: optionsEvaluateFlags},
	},
}

// analysisFlags are the flags every subcommand that analyses source shares.
type analysisFlags struct {
	dir                            string
	deps                           bool
	sources, fields, values, fixed multi
}

func addAnalysisFlags(fs *flag.FlagSet) *analysisFlags {
	a := &analysisFlags{}
	fs.StringVar(&a.dir, "dir", "", "the module directory to load PKGS from (default: the current directory)")
	fs.BoolVar(&a.deps, "deps", false, "analyse dependencies from source too (finds decisions libraries take on the options)")
	fs.Var(&a.sources, "source", "declare a function whose result is an option: `import/path.Func[=Name][@env:NAME|@flag:-name|@key:name]` or import/path.Type.Method (repeatable)")
	fs.Var(&a.fields, "source-field", "declare a struct field whose reads are an option: `import/path.Type.Field[=Name][@...]` (repeatable)")
	fs.Var(&a.values, "values", "the values of a non-boolean option: `name=v1,v2[,...]` (repeatable)")
	fs.Var(&a.fixed, "fixed", "an option held at one value for the experiment (an output path, a scale knob): not analysed, not varied; give its value in --run's ARGS (repeatable)")
	return a
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
func (a *analysisFlags) base() string { return baseDir(a.dir) }

func optionsInfluenceFlags(fs *flag.FlagSet) func(*call) error {
	a := addAnalysisFlags(fs)
	asJSON := fs.Bool("json", false, "print the map as JSON")
	all := fs.Bool("all", false, "list decisions no option influences too")
	return func(x *call) error {
		res, err := a.analyse(x.args, x.stderr)
		if err != nil {
			return err
		}
		if *asJSON {
			return res.WriteJSON(x.stdout, a.base())
		}
		return res.WriteText(x.stdout, taint.TextOptions{Base: a.base(), OnlyInfluenced: !*all})
	}
}

func optionsConfigsFlags(fs *flag.FlagSet) func(*call) error {
	a := addAnalysisFlags(fs)
	method := fs.String("method", "auto", "compression: auto, exact, greedy or pivot")
	asJSON := fs.Bool("json", false, "print the configurations as JSON")
	return func(x *call) error {
		res, err := a.analyse(x.args, x.stderr)
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
		if *asJSON {
			return text.OptionsConfigsJSON(x.stdout, res, sp, cr)
		}
		text.OptionsConfigs(x.stdout, res, sp, cr, time.Since(start))
		return nil
	}
}

func optionsPredictFlags(fs *flag.FlagSet) func(*call) error {
	config := fs.String("config", "", "the options that are on, comma-separated: `A,C` (others are off)")
	asJSON := fs.Bool("json", false, "print the prediction as JSON")
	return func(x *call) error {
		if len(x.args) == 0 {
			return usagef("expected a MODEL argument (a file written by 'augur options measure -o')")
		}
		mf, err := study.ReadModel(x.args[0])
		if err != nil {
			return err
		}
		on, num, err := mf.ParseSetting(*config, x.args[1:])
		if err != nil {
			return err
		}
		p, err := mf.PredictAt(on, num)
		if err != nil {
			return usageError{err}
		}
		if *asJSON {
			return text.JSON(x.stdout, p)
		}
		text.OptionsExtrapolation(x.stderr, mf, p)
		return text.OptionsPrediction(x.stdout, p)
	}
}

func optionsRegionsFlags(fs *flag.FlagSet) func(*call) error {
	a := addAnalysisFlags(fs)
	asJSON := fs.Bool("json", false, "print the regions as JSON: {\"before\": [...], \"after\": [...]}")
	return func(x *call) error {
		res, err := a.analyse(x.args, x.stderr)
		if err != nil {
			return err
		}
		before, after, err := regions.Find(res)
		if err != nil {
			return err
		}
		return text.OptionsRegions(x.stdout, before, after, regions.TextOptions{Base: a.base()}, *asJSON)
	}
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

func optionsMeasureFlags(fs *flag.FlagSet) func(*call) error {
	a := addAnalysisFlags(fs)
	rf := addRunFlag(fs)
	reps := fs.Int("reps", 5, "runs per configuration")
	warmup := fs.Int("warmup", 1, "unrecorded runs per configuration before the measured ones")
	cache := fs.String("cache", "", "a directory caching measurements across invocations (an interrupted run resumes)")
	method := fs.String("method", "auto", "compression: auto, exact, greedy or pivot")
	seed := fs.Uint64("seed", 1, "seed of the randomised run order")
	out := fs.String("o", "", "write the model to this `file` (augur-options-model/1)")
	asJSON := fs.Bool("json", false, "print the model as JSON")
	htmlOut := fs.String("html", "", "also write the model as a self-contained HTML report to this `file`")
	return func(x *call) error {
		t, tmpl, tmplName, err := rf.target()
		if err != nil {
			return err
		}
		req, err := a.request(x.args)
		if err != nil {
			return err
		}
		res, before, after, err := study.Regions(req)
		if err != nil {
			return err
		}
		start := time.Now()
		m, err := study.Measure(context.Background(), a.dir, res, before, after, study.MeasureOptions{
			Target: t, Method: *method, ConfigTemplate: tmpl, ConfigName: tmplName, Log: x.stderr,
			Run: runner.Options{Reps: *reps, WarmUp: *warmup, Seed: *seed, CacheDir: *cache, Progress: x.stderr}})
		if err != nil {
			return err
		}
		fmt.Fprintf(x.stderr, "augur options: %d runs measured, %d from the cache, in %s\n", m.Runs.Measured, m.Runs.Cached, time.Since(start).Round(time.Millisecond))
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
			return text.JSON(x.stdout, m.Model)
		}
		return text.OptionsModel(x.stdout, m.Model)
	}
}

func optionsEvaluateFlags(fs *flag.FlagSet) func(*call) error {
	a := addAnalysisFlags(fs)
	rf := addRunFlag(fs)
	modelPath := fs.String("model", "", "a model written by 'augur options measure -o' to add as ConfigCrusher's row")
	heldOut := fs.Int("held-out", 50, "held-out configurations measured for the ground truth (0: all of them when at most 2^16, else 50)")
	randomK := fs.Int("random", 0, "configurations random sampling measures (0: as many as pair-wise)")
	reps := fs.Int("reps", 1, "runs per configuration, averaged")
	seed := fs.Uint64("seed", 1, "seed of the random sample and of the held-out sample")
	noBrute := fs.Bool("no-brute", false, "skip brute force even when there are at most 16 options")
	quiet := fs.Bool("quiet", false, "no progress on stderr")
	asJSON := fs.Bool("json", false, "print the table as JSON")
	var heldValues multi
	fs.Var(&heldValues, "held-out-values", "`NAME=v1,v2,...`: check the --model's predictions at values of a numeric option it never measured, instead of the baselines (repeatable)")
	return func(x *call) error {
		t, tmpl, tmplName, err := rf.target()
		if err != nil {
			return err
		}
		if *reps < 1 {
			return usagef("--reps %d: want at least 1", *reps)
		}
		res, err := a.analyse(x.args, x.stderr)
		if err != nil {
			return err
		}
		system := strings.Join(x.args, " ")
		o := study.EvaluateOptions{Target: t, System: system, HeldOut: *heldOut, RandomK: *randomK, Reps: *reps, Seed: *seed, NoBrute: *noBrute,
			ConfigTemplate: tmpl, ConfigName: tmplName}
		if !*quiet {
			o.Progress = x.stderr
		}
		if *modelPath != "" {
			if o.Model, err = study.ReadModel(*modelPath); err != nil {
				return err
			}
		}
		if len(heldValues) > 0 {
			return evaluateValues(x.stdout, a.dir, res, o, heldValues, *asJSON)
		}
		ev, err := study.Evaluate(context.Background(), a.dir, res, o)
		if err != nil {
			return err
		}
		if *asJSON {
			return text.JSON(x.stdout, ev)
		}
		text.OptionsEvaluation(x.stdout, system, ev)
		return nil
	}
}

// evaluateValues is evaluate --held-out-values: the model against fresh runs at numeric values
// it never measured.
func evaluateValues(stdout io.Writer, dir string, res *taint.Result, o study.EvaluateOptions, specs []string, asJSON bool) error {
	if o.Model == nil {
		return usagef("--held-out-values needs the --model to check")
	}
	held, err := study.ParseHeldOut(specs)
	if err != nil {
		return err
	}
	ev, err := study.EvaluateValues(context.Background(), dir, res, o.Model, held, o)
	if err != nil {
		return err
	}
	if asJSON {
		return text.JSON(stdout, ev)
	}
	return text.OptionsValues(stdout, ev, o.Reps)
}
