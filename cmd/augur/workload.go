package main

import (
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/augur-perf/augur/probe/instrument"
	"github.com/augur-perf/augur/probe/profile"
	"github.com/augur-perf/augur/source/frontend"
)

// workloadError is a workload that failed: augur gives no numbers from it (exit 3).
type workloadError struct {
	code int
	tail []string
}

func (e *workloadError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "the workload failed (exit status %d): no numbers come from a failed run", e.code)
	if len(e.tail) > 0 {
		b.WriteString("; the last lines it wrote to stderr:")
		for _, l := range e.tail {
			b.WriteString("\n  " + l)
		}
	}
	return b.String()
}

// interruptedError is a run ended by SIGINT or SIGTERM (exit 128+signal: 130, 143).
type interruptedError struct {
	sig  syscall.Signal
	what string // what was kept
}

func (e *interruptedError) Error() string {
	return fmt.Sprintf("interrupted by %v: %s", e.sig, e.what)
}

// runWorkload measures fns with a workload, forwarding SIGINT and SIGTERM to it. It returns the
// profile of a successful run, or of an interrupted one (Partial set) together with an
// *interruptedError to return once the partial counts are kept; a failed workload is a
// *workloadError.
func runWorkload(prog *frontend.Program, fns []*frontend.Func, w instrument.Workload, stderr io.Writer) (*profile.Profile, error) {
	if err := instrument.CheckWorkload(w.Args); err != nil {
		return nil, usageError{err}
	}
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigs)
	w.Interrupt = sigs
	m, err := instrument.Measure(prog, fns, w)
	if err != nil {
		return nil, err
	}
	for _, warn := range m.Warnings {
		fmt.Fprintf(stderr, "augur: warning: %v\n", warn)
	}
	if m.Signal != nil {
		sig, _ := m.Signal.(syscall.Signal)
		return m.Profile, &interruptedError{sig: sig}
	}
	if m.ExitCode != 0 {
		return nil, &workloadError{code: m.ExitCode, tail: m.StderrTail}
	}
	if m.Processes == 0 {
		return nil, fmt.Errorf("no instrumented process ran: does the workload import the packages of the functions measured?")
	}
	return m.Profile, nil
}
