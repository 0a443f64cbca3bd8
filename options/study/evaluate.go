package study

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"

	"github.com/augur-perf/augur/options/baselines"
	"github.com/augur-perf/augur/options/runner"
	"github.com/augur-perf/augur/options/taint"
)

// EvaluateOptions control Evaluate.
type EvaluateOptions struct {
	Target Target
	// System names the program in the table (the package patterns, say).
	System string
	// Model, when given, is ConfigCrusher's row: a model Measure built.
	Model *ModelFile
	// HeldOut is the number of held-out configurations for the ground truth (0: all 2^n when
	// n ≤ baselines.MaxBruteForce, else 50).
	HeldOut int
	// RandomK is the number of configurations random sampling measures (0: as many as
	// pair-wise).
	RandomK int
	// Reps runs per configuration, averaged (default 1).
	Reps int
	// Seed draws the random sample and the held-out configurations.
	Seed uint64
	// NoBrute skips brute force even for programs small enough for it.
	NoBrute bool
	// ConfigTemplate and ConfigName give the configuration file for options set by a file key
	// (runner.Setup).
	ConfigTemplate, ConfigName string
	// Progress receives one line per approach and every 100 configurations (nil: none).
	Progress io.Writer
}

// Evaluation is Evaluate's answer.
type Evaluation struct {
	baselines.Table
	// Options are the boolean options the black-box approaches vary.
	Options []string `json:"options"`
	Reps    int      `json:"reps"`
	HeldOut int      `json:"held_out"`
}

// Evaluate compares ConfigCrusher's white-box model with black-box baselines as the paper's
// Tables 5 and 6 do: brute force (for at most baselines.MaxBruteForce options), feature-wise,
// pair-wise and random sampling, each followed by stepwise regression on end-to-end times of
// the plain program (built once, no timing probes), against fresh runs of held-out
// configurations.
func Evaluate(ctx context.Context, dir string, res *taint.Result, o EvaluateOptions) (*Evaluation, error) {
	reps := o.Reps
	if reps == 0 {
		reps = 1
	}
	if reps < 1 {
		return nil, fmt.Errorf("--reps %d: want at least 1", reps)
	}
	// The black-box approaches see every boolean option, relevant or not, as the paper's do.
	var names []string
	var index []int // position of each of names among all options
	for i, opt := range res.Options.Options {
		if opt.IsBool() {
			names = append(names, opt.Name)
			index = append(index, i)
		}
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("no boolean options found in %s", o.System)
	}
	if o.Model != nil {
		for _, name := range o.Model.Model.Options() {
			if !slices.Contains(names, name) {
				return nil, fmt.Errorf("the model's option %q is not a boolean option of %s", name, o.System)
			}
		}
	}
	if dir == "" {
		dir = "."
	}
	setup := runner.Setup{Dir: dir, Build: []string{"go", "build", "-o", "BIN", o.Target.Pkg}, Args: o.Target.Args, Options: res.Options,
		ConfigTemplate: o.ConfigTemplate, ConfigName: o.ConfigName}
	once, closeBin, err := runner.Oracle(ctx, setup, runner.Options{})
	if err != nil {
		return nil, err
	}
	defer closeBin()
	progress := o.Progress
	label, runs := "", 0
	measure := func(cfg []bool) (float64, error) {
		full := make([]bool, len(res.Options.Options))
		for i, on := range cfg {
			full[index[i]] = on
		}
		total := 0.0
		for r := 0; r < reps; r++ {
			v, err := once(full)
			if err != nil {
				return 0, err
			}
			total += v
		}
		runs++
		if progress != nil && runs%100 == 0 {
			fmt.Fprintf(progress, "  %s: %d configurations measured\n", label, runs)
		}
		return total / float64(reps), nil
	}
	// The approaches share one cache, so a configuration two of them measure runs once;
	// each still counts the time it would have cost.
	cache := map[string]float64{}
	cached := func(cfg []bool) (float64, error) {
		key := fmt.Sprint(cfg)
		if v, ok := cache[key]; ok {
			return v, nil
		}
		v, err := measure(cfg)
		if err == nil {
			cache[key] = v
		}
		return v, err
	}
	n := len(names)
	var entries []baselines.Entry
	step := func(name string, f func() (baselines.Run, error)) error {
		if progress != nil {
			fmt.Fprintf(progress, "evaluate: %s...\n", name)
		}
		label, runs = name, 0
		r, err := f()
		if err != nil {
			return fmt.Errorf("%s: %v", name, err)
		}
		entries = append(entries, r.Entry())
		return nil
	}
	if o.Model != nil {
		entries = append(entries, baselines.Entry{Approach: "ConfigCrusher (white-box)", Configs: len(o.Model.Configs), MeasuringTime: o.Model.Measuring, Model: o.Model.Model})
	}
	bopts := baselines.Options{}
	if n <= baselines.MaxBruteForce && !o.NoBrute {
		if err := step("brute force", func() (baselines.Run, error) { return baselines.BruteForce(names, cached, bopts) }); err != nil {
			return nil, err
		}
	}
	if err := step("feature-wise", func() (baselines.Run, error) { return baselines.FeatureWise(names, cached, bopts) }); err != nil {
		return nil, err
	}
	pairs := 0
	if err := step("pair-wise", func() (baselines.Run, error) {
		r, err := baselines.PairWise(names, cached, bopts)
		pairs = len(r.Configs)
		return r, err
	}); err != nil {
		return nil, err
	}
	k := o.RandomK
	if k == 0 {
		k = max(pairs, 2)
	}
	if n < 62 {
		k = min(k, 1<<n)
	}
	if err := step("random", func() (baselines.Run, error) { return baselines.Random(names, k, o.Seed, cached, bopts) }); err != nil {
		return nil, err
	}
	// Ground truth: fresh runs, not the cache, so no approach is judged on its own measurements.
	held := HeldOutSample(n, o.HeldOut, o.Seed)
	if progress != nil {
		fmt.Fprintf(progress, "evaluate: ground truth on %d held-out configurations...\n", len(held))
	}
	label, runs = "held-out", 0
	truth := make([]float64, len(held))
	for i, cfg := range held {
		if truth[i], err = measure(cfg); err != nil {
			return nil, err
		}
	}
	tab, err := baselines.Evaluate(o.System, names, entries, held, truth)
	if err != nil {
		return nil, err
	}
	return &Evaluation{Table: tab, Options: names, Reps: reps, HeldOut: len(held)}, nil
}

// HeldOutSample is every configuration of n boolean options when k is 0 (or at least 2^n) and
// n ≤ baselines.MaxBruteForce, else k distinct configurations (50 when k is 0) drawn with the
// seed.
func HeldOutSample(n, k int, seed uint64) [][]bool {
	if n <= baselines.MaxBruteForce && (k == 0 || k >= 1<<n) {
		var out [][]bool
		for m := 0; m < 1<<n; m++ {
			out = append(out, maskBools(n, uint64(m)))
		}
		return out
	}
	if k == 0 {
		k = 50
	}
	rng := rand.New(rand.NewPCG(seed^0x9e3779b97f4a7c15, 7))
	seen := map[string]bool{}
	var out [][]bool
	for len(out) < k {
		cfg := make([]bool, n)
		for i := range cfg {
			cfg[i] = rng.IntN(2) == 1
		}
		if key := fmt.Sprint(cfg); !seen[key] {
			seen[key] = true
			out = append(out, cfg)
		}
	}
	return out
}

func maskBools(n int, m uint64) []bool {
	c := make([]bool, n)
	for i := range c {
		c[i] = m>>i&1 == 1
	}
	return c
}
