// Package calibrate turns an overhead target into a probe bound (Diep, Elbaum and Cohen's
// bounds of 50, 100, 350 and 1000 probes cost about 5, 10, 25 and 50 % on their programs; ours
// must be measured): it builds one deployed variant with more and more probes, runs the user's
// workload on each and on the uninstrumented build, and keeps the largest bound whose slowdown
// stays within the target. It owns that measurement; allocation is field/plan's, builds are
// field/build's. It must not contact a collector: the variants it measures only count.
package calibrate

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/augur-perf/augur/field/build"
	"github.com/augur-perf/augur/field/plan"
)

// EnvBinary names the variable that tells the workload which binary to run.
const EnvBinary = "AUGUR_FIELD_BIN"

// ParseTarget reads an overhead target written as a percentage (5%) into the slowdown it allows
// (0.05), the form of Options.Target.
func ParseTarget(s string) (float64, error) {
	v, err := strconv.ParseFloat(strings.TrimSuffix(s, "%"), 64)
	if err != nil || !(v >= 0) || !strings.HasSuffix(s, "%") {
		return 0, fmt.Errorf("%q: want a percentage such as 5%%", s)
	}
	return v / 100, nil
}

// Options control Calibrate.
type Options struct {
	// Dir is the module directory and Main the main package built, as for field/build.
	Dir, Main string
	// Units, Strategy, Seed and Variants are the release's, as it will be planned: the variant
	// measured at a bound is the first of that allocation.
	Units    []plan.Unit
	Strategy plan.Strategy
	// Weights are Grouped RB's shares per group (plan.Options.Weights).
	Weights  []float64
	Seed     uint64
	Variants int
	// Target is the slowdown allowed (0.05: 5 %).
	Target float64
	// Workload is the command that exercises the program: it runs the binary that the
	// environment variable AUGUR_FIELD_BIN names (a shell script, a load driver, a benchmark).
	Workload []string
	// Runs is how often the workload runs per build (default 3): the least CPU time is kept.
	Runs int
	// Bounds are the bounds tried, increasing (default 8, 16, 32, ... and every unit).
	Bounds []int
}

// Point is one bound's measurement.
type Point struct {
	Bound int `json:"bound"`
	// CPU is the workload's least CPU time (user + system, its children included) in seconds.
	CPU float64 `json:"cpu_s"`
	// Slowdown is CPU over the uninstrumented build's, less 1.
	Slowdown float64 `json:"slowdown"`
}

// Result is the calibration.
type Result struct {
	Plain  float64 `json:"plain_cpu_s"`
	Points []Point `json:"points"`
	// Bound is the largest bound measured within the target.
	Bound int `json:"bound"`
}

// Calibrate measures the bounds in increasing order until one exceeds the target, writing a
// line per measurement to progress.
func Calibrate(o Options, progress io.Writer) (*Result, error) {
	if o.Runs <= 0 {
		o.Runs = 3
	}
	if len(o.Workload) == 0 {
		return nil, fmt.Errorf("calibration needs a workload that runs the program ($%s)", EnvBinary)
	}
	if o.Variants < 1 {
		o.Variants = 1
	}
	if len(o.Bounds) == 0 {
		o.Bounds = defaultBounds(len(o.Units))
	}
	work, err := os.MkdirTemp("", "augur-calibrate-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(work)
	plain := filepath.Join(work, "plain")
	cmd := exec.Command("go", "build", "-trimpath", "-o", plain, o.Main)
	cmd.Dir = o.Dir
	if out, err := cmd.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("building %s: %v\n%s", o.Main, err, out)
	}
	res := &Result{}
	if res.Plain, err = o.measure(plain); err != nil {
		return nil, err
	}
	fmt.Fprintf(progress, "uninstrumented: %.3f CPU-s\n", res.Plain)
	for _, b := range o.Bounds {
		m, err := plan.Allocate("calibrate", o.Units, plan.Options{Variants: o.Variants, Bound: b, Strategy: o.Strategy, Seed: o.Seed, Weights: o.Weights})
		if err != nil {
			return nil, err
		}
		bins, err := build.Build(m, build.Options{Dir: o.Dir, Main: o.Main, Out: filepath.Join(work, fmt.Sprint(b)), Variants: []int{1}})
		if err != nil {
			return nil, err
		}
		cpu, err := o.measure(bins[0].Path)
		if err != nil {
			return nil, err
		}
		p := Point{Bound: b, CPU: cpu, Slowdown: cpu/res.Plain - 1}
		res.Points = append(res.Points, p)
		fmt.Fprintf(progress, "%d probes: %.3f CPU-s, %+.1f %%\n", b, cpu, 100*p.Slowdown)
		if p.Slowdown > o.Target {
			break
		}
		res.Bound = b
	}
	if res.Bound == 0 {
		return res, fmt.Errorf("even %d probes cost %.1f %%, over the target of %.1f %%", res.Points[0].Bound, 100*res.Points[0].Slowdown, 100*o.Target)
	}
	return res, nil
}

// measure runs the workload on bin Runs times and returns its least CPU time in seconds. The
// variant finds no collector in its environment, so it only counts.
func (o Options) measure(bin string) (float64, error) {
	best := time.Duration(-1)
	for range o.Runs {
		cmd := exec.Command(o.Workload[0], o.Workload[1:]...)
		cmd.Dir = o.Dir
		cmd.Env = append(os.Environ(), EnvBinary+"="+bin, "AUGUR_FIELD_URL=")
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Run(); err != nil {
			return 0, fmt.Errorf("the workload %v failed on %s: %v\n%s", o.Workload, filepath.Base(bin), err, tail(out.String()))
		}
		if t := cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime(); best < 0 || t < best {
			best = t
		}
	}
	return best.Seconds(), nil
}

func tail(s string) string {
	if len(s) > 2000 {
		return "..." + s[len(s)-2000:]
	}
	return s
}

// defaultBounds are 8, 16, 32, ... below n, then n.
func defaultBounds(n int) []int {
	var bs []int
	for b := 8; b < n; b *= 2 {
		bs = append(bs, b)
	}
	return append(bs, n)
}
