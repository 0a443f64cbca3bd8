package fitted

import (
	"github.com/augur-perf/augur/analyze/predict"
	"github.com/augur-perf/augur/fit/board"
	"github.com/augur-perf/augur/source/frontend"
)

// Loaded is a fitted model as augur analyze --fit starts from it: the function, its model and
// the scenario of the measured profile the model's other decisions come from.
type Loaded struct {
	Fn    *frontend.Func
	Model *Model
	Base  predict.Scenario
}

// LoadError is a file that cannot be read or a function that is not there: the caller's
// mistake, which a command line reports as a usage error.
type LoadError struct{ Err error }

func (e *LoadError) Error() string { return e.Err.Error() }
func (e *LoadError) Unwrap() error { return e.Err }

// UsageError says that the caller, not the model, is at fault.
func (e *LoadError) UsageError() bool { return true }

// Load reads the laws at fitPath (augur-fit/1) and the measured profile at profPath of the
// function named fn (import/path.Func) of the module at dir, and binds them (New).
func Load(dir, fn, fitPath, profPath string) (*Loaded, error) {
	res, err := board.ReadResult(fitPath)
	if err != nil {
		return nil, &LoadError{err}
	}
	_, f, err := frontend.LoadFunc(dir, fn)
	if err != nil {
		return nil, &LoadError{err}
	}
	p, err := predict.ReadProfile(profPath, f)
	if err != nil {
		return nil, &LoadError{err}
	}
	base, err := predict.Baseline(f, p, profPath)
	if err != nil {
		return nil, err
	}
	m, err := New(f, res, p, base.Rewards)
	if err != nil {
		return nil, err
	}
	return &Loaded{Fn: f, Model: m, Base: base}, nil
}
