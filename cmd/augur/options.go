package main

import (
	"context"
	"flag"

	"github.com/augur-perf/augur/internal/cli"
	"github.com/augur-perf/augur/options/regions"
	"github.com/augur-perf/augur/options/study"
	"github.com/augur-perf/augur/report/html"
	"github.com/augur-perf/augur/report/text"
	"github.com/augur-perf/augur/source/frontend"
)

var optionsCommand = &cli.Command{
	Name:     "options",
	Summary:  "white-box performance-influence models of configurable Go programs (ConfigCrusher)",
	Help:     helpText("options"),
	Missing:  "expected a subcommand\nRun 'augur options --help' for its usage and examples.",
	Unknown:  "unknown subcommand %q (want influence, regions, configs, measure, predict or evaluate)",
	HelpWord: true,
	Subs: []*cli.Command{
		{Name: "influence", Help: helpText("options-influence"), Flags: optionsInfluenceFlags},
		{Name: "regions", Help: helpText("options-regions"), Flags: optionsRegionsFlags},
		{Name: "configs", Help: helpText("options-configs"), Flags: optionsConfigsFlags},
		{Name: "measure", Help: helpText("options-measure"), Flags: optionsMeasureFlags},
		{Name: "predict", Help: helpText("options-predict"), Flags: optionsPredictFlags},
		{Name: "evaluate", Help: helpText("options-evaluate"), Flags: optionsEvaluateFlags},
	},
}

// analysisFlags declares into r the flags every subcommand that analyses source shares.
func analysisFlags(fs *flag.FlagSet, r *study.Request) {
	fs.StringVar(&r.Dir, "dir", "", "the module directory to load PKGS from (default: the current directory)")
	fs.BoolVar(&r.Deps, "deps", false, "analyse dependencies from source too (finds decisions libraries take on the options)")
	fs.Var((*cli.Multi)(&r.Sources), "source", "declare a function whose result is an option: `import/path.Func[=Name][@env:NAME|@flag:-name|@key:name]` or import/path.Type.Method (repeatable)")
	fs.Var((*cli.Multi)(&r.Fields), "source-field", "declare a struct field whose reads are an option: `import/path.Type.Field[=Name][@...]` (repeatable)")
	fs.Var((*cli.Multi)(&r.Values), "values", "the values of a non-boolean option: `name=v1,v2[,...]`; three or more numbers are a curve, other values categories, name:cat=v1,v2,... makes numbers categories (repeatable)")
	fs.Var((*cli.Multi)(&r.Fixed), "fixed", "an option held at one value for the experiment (an output path, a scale knob): not analysed, not varied; give its value in --run's ARGS (repeatable)")
}

// programFlags declares into p the flags naming the program measure and evaluate run.
func programFlags(fs *flag.FlagSet, p *study.Program) {
	fs.StringVar(&p.Run, "run", "", "the program to measure: `'PACKAGE / ARGS'` (the configuration's flags are appended)")
	fs.StringVar(&p.ConfigTemplate, "config-template", "", "a configuration `file` for options set by file keys: {{key}} is replaced by each run's value and CONFIG in --run's ARGS by the written file's path")
}

func optionsInfluenceFlags(fs *flag.FlagSet) func(*cli.Call) error {
	var r study.Request
	analysisFlags(fs, &r)
	asJSON := fs.Bool("json", false, "print the map as JSON")
	all := fs.Bool("all", false, "list decisions no option influences too")
	return func(x *cli.Call) error {
		r.Patterns, r.Log = x.Args, x.Stderr
		res, err := study.Analyse(r)
		if err != nil {
			return err
		}
		return text.OptionsInfluenceOutput(x.Stdout, res, frontend.AbsDir(r.Dir), *all, *asJSON)
	}
}

func optionsConfigsFlags(fs *flag.FlagSet) func(*cli.Call) error {
	var r study.Request
	analysisFlags(fs, &r)
	method := fs.String("method", "auto", "compression: auto, exact, greedy or pivot")
	asJSON := fs.Bool("json", false, "print the configurations as JSON")
	return func(x *cli.Call) error {
		r.Patterns, r.Log = x.Args, x.Stderr
		c, err := study.Compressed(r, *method)
		if err != nil {
			return err
		}
		return text.OptionsConfigsOutput(x.Stdout, c, *asJSON)
	}
}

