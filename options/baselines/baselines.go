// Package baselines owns the black-box baselines that augur's white-box models are compared
// against, as in ConfigCrusher's evaluation (Velez et al., AUSE 2020, Tables 5 and 6): brute
// force, feature-wise, pair-wise and random sampling, each followed by SPL Conqueror-style
// forward stepwise regression on end-to-end times, and the MAPE table comparing them. Options
// are boolean, numeric or categorical (a Space gives the numeric and categorical ones' values):
// every approach samples their values too, and the regression fits numeric options as SPL
// Conqueror does, with linear, logarithmic and quadratic terms, and categorical ones with a
// dummy variable [o = v] for each value but the first.
//
// It drives a measurement oracle the caller supplies and never runs, builds or instruments a
// program itself; it must not change how configurations are compressed (package compress) or
// how white-box models are built (package influence), only use them.
package baselines

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/augur-perf/augur/options/compress"
	"github.com/augur-perf/augur/options/influence"
)

// Oracle measures one configuration of boolean options (config[o] is option o's value) end to
// end and returns its time in seconds. The caller runs the program.
type Oracle func(config []bool) (seconds float64, err error)

// IndexOracle measures one configuration of a Space: config[o] is the index of option o's
// value (0 or 1 for a boolean option, an index into its values for a numeric or categorical
// one).
type IndexOracle func(config []int) (seconds float64, err error)

// Space is a configuration space: its options, the values of those that are numeric (in the
// order their indices count; the first is the numeric option's default, its value when "off")
// and of those that are categorical (likewise; the first is the reference value the
// regression's dummy variables are coded against). The rest are boolean.
type Space struct {
	Names  []string
	Values map[string][]float64
	Levels map[string][]string
}

// Domain is the number of values option o takes.
func (s Space) Domain(o int) int {
	if xs, ok := s.Values[s.Names[o]]; ok {
		return len(xs)
	}
	if vs, ok := s.Levels[s.Names[o]]; ok {
		return len(vs)
	}
	return 2
}

// categorical reports whether option o is categorical.
func (s Space) categorical(o int) bool {
	_, ok := s.Levels[s.Names[o]]
	return ok
}

// value is option o's value at index v: 0 or 1 for a boolean.
func (s Space) value(o, v int) float64 {
	if xs, ok := s.Values[s.Names[o]]; ok {
		return xs[v]
	}
	return float64(v)
}

// Size is the number of configurations, capped at 2^62.
func (s Space) Size() uint64 {
	total := uint64(1)
	for o := range s.Names {
		d := uint64(s.Domain(o))
		if d != 0 && total > (1<<62)/d {
			return 1 << 62
		}
		total *= d
	}
	return total
}

// Setting is configuration c as the influence package predicts it: boolean options on or off,
// numeric options' values (categorical options are left out: see SettingOf).
func (s Space) Setting(c []int) (influence.Config, map[string]float64) {
	set := s.SettingOf(c)
	return set.On, set.Num
}

// SettingOf is configuration c as influence.PredictSetting takes it: boolean options on or off,
// numeric and categorical options' values.
func (s Space) SettingOf(c []int) influence.Setting {
	set := influence.Setting{On: influence.Config{}}
	for o, v := range c {
		name := s.Names[o]
		if _, ok := s.Values[name]; ok {
			if set.Num == nil {
				set.Num = map[string]float64{}
			}
			set.Num[name] = s.value(o, v)
		} else if vs, ok := s.Levels[name]; ok {
			if set.Cat == nil {
				set.Cat = map[string]string{}
			}
			set.Cat[name] = vs[v]
		} else if v != 0 {
			set.On[name] = true
		}
	}
	return set
}

// boolean adapts a boolean oracle to configurations of value indices.
func boolean(oracle Oracle) IndexOracle {
	return func(c []int) (float64, error) {
		b := make([]bool, len(c))
		for o, v := range c {
			b[o] = v != 0
		}
		return oracle(b)
	}
}

// MaxBruteForce is the most options BruteForce enumerates without Options.Force: 2^16 runs is
// already days of measurement for most programs.
const MaxBruteForce = 16

// ErrBudget is returned (wrapped) when an approach needs more measurements than allowed.
var ErrBudget = errors.New("measurement budget exceeded")

