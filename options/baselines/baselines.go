// Package baselines owns the black-box baselines that augur's white-box models are compared
// against, as in ConfigCrusher's evaluation (Velez et al., AUSE 2020, Tables 5 and 6): brute
// force, feature-wise, pair-wise and random sampling, each followed by SPL Conqueror-style
// forward stepwise regression on end-to-end times, and the MAPE table comparing them.
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
	"time"

	"github.com/augur-perf/augur/options/compress"
	"github.com/augur-perf/augur/options/influence"
)

// Oracle measures one configuration (config[o] is option o's value) end to end and returns
// its time in seconds. The caller runs the program.
type Oracle func(config []bool) (seconds float64, err error)

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
	Approach string    `json:"approach"`
	Names    []string  `json:"options"`
	Configs  [][]bool  `json:"configurations"`
	Times    []float64 `json:"times"`
	// MeasuringTime is the sum of the oracle's times, in seconds.
	MeasuringTime float64 `json:"measuring_time"`
	// Wall is the wall-clock time spent in the oracle.
	Wall  time.Duration   `json:"wall"`
	Model influence.Model `json:"model"`
}

// BruteForce measures all 2^n configurations.
func BruteForce(names []string, oracle Oracle, opts Options) (Run, error) {
	n := len(names)
	if n > MaxBruteForce && !opts.Force {
		return Run{}, fmt.Errorf("baselines: brute force over %d options is 2^%d configurations; more than 2^%d needs Options.Force", n, n, MaxBruteForce)
	}
	if n >= 40 {
		return Run{}, fmt.Errorf("baselines: brute force over %d options cannot be enumerated", n)
	}
	total := 1 << n
	if opts.Budget > 0 && total > opts.Budget {
		return Run{}, fmt.Errorf("baselines: brute force needs %d configurations, budget %d: %w", total, opts.Budget, ErrBudget)
	}
	cfgs := make([][]bool, total)
	for mask := range cfgs {
		cfgs[mask] = maskConfig(n, uint64(mask))
	}
	return Measure("brute force", names, cfgs, oracle, opts)
}

// FeatureWise measures the all-off configuration and each option alone. It cannot see
// interactions, which is its point as a baseline.
func FeatureWise(names []string, oracle Oracle, opts Options) (Run, error) {
	n := len(names)
	cfgs := [][]bool{make([]bool, n)}
	for o := 0; o < n; o++ {
		c := make([]bool, n)
		c[o] = true
		cfgs = append(cfgs, c)
	}
	return Measure("feature-wise", names, cfgs, oracle, opts)
}

// PairWise measures a t=2 covering array: every pair of options in all four combinations,
// built by compress.Greedy over all pairs.
func PairWise(names []string, oracle Oracle, opts Options) (Run, error) {
	n := len(names)
	var sets [][]int
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			sets = append(sets, []int{i, j})
		}
	}
	if n == 1 {
		sets = [][]int{{0}}
	}
	cc, err := compress.Greedy(sets, n, compress.Options{Names: names})
	if err != nil {
		return Run{}, fmt.Errorf("baselines: pair-wise: %w", err)
	}
	cfgs := make([][]bool, len(cc))
	for k, c := range cc {
		cfgs[k] = make([]bool, n)
		for o := range c {
			cfgs[k][o] = c.Bool(o)
		}
	}
	return Measure("pair-wise", names, cfgs, oracle, opts)
}

// Random measures k distinct configurations drawn uniformly; equal seeds draw equal samples.
func Random(names []string, k int, seed uint64, oracle Oracle, opts Options) (Run, error) {
	n := len(names)
	if k <= 0 {
		return Run{}, fmt.Errorf("baselines: random sampling needs k > 0, got %d", k)
	}
	if n < 62 && uint64(k) > uint64(1)<<n {
		return Run{}, fmt.Errorf("baselines: %d distinct configurations asked of %d options (2^%d)", k, n, n)
	}
	if opts.Budget > 0 && k > opts.Budget {
		return Run{}, fmt.Errorf("baselines: random sampling of %d configurations, budget %d: %w", k, opts.Budget, ErrBudget)
	}
	rng := rand.New(rand.NewPCG(seed, 0x5851f42d4c957f2d))
	var cfgs [][]bool
	if n <= 20 && 2*k > 1<<n {
		// Dense samples: a partial Fisher–Yates shuffle avoids endless rejections.
		all := make([]uint64, 1<<n)
		for i := range all {
			all[i] = uint64(i)
		}
		for i := 0; i < k; i++ {
			j := i + rng.IntN(len(all)-i)
			all[i], all[j] = all[j], all[i]
			cfgs = append(cfgs, maskConfig(n, all[i]))
		}
	} else {
		seen := map[string]bool{}
		for len(cfgs) < k {
			c := make([]bool, n)
			key := make([]byte, n)
			for o := range c {
				c[o] = rng.IntN(2) == 1
				key[o] = '0'
				if c[o] {
					key[o] = '1'
				}
			}
			if seen[string(key)] {
				continue
			}
			seen[string(key)] = true
			cfgs = append(cfgs, c)
		}
	}
	return Measure(fmt.Sprintf("random (k=%d)", k), names, cfgs, oracle, opts)
}

// Measure runs the oracle on each configuration, within the budget, and fits a model with
// Stepwise. The approaches above are thin wrappers choosing configurations for it.
func Measure(approach string, names []string, cfgs [][]bool, oracle Oracle, opts Options) (Run, error) {
	if opts.Budget > 0 && len(cfgs) > opts.Budget {
		return Run{}, fmt.Errorf("baselines: %s needs %d configurations, budget %d: %w", approach, len(cfgs), opts.Budget, ErrBudget)
	}
	r := Run{Approach: approach, Names: names, Configs: cfgs, Times: make([]float64, len(cfgs))}
	start := time.Now()
	for k, c := range cfgs {
		if len(c) != len(names) {
			return Run{}, fmt.Errorf("baselines: %s: configuration %d has %d options, want %d", approach, k, len(c), len(names))
		}
		s, err := oracle(c)
		if err != nil {
			return Run{}, fmt.Errorf("baselines: %s: measuring %s: %w", approach, formatConfig(names, c), err)
		}
		if math.IsNaN(s) || math.IsInf(s, 0) || s < 0 {
			return Run{}, fmt.Errorf("baselines: %s: oracle returned %v seconds for %s", approach, s, formatConfig(names, c))
		}
		r.Times[k] = s
		r.MeasuringTime += s
	}
	r.Wall = time.Since(start)
	m, err := Stepwise(names, cfgs, r.Times, opts.Stepwise)
	if err != nil {
		return Run{}, fmt.Errorf("baselines: %s: %w", approach, err)
	}
	r.Model = m
	return r, nil
}

func maskConfig(n int, mask uint64) []bool {
	c := make([]bool, n)
	for o := range c {
		c[o] = mask&(1<<o) != 0
	}
	return c
}

func formatConfig(names []string, c []bool) string {
	s := "{"
	first := true
	for o, on := range c {
		if on {
			if !first {
				s += ","
			}
			s += names[o]
			first = false
		}
	}
	return s + "}"
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
