package main

import (
	"cmp"
	"flag"
	"fmt"
	"strings"

	"github.com/augur-perf/augur/analyze/fitted"
	"github.com/augur-perf/augur/analyze/pipeline"
	"github.com/augur-perf/augur/analyze/timing"
	"github.com/augur-perf/augur/internal/cli"
	reporthtml "github.com/augur-perf/augur/report/html"
	"github.com/augur-perf/augur/report/text"
)

// analyze PKGS ranks every function of the packages; analyze FUNC --fit FIT predicts from
// fitted laws (routeAnalyze picks them by their arguments).
var analyzePkgs, analyzeFit = &cli.Command{Flags: analyzePkgsFlags, Workload: true}, &cli.Command{Flags: analyzeFitFlags}

func analyzeFlags(fs *flag.FlagSet) func(*cli.Call) error {
	var r pipeline.Request
	fs.StringVar(&r.Dir, "dir", "", "the module directory FUNC is loaded from and the workload runs in (default: the current directory)")
	fs.Var((*cli.Multi)(&r.Profiles), "profile", "a usage profile (augur-profile/1 or augur-usage/1); the first is the baseline, others are scenarios for --compare")
	fs.Var((*cli.Multi)(&r.Sets), "set", "what-if: NAME@FILE:LINE=VALUE sets reward NAME of the statement at FILE:LINE (repeatable)")
	fs.Var((*cli.Multi)(&r.Rewards), "rewards", "what-if: a rewards file (augur-rewards/1: name → position → value) (repeatable)")
	fs.Var((*cli.Multi)(&r.Props), "prop", "an extra property to check, in PRISM syntax (repeatable)")
	fs.BoolVar(&r.Compare, "compare", false, "show the baseline and every what-if scenario side by side")
	fs.StringVar(&r.Emit, "emit", "", "write the model: prism, storm, dot or json")
	fs.StringVar(&r.Out, "o", "", "base path for --emit (default: the function's name)")
	fs.BoolVar(&r.Parametric, "parametric", false, "with --emit prism: probabilities as named constants, values given separately (PROPER-style)")
	fs.StringVar(&r.Unseen, "unseen", "uniform", "decisions the profile never reached: uniform, first or error")
	fs.BoolVar(&r.Compact, "compact", false, "merge straight-line statements into one state (for large functions)")
	fs.StringVar(&r.Method, "method", "direct", "checker method: direct, gauss-seidel, interval, prism or exact")
	asJSON := fs.Bool("json", false, "print results as JSON")
	fs.BoolVar(&r.Time, "time", false, "with a go test WORKLOAD: time it on the code as it is and add a measured \"time\" reward (CPU ns per execution)")
	timeFlags(fs, &r.Timing)
	fs.BoolVar(&r.AllowUninvoked, "allow-uninvoked", false, "analyse even when the profile never invoked FUNC (every decision then follows --unseen)")
	all := fs.Bool("all", false, "list every statement in the hot spots, not only the top 20")
	fs.StringVar(&r.By, "by", "", "the reward hot spots are sorted by (default: measured time, else \"time\", else the first)")
	fs.Float64Var(&r.CI, "ci", 0, "error bars: Bayesian and bootstrap intervals at this level (0.95) from the counts the model was estimated on")
	fs.BoolVar(&r.Spread, "spread", false, "each reward's standard deviation and percentiles (p50, p90, p99) per call, not only its mean")
	fs.StringVar(&r.Below, "below", "", "with the spread, P(reward per call ≤ t) for each t of a comma-separated list (20,50)")
	h := htmlFlags(fs)
	return func(x *cli.Call) error {
		if len(x.Args) != 1 {
			return x.Usage("expected one FUNC argument, got %d", len(x.Args))
		}
		if err := h.Check(); err != nil {
			return err
		}
		r.Func, r.Log = x.Args[0], x.Stderr
		job(x, &r.Job, x.Stderr)
		a, err := pipeline.Analyze(r)
		if a == nil {
			return err
		}
		if err := h.Show(func() (*reporthtml.Report, error) {
			return reporthtml.Build(reporthtml.AnalysisOf(a.Fn, a.Outcomes, r.By, a.Uncertainty))
		}, x.Stderr); err != nil {
			return err
		}
		// An interrupted run's error comes after its partial analysis.
		return cmp.Or(text.AnalyzeOutput(x.Stdout, a, r.By, *all, *asJSON), err)
	}
}

