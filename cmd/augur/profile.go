package main

import (
	"flag"
	"fmt"

	"github.com/augur-perf/augur/analyze/pipeline"
	"github.com/augur-perf/augur/report/text"
)

func profileFlags(fs *flag.FlagSet) func(*call) error {
	var r pipeline.ProfileRequest
	fs.Var((*multi)(&r.Funcs), "func", "a function or package to instrument (repeatable; default: every function of PKGS)")
	fs.StringVar(&r.Out, "o", "augur.profile.json", "the profile to write")
	fs.BoolVar(&r.Merge, "merge", false, "add the counts into the existing -o profile instead of replacing it")
	fs.BoolVar(&r.Job.Keep, "keep", false, "keep the work directory (rewritten files, overlay, counter files) and print its path")
	fs.BoolVar(&r.Timed, "time", false, "also time the go test workload on the code as it is and write the measured time of every statement to FILE.time.json beside -o FILE.json (for analyze --rewards)")
	timeFlags(fs, &r.Timing)
	fs.StringVar(&r.Dir, "dir", "", "the module directory PKGS are loaded from and the workload runs in (default: the current directory)")
	fs.BoolVar(&r.AllowUninvoked, "allow-uninvoked", false, "write the profile even when a function named by --func was never invoked")
	return func(x *call) error {
		if len(x.args) == 0 || len(x.workload) == 0 {
			return x.usage("expected PKGS... -- WORKLOAD (a go test or go run command)")
		}
		r.Patterns, r.Log = x.args, x.stderr
		x.job(&r.Job, x.stdout)
		p, err := pipeline.Profile(r)
		if err != nil {
			return err
		}
		text.Profiled(x.stderr, p.Profile, r.Out)
		if !r.Timed {
			return nil
		}
		path, err := p.Time()
		if err != nil {
			return err
		}
		fmt.Fprintf(x.stderr, "augur profile: wrote the measured time to %s (for analyze --rewards)\n", path)
		return nil
	}
}
