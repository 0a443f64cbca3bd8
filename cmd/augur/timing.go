package main

import (
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"runtime"
	"strconv"
	"strings"
	"syscall"

	"github.com/augur-perf/augur/analyze/predict"
	"github.com/augur-perf/augur/probe/instrument"
	"github.com/augur-perf/augur/probe/profile"
	"github.com/augur-perf/augur/report/text"
	"github.com/augur-perf/augur/source/frontend"
)

// timeOptions are the flags of a timed measurement.
type timeOptions struct {
	precision float64 // the relative half-width of the 95 % interval to reach
	maxRuns   int
	hz        int
}

func (o *timeOptions) register(fs *flag.FlagSet) {
	o.precision, o.maxRuns = 0.05, 20
	fs.Func("precision", "with --time: repeat the timed workload until the 95% interval of the expected time per call is within ± this (default 5%)", func(s string) error {
		p, err := parsePrecision(s)
		o.precision = p
		return err
	})
	fs.IntVar(&o.maxRuns, "max-runs", 20, "with --time: run the timed workload at most this many times")
	fs.IntVar(&o.hz, "hz", 1000, "with --time: CPU samples asked for per second of CPU (go test's own rate is 100; Linux gives at most its timer tick, often 250)")
}

// parsePrecision reads 5% or 0.05.
func parsePrecision(s string) (float64, error) {
	pct := strings.HasSuffix(s, "%")
	v, err := strconv.ParseFloat(strings.TrimSuffix(s, "%"), 64)
	if pct {
		v /= 100
	}
	if err != nil || !(v > 0 && v < 1) {
		return 0, fmt.Errorf("%q is not a precision between 0 and 100%% (5%% or 0.05)", s)
	}
	return v, nil
}

// A timeTarget is a prediction whose precision a timed measurement must reach: fn's expected
// time per call under counts f (the timed workload's own, or another usage profile's).
type timeTarget struct {
	fn    *frontend.Func
	f     *profile.Func
	label string
	// Of the optional targets (every function of a package, none named) only the one with the
	// most samples counts: the precision of helpers that take a few nanoseconds of it would need
	// a long workload and say little.
	optional bool
}

// timed is what the timed runs of a workload add up to.
type timed struct {
	runs int
	inv  map[string]uint64
	cpu  profile.CPU
	// cpuNS is the test binaries' CPU time as the kernel counted it, 0 if it could not.
	cpuNS int64
}

// nodeTime is fn's measured time per node, its counts f those of the same workload. With the
// kernel's count of CPU time, a sample stands for its share of that; otherwise for the period.
func (t *timed) nodeTime(fn *frontend.Func, f *profile.Func) *profile.NodeTime {
	per, total := float64(t.cpu.PeriodNS), 0.0
	if t.cpuNS > 0 && t.cpu.Samples > 0 {
		per, total = float64(t.cpuNS)/float64(t.cpu.Samples), float64(t.cpu.Samples)
	}
	return profile.FromCPU(fn.CFG, f, t.cpu.Funcs[fn.Name], t.inv[fn.Name], per, total)
}

// perCall is fn's measured time per call in the timed runs, with its standard error.
func (t *timed) perCall(fn *frontend.Func, f *profile.Func) (ns, se float64) {
	nt := t.nodeTime(fn, f)
	w := make([]float64, len(nt.NS))
	for id := range w {
		if nt.Runs[id] > 0 {
			w[id] = nt.Runs[id] / float64(t.inv[fn.Name])
			ns += w[id] * nt.NS[id]
		}
	}
	return ns, math.Sqrt(nt.Variance(w))
}

// measureTime runs the timing build of fns (the user's code and one call counter per function:
// see instrument.Time) with the workload until every target's relative standard error is within
// the precision, or maxRuns runs; counted holds the same workload's counts from the instrumented
// build. Progress and warnings go to stderr.
func measureTime(prog *frontend.Program, fns []*frontend.Func, counted *profile.Profile, w instrument.Workload,
	o timeOptions, targets []timeTarget, stderr io.Writer) (*timed, error) {
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigs)
	w.Interrupt = sigs
	t := &timed{inv: map[string]uint64{}}
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	exact := true
	for t.runs < o.maxRuns {
		m, err := instrument.Time(prog, fns, w, self, o.hz)
		if err != nil {
			return nil, err
		}
		if m.Signal != nil {
			sig, _ := m.Signal.(syscall.Signal)
			return nil, &interruptedError{sig: sig, what: "no time was measured"}
		}
		if m.ExitCode != 0 {
			return nil, &workloadError{code: m.ExitCode, tail: m.StderrTail}
		}
		t.runs++
		for name, n := range m.Invocations {
			t.inv[name] += n
		}
		t.cpu.Add(m.CPU)
		// The kernel's count is used only if every run has one.
		exact = exact && m.CPUTimeNS > 0
		t.cpuNS += m.CPUTimeNS
		if !exact {
			t.cpuNS = 0
		}
		for _, tg := range targets {
			if t.inv[tg.fn.Name] == 0 && !tg.optional {
				return nil, fmt.Errorf("the timed workload never called %s (the counted run did): is it deterministic?", tg.fn.Name)
			}
		}
		worst, at := t.worst(counted, targets)
		samples := int64(0)
		if at != nil {
			samples = t.cpu.Funcs[at.fn.Name].Total().Samples
			fmt.Fprintf(stderr, "augur: timed run %d: %s in %s of %d, expected time per call ±%s at 95%% (%s; target ±%s)\n",
				t.runs, text.Plural(int(samples), "CPU sample"), at.fn.Decl.Name.Name, t.cpu.Samples, pct(worst), at.label, pct(o.precision))
		}
		if worst <= o.precision {
			t.warnTiny(fns, stderr)
			return t, nil
		}
		if t.runs == 1 && samples < 100 {
			need := "more runs than --max-runs allows"
			if samples > 0 && !math.IsInf(worst, 1) {
				need = strconv.Itoa(int(math.Ceil(worst*worst/(o.precision*o.precision)))) + " runs"
			}
			per := float64(t.cpu.PeriodNS)
			if t.cpuNS > 0 && t.cpu.Samples > 0 {
				per = float64(t.cpuNS) / float64(t.cpu.Samples)
			}
			fmt.Fprintf(stderr, "augur: warning: the workload is too short to time: %s per run, each standing for %s of CPU; reaching ±%s takes %s: make it longer (go test -benchtime, -count)\n",
				text.Plural(int(samples), "CPU sample"), fmtNS(per), pct(o.precision), need)
		}
	}
	t.warnTiny(fns, stderr)
	worst, _ := t.worst(counted, targets)
	fmt.Fprintf(stderr, "augur: warning: the expected time per call is known to ±%s only after %s (target ±%s): raise --max-runs or lengthen the workload\n",
		pct(worst), text.Plural(t.runs, "run"), pct(o.precision))
	return t, nil
}

