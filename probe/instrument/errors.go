package instrument

import (
	"fmt"
	"strings"
	"syscall"
)

// WorkloadError is a workload that failed: no numbers come from its run.
type WorkloadError struct {
	Code int
	// Tail holds the last lines it wrote to its standard error.
	Tail []string
}

// ExitCode is the status augur exits with when the workload failed: 3, whatever the workload's
// own status (which Error reports), so that a script can tell it from augur's own failures.
func (e *WorkloadError) ExitCode() int { return 3 }

func (e *WorkloadError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "the workload failed (exit status %d): no numbers come from a failed run", e.Code)
	if len(e.Tail) > 0 {
		b.WriteString("; the last lines it wrote to stderr:")
		for _, l := range e.Tail {
			b.WriteString("\n  " + l)
		}
	}
	return b.String()
}

// InterruptedError is a run ended by a signal forwarded to the workload (SIGINT, SIGTERM);
// What says what was kept of it.
type InterruptedError struct {
	Signal syscall.Signal
	What   string
}

// ExitCode is the status a command exits with when a signal interrupted it: 128 + the signal, as
// a shell reports it (130 for SIGINT, 143 for SIGTERM).
func (e *InterruptedError) ExitCode() int { return 128 + int(e.Signal) }

func (e *InterruptedError) Error() string {
	return fmt.Sprintf("interrupted by %v: %s", e.Signal, e.What)
}

// Err says how the workload's run ended: nil for success, an *InterruptedError (What empty,
// for the caller to say what it keeps) when a signal was forwarded, a *WorkloadError when it
// failed.
func (m *Measurement) Err() error {
	if m.Signal != nil {
		sig, _ := m.Signal.(syscall.Signal)
		return &InterruptedError{Signal: sig}
	}
	if m.ExitCode != 0 {
		return &WorkloadError{Code: m.ExitCode, Tail: m.StderrTail}
	}
	return nil
}
