package instrument

import (
	"errors"

	"github.com/augur-perf/augur/probe/profile"
)

// Counts is what a caller may keep of the run: the profile of a successful one; the partial
// profile of an interrupted one together with its *InterruptedError (What left for the caller
// to fill); no profile but a *WorkloadError when the workload failed, or an error when no
// instrumented process ran (the workload does not import the packages measured).
func (m *Measurement) Counts() (*profile.Profile, error) {
	if err := m.Err(); err != nil {
		if m.Signal != nil {
			return m.Profile, err
		}
		return nil, err
	}
	if m.Processes == 0 {
		return nil, errors.New("no instrumented process ran: does the workload import the packages of the functions measured?")
	}
	return m.Profile, nil
}
