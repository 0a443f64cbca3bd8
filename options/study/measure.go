package study

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/augur-perf/augur/options/compress"
	"github.com/augur-perf/augur/options/regions"
	"github.com/augur-perf/augur/options/runner"
	"github.com/augur-perf/augur/options/sources"
	"github.com/augur-perf/augur/options/taint"
	"github.com/augur-perf/augur/options/timing"
)

// Target is the program a measurement builds and runs: a package and its fixed arguments, to
// which each configuration's flags are added.
type Target struct {
	Pkg  string
	Args []string
}

// ParseTarget reads "PACKAGE / ARGS" (ARGS split at white space; " / ARGS" may be left out, or
// ARGS alone).
func ParseTarget(s string) (Target, error) {
	pkg, rest, _ := strings.Cut(strings.TrimSuffix(strings.TrimSpace(s), " /")+" ", " / ")
	pkg = strings.TrimSpace(pkg)
	if pkg == "" || strings.Contains(pkg, " ") {
		return Target{}, &sources.DeclError{Msg: fmt.Sprintf("--run %q: want 'PACKAGE / ARGS' (e.g. './examples/options / -unit=10ms')", s)}
	}
	return Target{Pkg: pkg, Args: strings.Fields(rest)}, nil
}

// MeasureOptions control Measure.
type MeasureOptions struct {
	Target Target
	// Method is the compression method (Methods; "" is auto).
	Method string
	// Run are the runner's options: repetitions, warm-up, seed, cache, progress.
	Run runner.Options
	// ConfigTemplate and ConfigName give the configuration file for options set by a file key
	// (runner.Setup).
	ConfigTemplate, ConfigName string
	// Log receives the plan and timing warnings (nil: discarded).
	Log io.Writer
}

// Measurement is what Measure found: the model file and the runs behind it.
type Measurement struct {
	Model *ModelFile
	Runs  *runner.Result
}

// Measure times the compressed configurations of the regions (before and after optimisation,
// as Regions returns them) with region timing injected through an overlay, and builds every
// region's local model and their sum. Timing warnings go to Log. The model is of wall time;
// when regions ran on several goroutines at once, a second model (ModelFile.Summed) is of their
// CPU time summed over the goroutines.
func Measure(ctx context.Context, dir string, res *taint.Result, before, after []regions.Region, o MeasureOptions) (*Measurement, error) {
	log := o.Log
	if log == nil {
		log = io.Discard
	}
	// The configurations cover every assignment of every region's options (ConfigCrusher
	// compresses over the regions before optimisation; optimisation only merges regions whose
	// union is already one of those sets).
	names := res.Options.Names()
	index := map[string]int{}
	domains := make([]int, len(names))
	for i, opt := range res.Options.Options {
		index[opt.Name] = i
		domains[i] = max(len(opt.Values), 1)
	}
	var sets [][]int
	var influencing []*sources.Option
	seen := map[string]bool{}
	for _, r := range before {
		key := strings.Join(r.Options, "\x00")
		if len(r.Options) == 0 || seen[key] {
			continue
		}
		seen[key] = true
		var set []int
		for _, name := range r.Options {
			set = append(set, index[name])
			if o := res.Options.Options[index[name]]; !slices.Contains(influencing, o) {
				influencing = append(influencing, o)
			}
		}
		sets = append(sets, set)
	}
	if err := valuesMissing(influencing); err != nil {
		return nil, err
	}
	method := o.Method
	if method == "" {
		method = "auto"
	}
	if !validMethod(method) {
		return nil, &sources.DeclError{Msg: fmt.Sprintf("unknown --method %q (want %s)", method, strings.Join(Methods, ", "))}
	}
	if method == "auto" {
		method = ""
	}
	cr, err := compress.Compress(sets, len(names), compress.Options{Names: names, Domains: domains, Method: method})
	if err != nil {
		return nil, err
	}
	reps := o.Run.Reps
	if reps <= 0 {
		reps = 5
	}
	fmt.Fprintf(log, "augur options: %d regions (%d before optimisation), %d configurations to measure (%s, lower bound %d), %d runs each\n",
		len(after), len(before), len(cr.Configs), cr.Method, cr.LowerBound, reps)

	work, err := os.MkdirTemp("", "augur-options-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(work)
	tb, err := timing.Instrument(res, after, filepath.Join(work, "timing"))
	if err != nil {
		return nil, err
	}
	if dir == "" {
		dir = "."
	}
	setup := runner.Setup{Dir: dir, Build: []string{"go", "build", "-o", "BIN", o.Target.Pkg}, Args: o.Target.Args,
		Options: res.Options, Timing: tb, ConfigTemplate: o.ConfigTemplate, ConfigName: o.ConfigName}
	rr, err := runner.Run(ctx, setup, cr.Configs, o.Run)
	if err != nil {
		return nil, err
	}
	// Timing problems are never silent: each is reported, and concurrency stops the model.
	for _, cfg := range rr.Configs {
		for _, issue := range cfg.Issues {
			fmt.Fprintf(log, "augur options: warning: %s: %s\n", cfg.Text, issue)
		}
	}
	model, locals, err := runner.Model(rr, after, runner.Wall)
	if err != nil {
		return nil, err
	}
	mf := &ModelFile{Format: ModelFormat, System: o.Target.Pkg, Options: names, Time: runner.Wall.String(), Model: model, Locals: locals, Numeric: rr.Numeric, Categorical: rr.Categorical}
	switch {
	case rr.Concurrent && tb.CPU:
		// Regions ran on several goroutines at once: the program's wall time and the CPU time
		// summed over its goroutines differ, and both are models worth having.
		g, glocals, err := runner.Model(rr, after, runner.CPU)
		if err != nil {
			return nil, err
		}
		mf.Goroutines = rr.Goroutines
		mf.Summed = &SummedModel{Time: runner.CPU.String(), Model: g, Locals: glocals}
		fmt.Fprintf(log, "augur options: regions ran on up to %d goroutines at once: the model is of the program's wall time (time shared among the regions running at once), the second of CPU time summed over goroutines\n", rr.Goroutines)
	case rr.Concurrent:
		fmt.Fprintf(log, "augur options: warning: regions ran on up to %d goroutines at once but the build read no CPU clocks (Linux only): the model is of wall time only\n", rr.Goroutines)
	}
	for _, cfg := range rr.Configs {
		on := []string{}
		for i, v := range cfg.Config {
			if xs, ok := rr.Numeric[names[i]]; ok {
				on = append(on, fmt.Sprintf("%s=%v", names[i], xs[v]))
			} else if vs, ok := rr.Categorical[names[i]]; ok {
				on = append(on, names[i]+"="+vs[v])
			} else if v != 0 {
				on = append(on, names[i])
			}
		}
		mf.Configs = append(mf.Configs, on)
		mf.Measuring += cfg.Wall.Mean * float64(cfg.Wall.N)
	}
	return &Measurement{Model: mf, Runs: rr}, nil
}
