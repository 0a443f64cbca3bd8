// Package timing measures the time of Go functions as the models consume it: it runs the
// timing build of probe/instrument (the code as it is, one call counter per function, a CPU
// profile) again and again until the expected time per call of every target prediction is
// known to a precision, then gives each statement's time (profile.NodeTime) and the reusable
// rewards file (profile.TimeFile).
//
// It belongs to the analyze group: it judges precision with analyze/predict's standard
// errors and uses probe/instrument to run; it prints nothing but progress and warnings to the
// writer it is given.
package timing

import (
	"fmt"
	"io"
	"math"
	"os"
	"runtime"
	"strconv"
	"strings"

	"github.com/augur-perf/augur/analyze/predict"
	"github.com/augur-perf/augur/probe/instrument"
	"github.com/augur-perf/augur/probe/profile"
	"github.com/augur-perf/augur/source/frontend"
)

// Options say how long to time.
type Options struct {
	// Precision is the relative half-width of the 95 % interval to reach (0.05).
	Precision float64
	// MaxRuns bounds the timed runs.
	MaxRuns int
	// HZ is the CPU samples asked for per second of CPU.
	HZ int
}

// DefaultOptions are the command line's defaults: ±5 %, at most 20 runs, 1000 Hz.
var DefaultOptions = Options{Precision: 0.05, MaxRuns: 20, HZ: 1000}

