package main

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
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
	timing   *timing.Options
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
	fl.timing = timeFlags(fs)
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
	if fl.out != "" && fl.emit == "" {
		return usagef("-o %s names the files --emit writes: give --emit prism, storm, dot or json", fl.out)
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
	var intr *instrument.InterruptedError
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
	req := predict.Request{Profiles: profs, Names: fl.profiles, AllowUninvoked: fl.uninvok, Rewards: fl.rewards, Sets: fl.sets, Compare: fl.compare,
		Options: predict.Options{Synth: synth.Options{Unseen: unseen, Compact: fl.compact}, Checker: checker.Options{Method: meth}, Props: fl.props}}
	if fl.time && intr == nil {
		req.Time = func() (*profile.NodeTime, error) {
			var targets []timing.Target
			for i, p := range profs {
				if f := p.Funcs[fn.Name]; f != nil && f.Invocations > 0 {
					label := fl.profiles[i]
					if i == 0 {
						label = "baseline"
					}
					targets = append(targets, timing.Target{Fn: fn, F: f, Label: label})
				}
			}
			t, err := measureTime(prog, []*frontend.Func{fn}, profs[0], instrument.Workload{Args: workload, Dir: fl.dir,
				Stdin: os.Stdin, Stdout: stderr, Stderr: stderr}, fl.timing, targets)
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
	if fl.by != "" && !slices.Contains(outs[0].Rewards, fl.by) {
		return usagef("--by %s: no such reward (the model has %s)", fl.by, strings.Join(outs[0].Rewards, ", "))
	}
	for _, w := range outs[0].Synth.Warnings {
		fmt.Fprintf(stderr, "warning: %s\n", w)
	}
	if fl.emit != "" {
		base := fl.out
		if base == "" {
			base = fn.Decl.Name.Name
		}
		written, err := export.WriteFiles(base, fl.emit, outs[0].Synth.Model, outs[0].Props, fl.param)
		if err != nil {
			return err
		}
		fmt.Fprintf(stderr, "wrote %s\n", strings.Join(written, ", "))
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
	if fl.ci < 0 || fl.ci >= 1 {
		return usagef("--ci %v: want a level between 0 and 1, such as 0.95", fl.ci)
	}
	beyond, err := outs[0].Uncertainty(fl.ci, fl.spread, below, req.Options.Checker)
	if err != nil {
		return err
	}
	if fl.html != "" {
		by := fl.by
		if by == "" {
			by = outs[0].DefaultSort()
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
		if err := text.AnalysisJSON(stdout, fn, outs, beyond); err != nil {
			return err
		}
	} else {
		text.Analysis(stdout, fn, outs, fl.by, fl.all)
		text.Uncertainty(stdout, beyond, outs[0].Func.Invocations)
	}
	if intr != nil {
		intr.What = "the analysis above is of the counts gathered until then (partial)"
		return intr
	}
	return nil
}
