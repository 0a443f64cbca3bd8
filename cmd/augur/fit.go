package main

import (
	"flag"
	"os"

	"github.com/augur-perf/augur/fit/board"
	"github.com/augur-perf/augur/fit/record"
	"github.com/augur-perf/augur/internal/cli"
	"github.com/augur-perf/augur/probe/instrument"
	"github.com/augur-perf/augur/report/html"
	"github.com/augur-perf/augur/report/text"
)

var fitCommand = &cli.Command{
	Name:    "fit",
	Summary: "learn loop counts, probabilities and demands as laws of input sizes (Beagle); predict for input distributions",
	Help:    helpText("fit"),
	Flags:   fitFlags,
	Subs: []*cli.Command{
		{Name: "predict", Flags: fitPredictFlags},
		{Name: "record", Flags: fitRecordFlags, Workload: true},
	},
}

func fitFlags(fs *flag.FlagSet) func(*cli.Call) error {
	var r board.FitRequest
	fs.StringVar(&r.Out, "o", "", "write the laws (augur-fit/1) to this file")
	fs.StringVar(&r.State, "state", "", "write the blackboard (augur-fit-board/1) to this file")
	fs.StringVar(&r.Resume, "resume", "", "continue the blackboard saved in this file")
	fs.IntVar(&r.Rounds, "rounds", 10, "the most rounds of the loop")
	asJSON := fs.Bool("json", false, "print the laws as JSON")
	htmlOut := fs.String("html", "", "also write the laws, each beside its measurements, as a self-contained HTML page to this file")
	return func(x *cli.Call) error {
		if len(x.Args) != 1 {
			return cli.Usagef("expected one TRACE file (augur-trace/1), got %d arguments", len(x.Args))
		}
		r.Trace = x.Args[0]
		f, err := board.FitFile(r)
		if err == nil && *htmlOut != "" {
			err = html.WriteFile(*htmlOut, html.BuildFit(&f.Result, f.Samples))
		}
		if err != nil {
			return err
		}
		return text.FitOutput(x.Stdout, x.Stderr, f.Result, *asJSON)
	}
}

func fitPredictFlags(fs *flag.FlagSet) func(*cli.Call) error {
	var r board.PredictRequest
	fs.StringVar(&r.Inputs, "inputs", "", "the input distribution: 'n~lognormal(8,1.2), m=5' (uniform, normal, lognormal, choice(v:p,...), NAME=VALUE)")
	fs.StringVar(&r.At, "at", "", "one point instead: 'n=1e6, m=5'")
	fs.StringVar(&r.Quantity, "quantity", "", "predict only this quantity (default: all)")
	fs.IntVar(&r.Samples, "samples", 200000, "Monte Carlo samples for continuous distributions")
	fs.Uint64Var(&r.Seed, "seed", 1, "seed of the Monte Carlo samples")
	asJSON := fs.Bool("json", false, "print the predictions as JSON")
	return func(x *cli.Call) error {
		if len(x.Args) != 1 {
			return cli.Usagef("expected one FIT file (augur-fit/1)")
		}
		r.Fit = x.Args[0]
		p, err := board.PredictFile(r)
		if err != nil {
			return err
		}
		return text.FitPredictOutput(x.Stdout, x.Stderr, p, *asJSON)
	}
}

func fitRecordFlags(fs *flag.FlagSet) func(*cli.Call) error {
	var r record.Request
	fs.StringVar(&r.Out, "o", "augur.trace.jsonl", "the trace to write (augur-trace/1)")
	fs.Float64Var(&r.Rate, "rate", 1, "record each invocation with this probability")
	fs.BoolVar(&r.Time, "time", false, "record each invocation's wall time (time_ns)")
	fs.StringVar(&r.Dir, "dir", "", "the module directory FUNC is loaded from and the workload runs in")
	fs.Var((*cli.Multi)(&r.Fields), "param", "also record a field of a struct parameter: PARAM.FIELD=len or =value (req.Items=len; through pointers: an invocation with a nil one on the way is not recorded) (repeatable)")
	return func(x *cli.Call) error {
		if len(x.Args) != 1 || len(x.Workload) == 0 {
			return cli.Usagef("expected FUNC -- WORKLOAD (a go test or go run command)")
		}
		r.Func = x.Args[0]
		r.Workload = instrument.Workload{Args: x.Workload, Stdin: os.Stdin, Stdout: x.Stderr, Stderr: x.Stderr}
		rec, err := record.Run(r)
		if err != nil {
			return err
		}
		return text.FitRecorded(x.Stdout, rec, r.Out)
	}
}
