package pipeline

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/augur-perf/augur/analyze/decisions"
	"github.com/augur-perf/augur/analyze/predict"
	"github.com/augur-perf/augur/analyze/timing"
	"github.com/augur-perf/augur/markov/checker"
	"github.com/augur-perf/augur/probe/instrument"
	"github.com/augur-perf/augur/probe/profile"
	"github.com/augur-perf/augur/source/frontend"
)

// RankRequest is augur analyze PKGS: every function of the packages ranked by its expected
// reward per call, under a measured profile or the counts of a Job.
type RankRequest struct {
	// Dir is the module directory the Patterns are loaded from and the Job runs in.
	Dir      string
	Patterns []string
	// Profile is a measured profile of the packages; a Job with Args measures one instead
	// (exactly one of them).
	Profile string
	Job     Job
	// By is the reward to rank by ("": the first any function has, by name); Method the
	// checker's method for each function's model ("": direct).
	By, Method string
	Log        io.Writer
}

// Ranking is Rank's answer: the ranking, the name of the profile it is under (its path, or
// "workload: ..."), and how many functions the packages have.
type Ranking struct {
	*predict.Ranking
	Profile string
	Funcs   int
}

// Rank carries out r.
func Rank(r RankRequest) (*Ranking, error) {
	if (r.Profile == "") == (len(r.Job.Args) == 0) {
		return nil, inputf("give a measured --profile of the packages or a workload after \"--\" (one of them)")
	}
	meth, err := checker.ParseMethod(or(r.Method, "direct"))
	if err != nil {
		return nil, &InputError{err}
	}
	prog, fns, _, err := frontend.LoadAll(r.Dir, r.Patterns, nil)
	if err != nil {
		return nil, &InputError{err}
	}
	var p *profile.Profile
	name := r.Profile
	if job := r.Job; len(job.Args) > 0 {
		job.Dir = r.Dir
		if p, err = job.count(prog, fns, orDiscard(r.Log)); err != nil {
			return nil, err
		}
		name = "workload: " + strings.Join(job.Args, " ")
	} else if p, err = profile.Read(r.Profile); err != nil {
		return nil, err
	}
	rk, err := predict.Rank(fns, p, name, r.By, checker.Options{Method: meth})
	if errors.Is(err, predict.ErrNoReward) {
		return nil, fmt.Errorf("%s: %w", strings.Join(r.Patterns, " "), err)
	}
	if err != nil {
		return nil, err
	}
	return &Ranking{Ranking: rk, Profile: name, Funcs: len(fns)}, nil
}

// ProfileRequest is augur profile: the functions of the packages (or those Funcs names)
// counted under the Job, the counts written to Out.
type ProfileRequest struct {
	// Dir is the module directory the Patterns are loaded from and the Job runs in.
	Dir      string
	Patterns []string
	// Funcs are the functions or packages to instrument (none: every function of Patterns).
	Funcs []string
	Job   Job
	// Out is the profile written; Merge adds the counts into the profile already there.
	Out   string
	Merge bool
	// AllowUninvoked writes the profile even when a function Funcs names was never invoked.
	AllowUninvoked bool
	// Timed says that Profiled.Time will time the Job (as Timing says): it must be a go test
	// workload, which is checked before anything runs.
	Timed  bool
	Timing timing.Options
	Log    io.Writer
}

// Profiled is a profile Profile wrote, which Time can add the measured time of to.
type Profiled struct {
	// Profile is what was written: this run's counts, added to the old ones with Merge.
	Profile *profile.Profile
	r       ProfileRequest
	prog    *frontend.Program
	fns     []*frontend.Func
	named   map[string]bool
	fresh   *profile.Profile // this run's counts
}

// Profile counts r's functions under its Job and writes the profile. A run that was
// interrupted writes the counts gathered until then, marked partial, and returns its
// *instrument.InterruptedError; a function named in Funcs that was never invoked writes
// nothing, unless AllowUninvoked.
func Profile(r ProfileRequest) (*Profiled, error) {
	if err := instrument.CheckWorkload(r.Job.Args); err != nil {
		return nil, &InputError{err}
	}
	if err := instrument.CheckTimed(r.Job.Args); r.Timed && err != nil {
		return nil, &InputError{err}
	}
	prog, fns, named, err := frontend.LoadAll(r.Dir, r.Patterns, r.Funcs)
	if err != nil {
		return nil, &InputError{err}
	}
	r.Job.Dir = r.Dir
	p, err := r.Job.count(prog, fns, orDiscard(r.Log))
	var intr *instrument.InterruptedError
	if err != nil && !(errors.As(err, &intr) && p != nil) {
		return nil, err
	}
	if never := p.Never(named); intr == nil && !r.AllowUninvoked && len(never) > 0 {
		return nil, fmt.Errorf("the workload never invoked %s: no profile written (--allow-uninvoked writes it anyway)", strings.Join(never, ", "))
	}
	res := &Profiled{Profile: p, r: r, prog: prog, fns: fns, named: named, fresh: p}
	if r.Merge {
		if res.Profile, err = profile.MergeInto(r.Out, p, r.Job.Args); err != nil {
			return nil, err
		}
	}
	if err := res.Profile.Write(r.Out); err != nil {
		return nil, err
	}
	if intr != nil {
		intr.What = "wrote the counts gathered until then to " + r.Out + ", marked partial"
		return nil, intr
	}
	return res, nil
}

