package runner

import (
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/augur-perf/augur/options/baselines"
	"github.com/augur-perf/augur/options/compress"
	"github.com/augur-perf/augur/options/influence"
	"github.com/augur-perf/augur/options/regions"
	"github.com/augur-perf/augur/options/sources"
)

// RegionRuns are one region's measurements, ready for influence.LocalModel.
type RegionRuns struct {
	Region influence.Region
	Runs   []influence.Measurement
}

// Time says which time of a region a model is built from.
type Time int

const (
	// Wall is the region's share of the program's wall time
	// (timing.RegionTime.WallNs): the regions' shares and the base region
	// add up to the run's wall time.
	Wall Time = iota
	// CPU is the region's CPU time summed over the goroutines it ran on
	// (timing.RegionTime.CPUNs, read from the threads' CPU clocks): time a
	// goroutine spent blocked, asleep or waiting for a core is not in it.
	// The base region is the rest of the process's CPU time (user and
	// system, as the kernel counts it): start-up, the runtime, and code
	// outside every region, so the terms add up to the process's CPU time.
	// Only builds with timing.Build.CPU have it.
	CPU
)

// String names the time as model files and printouts do.
func (t Time) String() string {
	if t == CPU {
		return "CPU time summed over goroutines"
	}
	return "wall"
}

// Measurements turns r into one table per region: the base region 0
// ("base", no options) first, then regs in order, each run's time of the
// region as t says. Each configuration gives
// each region one measurement, the median of its repetitions: on a shared
// machine an occasional slow process start or a late timer would otherwise
// move a configuration's mean, and with it every coefficient that
// configuration decides. Numeric options (three or more numeric values) carry their value in
// Num, categorical options (Result.Categorical) theirs in Cat; the others are read as
// booleans: value index > 0 is on.
func Measurements(r *Result, regs []regions.Region, t Time) []RegionRuns {
	out := []RegionRuns{{Region: influence.Region{Name: "base", Options: []string{}}}}
	for _, g := range regs {
		out = append(out, RegionRuns{Region: influence.Region{
			Name:     fmt.Sprintf("R%d", g.ID),
			Position: fmt.Sprintf("%s:%d:%d", g.Start.Filename, g.Start.Line, g.Start.Column),
			Options:  g.Options,
		}})
	}
	idx := map[int]int{0: 0}
	for i, g := range regs {
		idx[g.ID] = i + 1
	}
	for _, c := range r.Configs {
		cfg := influence.Config{}
		var num map[string]float64
		var cat map[string]string
		for i, name := range r.Options {
			v := 0
			if i < len(c.Config) {
				v = c.Config[i]
			}
			if xs, ok := r.Numeric[name]; ok && v < len(xs) {
				if num == nil {
					num = map[string]float64{}
				}
				num[name] = xs[v]
			} else if vs, ok := r.Categorical[name]; ok && v < len(vs) {
				if cat == nil {
					cat = map[string]string{}
				}
				cat[name] = vs[v]
			} else if v > 0 {
				cfg[name] = true
			}
		}
		samples := make([][]float64, len(out))
		for _, run := range c.Runs {
			if run.Times == nil {
				continue
			}
			var sum, cpu int64
			for _, rt := range run.Times.Regions {
				if rt.ID != 0 {
					sum += rt.WallNs
					cpu += rt.CPUNs
				}
			}
			for _, rt := range run.Times.Regions {
				k, ok := idx[rt.ID]
				if !ok {
					continue
				}
				ns := rt.WallNs
				switch {
				case rt.ID == 0 && t == CPU:
					ns = run.CPUNs - cpu
				case rt.ID == 0:
					// The base region is the rest of the program, as the baselines measure it:
					// start-up and exit included, not just main's own code.
					ns = run.WallNs - sum
				case t == CPU:
					ns = rt.CPUNs
				}
				samples[k] = append(samples[k], float64(ns)/1e9)
			}
		}
		for k, xs := range samples {
			if len(xs) > 0 {
				out[k].Runs = append(out[k].Runs, influence.Measurement{Config: cfg, Num: num, Cat: cat, Seconds: Median(xs), SE: MedianSE(xs)})
			}
		}
	}
	return out
}

// MedianSE is the standard error of the median of xs, √(π/2)·s/√n for normal noise with
// sample deviation s; 0 for fewer than two values.
func MedianSE(xs []float64) float64 {
	n := len(xs)
	if n < 2 {
		return 0
	}
	var mean float64
	for _, x := range xs {
		mean += x
	}
	mean /= float64(n)
	var ss float64
	for _, x := range xs {
		ss += (x - mean) * (x - mean)
	}
	return math.Sqrt(math.Pi/2) * math.Sqrt(ss/float64(n-1)) / math.Sqrt(float64(n))
}

// Median of xs (which it sorts); the mean of the middle two for an even count.
func Median(xs []float64) float64 {
	sort.Float64s(xs)
	n := len(xs)
	if n%2 == 1 {
		return xs[n/2]
	}
	return (xs[n/2-1] + xs[n/2]) / 2
}

// Kinds gives the values of the options of set that are numeric (NumericOption) and of those
// that are categorical (CategoricalOption); nil maps when there are none.
func Kinds(set *sources.Set) (numeric map[string][]float64, categorical map[string][]string) {
	for _, opt := range set.Options {
		if xs, ok := NumericOption(opt); ok {
			if numeric == nil {
				numeric = map[string][]float64{}
			}
			numeric[opt.Name] = xs
		} else if CategoricalOption(opt) {
			if categorical == nil {
				categorical = map[string][]string{}
			}
			categorical[opt.Name] = append([]string(nil), opt.Values...)
		}
	}
	return numeric, categorical
}

