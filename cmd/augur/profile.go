package main

import (
	"errors"
	"flag"
	"fmt"
	"strings"

	"github.com/augur-perf/augur/analyze/timing"
	"github.com/augur-perf/augur/probe/instrument"
	"github.com/augur-perf/augur/probe/profile"
	"github.com/augur-perf/augur/report/text"
	"github.com/augur-perf/augur/source/frontend"
)

func init() {
	register(&command{
		name:     "profile",
		summary:  "measure a usage profile: run a go workload with counting probes in chosen functions",
		help:     helpText("profile"),
		flags:    profileFlags,
		workload: true,
	})
}

func profileFlags(fs *flag.FlagSet) func(*call) error {
	var specs multi
	fs.Var(&specs, "func", "a function or package to instrument (repeatable; default: every function of PKGS)")
	out := fs.String("o", "augur.profile.json", "the profile to write")
	merge := fs.Bool("merge", false, "add the counts into the existing -o profile instead of replacing it")
	keep := fs.Bool("keep", false, "keep the work directory (rewritten files, overlay, counter files) and print its path")
	cpu := fs.Bool("time", false, "also time the go test workload on the code as it is and write the measured time of every statement to FILE.time.json beside -o FILE.json (for analyze --rewards)")
	topt := timeFlags(fs)
	dir := fs.String("dir", "", "the module directory PKGS are loaded from and the workload runs in (default: the current directory)")
	allowUninvoked := fs.Bool("allow-uninvoked", false, "write the profile even when a function named by --func was never invoked")
	return func(x *call) error {
		if len(x.args) == 0 || len(x.workload) == 0 {
			return x.usage("expected PKGS... -- WORKLOAD (a go test or go run command)")
		}
		if err := instrument.CheckWorkload(x.workload); err != nil {
			return usageError{err}
		}
		if err := instrument.CheckTimed(x.workload); *cpu && err != nil {
			return usageError{err}
		}
		prog, err := frontend.Load(*dir, x.args...)
		if err != nil {
			return usageError{err}
		}
		fns, named, err := prog.SelectAll(specs)
		if err != nil {
			return usageError{err}
		}
		w := x.job(*dir, x.stdout)
		w.Keep = *keep
		p, err := runWorkload(prog, fns, w, x.stderr)
		var intr *instrument.InterruptedError
		if err != nil && !(errors.As(err, &intr) && p != nil) {
			return err
		}
		if never := p.Never(named); intr == nil && !*allowUninvoked && len(never) > 0 {
			return fmt.Errorf("the workload never invoked %s: no profile written (--allow-uninvoked writes it anyway)", strings.Join(never, ", "))
		}
		fresh := p // this run's counts
		if *merge {
			if p, err = profile.MergeInto(*out, p, x.workload); err != nil {
				return err
			}
		}
		if err := p.Write(*out); err != nil {
			return err
		}
		if intr != nil {
			intr.What = "wrote the counts gathered until then to " + *out + ", marked partial"
			return intr
		}
		invoked, total := p.Invoked()
		fmt.Fprintf(x.stderr, "augur profile: %s, %d invoked, %s; wrote %s (%s)\n",
			text.Plural(len(p.Funcs), "function"), invoked, text.Plural(int(total), "invocation"), *out, text.Plural(p.Runs, "run"))
		if !*cpu {
			return nil
		}
		// The counts are written first: they stand even if timing fails. The time is of this
		// run's workload, so its counts (not merged ones) scale it.
		t, err := measureTime(prog, fns, fresh, x.job(*dir, x.stdout), topt, timing.FuncTargets(fns, fresh, named))
		if err != nil {
			return err
		}
		tpath := strings.TrimSuffix(*out, ".json") + ".time.json"
		if err := t.TimeFile(fns, fresh, x.workload, *dir).Write(tpath); err != nil {
			return err
		}
		fmt.Fprintf(x.stderr, "augur profile: wrote the measured time to %s (for analyze --rewards)\n", tpath)
		return nil
	}
}
