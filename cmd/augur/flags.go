package main

import (
	"flag"
	"fmt"

	"github.com/augur-perf/augur/analyze/timing"
	reporthtml "github.com/augur-perf/augur/report/html"
)

// htmlOut is --html and --open, the report flags every analysis shares.
type htmlOut struct {
	path string
	open bool
}

func htmlFlags(fs *flag.FlagSet) *htmlOut {
	h := &htmlOut{}
	fs.StringVar(&h.path, "html", "", "also write the analysis as one self-contained HTML report (source heat map, model graph, charts) to this file")
	fs.BoolVar(&h.open, "open", false, "with --html: open the report in the desktop's browser")
	return h
}

func (h *htmlOut) check() error {
	if h.open && h.path == "" {
		return usagef("--open opens the --html report: give --html FILE")
	}
	return nil
}

// write writes the report build makes, when --html asks for it, and with --open shows it; a
// browser that cannot be started is a warning, not a failure: the report is written.
func (h *htmlOut) write(x *call, build func() (*reporthtml.Report, error)) error {
	if h.path == "" {
		return nil
	}
	r, err := build()
	if err != nil {
		return err
	}
	if err := reporthtml.WriteFile(h.path, r); err != nil {
		return fmt.Errorf("--html: %v", err)
	}
	fmt.Fprintf(x.stderr, "wrote %s\n", h.path)
	if h.open {
		if err := reporthtml.Open(h.path); err != nil {
			fmt.Fprintf(x.stderr, "warning: %v\n", err)
		}
	}
	return nil
}

// timeFlags declares the flags of a timed measurement (--precision, --max-runs, --hz) into o.
func timeFlags(fs *flag.FlagSet, o *timing.Options) {
	*o = timing.DefaultOptions
	fs.Func("precision", "with --time: repeat the timed workload until the 95% interval of the expected time per call is within ± this (default 5%)", func(s string) error {
		p, err := timing.ParsePrecision(s)
		o.Precision = p
		return err
	})
	fs.IntVar(&o.MaxRuns, "max-runs", 20, "with --time: run the timed workload at most this many times")
	fs.IntVar(&o.HZ, "hz", 1000, "with --time: CPU samples asked for per second of CPU (go test's own rate is 100; Linux gives at most its timer tick, often 250)")
}
