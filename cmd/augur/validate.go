package main

import (
	"flag"

	"github.com/augur-perf/augur/analyze/pipeline"
	"github.com/augur-perf/augur/report/text"
)

func validateFlags(fs *flag.FlagSet) func(*call) error {
	var r pipeline.ValidateRequest
	fs.StringVar(&r.Dir, "dir", "", "the module directory FUNC is loaded from and the workload runs in (default: the current directory)")
	var rewards, profs multi
	fs.Var(&rewards, "rewards", "the measured time to predict from (FILE.time.json, from 'augur profile --time')")
	fs.Var(&profs, "profile", "the workload's usage profile, if already measured (default: count it first)")
	asJSON := fs.Bool("json", false, "print the result as JSON")
	timeFlags(fs, &r.Timing)
	return func(x *call) error {
		if len(x.args) != 1 || len(rewards) != 1 || len(profs) > 1 || len(x.workload) == 0 {
			return x.usage("expected FUNC --rewards FILE.time.json [--profile PROFILE] -- WORKLOAD")
		}
		r.Func, r.Rewards, r.Log = x.args[0], rewards[0], x.stderr
		x.job(&r.Job, x.stderr)
		if len(profs) == 1 {
			r.Profile = profs[0]
		}
		v, usage, err := pipeline.Validate(r)
		switch {
		case err != nil:
			return err
		case *asJSON:
			return text.JSON(x.stdout, v)
		}
		text.Validation(x.stdout, v, r.Rewards, usage)
		return nil
	}
}
