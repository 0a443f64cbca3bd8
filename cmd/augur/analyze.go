package main

import (
	"flag"
	"strings"

	"github.com/augur-perf/augur/analyze/fitted"
	"github.com/augur-perf/augur/analyze/pipeline"
	reporthtml "github.com/augur-perf/augur/report/html"
	"github.com/augur-perf/augur/report/text"
)

// analyze PKGS ranks every function of the packages; analyze FUNC --fit FIT predicts from
// fitted laws (routeAnalyze picks them by their arguments).
var analyzePkgs, analyzeFit = &command{flags: analyzePkgsFlags, workload: true}, &command{flags: analyzeFitFlags}

func analyzeFlags(fs *flag.FlagSet) func(*call) error {
	var r pipeline.Request
	fs.StringVar(&r.Dir, "dir", "", "the module directory FUNC is loaded from and the workload runs in (default: the current directory)")
	fs.Var((*multi)(&r.Profiles), "profile", "a usage profile (augur-profile/1 or augur-usage/1); the first is the baseline, others are scenarios for --compare")
	fs.Var((*multi)(&r.Sets), "set", "what-if: NAME@FILE:LINE=VALUE sets reward NAME of the statement at FILE:LINE (repeatable)")
	fs.Var((*multi)(&r.Rewards), "rewards", "what-if: a rewards file (augur-rewards/1: name → position → value) (repeatable)")
	fs.Var((*multi)(&r.Props), "prop", "an extra property to check, in PRISM syntax (repeatable)")
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
	return func(x *call) error {
		if len(x.args) != 1 {
			return x.usage("expected one FUNC argument, got %d", len(x.args))
		}
		if err := h.check(); err != nil {
			return err
		}
		r.Func, r.Log = x.args[0], x.stderr
		x.job(&r.Job, x.stderr)
		a, err := pipeline.Analyze(r)
		if a == nil {
			return err
		}
		if err := h.write(x, func() (*reporthtml.Report, error) {
			return reporthtml.Build(reporthtml.AnalysisOf(a.Fn, a.Outcomes, r.By, a.Uncertainty))
		}); err != nil {
			return err
		}
		if *asJSON {
			if err := text.AnalysisJSON(x.stdout, a.Fn, a.Outcomes, a.Uncertainty); err != nil {
				return err
			}
		} else {
			text.Analysis(x.stdout, a.Fn, a.Outcomes, r.By, *all)
			text.Uncertainty(x.stdout, a.Uncertainty, a.Outcomes[0].Func.Invocations)
		}
		return err // an interrupted run's, after its partial analysis
	}
}

// routeAnalyze picks analyze PKGS when the first argument is a package pattern (./pkg/...)
// rather than a function, else analyze --fit when given --fit.
func routeAnalyze(args []string) *command {
	pkgs, fit, first := false, false, true
	for _, a := range args {
		if a == "--" {
			break
		}
		if first && !strings.HasPrefix(a, "-") {
			first, pkgs = false, a == "." || strings.HasPrefix(a, "./") || strings.HasPrefix(a, "../") || strings.HasSuffix(a, "/...")
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

func analyzePkgsFlags(fs *flag.FlagSet) func(*call) error {
	var r pipeline.RankRequest
	fs.StringVar(&r.Dir, "dir", "", "the module directory PKGS are loaded from and the workload runs in")
	fs.StringVar(&r.Profile, "profile", "", "a measured profile of the packages (augur profile PKGS -- WORKLOAD)")
	fs.StringVar(&r.By, "by", "", "the reward to rank by (default: the first annotated reward, by name)")
	all := fs.Bool("all", false, "list every function, not only the top 20")
	fs.StringVar(&r.Method, "method", "direct", "checker method for each function's model")
	asJSON := fs.Bool("json", false, "print the ranking as JSON")
	h := htmlFlags(fs)
	return func(x *call) error {
		if err := h.check(); err != nil {
			return err
		}
		r.Patterns, r.Log = x.args, x.stderr
		x.job(&r.Job, x.stderr)
		rk, err := pipeline.Rank(r)
		if err != nil {
			return err
		}
		pkgs := strings.Join(x.args, " ")
		if err := h.write(x, func() (*reporthtml.Report, error) {
			return reporthtml.BuildRanking(pkgs, rk.Profile, rk.Reward, rk.Invoked, text.DynamicSites(rk.Ranking)), nil
		}); err != nil {
			return err
		}
		if *asJSON {
			return text.RankingJSON(x.stdout, rk.Profile, rk.Ranking)
		}
		text.Ranking(x.stdout, pkgs, rk.Profile, rk.Funcs, rk.Ranking, *all)
		return nil
	}
}

func analyzeFitFlags(fs *flag.FlagSet) func(*call) error {
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
	return func(x *call) error {
		if len(x.args) != 1 {
			return usagef("expected one FUNC")
		}
		r.Func, r.Log = x.args[0], x.stderr
		a, err := fitted.Analyze(r)
		switch {
		case err != nil || a.Inputs == "":
			return err
		case *asJSON:
			return text.FittedJSON(x.stdout, a.Fn.Name, a.Inputs, a.Model, a.Predictions, a.Measured)
		}
		text.Fitted(x.stdout, a.Fn.Name, a.Inputs, r.Profile, a.Model, a.Predictions, a.Measured)
		return nil
	}
}
