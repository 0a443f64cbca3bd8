package main

import (
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/augur-perf/augur/report/html"
	"github.com/augur-perf/augur/report/text"
	"github.com/augur-perf/augur/source/frontend"

	"github.com/augur-perf/augur/fit/board"
	"github.com/augur-perf/augur/fit/inputs"
	"github.com/augur-perf/augur/fit/record"
	"github.com/augur-perf/augur/probe/instrument"
)

var fitCommand = &command{
	name:    "fit",
	summary: "learn loop counts, probabilities and demands as laws of input sizes (Beagle); predict for input distributions",
	help:    helpText("fit"),
	flags:   fitFlags,
	subs: []*command{
		{name: "predict", flags: fitPredictFlags},
		{name: "record", flags: fitRecordFlags, workload: true},
	},
}

func fitFlags(fs *flag.FlagSet) func(*call) error {
	out := fs.String("o", "", "write the laws (augur-fit/1) to this file")
	statePath := fs.String("state", "", "write the blackboard (augur-fit-board/1) to this file")
	resume := fs.String("resume", "", "continue the blackboard saved in this file")
	rounds := fs.Int("rounds", 10, "the most rounds of the loop")
	asJSON := fs.Bool("json", false, "print the laws as JSON")
	htmlOut := fs.String("html", "", "also write the laws, each beside its measurements, as a self-contained HTML page to this file")
	return func(x *call) error {
		if len(x.args) != 1 {
			return usagef("expected one TRACE file (augur-trace/1), got %d arguments", len(x.args))
		}
		f, err := os.Open(x.args[0])
		if err != nil {
			return usageError{err}
		}
		defer f.Close()
		st, res, samples, err := board.FitTrace(f, x.args[0], *resume, *rounds)
		if err != nil {
			return err
		}
		if *statePath != "" {
			if err := board.WriteJSON(*statePath, st); err != nil {
				return err
			}
		}
		if *out != "" {
			if err := board.WriteJSON(*out, res); err != nil {
				return err
			}
		}
		if *htmlOut != "" {
			if err := html.WriteFile(*htmlOut, html.BuildFit(&res, samples)); err != nil {
				return err
			}
		}
		if *asJSON {
			return text.JSON(x.stdout, res)
		}
		text.Fit(x.stdout, res)
		text.FitWarnings(x.stderr, res)
		return res.Err()
	}
}

func fitPredictFlags(fs *flag.FlagSet) func(*call) error {
	spec := fs.String("inputs", "", "the input distribution: 'n~lognormal(8,1.2), m=5' (uniform, normal, lognormal, choice(v:p,...), NAME=VALUE)")
	at := fs.String("at", "", "one point instead: 'n=1e6, m=5'")
	quantity := fs.String("quantity", "", "predict only this quantity (default: all)")
	n := fs.Int("samples", 200000, "Monte Carlo samples for continuous distributions")
	seed := fs.Uint64("seed", 1, "seed of the Monte Carlo samples")
	asJSON := fs.Bool("json", false, "print the predictions as JSON")
	return func(x *call) error {
		if len(x.args) != 1 {
			return usagef("expected one FIT file (augur-fit/1)")
		}
		desc, ds, err := parseInputs(*spec, *at)
		if err != nil {
			return err
		}
		res, err := board.ReadResult(x.args[0])
		if err != nil {
			return err
		}
		preds, err := res.Predict(ds, *quantity, *n, *seed)
		if err != nil {
			return err
		}
		if len(preds) == 0 {
			return usagef("no law of quantity %q in %s", *quantity, x.args[0])
		}
		if *asJSON {
			return text.JSON(x.stdout, preds)
		}
		if extrap := text.FitPredictions(x.stdout, res.Function, desc, preds); len(extrap) > 0 {
			fmt.Fprintf(x.stderr, "augur fit: warning: extrapolating beyond the parameters the laws were fitted on: %s\n", strings.Join(extrap, "; "))
		}
		return nil
	}
}

func fitRecordFlags(fs *flag.FlagSet) func(*call) error {
	out := fs.String("o", "augur.trace.jsonl", "the trace to write (augur-trace/1)")
	rate := fs.Float64("rate", 1, "record each invocation with this probability")
	timed := fs.Bool("time", false, "record each invocation's wall time (time_ns)")
	dir := fs.String("dir", "", "the module directory FUNC is loaded from and the workload runs in")
	var fields multi
	fs.Var(&fields, "param", "also record a field of a struct parameter: PARAM.FIELD=len or =value (req.Items=len; through pointers: an invocation with a nil one on the way is not recorded) (repeatable)")
	return func(x *call) error {
		if len(x.args) != 1 || len(x.workload) == 0 {
			return usagef("expected FUNC -- WORKLOAD (a go test or go run command)")
		}
		if err := instrument.CheckWorkload(x.workload); err != nil {
			return usageError{err}
		}
		_, fn, err := frontend.LoadFunc(*dir, x.args[0])
		if err != nil {
			return usageError{err}
		}
		plan, n, err := record.Trace(fn, record.Options{Rate: *rate, Time: *timed, Fields: fields}, instrument.Workload{Args: x.workload, Dir: *dir, Stdin: os.Stdin, Stdout: x.stderr, Stderr: x.stderr}, *out)
		if err != nil {
			return err
		}
		fmt.Fprintf(x.stdout, "recorded %d invocations of %s: parameters %s; quantities %s\nwrote %s\n", n, fn.Name,
			strings.Join(plan.Header.Params, ", "), strings.Join(plan.Header.Quantities, ", "), *out)
		return nil
	}
}

// parseInputs reads --inputs SPEC or --at POINT (one of them) into distributions.
func parseInputs(spec, at string) (string, []inputs.Dist, error) {
	if (spec == "") == (at == "") {
		return "", nil, usagef("give --inputs or --at (one of them)")
	}
	text := spec
	if at != "" {
		if text = at; strings.Contains(text, "~") {
			return "", nil, usagef("--at takes values (n=1e6), not distributions")
		}
	}
	ds, err := inputs.Parse(text)
	if err != nil {
		return "", nil, usagef("--inputs %q: %v", text, err)
	}
	return text, ds, nil
}