// routeAnalyze picks analyze PKGS when the first argument is a package pattern (./pkg/...)
// rather than a function, else analyze --fit when given --fit.
func routeAnalyze(args []string) *cli.Command {
	pkgs, fit, first := false, false, true
	for _, a := range args {
		if a == "--" {
			break
		}
		if first && !strings.HasPrefix(a, "-") {
			first = false
			pkgs = a == "." || strings.HasPrefix(a, "./") || strings.HasPrefix(a, "../") || strings.HasSuffix(a, "/...")
		}
		fit = fit || a == "--fit" || a == "-fit" || strings.HasPrefix(a, "--fit=") || strings.HasPrefix(a, "-fit=")
	}
	switch {
	case pkgs:
		return analyzePkgs
	case fit:
		return analyzeFit
	}
	return nil
}

func analyzePkgsFlags(fs *flag.FlagSet) func(*cli.Call) error {
	var r pipeline.RankRequest
	fs.StringVar(&r.Dir, "dir", "", "the module directory PKGS are loaded from and the workload runs in")
	fs.StringVar(&r.Profile, "profile", "", "a measured profile of the packages (augur profile PKGS -- WORKLOAD)")
	fs.StringVar(&r.By, "by", "", "the reward to rank by (default: the first annotated reward, by name)")
	all := fs.Bool("all", false, "list every function, not only the top 20")
	fs.StringVar(&r.Method, "method", "direct", "checker method for each function's model")
	asJSON := fs.Bool("json", false, "print the ranking as JSON")
	h := htmlFlags(fs)
	return func(x *cli.Call) error {
		if err := h.Check(); err != nil {
			return err
		}
		r.Patterns, r.Log = x.Args, x.Stderr
		job(x, &r.Job, x.Stderr)
		rk, err := pipeline.Rank(r)
		if err != nil {
			return err
		}
		pkgs := strings.Join(x.Args, " ")
		if err := h.Show(func() (*reporthtml.Report, error) {
			return reporthtml.BuildRanking(pkgs, rk.Profile, rk.Reward, rk.Invoked, text.DynamicSites(rk.Ranking)), nil
		}, x.Stderr); err != nil {
			return err
		}
		return text.RankOutput(x.Stdout, pkgs, rk, *all, *asJSON)
	}
}

func analyzeFitFlags(fs *flag.FlagSet) func(*cli.Call) error {
	var r fitted.Request
	fs.StringVar(&r.Dir, "dir", "", "the module directory FUNC is loaded from")
	fs.StringVar(&r.Fit, "fit", "", "the laws of FUNC's loops (augur-fit/1, from augur fit)")
	fs.StringVar(&r.Profile, "profile", "", "a measured profile of FUNC: the probabilities of its other decisions")
	fs.StringVar(&r.Inputs, "inputs", "", "the input distribution: 'n~lognormal(8,1.2), m=5'")
	fs.StringVar(&r.At, "at", "", "one point instead: 'n=1e6, m=5'")
	fs.BoolVar(&r.Compare, "compare", false, "also show the prediction of the measured profile itself")
	fs.IntVar(&r.Samples, "samples", 2000, "Monte Carlo samples for continuous distributions (one model solved per sample)")
	fs.Uint64Var(&r.Seed, "seed", 1, "seed of the Monte Carlo samples")
	asJSON := fs.Bool("json", false, "print the predictions as JSON")
	fs.StringVar(&r.Emit, "emit", "", "write the model with its laws as a parametric DTMC: prism (BASE.pm, BASE.props)")
	fs.StringVar(&r.Out, "o", "", "base path for --emit (default: the function's name)")
	return func(x *cli.Call) error {
		if len(x.Args) != 1 {
			return cli.Usagef("expected one FUNC")
		}
		r.Func, r.Log = x.Args[0], x.Stderr
		a, err := fitted.Analyze(r)
		if err != nil {
			return err
		}
		return text.FittedOutput(x.Stdout, a, r.Profile, *asJSON)
	}
}

func cfgFlags(fs *flag.FlagSet) func(*cli.Call) error {
	var r pipeline.DecisionsRequest
	fs.StringVar(&r.Profile, "profile", "", "a measured (augur-profile/1) or stated (augur-usage/1) profile to take counts from")
	fs.BoolVar(&r.DOT, "dot", false, "write the control-flow graph in DOT instead of the list of decisions")
	fs.BoolVar(&r.JSON, "json", false, "write the decisions as JSON")
	fs.StringVar(&r.Dir, "dir", "", "the module directory FUNC is loaded from and the workload runs in (default: the current directory)")
	return func(x *cli.Call) error {
		if len(x.Args) != 1 {
			return cli.Usagef("expected one function (import/path.Func), got %d arguments", len(x.Args))
		}
		r.Func, r.Log = x.Args[0], x.Stderr
		job(x, &r.Job, x.Stderr)
		g, err := pipeline.Decisions(r)
		if err != nil {
			return err
		}
		return g.Write(x.Stdout)
	}
}

