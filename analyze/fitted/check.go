package fitted

import (
	"fmt"

	"github.com/augur-perf/augur/fit/inputs"
)

// InputError is an input distribution that leaves out a parameter a loop's law needs; a
// command line reports it as a usage error.
type InputError struct{ Quantity, Param string }

func (e *InputError) Error() string {
	return fmt.Sprintf("the law of %s needs parameter %s: give it in --inputs", e.Quantity, e.Param)
}

// UsageError says that the caller, not the model, is at fault.
func (e *InputError) UsageError() bool { return true }

// CheckInputs says whether ds gives every parameter of every loop's law (an *InputError for
// the first one it leaves out).
func (m *Model) CheckInputs(ds []inputs.Dist) error {
	given := map[string]bool{}
	for _, d := range ds {
		given[d.Param] = true
	}
	for _, l := range m.Loops {
		for _, q := range l.Law.Params() {
			if !given[q] {
				return &InputError{Quantity: l.Quantity, Param: q}
			}
		}
	}
	return nil
}