// tinyNS is the time per call under which the timing build's call counter (an increment of
// memory, about a nanosecond, and a chain of them in a loop of calls) is a noticeable part.
const tinyNS = 20

// warnTiny warns of the timed functions whose calls take under tinyNS.
func (t *timed) warnTiny(fns []*frontend.Func, stderr io.Writer) {
	if t.cpuNS == 0 || t.cpu.Samples == 0 {
		return
	}
	per := float64(t.cpuNS) / float64(t.cpu.Samples)
	for _, fn := range fns {
		n := t.cpu.Funcs[fn.Name].Total().Samples
		if inv := t.inv[fn.Name]; n > 0 && inv > 0 && float64(n)*per/float64(inv) < tinyNS {
			fmt.Fprintf(stderr, "augur: warning: %s takes %s per call: the timing build's call counter (about 1 ns) is a noticeable part of that; time its callers instead (--func)\n",
				fn.Decl.Name.Name, fmtNS(float64(n)*per/float64(inv)))
		}
	}
}

// worst gives the widest relative 95 % half-width of the targets' expected time per call (of
// the optional ones, only the most sampled counts), and which target has it.
func (t *timed) worst(counted *profile.Profile, targets []timeTarget) (float64, *timeTarget) {
	var hot *timeTarget
	for i, tg := range targets {
		if n := t.cpu.Funcs[tg.fn.Name].Total().Samples; tg.optional && n > 0 && (hot == nil || n > t.cpu.Funcs[hot.fn.Name].Total().Samples) {
			hot = &targets[i]
		}
	}
	worst, at := 0.0, (*timeTarget)(nil)
	for i, tg := range targets {
		if tg.optional && &targets[i] != hot {
			continue
		}
		p := z95 * predict.MeasuredPrecision(tg.fn, t.nodeTime(tg.fn, counted.Funcs[tg.fn.Name]), tg.f)
		if at == nil || p > worst {
			worst, at = p, &targets[i]
		}
	}
	return worst, at
}

// z95 is the normal quantile of a two-sided 95 % interval.
const z95 = 1.96

// pct prints a relative error as a percentage.
func pct(v float64) string {
	if math.IsInf(v, 1) || math.IsNaN(v) {
		return "∞"
	}
	return strconv.FormatFloat(100*v, 'f', 1, 64) + "%"
}

// fmtNS prints nanoseconds in a readable unit.
func fmtNS(ns float64) string {
	switch {
	case ns >= 1e9:
		return strconv.FormatFloat(ns/1e9, 'g', 3, 64) + " s"
	case ns >= 1e6:
		return strconv.FormatFloat(ns/1e6, 'g', 3, 64) + " ms"
	case ns >= 1e3:
		return strconv.FormatFloat(ns/1e3, 'g', 3, 64) + " µs"
	}
	return strconv.FormatFloat(ns, 'g', 3, 64) + " ns"
}

// timeFile records measured time for reuse (--rewards), with what it was measured on.
func timeFile(t *timed, fns []*frontend.Func, counted *profile.Profile, workload []string, dir string) *profile.TimeFile {
	tf := profile.NewTimeFile(profile.TimeInfo{Workload: workload, Runs: t.runs, Go: runtime.Version(),
		GOOS: runtime.GOOS, GOARCH: runtime.GOARCH, CPU: cpuName()})
	if dir == "" {
		dir, _ = os.Getwd()
	}
	for _, fn := range fns {
		if cf := counted.Funcs[fn.Name]; cf != nil && cf.Invocations > 0 {
			tf.Add(fn, t.nodeTime(fn, cf), t.cpu.Funcs[fn.Name], t.inv[fn.Name], dir)
		}
	}
	return tf
}

// cpuName is the processor's model name as /proc/cpuinfo gives it ("" where there is none).
func cpuName() string {
	data, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return ""
	}
	for _, line := range strings.Split(string(data), "\n") {
		if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return ""
}
