package main

import (
	"fmt"
	"io"

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
	if err := m.Err(); err != nil {
		if m.Signal != nil {
			return m.Profile, err
		}
		return nil, err
	}
	if m.Processes == 0 {
		return nil, fmt.Errorf("no instrumented process ran: does the workload import the packages of the functions measured?")
	}
	return m.Profile, nil
}