// Time times the Job on the code as it is and writes the measured time of every statement to
// FILE.time.json beside the profile's FILE.json (a rewards file for Request.Rewards), whose
// path it returns. The time is of this run's workload, so its counts (not merged ones) scale
// it; the counts stand even if timing fails. The program must run instrument.RunExec when
// started as instrument.ExecCommand (see the package doc).
func (p *Profiled) Time() (string, error) {
	log := orDiscard(p.r.Log)
	t, err := p.r.Job.time(p.prog, p.fns, p.fresh, p.r.Timing, timing.FuncTargets(p.fns, p.fresh, p.named), log)
	if err != nil {
		return "", err
	}
	path := strings.TrimSuffix(p.r.Out, ".json") + ".time.json"
	return path, t.TimeFile(p.fns, p.fresh, p.r.Job.Args, p.r.Dir).Write(path)
}

// ValidateRequest is augur validate: Func's time per call under the Job's usage, predicted
// from a measured time (Rewards, FILE.time.json) and measured by timing the Job.
type ValidateRequest struct {
	// Dir is the module directory Func is loaded from and the Job runs in.
	Dir, Func string
	Rewards   string
	// Profile is the Job's usage profile, if already measured ("": count it first).
	Profile string
	Job     Job
	Timing  timing.Options
	Log     io.Writer
}

// Validate carries out r; it returns the validation and the name of the usage it predicted
// under (Profile, or "workload: ...").
func Validate(r ValidateRequest) (*timing.Validation, string, error) {
	if err := instrument.CheckTimed(r.Job.Args); err != nil {
		return nil, "", &InputError{err}
	}
	prog, fn, err := frontend.LoadFunc(r.Dir, r.Func)
	if err != nil {
		return nil, "", &InputError{err}
	}
	tf, err := profile.ReadTimeFile(r.Rewards)
	if err != nil {
		return nil, "", err
	}
	if tf == nil {
		return nil, "", inputf("--rewards %s holds no measured time (make one with 'augur profile --time')", r.Rewards)
	}
	// A time file without fn fails before the workload is counted, not after.
	if _, err := tf.For(fn); err != nil {
		return nil, "", fmt.Errorf("%s: %v", r.Rewards, err)
	}
	log := orDiscard(r.Log)
	job := r.Job
	job.Dir = r.Dir
	var counted *profile.Profile
	name := "workload: " + strings.Join(job.Args, " ")
	if r.Profile != "" {
		if counted, err = predict.ReadProfile(r.Profile, fn); err != nil {
			return nil, "", err
		}
		name = r.Profile
	} else if counted, err = job.count(prog, []*frontend.Func{fn}, log); err != nil {
		return nil, "", err
	}
	defer job.forward()()
	v, err := timing.Validate(prog, fn, tf, r.Rewards, counted, name, job.Workload, r.Timing, log)
	return v, name, err
}

// DecisionsRequest is augur cfg: Func's decisions, or its graph, with counts from a Profile
// (measured or stated) or from a Job, or none.
type DecisionsRequest struct {
	// Dir is the module directory Func is loaded from and the Job runs in.
	Dir, Func, Profile string
	Job                Job
	// DOT asks for the graph in DOT, JSON for the decisions as JSON (at most one of them).
	DOT, JSON bool
	Log       io.Writer
}

// Graph is what Decisions found: the function, whose CFG holds its decisions, and its counts
// (nil without a profile).
type Graph struct {
	Fn     *frontend.Func
	Counts *profile.Func
	r      DecisionsRequest
}

// Decisions carries out r; Write prints the result.
func Decisions(r DecisionsRequest) (*Graph, error) {
	if r.Profile != "" && len(r.Job.Args) > 0 {
		return nil, inputf("give --profile or a workload, not both")
	}
	if r.DOT && r.JSON {
		return nil, inputf("give --dot or --json, not both")
	}
	prog, fn, err := frontend.LoadFunc(r.Dir, r.Func)
	if err != nil {
		return nil, &InputError{err}
	}
	var p *profile.Profile
	switch job := r.Job; {
	case len(job.Args) > 0:
		job.Dir = r.Dir
		p, err = job.count(prog, []*frontend.Func{fn}, orDiscard(r.Log))
	case r.Profile != "":
		p, err = predict.ReadProfile(r.Profile, fn)
	}
	if err != nil {
		return nil, err
	}
	counts, err := decisions.Counts(fn, p)
	if err != nil {
		return nil, err
	}
	return &Graph{Fn: fn, Counts: counts, r: r}, nil
}

// Write writes the decisions as the request asked: the graph in DOT, the decisions as JSON, or
// as text after a line naming the function, positions relative to the request's Dir.
func (d *Graph) Write(w io.Writer) error {
	if d.r.DOT {
		return decisions.WriteDOT(w, d.Fn, d.Counts)
	}
	ds, err := decisions.List(d.Fn, d.Counts)
	if err != nil {
		return err
	}
	if d.r.JSON {
		return decisions.WriteJSON(w, d.Fn, ds)
	}
	fmt.Fprintf(w, "Function: %s (%d nodes, %d decisions)\n", d.Fn.Name, len(d.Fn.CFG.Nodes), len(ds))
	return decisions.WriteText(w, ds, frontend.AbsDir(d.r.Dir))
}
