package main

import (
	"fmt"
	"io"
	"os"
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
		name:    "validate",
		summary: "check a time prediction against reality: predict a workload's time per call from a saved time, then measure it",
		usage:   "FUNC --rewards FILE.time.json [--profile PROFILE] [--precision P] [--json] -- go test ARGS...",
		help:    helpText("validate"),
		run:     runValidate,
	})
}

func runValidate(args []string, stdout, stderr io.Writer) error {
	c := commandNamed("validate")
	fs := c.flags(stderr)
	dir := fs.String("dir", "", "the module directory FUNC is loaded from and the workload runs in (default: the current directory)")
	var rewards, profs multi
	fs.Var(&rewards, "rewards", "the measured time to predict from (FILE.time.json, from 'augur profile --time')")
	fs.Var(&profs, "profile", "the workload's usage profile, if already measured (default: count it first)")
	asJSON := fs.Bool("json", false, "print the result as JSON")
	topt := timeFlags(fs)
	flagArgs, workload := splitWorkload(args)
	pos, err := parse(fs, flagArgs, stdout)
	if err != nil {
		return err
	}
	if len(pos) != 1 || len(rewards) != 1 || len(profs) > 1 || len(workload) == 0 {
		fmt.Fprintln(stderr, "augur validate: expected FUNC --rewards FILE.time.json [--profile PROFILE] -- WORKLOAD")
		fs.Usage()
		return errUsage
	}
	if err := instrument.CheckTimed(workload); err != nil {
		return usageError{err}
	}
	prog, fn, err := predict.LoadFunc(*dir, pos[0])
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
	name := "workload: " + strings.Join(workload, " ")
	if len(profs) == 1 {
		if counted, err = predict.ReadProfile(profs[0], fn); err != nil {
			return err
		}
		name = profs[0]
	} else {
		if counted, err = runWorkload(prog, []*frontend.Func{fn}, instrument.Workload{Args: workload, Dir: *dir,
			Stdin: os.Stdin, Stdout: stderr, Stderr: stderr}, stderr); err != nil {
			return err
		}
	}
	w := instrument.Workload{Args: workload, Dir: *dir, Stdin: os.Stdin, Stdout: stderr, Stderr: stderr}
	defer forwardSignals(&w)()
	v, err := timing.Validate(prog, fn, tf, rewards[0], counted, name, w, *topt, stderr)
	if err != nil {
		return err
	}
	if *asJSON {
		return text.JSON(stdout, v)
	}
	text.Validation(stdout, v, rewards[0], name)
	return nil
}