func profileFlags(fs *flag.FlagSet) func(*cli.Call) error {
	var r pipeline.ProfileRequest
	fs.Var((*cli.Multi)(&r.Funcs), "func", "a function or package to instrument (repeatable; default: every function of PKGS)")
	fs.StringVar(&r.Out, "o", "augur.profile.json", "the profile to write")
	fs.BoolVar(&r.Merge, "merge", false, "add the counts into the existing -o profile instead of replacing it")
	fs.BoolVar(&r.Job.Keep, "keep", false, "keep the work directory (rewritten files, overlay, counter files) and print its path")
	fs.BoolVar(&r.Timed, "time", false, "also time the go test workload on the code as it is and write the measured time of every statement to FILE.time.json beside -o FILE.json (for analyze --rewards)")
	timeFlags(fs, &r.Timing)
	fs.StringVar(&r.Dir, "dir", "", "the module directory PKGS are loaded from and the workload runs in (default: the current directory)")
	fs.BoolVar(&r.AllowUninvoked, "allow-uninvoked", false, "write the profile even when a function named by --func was never invoked")
	return func(x *cli.Call) error {
		if len(x.Args) == 0 || len(x.Workload) == 0 {
			return x.Usage("expected PKGS... -- WORKLOAD (a go test or go run command)")
		}
		r.Patterns, r.Log = x.Args, x.Stderr
		job(x, &r.Job, x.Stdout)
		p, err := pipeline.Profile(r)
		if err != nil {
			return err
		}
		text.Profiled(x.Stderr, p.Profile, r.Out)
		if !r.Timed {
			return nil
		}
		path, err := p.Time()
		if err != nil {
			return err
		}
		fmt.Fprintf(x.Stderr, "augur profile: wrote the measured time to %s (for analyze --rewards)\n", path)
		return nil
	}
}

func validateFlags(fs *flag.FlagSet) func(*cli.Call) error {
	var r pipeline.ValidateRequest
	fs.StringVar(&r.Dir, "dir", "", "the module directory FUNC is loaded from and the workload runs in (default: the current directory)")
	var rewards, profs cli.Multi
	fs.Var(&rewards, "rewards", "the measured time to predict from (FILE.time.json, from 'augur profile --time')")
	fs.Var(&profs, "profile", "the workload's usage profile, if already measured (default: count it first)")
	asJSON := fs.Bool("json", false, "print the result as JSON")
	timeFlags(fs, &r.Timing)
	return func(x *cli.Call) error {
		if len(x.Args) != 1 || len(rewards) != 1 || len(profs) > 1 || len(x.Workload) == 0 {
			return x.Usage("expected FUNC --rewards FILE.time.json [--profile PROFILE] -- WORKLOAD")
		}
		r.Func, r.Rewards, r.Log = x.Args[0], rewards[0], x.Stderr
		job(x, &r.Job, x.Stderr)
		if len(profs) == 1 {
			r.Profile = profs[0]
		}
		v, usage, err := pipeline.Validate(r)
		if err != nil {
			return err
		}
		return text.ValidateOutput(x.Stdout, v, r.Rewards, usage, *asJSON)
	}
}

// htmlFlags declares --html and --open, the report flags every analysis shares.
func htmlFlags(fs *flag.FlagSet) *reporthtml.Target {
	t := &reporthtml.Target{}
	fs.StringVar(&t.Path, "html", "", "also write the analysis as one self-contained HTML report (source heat map, model graph, charts) to this file")
	fs.BoolVar(&t.Open, "open", false, "with --html: open the report in the desktop's browser")
	return t
}

// timeFlags declares the flags of a timed measurement (--precision, --max-runs, --hz) into o.
func timeFlags(fs *flag.FlagSet, o *timing.Options) {
	*o = timing.DefaultOptions
	fs.Func("precision", "with --time: repeat the timed workload until the 95% interval of the expected time per call is within ± this (default 5%)", func(s string) error {
		p, err := timing.ParsePrecision(s)
		o.Precision = p
		return err
	})
	fs.IntVar(&o.MaxRuns, "max-runs", 20, "with --time: run the timed workload at most this many times")
	fs.IntVar(&o.HZ, "hz", 1000, "with --time: CPU samples asked for per second of CPU (go test's own rate is 100; Linux gives at most its timer tick, often 250)")
}