// Options configures the sampling approaches.
type Options struct {
	// Budget is the most configurations an approach may measure; 0 means no limit.
	Budget int
	// Force lets BruteForce enumerate more than MaxBruteForce options.
	Force bool
	// Stepwise tunes the regression.
	Stepwise StepwiseOptions
}

// Run is what one approach measured and learned.
type Run struct {
	Approach string   `json:"approach"`
	Names    []string `json:"options"`
	// Configs are the configurations measured, as value indices (see IndexOracle).
	Configs [][]int   `json:"configurations"`
	Times   []float64 `json:"times"`
	// MeasuringTime is the sum of the oracle's times, in seconds.
	MeasuringTime float64 `json:"measuring_time"`
	// Wall is the wall-clock time spent in the oracle.
	Wall  time.Duration   `json:"wall"`
	Model influence.Model `json:"model"`
}

// BruteForce measures all 2^n configurations of n boolean options.
func BruteForce(names []string, oracle Oracle, opts Options) (Run, error) {
	return Space{Names: names}.BruteForce(boolean(oracle), opts)
}

// FeatureWise measures the all-off configuration and each boolean option alone.
func FeatureWise(names []string, oracle Oracle, opts Options) (Run, error) {
	return Space{Names: names}.FeatureWise(boolean(oracle), opts)
}

// PairWise measures a t=2 covering array of boolean options.
func PairWise(names []string, oracle Oracle, opts Options) (Run, error) {
	return Space{Names: names}.PairWise(boolean(oracle), opts)
}

// Random measures k distinct configurations of boolean options drawn uniformly.
func Random(names []string, k int, seed uint64, oracle Oracle, opts Options) (Run, error) {
	return Space{Names: names}.Random(k, seed, boolean(oracle), opts)
}

// BruteForce measures every configuration: 2^n for n boolean options, the product of the
// numbers of values with numeric or categorical ones.
func (s Space) BruteForce(oracle IndexOracle, opts Options) (Run, error) {
	n := len(s.Names)
	if n > MaxBruteForce && !opts.Force {
		return Run{}, fmt.Errorf("baselines: brute force over %d options is 2^%d configurations; more than 2^%d needs Options.Force", n, n, MaxBruteForce)
	}
	total := s.Size()
	if total >= 1<<40 {
		return Run{}, fmt.Errorf("baselines: brute force over %d options cannot be enumerated", n)
	}
	if opts.Budget > 0 && total > uint64(opts.Budget) {
		return Run{}, fmt.Errorf("baselines: brute force needs %d configurations, budget %d: %w", total, opts.Budget, ErrBudget)
	}
	cfgs := make([][]int, total)
	for k := range cfgs {
		cfgs[k] = s.Nth(uint64(k))
	}
	return s.Measure("brute force", cfgs, oracle, opts)
}

// Nth is configuration k in mixed-radix order, the first option varying fastest.
func (s Space) Nth(k uint64) []int {
	c := make([]int, len(s.Names))
	for o := range c {
		d := uint64(s.Domain(o))
		c[o] = int(k % d)
		k /= d
	}
	return c
}

// FeatureWise measures the default configuration (every boolean off, every numeric or
// categorical option at its first value), each boolean option alone, and each numeric or
// categorical option alone at each of its other values (one factor at a time, as SPL
// Conqueror's option-wise sampling for numeric options). It cannot see interactions, which is
// its point as a baseline.
func (s Space) FeatureWise(oracle IndexOracle, opts Options) (Run, error) {
	n := len(s.Names)
	cfgs := [][]int{make([]int, n)}
	for o := 0; o < n; o++ {
		for v := 1; v < s.Domain(o); v++ {
			c := make([]int, n)
			c[o] = v
			cfgs = append(cfgs, c)
		}
	}
	return s.Measure("feature-wise", cfgs, oracle, opts)
}

// PairWise measures a t=2 covering array: every pair of options in all combinations of their
// values, built by compress.Greedy over all pairs.
func (s Space) PairWise(oracle IndexOracle, opts Options) (Run, error) {
	n := len(s.Names)
	var sets [][]int
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			sets = append(sets, []int{i, j})
		}
	}
	if n == 1 {
		sets = [][]int{{0}}
	}
	domains := make([]int, n)
	for o := range domains {
		domains[o] = s.Domain(o)
	}
	cc, err := compress.Greedy(sets, n, compress.Options{Names: s.Names, Domains: domains})
	if err != nil {
		return Run{}, fmt.Errorf("baselines: pair-wise: %w", err)
	}
	cfgs := make([][]int, len(cc))
	for k, c := range cc {
		cfgs[k] = append([]int(nil), c...)
	}
	return s.Measure("pair-wise", cfgs, oracle, opts)
}