func optionsPredictFlags(fs *flag.FlagSet) func(*cli.Call) error {
	config := fs.String("config", "", "the options that are on, comma-separated: `A,C` (others are off)")
	asJSON := fs.Bool("json", false, "print the prediction as JSON")
	return func(x *cli.Call) error {
		if len(x.Args) == 0 {
			return cli.Usagef("expected a MODEL argument (a file written by 'augur options measure -o')")
		}
		mf, p, err := study.PredictFile(x.Args[0], *config, x.Args[1:])
		if err != nil {
			return err
		}
		return text.OptionsPredictOutput(x.Stdout, x.Stderr, mf, p, *asJSON)
	}
}

func optionsRegionsFlags(fs *flag.FlagSet) func(*cli.Call) error {
	var r study.Request
	analysisFlags(fs, &r)
	asJSON := fs.Bool("json", false, "print the regions as JSON: {\"before\": [...], \"after\": [...]}")
	return func(x *cli.Call) error {
		r.Patterns, r.Log = x.Args, x.Stderr
		_, before, after, err := study.Regions(r)
		if err != nil {
			return err
		}
		return text.OptionsRegions(x.Stdout, before, after, regions.TextOptions{Base: frontend.AbsDir(r.Dir)}, *asJSON)
	}
}

func optionsMeasureFlags(fs *flag.FlagSet) func(*cli.Call) error {
	var r study.MeasureRequest
	analysisFlags(fs, &r.Request)
	programFlags(fs, &r.Program)
	fs.IntVar(&r.Runner.Reps, "reps", 5, "runs per configuration")
	fs.IntVar(&r.Runner.WarmUp, "warmup", 1, "unrecorded runs per configuration before the measured ones")
	fs.StringVar(&r.Runner.CacheDir, "cache", "", "a directory caching measurements across invocations (an interrupted run resumes)")
	fs.StringVar(&r.Method, "method", "auto", "compression: auto, exact, greedy or pivot")
	fs.Uint64Var(&r.Runner.Seed, "seed", 1, "seed of the randomised run order")
	fs.StringVar(&r.Out, "o", "", "write the model to this `file` (augur-options-model/1)")
	asJSON := fs.Bool("json", false, "print the model as JSON")
	htmlOut := fs.String("html", "", "also write the model as a self-contained HTML report to this `file`")
	return func(x *cli.Call) error {
		r.Patterns, r.Log = x.Args, x.Stderr
		r.Runner.Progress = x.Stderr
		m, err := study.MeasureProgram(context.Background(), r)
		if err == nil && *htmlOut != "" {
			err = html.WriteFile(*htmlOut, html.BuildOptions(m.Model))
		}
		if err != nil {
			return err
		}
		return text.OptionsMeasureOutput(x.Stdout, m.Model, *asJSON)
	}
}

func optionsEvaluateFlags(fs *flag.FlagSet) func(*cli.Call) error {
	var r study.EvaluateRequest
	analysisFlags(fs, &r.Request)
	programFlags(fs, &r.Program)
	fs.StringVar(&r.ModelFile, "model", "", "a model written by 'augur options measure -o' to add as ConfigCrusher's row")
	fs.IntVar(&r.HeldOut, "held-out", 50, "held-out configurations measured for the ground truth (0: all of them when at most 2^16, else 50)")
	fs.IntVar(&r.RandomK, "random", 0, "configurations random sampling measures (0: as many as pair-wise)")
	fs.IntVar(&r.Reps, "reps", 1, "runs per configuration, averaged")
	fs.Uint64Var(&r.Seed, "seed", 1, "seed of the random sample and of the held-out sample")
	fs.BoolVar(&r.NoBrute, "no-brute", false, "skip brute force even when there are at most 16 options")
	quiet := fs.Bool("quiet", false, "no progress on stderr")
	asJSON := fs.Bool("json", false, "print the table as JSON")
	fs.Var((*cli.Multi)(&r.HeldOutValues), "held-out-values", "`NAME=v1,v2,...`: check the --model's predictions at values of a numeric option it never measured, instead of the baselines (repeatable)")
	return func(x *cli.Call) error {
		r.Patterns, r.Log = x.Args, x.Stderr
		if !*quiet {
			r.Progress = x.Stderr
		}
		ev, err := study.EvaluateProgram(context.Background(), r)
		if err != nil {
			return err
		}
		return text.OptionsEvaluateOutput(x.Stdout, ev, r.Reps, *asJSON)
	}
}
