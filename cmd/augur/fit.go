package main

import (
	"flag"
	"os"

	"github.com/augur-perf/augur/fit/board"
	"github.com/augur-perf/augur/fit/record"
	"github.com/augur-perf/augur/probe/instrument"
	"github.com/augur-perf/augur/report/html"
	"github.com/augur-perf/augur/report/text"
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
	var r board.FitRequest
	fs.StringVar(&r.Out, "o", "", "write the laws (augur-fit/1) to this file")
	fs.StringVar(&r.State, "state", "", "write the blackboard (augur-fit-board/1) to this file")
	fs.StringVar(&r.Resume, "resume", "", "continue the blackboard saved in this file")
	fs.IntVar(&r.Rounds, "rounds", 10, "the most rounds of the loop")
	asJSON := fs.Bool("json", false, "print the laws as JSON")
	htmlOut := fs.String("html", "", "also write the laws, each beside its measurements, as a self-contained HTML page to this file")
	return func(x *call) error {
		if len(x.args) != 1 {
			return usagef("expected one TRACE file (augur-trace/1), got %d arguments", len(x.args))
		}
		r.Trace = x.args[0]
		f, err := board.FitFile(r)
		if err == nil && *htmlOut != "" {
			err = html.WriteFile(*htmlOut, html.BuildFit(&f.Result, f.Samples))
		}
		if err != nil {
			return err
		}
		return text.FitOutput(x.stdout, x.stderr, f.Result, *asJSON)
	}
}

func fitPredictFlags(fs *flag.FlagSet) func(*call) error {
	var r board.PredictRequest
	fs.StringVar(&r.Inputs, "inputs", "", "the input distribution: 'n~lognormal(8,1.2), m=5' (uniform, normal, lognormal, choice(v:p,...), NAME=VALUE)")
	fs.StringVar(&r.At, "at", "", "one point instead: 'n=1e6, m=5'")
	fs.StringVar(&r.Quantity, "quantity", "", "predict only this quantity (default: all)")
	fs.IntVar(&r.Samples, "samples", 200000, "Monte Carlo samples for continuous distributions")
	fs.Uint64Var(&r.Seed, "seed", 1, "seed of the Monte Carlo samples")
	asJSON := fs.Bool("json", false, "print the predictions as JSON")
	return func(x *call) error {
		if len(x.args) != 1 {
			return usagef("expected one FIT file (augur-fit/1)")
		}
		r.Fit = x.args[0]
		p, err := board.PredictFile(r)
		if err != nil {
			return err
		}
		return text.FitPredictOutput(x.stdout, x.stderr, p, *asJSON)
	}
}

func fitRecordFlags(fs *flag.FlagSet) func(*call) error {
	var r record.Request
	fs.StringVar(&r.Out, "o", "augur.trace.jsonl", "the trace to write (augur-trace/1)")
	fs.Float64Var(&r.Rate, "rate", 1, "record each invocation with this probability")
	fs.BoolVar(&r.Time, "time", false, "record each invocation's wall time (time_ns)")
	fs.StringVar(&r.Dir, "dir", "", "the module directory FUNC is loaded from and the workload runs in")
	fs.Var((*multi)(&r.Fields), "param", "also record a field of a struct parameter: PARAM.FIELD=len or =value (req.Items=len; through pointers: an invocation with a nil one on the way is not recorded) (repeatable)")
	return func(x *call) error {
		if len(x.args) != 1 || len(x.workload) == 0 {
			return usagef("expected FUNC -- WORKLOAD (a go test or go run command)")
		}
		r.Func = x.args[0]
		r.Workload = instrument.Workload{Args: x.workload, Stdin: os.Stdin, Stdout: x.stderr, Stderr: x.stderr}
		rec, err := record.Run(r)
		if err != nil {
			return err
		}
		return text.FitRecorded(x.stdout, rec, r.Out)
	}
}