// NumericOption gives an option's values as numbers when it is numeric: not boolean, not
// declared categorical, and with three or more values that are all numbers or durations
// (NumericValues). Its time is then a curve in its value.
func NumericOption(o *sources.Option) ([]float64, bool) {
	if o.IsBool() || o.Categorical {
		return nil, false
	}
	return NumericValues(o.Values)
}

// CategoricalOption reports whether an option's values are categories, an unordered set: it
// was declared so (sources.Option.Categorical, two or more values), or it has three or more
// values that are not all numbers. Each of its values but the first gets its own terms.
// Options of two values that are not declared categorical are two levels, read as booleans.
func CategoricalOption(o *sources.Option) bool {
	if o.IsBool() || len(o.Values) < 2 {
		return false
	}
	if o.Categorical {
		return true
	}
	_, numeric := NumericValues(o.Values)
	return len(o.Values) >= 3 && !numeric
}

// NumericValues reads an option's values as numbers — plain numbers or Go durations (in
// seconds) — when there are three or more and every one is a number: such an option gets a
// curve (influence.NumericLocalModel) rather than levels.
func NumericValues(values []string) ([]float64, bool) {
	if len(values) < 3 {
		return nil, false
	}
	xs := make([]float64, len(values))
	for i, v := range values {
		x, err := strconv.ParseFloat(v, 64)
		if err != nil {
			d, derr := time.ParseDuration(v)
			if derr != nil {
				return nil, false
			}
			x = d.Seconds()
		}
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return nil, false
		}
		xs[i] = x
	}
	return xs, true
}

// Model builds every region's local model of the time t and sums them (influence.Global).
func Model(r *Result, regs []regions.Region, t Time) (influence.Model, []influence.Local, error) {
	var locals []influence.Local
	for _, rr := range Measurements(r, regs, t) {
		var numeric []string
		for _, o := range rr.Region.Options {
			if _, ok := r.Numeric[o]; ok {
				numeric = append(numeric, o)
			}
		}
		var l influence.Local
		var err error
		switch len(numeric) {
		case 0:
			l, err = influence.MixedLocalModel(rr.Region, influence.Kinds{Levels: r.Categorical}, rr.Runs)
		case 1:
			l, err = influence.MixedLocalModel(rr.Region, influence.Kinds{Numeric: numeric[0], Levels: r.Categorical}, rr.Runs)
		default:
			err = fmt.Errorf("numeric options %s interact in one region; a curve over two numeric options is not modelled: give one of them two values (a low and a high level), declare it categorical (--values NAME:cat=v1,v2,...) or fix it with --fixed", strings.Join(numeric, " and "))
		}
		if err != nil {
			return influence.Model{}, nil, fmt.Errorf("%s (%s): %v", rr.Region.Position, rr.Region.Name, err)
		}
		locals = append(locals, l)
	}
	return influence.Global(locals...), locals, nil
}

// Oracle returns a baselines.IndexOracle that measures one configuration
// (the index of each option's value, in Setup.Options order) end to end
// (one run, repetition 0, cached in o.CacheDir like Run's runs) with the
// binary built once here. close removes the binary.
func Oracle(ctx context.Context, s Setup, o Options) (oracle baselines.IndexOracle, close func() error, err error) {
	b, err := build(ctx, s, o)
	if err != nil {
		return nil, nil, err
	}
	oracle = func(config []int) (float64, error) {
		c := compress.Config(config)
		in, err := invocation(s, c)
		if err != nil {
			return 0, err
		}
		key := cacheKey(b, in, c, 0)
		if rec := loadCache(o.CacheDir, key); rec != nil {
			return float64(rec.WallNs) / 1e9, nil
		}
		rec, err := runOnce(ctx, s, b, in, o)
		if err != nil {
			return 0, err
		}
		if err := storeCache(o.CacheDir, key, rec); err != nil {
			return 0, err
		}
		return float64(rec.WallNs) / 1e9, nil
	}
	return oracle, func() error { return os.RemoveAll(b.tmp) }, nil
}

// bar is a progress bar: redrawn in place on a terminal, a plain line per
// tenth of the work otherwise (logs stay readable).
type bar struct {
	w        io.Writer
	total    int
	n        int
	tty      bool
	lastTick int
}

func newBar(w io.Writer, total int) *bar {
	b := &bar{w: w, total: total, lastTick: -1}
	if f, ok := w.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 {
			b.tty = true
		}
	}
	return b
}

func (b *bar) set(n int) {
	if b.w == nil || b.total == 0 {
		return
	}
	b.n = n
	if b.tty {
		const width = 30
		fill := width * n / b.total
		fmt.Fprintf(b.w, "\rruns [%s%s] %d/%d", strings.Repeat("=", fill), strings.Repeat(" ", width-fill), n, b.total)
		return
	}
	if tick := 10 * n / b.total; tick != b.lastTick {
		b.lastTick = tick
		fmt.Fprintf(b.w, "runs: %d/%d (%d%%)\n", n, b.total, 100*n/b.total)
	}
}

func (b *bar) done() {
	if b.w != nil && b.tty && b.total > 0 {
		fmt.Fprintln(b.w)
	}
}
