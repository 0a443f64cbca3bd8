package main

import (
	"flag"

	"github.com/augur-perf/augur/analyze/pipeline"
)

func cfgFlags(fs *flag.FlagSet) func(*call) error {
	var r pipeline.DecisionsRequest
	fs.StringVar(&r.Profile, "profile", "", "a measured (augur-profile/1) or stated (augur-usage/1) profile to take counts from")
	fs.BoolVar(&r.DOT, "dot", false, "write the control-flow graph in DOT instead of the list of decisions")
	fs.BoolVar(&r.JSON, "json", false, "write the decisions as JSON")
	fs.StringVar(&r.Dir, "dir", "", "the module directory FUNC is loaded from and the workload runs in (default: the current directory)")
	return func(x *call) error {
		if len(x.args) != 1 {
			return usagef("expected one function (import/path.Func), got %d arguments", len(x.args))
		}
		r.Func, r.Log = x.args[0], x.stderr
		x.job(&r.Job, x.stderr)
		g, err := pipeline.Decisions(r)
		if err != nil {
			return err
		}
		return g.Write(x.stdout)
	}
}
