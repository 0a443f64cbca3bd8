package pipeline

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/augur-perf/augur/analyze/predict"
	"github.com/augur-perf/augur/analyze/synth"
	"github.com/augur-perf/augur/analyze/timing"
	"github.com/augur-perf/augur/markov/checker"
	"github.com/augur-perf/augur/markov/export"
	"github.com/augur-perf/augur/probe/instrument"
	"github.com/augur-perf/augur/probe/profile"
	"github.com/augur-perf/augur/source/frontend"
)

// Request is augur analyze of one function: where its usage comes from, which what-if
// scenarios to predict besides the baseline, how to build and check the model, what to add to
// the means and what to write.
type Request struct {
	// Dir is the module directory Func is loaded from and the workload runs in ("": the
	// current directory); Func names the function (import/path.Func, import/path.T.Method).
	Dir, Func string
	// Profiles are usage profiles (augur-profile/1 or augur-usage/1): the first is the
	// baseline, the others scenarios. A Job with Args measures the baseline's instead, before
	// them.
	Profiles []string
	Job      Job
	// Time times the Job on the code as it is and adds the measured "time" reward, timed as
	// Timing says.
	Time   bool
	Timing timing.Options
	// Rewards are rewards files (a measured time, or augur-rewards/1 what-ifs), Sets what-ifs
	// NAME@FILE:LINE=VALUE, Props extra properties in PRISM syntax; Compare keeps each
	// scenario beside the baseline (predict.Request).
	Rewards, Sets, Props []string
	Compare              bool
	// AllowUninvoked analyses a baseline whose profile never invoked Func.
	AllowUninvoked bool
	// Unseen is the policy for decisions the profile never reached ("": uniform), Compact
	// merges straight-line statements, Method is the checker's method ("": direct).
	Unseen  string
	Compact bool
	Method  string
	// By is the reward hot spots are sorted by ("": the default); it must be one of the model's.
	By string
	// CI adds intervals at this level (0: none), Spread each reward's spread per call, Below
	// P(reward ≤ t) for each t of a comma-separated list.
	CI     float64
	Spread bool
	Below  string
	// Emit writes the baseline's model (prism, storm, dot or json) to files named Out ("": the
	// function's name), with Parametric probabilities for prism.
	Emit, Out  string
	Parametric bool
	// Log receives warnings, the timing's progress and the names of the files written.
	Log io.Writer
}

// Analysis is what Analyze found: the baseline's outcome and every scenario's, and what error
// bars and spreads add to the baseline.
type Analysis struct {
	Fn          *frontend.Func
	Outcomes    []*predict.Outcome
	Uncertainty *predict.Uncertainty
}

// Analyze carries out r. A run of the Job that was interrupted still gives the analysis of the
// counts gathered until then, together with its *instrument.InterruptedError.
func Analyze(r Request) (*Analysis, error) {
	log := orDiscard(r.Log)
	switch {
	case r.Out != "" && r.Emit == "":
		return nil, inputf("-o %s names the files --emit writes: give --emit prism, storm, dot or json", r.Out)
	case len(r.Profiles) == 0 && len(r.Job.Args) == 0:
		return nil, inputf("no usage profile: give --profile FILE (from 'augur profile') or a workload after \"--\" (go test ... or go run ...)")
	case r.Time && len(r.Job.Args) == 0:
		return nil, inputf("--time needs a workload after \"--\" (or record it with 'augur profile --time')")
	}
	if r.Time {
		if err := instrument.CheckTimed(r.Job.Args); err != nil {
			return nil, &InputError{err}
		}
	}
	un, err := synth.ParseUnseen(or(r.Unseen, "uniform"))
	if err != nil {
		return nil, &InputError{err}
	}
	meth, err := checker.ParseMethod(or(r.Method, "direct"))
	if err != nil {
		return nil, &InputError{err}
	}
	thresholds, err := predict.ParseThresholds(r.Below)
	if err != nil {
		return nil, inputf("--below %q: %v", r.Below, err)
	}
	if r.CI < 0 || r.CI >= 1 {
		return nil, inputf("--ci %v: want a level between 0 and 1, such as 0.95", r.CI)
	}
	prog, fn, err := frontend.LoadFunc(r.Dir, r.Func)
	if err != nil {
		return nil, &InputError{err}
	}
	names := slices.Clone(r.Profiles)
	var profs []*profile.Profile
	var intr *instrument.InterruptedError
	job := r.Job
	job.Dir = r.Dir
	if len(job.Args) > 0 {
		p, err := job.count(prog, []*frontend.Func{fn}, log)
		if err != nil && !(errors.As(err, &intr) && p != nil) {
			return nil, err
		}
		profs = append(profs, p)
		name := "workload: " + strings.Join(job.Args, " ")
		if intr != nil {
			name += " (PARTIAL: interrupted)"
		}
		names = append([]string{name}, names...)
	}
	for _, path := range names[len(profs):] {
		p, err := predict.ReadProfile(path, fn)
		if err != nil {
			return nil, err
		}
		profs = append(profs, p)
	}
	req := predict.Request{Profiles: profs, Names: names, AllowUninvoked: r.AllowUninvoked, Rewards: r.Rewards, Sets: r.Sets,
		Compare: r.Compare, Options: predict.Options{Synth: synth.Options{Unseen: un, Compact: r.Compact},
			Checker: checker.Options{Method: meth}, Props: r.Props}}
	if r.Time && intr == nil {
		req.Time = func() (*profile.NodeTime, error) {
			t, err := job.time(prog, []*frontend.Func{fn}, profs[0], r.Timing, timing.ScenarioTargets(fn, profs, names), log)
			if err != nil {
				return nil, err
			}
			return t.NodeTime(fn, profs[0].Funcs[fn.Name]), nil
		}
	}
	outs, err := predict.Analyse(fn, req)
	if err != nil {
		return nil, err
	}
	if r.By != "" && !slices.Contains(outs[0].Rewards, r.By) {
		return nil, inputf("--by %s: no such reward (the model has %s)", r.By, strings.Join(outs[0].Rewards, ", "))
	}
	for _, w := range outs[0].Synth.Warnings {
		fmt.Fprintf(log, "warning: %s\n", w)
	}
	if r.Emit != "" {
		written, err := export.WriteFiles(or(r.Out, fn.Decl.Name.Name), r.Emit, outs[0].Synth.Model, outs[0].Props, r.Parametric)
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(log, "wrote %s\n", strings.Join(written, ", "))
	}
	beyond, err := outs[0].Uncertainty(r.CI, r.Spread, thresholds, req.Options.Checker)
	if err != nil {
		return nil, err
	}
	a := &Analysis{Fn: fn, Outcomes: outs, Uncertainty: beyond}
	if intr != nil {
		intr.What = "the analysis above is of the counts gathered until then (partial)"
		return a, intr
	}
	return a, nil
}
