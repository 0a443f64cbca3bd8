// Package pipeline is the analyze group's commands as one call each, from names and files to
// results: Analyze (augur analyze FUNC: load the function, measure or read its usage profiles,
// time it, predict every scenario, write the model, add error bars), Rank (augur analyze PKGS),
// Profile (augur profile), Validate (augur validate) and Decisions (augur cfg). A request holds
// what the command line's flags say, so that a library user gets what the command line does
// without copying it; a mistake in the request is an *InputError, found before any workload
// runs (but for a --by reward the model turns out not to have).
//
// It owns the order of those steps and nothing else: loading is source/frontend's, running a
// workload probe/instrument's, predicting analyze/predict's and timing analyze/timing's. It
// prints nothing but warnings and the files it writes to the request's Log, and it leaves the
// formatting of results to its caller (report/text for the command line).
//
// A program that times workloads (Request.Time, Profiled.Time, Validate) must start, before
// anything else, with what cmd/augur's init does: when os.Args[1] is instrument.ExecCommand,
// exit with instrument.RunExec(os.Args[2:]). The timed test binary runs under go test -exec as
// that program, so that its CPU time is the kernel's exact count.
package pipeline

import (
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/augur-perf/augur/analyze/timing"
	"github.com/augur-perf/augur/probe/instrument"
	"github.com/augur-perf/augur/probe/profile"
	"github.com/augur-perf/augur/source/frontend"
)

// InputError is a request that cannot be carried out as given: a bad flag value, a function
// that is not there, a workload that is not a go command. A command line reports it as a usage
// error.
type InputError struct{ Err error }

func (e *InputError) Error() string { return e.Err.Error() }
func (e *InputError) Unwrap() error { return e.Err }

// UsageError says that the caller, not the code analysed, is at fault.
func (e *InputError) UsageError() bool { return true }

func inputf(format string, a ...any) error { return &InputError{fmt.Errorf(format, a...)} }

// Job is a workload as the pipelines run it: a go test or go run command (Args) with its
// input and output. It runs in the request's Dir (its own Dir is set from it).
type Job struct {
	instrument.Workload
	// Signals forwards SIGINT and SIGTERM to the workload while it runs, as a terminal would,
	// instead of letting them end this process: the counts gathered until then are kept and
	// the run is reported as interrupted. A command line wants this; a server may not.
	Signals bool
}

// forward starts forwarding signals to the workload, when the job says so, until the function
// it returns is called.
func (j *Job) forward() (stop func()) {
	if !j.Signals {
		return func() {}
	}
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	j.Interrupt = sigs
	return func() { signal.Stop(sigs) }
}

// count runs the job on fns instrumented and returns the counts of a successful run, or of an
// interrupted one (Partial set) together with an *instrument.InterruptedError to return once
// the partial counts are kept; a failed workload is an *instrument.WorkloadError. Warnings go
// to log.
func (j Job) count(prog *frontend.Program, fns []*frontend.Func, log io.Writer) (*profile.Profile, error) {
	if err := instrument.CheckWorkload(j.Args); err != nil {
		return nil, &InputError{err}
	}
	defer j.forward()()
	m, err := instrument.Measure(prog, fns, j.Workload)
	if err != nil {
		return nil, err
	}
	for _, warn := range m.Warnings {
		fmt.Fprintf(log, "augur: warning: %v\n", warn)
	}
	return m.Counts()
}

// time is timing.Measure of the job, progress and warnings to log.
func (j Job) time(prog *frontend.Program, fns []*frontend.Func, counted *profile.Profile, o timing.Options,
	targets []timing.Target, log io.Writer) (*timing.Timed, error) {
	defer j.forward()()
	return timing.Measure(prog, fns, counted, j.Workload, o, targets, log)
}

func orDiscard(w io.Writer) io.Writer {
	if w == nil {
		return io.Discard
	}
	return w
}

// or is s, or def when s is empty.
func or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
