package main

import (
	"flag"
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

// runWorkload measures fns with a workload, forwarding SIGINT and SIGTERM to it. It returns the
// profile of a successful run, or of an interrupted one (Partial set) together with an
// *instrument.InterruptedError to return once the partial counts are kept; a failed workload
// is an *instrument.WorkloadError.
func runWorkload(prog *frontend.Program, fns []*frontend.Func, w instrument.Workload, stderr io.Writer) (*profile.Profile, error) {
	if err := instrument.CheckWorkload(w.Args); err != nil {
		return nil, usageError{err}
	}
	defer forwardSignals(&w)()
	m, err := instrument.Measure(prog, fns, w)
	if err != nil {
		return nil, err
	}
	for _, warn := range m.Warnings {
		fmt.Fprintf(stderr, "augur: warning: %v\n", warn)
	}
	return m.Counts()
}

// timeFlags registers the flags of a timed measurement (--precision, --max-runs, --hz).
func timeFlags(fs *flag.FlagSet) *timing.Options {
	o := timing.DefaultOptions
	fs.Func("precision", "with --time: repeat the timed workload until the 95% interval of the expected time per call is within ± this (default 5%)", func(s string) error {
		p, err := timing.ParsePrecision(s)
		o.Precision = p
		return err
	})
	fs.IntVar(&o.MaxRuns, "max-runs", 20, "with --time: run the timed workload at most this many times")
	fs.IntVar(&o.HZ, "hz", 1000, "with --time: CPU samples asked for per second of CPU (go test's own rate is 100; Linux gives at most its timer tick, often 250)")
	return &o
}

// measureTime is timing.Measure with SIGINT and SIGTERM forwarded to the workload.
func measureTime(prog *frontend.Program, fns []*frontend.Func, counted *profile.Profile, w instrument.Workload,
	o *timing.Options, targets []timing.Target) (*timing.Timed, error) {
	defer forwardSignals(&w)()
	return timing.Measure(prog, fns, counted, w, *o, targets, w.Stderr)
}

// forwardSignals sends SIGINT and SIGTERM to the workload instead of ending augur, until the
// function it returns is called.
func forwardSignals(w *instrument.Workload) (stop func()) {
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	w.Interrupt = sigs
	return func() { signal.Stop(sigs) }
}
