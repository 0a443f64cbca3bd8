package main

import (
	"flag"
	"fmt"

	"github.com/augur-perf/augur/analyze/decisions"
	"github.com/augur-perf/augur/analyze/predict"
	"github.com/augur-perf/augur/probe/profile"
	"github.com/augur-perf/augur/source/frontend"
)

func init() {
	register(&command{
		name:     "cfg",
		summary:  "show a function's decisions (positions, outcomes, counts) or its control-flow graph as DOT",
		help:     helpText("cfg"),
		flags:    cfgFlags,
		workload: true,
	})
}

func cfgFlags(fs *flag.FlagSet) func(*call) error {
	prof := fs.String("profile", "", "a measured (augur-profile/1) or stated (augur-usage/1) profile to take counts from")
	dot := fs.Bool("dot", false, "write the control-flow graph in DOT instead of the list of decisions")
	asJSON := fs.Bool("json", false, "write the decisions as JSON")
	dir := fs.String("dir", "", "the module directory FUNC is loaded from and the workload runs in (default: the current directory)")
	return func(x *call) error {
		if len(x.args) != 1 {
			return usagef("expected one function (import/path.Func), got %d arguments", len(x.args))
		}
		if *prof != "" && len(x.workload) > 0 {
			return usagef("give --profile or a workload, not both")
		}
		if *dot && *asJSON {
			return usagef("give --dot or --json, not both")
		}
		prog, fn, err := predict.LoadFunc(*dir, x.args[0])
		if err != nil {
			return usageError{err}
		}
		var p *profile.Profile
		switch {
		case len(x.workload) > 0:
			p, err = runWorkload(prog, []*frontend.Func{fn}, x.job(*dir, x.stderr), x.stderr)
		case *prof != "":
			p, err = predict.ReadProfile(*prof, fn)
		}
		if err != nil {
			return err
		}
		counts, err := decisions.Counts(fn, p)
		if err != nil {
			return err
		}
		if *dot {
			return decisions.WriteDOT(x.stdout, fn, counts)
		}
		ds, err := decisions.List(fn, counts)
		if err != nil {
			return err
		}
		if *asJSON {
			return decisions.WriteJSON(x.stdout, fn, ds)
		}
		fmt.Fprintf(x.stdout, "Function: %s (%d nodes, %d decisions)\n", fn.Name, len(fn.CFG.Nodes), len(ds))
		return decisions.WriteText(x.stdout, ds, baseDir(*dir))
	}
}
