package main

import (
	"errors"
	"flag"
	"fmt"
	"slices"
	"strings"

	"github.com/augur-perf/augur/analyze/predict"
	"github.com/augur-perf/augur/analyze/synth"
	"github.com/augur-perf/augur/analyze/timing"
	"github.com/augur-perf/augur/markov/checker"
	"github.com/augur-perf/augur/markov/export"
	"github.com/augur-perf/augur/probe/instrument"
	"github.com/augur-perf/augur/probe/profile"
	reporthtml "github.com/augur-perf/augur/report/html"
	"github.com/augur-perf/augur/report/text"
	"github.com/augur-perf/augur/source/frontend"
)

func init() {
	pkgs := &command{flags: analyzePkgsFlags, workload: true}
	fit := &command{flags: analyzeFitFlags}
	register(&command{
		name:     "analyze",
		summary:  "predict a Go function's expected time, cost, energy… from its Markov model and a usage profile",
		help:     helpText("analyze"),
		flags:    analyzeFlags,
		workload: true,
		route: func(args []string) *command {
			switch {
			case isPackageArgs(args):
				return pkgs
			case hasFitFlag(args):
				return fit
			}
			return nil
		},
	})
}

func analyzeFlags(fs *flag.FlagSet) func(*call) error {
	dir := fs.String("dir", "", "the module directory FUNC is loaded from and the workload runs in (default: the current directory)")
	var profiles, sets, rewards, props multi
	fs.Var(&profiles, "profile", "a usage profile (augur-profile/1 or augur-usage/1); the first is the baseline, others are scenarios for --compare")
	fs.Var(&sets, "set", "what-if: NAME@FILE:LINE=VALUE sets reward NAME of the statement at FILE:LINE (repeatable)")
	fs.Var(&rewards, "rewards", "what-if: a rewards file (augur-rewards/1: name → position → value) (repeatable)")
	fs.Var(&props, "prop", "an extra property to check, in PRISM syntax (repeatable)")
	compare := fs.Bool("compare", false, "show the baseline and every what-if scenario side by side")
	emit := fs.String("emit", "", "write the model: prism, storm, dot or json")
	out := fs.String("o", "", "base path for --emit (default: the function's name)")
	parametric := fs.Bool("parametric", false, "with --emit prism: probabilities as named constants, values given separately (PROPER-style)")
	unseen := fs.String("unseen", "uniform", "decisions the profile never reached: uniform, first or error")
	compact := fs.Bool("compact", false, "merge straight-line statements into one state (for large functions)")
	method := fs.String("method", "direct", "checker method: direct, gauss-seidel, interval, prism or exact")
	asJSON := fs.Bool("json", false, "print results as JSON")
	timed := fs.Bool("time", false, "with a go test WORKLOAD: time it on the code as it is and add a measured \"time\" reward (CPU ns per execution)")
	topt := timeFlags(fs)
	uninvoked := fs.Bool("allow-uninvoked", false, "analyse even when the profile never invoked FUNC (every decision then follows --unseen)")
	all := fs.Bool("all", false, "list every statement in the hot spots, not only the top 20")
	by := fs.String("by", "", "the reward hot spots are sorted by (default: measured time, else \"time\", else the first)")
	ci := fs.Float64("ci", 0, "error bars: Bayesian and bootstrap intervals at this level (0.95) from the counts the model was estimated on")
	spread := fs.Bool("spread", false, "each reward's standard deviation and percentiles (p50, p90, p99) per call, not only its mean")
	below := fs.String("below", "", "with the spread, P(reward per call ≤ t) for each t of a comma-separated list (20,50)")
	htmlOut, open := htmlFlags(fs)
	return func(x *call) error {
		switch {
		case len(x.args) != 1:
			return x.usage("expected one FUNC argument, got %d", len(x.args))
		case *open && *htmlOut == "":
			return usagef("--open opens the --html report: give --html FILE")
		case *out != "" && *emit == "":
			return usagef("-o %s names the files --emit writes: give --emit prism, storm, dot or json", *out)
		case len(profiles) == 0 && len(x.workload) == 0:
			return usagef("no usage profile: give --profile FILE (from 'augur profile') or a workload after \"--\" (go test ... or go run ...)")
		case *timed && len(x.workload) == 0:
			return usagef("--time needs a workload after \"--\" (or record it with 'augur profile --time')")
		}
		if *timed {
			if err := instrument.CheckTimed(x.workload); err != nil {
				return usageError{err}
			}
		}
		un, err := synth.ParseUnseen(*unseen)
		if err != nil {
			return usageError{err}
		}
		meth, err := checker.ParseMethod(*method)
		if err != nil {
			return usageError{err}
		}
		prog, fn, err := predict.LoadFunc(*dir, x.args[0])
		if err != nil {
			return usageError{err}
		}
		var profs []*profile.Profile
		var intr *instrument.InterruptedError
		if len(x.workload) > 0 {
			// The workload's output goes to stderr: stdout is the analysis.
			p, err := runWorkload(prog, []*frontend.Func{fn}, x.job(*dir, x.stderr), x.stderr)
			if err != nil && !(errors.As(err, &intr) && p != nil) {
				return err
			}
			profs = append(profs, p)
			name := "workload: " + strings.Join(x.workload, " ")
			if intr != nil {
				name += " (PARTIAL: interrupted)"
			}
			profiles = append([]string{name}, profiles...)
		}
		for _, path := range profiles[len(profs):] {
			p, err := predict.ReadProfile(path, fn)
			if err != nil {
				return err
			}
			profs = append(profs, p)
		}
		req := predict.Request{Profiles: profs, Names: profiles, AllowUninvoked: *uninvoked, Rewards: rewards, Sets: sets, Compare: *compare,
			Options: predict.Options{Synth: synth.Options{Unseen: un, Compact: *compact}, Checker: checker.Options{Method: meth}, Props: props}}
		if *timed && intr == nil {
			req.Time = func() (*profile.NodeTime, error) {
				t, err := measureTime(prog, []*frontend.Func{fn}, profs[0], x.job(*dir, x.stderr), topt, timing.ScenarioTargets(fn, profs, profiles))
				if err != nil {
					return nil, err
				}
				return t.NodeTime(fn, profs[0].Funcs[fn.Name]), nil
			}
		}
		outs, err := predict.Analyse(fn, req)
		if err != nil {
			return err
		}
		if *by != "" && !slices.Contains(outs[0].Rewards, *by) {
			return usagef("--by %s: no such reward (the model has %s)", *by, strings.Join(outs[0].Rewards, ", "))
		}
		for _, w := range outs[0].Synth.Warnings {
			fmt.Fprintf(x.stderr, "warning: %s\n", w)
		}
		if *emit != "" {
			if *out == "" {
				*out = fn.Decl.Name.Name
			}
			written, err := export.WriteFiles(*out, *emit, outs[0].Synth.Model, outs[0].Props, *parametric)
			if err != nil {
				return err
			}
			fmt.Fprintf(x.stderr, "wrote %s\n", strings.Join(written, ", "))
		}
		thresholds, err := predict.ParseThresholds(*below)
		if err != nil {
			return usagef("--below %q: %v", *below, err)
		}
		if *ci < 0 || *ci >= 1 {
			return usagef("--ci %v: want a level between 0 and 1, such as 0.95", *ci)
		}
		beyond, err := outs[0].Uncertainty(*ci, *spread, thresholds, req.Options.Checker)
		if err != nil {
			return err
		}
		if *htmlOut != "" {
			r, err := reporthtml.Build(reporthtml.AnalysisOf(fn, outs, *by, beyond))
			if err != nil {
				return err
			}
			if err := writeHTML(*htmlOut, *open, r, x.stderr); err != nil {
				return err
			}
		}
		if *asJSON {
			if err := text.AnalysisJSON(x.stdout, fn, outs, beyond); err != nil {
				return err
			}
		} else {
			text.Analysis(x.stdout, fn, outs, *by, *all)
			text.Uncertainty(x.stdout, beyond, outs[0].Func.Invocations)
		}
		if intr != nil {
			intr.What = "the analysis above is of the counts gathered until then (partial)"
			return intr
		}
		return nil
	}
}