// Random measures k distinct configurations drawn uniformly (each option's value uniformly
// among its values); equal seeds draw equal samples.
func (s Space) Random(k int, seed uint64, oracle IndexOracle, opts Options) (Run, error) {
	n := len(s.Names)
	if k <= 0 {
		return Run{}, fmt.Errorf("baselines: random sampling needs k > 0, got %d", k)
	}
	total := s.Size()
	if uint64(k) > total {
		return Run{}, fmt.Errorf("baselines: %d distinct configurations asked of a space of %d", k, total)
	}
	if opts.Budget > 0 && k > opts.Budget {
		return Run{}, fmt.Errorf("baselines: random sampling of %d configurations, budget %d: %w", k, opts.Budget, ErrBudget)
	}
	rng := rand.New(rand.NewPCG(seed, 0x5851f42d4c957f2d))
	var cfgs [][]int
	if total <= 1<<20 && uint64(2*k) > total {
		// Dense samples: a partial Fisher–Yates shuffle avoids endless rejections.
		all := make([]uint64, total)
		for i := range all {
			all[i] = uint64(i)
		}
		for i := 0; i < k; i++ {
			j := i + rng.IntN(len(all)-i)
			all[i], all[j] = all[j], all[i]
			cfgs = append(cfgs, s.Nth(all[i]))
		}
	} else {
		seen := map[string]bool{}
		for len(cfgs) < k {
			c := make([]int, n)
			for o := range c {
				c[o] = rng.IntN(s.Domain(o))
			}
			if key := fmt.Sprint(c); !seen[key] {
				seen[key] = true
				cfgs = append(cfgs, c)
			}
		}
	}
	return s.Measure(fmt.Sprintf("random (k=%d)", k), cfgs, oracle, opts)
}

// Measure runs the oracle on each configuration, within the budget, and fits a model with
// Stepwise. The approaches above are thin wrappers choosing configurations for it.
func (s Space) Measure(approach string, cfgs [][]int, oracle IndexOracle, opts Options) (Run, error) {
	if opts.Budget > 0 && len(cfgs) > opts.Budget {
		return Run{}, fmt.Errorf("baselines: %s needs %d configurations, budget %d: %w", approach, len(cfgs), opts.Budget, ErrBudget)
	}
	r := Run{Approach: approach, Names: s.Names, Configs: cfgs, Times: make([]float64, len(cfgs))}
	start := time.Now()
	for k, c := range cfgs {
		if len(c) != len(s.Names) {
			return Run{}, fmt.Errorf("baselines: %s: configuration %d has %d options, want %d", approach, k, len(c), len(s.Names))
		}
		t, err := oracle(c)
		if err != nil {
			return Run{}, fmt.Errorf("baselines: %s: measuring %s: %w", approach, s.format(c), err)
		}
		if math.IsNaN(t) || math.IsInf(t, 0) || t < 0 {
			return Run{}, fmt.Errorf("baselines: %s: oracle returned %v seconds for %s", approach, t, s.format(c))
		}
		r.Times[k] = t
		r.MeasuringTime += t
	}
	r.Wall = time.Since(start)
	m, err := s.Stepwise(cfgs, r.Times, opts.Stepwise)
	if err != nil {
		return Run{}, fmt.Errorf("baselines: %s: %w", approach, err)
	}
	r.Model = m
	return r, nil
}

// format writes c as {A,B,n=4,mode=fast}: the boolean options on and every numeric and
// categorical option's value.
func (s Space) format(c []int) string {
	var parts []string
	for o, v := range c {
		name := s.Names[o]
		if _, ok := s.Values[name]; ok {
			parts = append(parts, fmt.Sprintf("%s=%v", name, s.value(o, v)))
		} else if vs, ok := s.Levels[name]; ok && v < len(vs) {
			parts = append(parts, name+"="+vs[v])
		} else if v != 0 {
			parts = append(parts, name)
		}
	}
	return "{" + strings.Join(parts, ",") + "}"
}

// ToInfluence converts a boolean configuration to the influence package's form.
func ToInfluence(names []string, c []bool) influence.Config {
	out := influence.Config{}
	for o, on := range c {
		if on {
			out[names[o]] = true
		}
	}
	return out
}
