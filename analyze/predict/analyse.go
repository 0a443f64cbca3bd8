package predict

import (
	"fmt"

	"github.com/augur-perf/augur/probe/profile"
	"github.com/augur-perf/augur/source/frontend"
)

// Request is an analysis of one function as `augur analyze` makes it: a baseline and its
// what-if scenarios, each predicted.
type Request struct {
	// Profiles are the usage profiles, named by Names: the first is the baseline's, each other
	// one a scenario.
	Profiles []*profile.Profile
	Names    []string
	// AllowUninvoked analyses a baseline whose profile never invoked the function.
	AllowUninvoked bool
	// Rewards are rewards files: a measured time (profile.TimeFile), which every scenario gets,
	// or augur-rewards/1 what-ifs, one scenario each.
	Rewards []string
	// Time, when not nil, measures the time every scenario gets (the files are read first, so
	// that a conflict with a measured time among them is found before it runs).
	Time func() (*profile.NodeTime, error)
	// Sets are what-ifs NAME@FILE:LINE=VALUE, one scenario each.
	Sets []string
	// Compare keeps every scenario beside the baseline; without it, every change applies at
	// once to the one model reported ("what-if").
	Compare bool
	Options Options
}

// Analyse predicts fn under the baseline and every scenario of req. The baseline's failure is
// the error; another scenario that cannot be predicted says why in its Outcome.Why. A request
// that contradicts itself (two measured times) or a malformed --set is an *InputError.
func Analyse(fn *frontend.Func, req Request) ([]*Outcome, error) {
	baseline, err := Baseline(fn, req.Profiles[0], req.Names[0])
	if err != nil {
		return nil, err
	}
	baseline.AllowUninvoked = req.AllowUninvoked
	var changes []Change
	for _, path := range req.Rewards {
		tf, err := profile.ReadTimeFile(path)
		if err != nil {
			return nil, err
		}
		if tf != nil {
			// Measured time: every scenario's, not a what-if.
			if baseline.Measured != nil {
				return nil, inputf("--rewards %s: a second measured time (give one, or --time, not both)", path)
			}
			t, err := tf.For(fn)
			if err != nil {
				return nil, fmt.Errorf("--rewards %s: %v", path, err)
			}
			if req.Time != nil {
				return nil, inputf("--rewards %s holds a measured time: give it or --time, not both", path)
			}
			baseline.SetMeasured(t)
			continue
		}
		ch, err := RewardsFile(path)
		if err != nil {
			return nil, err
		}
		changes = append(changes, ch)
	}
	if req.Time != nil {
		t, err := req.Time()
		if err != nil {
			return nil, err
		}
		baseline.SetMeasured(t)
	}
	for _, spec := range req.Sets {
		ch, err := SetReward(spec)
		if err != nil {
			return nil, &InputError{err.Error()}
		}
		changes = append(changes, ch)
	}
	scenarios, err := WhatIf(fn, baseline, changes, req.Profiles[1:], req.Names[1:])
	if err != nil {
		return nil, err
	}
	if !req.Compare && len(scenarios) > 0 {
		// Without Compare every change applies at once to the one model reported.
		baseline = scenarios[len(scenarios)-1]
		baseline.Name = "what-if"
		scenarios = nil
	}
	var outs []*Outcome
	for i, sc := range append([]Scenario{baseline}, scenarios...) {
		o, err := sc.Predict(fn, req.Options)
		if err != nil && i == 0 {
			return nil, fmt.Errorf("%s: %v", sc.Name, err)
		}
		if err != nil {
			// Another scenario that cannot be predicted says why, in its own column.
			o = &Outcome{Scenario: sc, Why: err.Error()}
		}
		outs = append(outs, o)
	}
	return outs, nil
}

// InputError is a request that contradicts itself or a malformed what-if; a command line
// reports it as a usage error.
type InputError struct{ msg string }

func (e *InputError) Error() string { return e.msg }

// UsageError says that the caller, not the function analysed, is at fault.
func (e *InputError) UsageError() bool { return true }

func inputf(format string, a ...any) error { return &InputError{fmt.Sprintf(format, a...)} }
