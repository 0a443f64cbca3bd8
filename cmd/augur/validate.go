package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/augur-perf/augur/analyze/predict"
	"github.com/augur-perf/augur/analyze/synth"
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

// validation is a prediction set against a measurement.
type validation struct {
	Function  string   `json:"function"`
	What      string   `json:"what"`
	Workload  []string `json:"workload"`
	Predicted estimate `json:"predicted"`
	Measured  estimate `json:"measured"`
	// RelErr is (predicted − measured) / measured.
	RelErr float64 `json:"relative_error"`
}

// estimate is a time per call with its standard error and 95 % interval.
type estimate struct {
	NS     float64    `json:"ns_per_call"`
	StdErr float64    `json:"std_error"`
	CI95   [2]float64 `json:"ci95"`
	From   string     `json:"from"`
}

func newEstimate(ns, se float64, from string) estimate {
	return estimate{NS: ns, StdErr: se, CI95: [2]float64{ns - 1.96*se, ns + 1.96*se}, From: from}
}

func runValidate(args []string, stdout, stderr io.Writer) error {
	c := commandNamed("validate")
	fs := c.flags(stderr)
	dir := fs.String("dir", "", "the module directory FUNC is loaded from and the workload runs in (default: the current directory)")
	var rewards, profs multi
	fs.Var(&rewards, "rewards", "the measured time to predict from (FILE.time.json, from 'augur profile --time')")
	fs.Var(&profs, "profile", "the workload's usage profile, if already measured (default: count it first)")
	asJSON := fs.Bool("json", false, "print the result as JSON")
	var topt timeOptions
	topt.register(fs)
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
	t, err := tf.For(fn)
	if err != nil {
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
	sc, err := predict.Baseline(fn, counted, name)
	if err != nil {
		return err
	}
	sc.SetMeasured(t)
	o, err := sc.Predict(fn, predict.Options{Synth: synth.Options{}})
	if err != nil {
		return err
	}
	if why := o.Unanswered[sc.MeasuredName]; why != "" {
		return fmt.Errorf("%s cannot be predicted from %s: %s", fn.Name, rewards[0], why)
	}
	ns := o.Values[slices.Index(o.Rewards, sc.MeasuredName)].Initial
	v := validation{Function: fn.Name, What: profile.TimeWhat, Workload: workload,
		Predicted: newEstimate(ns, o.StdErr[sc.MeasuredName], fmt.Sprintf("%s (timed under %s), usage %s", rewards[0], strings.Join(tf.Measured.Workload, " "), name))}
	tm, err := measureTime(prog, []*frontend.Func{fn}, counted, instrument.Workload{Args: workload, Dir: *dir,
		Stdin: os.Stdin, Stdout: stderr, Stderr: stderr}, topt, []timeTarget{{fn: fn, f: counted.Funcs[fn.Name], label: "measured"}}, stderr)
	if err != nil {
		return err
	}
	tot := tm.cpu.Funcs[fn.Name].Total()
	mns, mse := tm.perCall(fn, counted.Funcs[fn.Name])
	v.Measured = newEstimate(mns, mse, fmt.Sprintf("%d CPU samples in %d calls, %s", tot.Samples, tm.inv[fn.Name], text.Plural(tm.runs, "run")))
	v.RelErr = (ns - mns) / mns
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(v)
	}
	fmt.Fprintf(stdout, "Function:  %s\n", fn.Name)
	fmt.Fprintf(stdout, "Workload:  %s\n", strings.Join(workload, " "))
	fmt.Fprintf(stdout, "Time:      CPU ns per call, with its callees and the call itself (not wall time; goroutines add up)\n\n")
	fmt.Fprintf(stdout, "predicted  %s ± %s ns  (95%%: %s – %s)  from %s, %s\n", text.Num(v.Predicted.NS), text.Num2(v.Predicted.StdErr),
		text.Num(v.Predicted.CI95[0]), text.Num(v.Predicted.CI95[1]), filepath.Base(rewards[0]), "usage "+name)
	fmt.Fprintf(stdout, "measured   %s ± %s ns  (95%%: %s – %s)  %s\n", text.Num(v.Measured.NS), text.Num2(v.Measured.StdErr),
		text.Num(v.Measured.CI95[0]), text.Num(v.Measured.CI95[1]), v.Measured.From)
	verdict := "within"
	if math.Abs(ns-mns) > 1.96*math.Hypot(v.Predicted.StdErr, v.Measured.StdErr) {
		verdict = "outside"
	}
	fmt.Fprintf(stdout, "error      %+.1f%% (%s the 95%% interval of the difference)\n", 100*v.RelErr, verdict)
	return nil
}
