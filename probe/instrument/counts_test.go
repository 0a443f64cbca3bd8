package instrument

import (
	"errors"
	"syscall"
	"testing"

	"github.com/augur-perf/augur/probe/profile"
)

// Counts keeps a successful run's profile and an interrupted run's partial one (with the
// interruption), never a failed run's nor one where no instrumented process ran.
func TestCounts(t *testing.T) {
	p := &profile.Profile{}
	if got, err := (&Measurement{Profile: p, Processes: 1}).Counts(); got != p || err != nil {
		t.Errorf("success: %v, %v", got, err)
	}
	var ie *InterruptedError
	if got, err := (&Measurement{Profile: p, Processes: 1, Signal: syscall.SIGINT}).Counts(); got != p || !errors.As(err, &ie) || ie.Signal != syscall.SIGINT {
		t.Errorf("interrupted: %v, %v", got, err)
	}
	var we *WorkloadError
	if got, err := (&Measurement{Profile: p, Processes: 1, ExitCode: 2}).Counts(); got != nil || !errors.As(err, &we) || we.Code != 2 {
		t.Errorf("failed: %v, %v", got, err)
	}
	if got, err := (&Measurement{Profile: p}).Counts(); got != nil || err == nil {
		t.Errorf("no process: %v, %v", got, err)
	}
}