// ParsePrecision reads 5% or 0.05.
func ParsePrecision(s string) (float64, error) {
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

// A Target is a prediction whose precision a timed measurement must reach: Fn's expected time
// per call under counts F (the timed workload's own, or another usage profile's).
type Target struct {
	Fn    *frontend.Func
	F     *profile.Func
	Label string
	// Of the optional targets (every function of a package, none named) only the one with the
	// most samples counts: the precision of helpers that take a few nanoseconds of it would need
	// a long workload and say little.
	Optional bool
}

// FuncTargets are the targets of a profiling run that also times its workload: every function
// of fns the counts p saw invoked. Functions the user named (named, by name) must reach the
// precision; when none is named, each is optional, so that the most sampled one sets the pace.
func FuncTargets(fns []*frontend.Func, p *profile.Profile, named map[string]bool) []Target {
	var ts []Target
	for _, fn := range fns {
		if f := p.Funcs[fn.Name]; f != nil && f.Invocations > 0 && (len(named) == 0 || named[fn.Name]) {
			ts = append(ts, Target{Fn: fn, F: f, Label: fn.Name, Optional: len(named) == 0})
		}
	}
	return ts
}

// ScenarioTargets are the targets of an analysis of fn under several profiles (the baseline
// first, then what-if scenarios, named by names): each profile that invoked fn must reach the
// precision.
func ScenarioTargets(fn *frontend.Func, profs []*profile.Profile, names []string) []Target {
	var ts []Target
	for i, p := range profs {
		if f := p.Funcs[fn.Name]; f != nil && f.Invocations > 0 {
			label := names[i]
			if i == 0 {
				label = "baseline"
			}
			ts = append(ts, Target{Fn: fn, F: f, Label: label})
		}
	}
	return ts
}

// Timed is what the timed runs of a workload add up to.
type Timed struct {
	Runs int
	// Inv counts each function's calls over the runs.
	Inv map[string]uint64
	CPU profile.CPU
	// CPUNS is the test binaries' CPU time as the kernel counted it, 0 if it could not.
	CPUNS int64
}

// NodeTime is fn's measured time per node, its counts f those of the same workload. With the
// kernel's count of CPU time, a sample stands for its share of that; otherwise for the period.
func (t *Timed) NodeTime(fn *frontend.Func, f *profile.Func) *profile.NodeTime {
	per, total := float64(t.CPU.PeriodNS), 0.0
	if t.CPUNS > 0 && t.CPU.Samples > 0 {
		per, total = float64(t.CPUNS)/float64(t.CPU.Samples), float64(t.CPU.Samples)
	}
	return profile.FromCPU(fn.CFG, f, t.CPU.Funcs[fn.Name], t.Inv[fn.Name], per, total)
}

// PerCall is fn's measured time per call in the timed runs, with its standard error.
func (t *Timed) PerCall(fn *frontend.Func, f *profile.Func) (ns, se float64) {
	nt := t.NodeTime(fn, f)
	w := make([]float64, len(nt.NS))
	for id := range w {
		if nt.Runs[id] > 0 {
			w[id] = nt.Runs[id] / float64(t.Inv[fn.Name])
			ns += w[id] * nt.NS[id]
		}
	}
	return ns, math.Sqrt(nt.Variance(w))
}

// Measure runs the timing build of fns (the user's code and one call counter per function:
// see instrument.Time) with the workload until every target's relative standard error is
// within the precision, or MaxRuns runs; counted holds the same workload's counts from the
// instrumented build. Progress and warnings go to log. A failed run is an
// *instrument.WorkloadError, an interrupted one an *instrument.InterruptedError.
func Measure(prog *frontend.Program, fns []*frontend.Func, counted *profile.Profile, w instrument.Workload,
	o Options, targets []Target, log io.Writer) (*Timed, error) {
	t := &Timed{Inv: map[string]uint64{}}
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	exact := true
	for t.Runs < o.MaxRuns {
		m, err := instrument.Time(prog, fns, w, self, o.HZ)
		if err != nil {
			return nil, err
		}
		if err := m.Err(); err != nil {
			if ie, ok := err.(*instrument.InterruptedError); ok {
				ie.What = "no time was measured"
			}
			return nil, err
		}
		t.Runs++
		for name, n := range m.Invocations {
			t.Inv[name] += n
		}
		t.CPU.Add(m.CPU)
		// The kernel's count is used only if every run has one.
		exact = exact && m.CPUTimeNS > 0
		t.CPUNS += m.CPUTimeNS
		if !exact {
			t.CPUNS = 0
		}
		for _, tg := range targets {
			if t.Inv[tg.Fn.Name] == 0 && !tg.Optional {
				return nil, fmt.Errorf("the timed workload never called %s (the counted run did): is it deterministic?", tg.Fn.Name)
			}
		}
		worst, at := t.worst(counted, targets)
		samples := int64(0)
		if at != nil {
			samples = t.CPU.Funcs[at.Fn.Name].Total().Samples
			fmt.Fprintf(log, "augur: timed run %d: %s in %s of %d, expected time per call ±%s at 95%% (%s; target ±%s)\n",
				t.Runs, plural(int(samples), "CPU sample"), at.Fn.Decl.Name.Name, t.CPU.Samples, pct(worst), at.Label, pct(o.Precision))
		}
		if worst <= o.Precision {
			t.warnTiny(fns, log)
			return t, nil
		}
		if t.Runs == 1 && samples < 100 {
			need := "more runs than --max-runs allows"
			if samples > 0 && !math.IsInf(worst, 1) {
				need = strconv.Itoa(int(math.Ceil(worst*worst/(o.Precision*o.Precision)))) + " runs"
			}
			per := float64(t.CPU.PeriodNS)
			if t.CPUNS > 0 && t.CPU.Samples > 0 {
				per = float64(t.CPUNS) / float64(t.CPU.Samples)
			}
			fmt.Fprintf(log, "augur: warning: the workload is too short to time: %s per run, each standing for %s of CPU; reaching ±%s takes %s: make it longer (go test -benchtime, -count)\n",
				plural(int(samples), "CPU sample"), FormatNS(per), pct(o.Precision), need)
		}
	}
	t.warnTiny(fns, log)
	worst, _ := t.worst(counted, targets)
	fmt.Fprintf(log, "augur: warning: the expected time per call is known to ±%s only after %s (target ±%s): raise --max-runs or lengthen the workload\n",
		pct(worst), plural(t.Runs, "run"), pct(o.Precision))
	return t, nil
}

// tinyNS is the time per call under which the timing build's call counter (an increment of
// memory, about a nanosecond, and a chain of them in a loop of calls) is a noticeable part.
const tinyNS = 20

// warnTiny warns of the timed functions whose calls take under tinyNS.
func (t *Timed) warnTiny(fns []*frontend.Func, log io.Writer) {
	if t.CPUNS == 0 || t.CPU.Samples == 0 {
		return
	}
	per := float64(t.CPUNS) / float64(t.CPU.Samples)
	for _, fn := range fns {
		n := t.CPU.Funcs[fn.Name].Total().Samples
		if inv := t.Inv[fn.Name]; n > 0 && inv > 0 && float64(n)*per/float64(inv) < tinyNS {
			fmt.Fprintf(log, "augur: warning: %s takes %s per call: the timing build's call counter (about 1 ns) is a noticeable part of that; time its callers instead (--func)\n",
				fn.Decl.Name.Name, FormatNS(float64(n)*per/float64(inv)))
		}
	}
}

// worst gives the widest relative 95 % half-width of the targets' expected time per call (of
// the optional ones, only the most sampled counts), and which target has it.
func (t *Timed) worst(counted *profile.Profile, targets []Target) (float64, *Target) {
	var hot *Target
	for i, tg := range targets {
		if n := t.CPU.Funcs[tg.Fn.Name].Total().Samples; tg.Optional && n > 0 && (hot == nil || n > t.CPU.Funcs[hot.Fn.Name].Total().Samples) {
			hot = &targets[i]
		}
	}
	worst, at := 0.0, (*Target)(nil)
	for i, tg := range targets {
		if tg.Optional && &targets[i] != hot {
			continue
		}
		p := z95 * predict.MeasuredPrecision(tg.Fn, t.NodeTime(tg.Fn, counted.Funcs[tg.Fn.Name]), tg.F)
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

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// FormatNS prints nanoseconds in a readable unit (three significant digits).
func FormatNS(ns float64) string {
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

// TimeFile records the measured time of fns for reuse (analyze --rewards), with what it was
// measured on: the workload, the runs, Go, the platform and the CPU; positions are relative to
// dir ("": the working directory).
func (t *Timed) TimeFile(fns []*frontend.Func, counted *profile.Profile, workload []string, dir string) *profile.TimeFile {
	tf := profile.NewTimeFile(profile.TimeInfo{Workload: workload, Runs: t.Runs, Go: runtime.Version(),
		GOOS: runtime.GOOS, GOARCH: runtime.GOARCH, CPU: cpuName()})
	if dir == "" {
		dir, _ = os.Getwd()
	}
	for _, fn := range fns {
		if cf := counted.Funcs[fn.Name]; cf != nil && cf.Invocations > 0 {
			tf.Add(fn, t.NodeTime(fn, cf), t.CPU.Funcs[fn.Name], t.Inv[fn.Name], dir)
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
