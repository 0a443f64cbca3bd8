package main

import (
	"flag"
	"fmt"
	"strings"

	"github.com/augur-perf/augur/analyze/predict"
	"github.com/augur-perf/augur/analyze/timing"
	"github.com/augur-perf/augur/probe/instrument"
	"github.com/augur-perf/augur/probe/profile"
	"github.com/augur-perf/augur/report/text"
	"github.com/augur-perf/augur/source/frontend"
)

func init() {
	register(&command{
		name:     "validate",
		summary:  "check a time prediction against reality: predict a workload's time per call from a saved time, then measure it",
		help:     helpText("validate"),
		flags:    validateFlags,
		workload: true,
	})
}

func validateFlags(fs *flag.FlagSet) func(*call) error {
	dir := fs.String("dir", "", "the module directory FUNC is loaded from and the workload runs in (default: the current directory)")
	var rewards, profs multi
	fs.Var(&rewards, "rewards", "the measured time to predict from (FILE.time.json, from 'augur profile --time')")
	fs.Var(&profs, "profile", "the workload's usage profile, if already measured (default: count it first)")
	asJSON := fs.Bool("json", false, "print the result as JSON")
	topt := timeFlags(fs)
	return func(x *call) error {
		if len(x.args) != 1 || len(rewards) != 1 || len(profs) > 1 || len(x.workload) == 0 {
			return x.usage("expected FUNC --rewards FILE.time.json [--profile PROFILE] -- WORKLOAD")
		}
		if err := instrument.CheckTimed(x.workload); err != nil {
			return usageError{err}
		}
		prog, fn, err := predict.LoadFunc(*dir, x.args[0])
		if err != nil {
			return usageError{err}
		}
		tf, err := profile.ReadTimeFile(rewards[0])
		if err != nil {
			return err
		}
		if tf == nil {
			return usagef("--rewards %s holds no measured time (make one with 'augur profile --time')", rewards[0])
		}
		// A time file without FUNC fails before the workload is counted, not after.
		if _, err := tf.For(fn); err != nil {
			return fmt.Errorf("%s: %v", rewards[0], err)
		}
		var counted *profile.Profile
		name := "workload: " + strings.Join(x.workload, " ")
		if len(profs) == 1 {
			if counted, err = predict.ReadProfile(profs[0], fn); err != nil {
				return err
			}
			name = profs[0]
		} else if counted, err = runWorkload(prog, []*frontend.Func{fn}, x.job(*dir, x.stderr), x.stderr); err != nil {
			return err
		}
		w := x.job(*dir, x.stderr)
		defer forwardSignals(&w)()
		v, err := timing.Validate(prog, fn, tf, rewards[0], counted, name, w, *topt, x.stderr)
		if err != nil {
			return err
		}
		if *asJSON {
			return text.JSON(x.stdout, v)
		}
		text.Validation(x.stdout, v, rewards[0], name)
		return nil
	}
}
