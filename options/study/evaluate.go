package study

import (
	"context"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"

	"github.com/augur-perf/augur/options/baselines"
	"github.com/augur-perf/augur/options/compress"
	"github.com/augur-perf/augur/options/influence"
	"github.com/augur-perf/augur/options/runner"
	"github.com/augur-perf/augur/options/sources"
	"github.com/augur-perf/augur/options/taint"
)

// EvaluateOptions control Evaluate.
type EvaluateOptions struct {
	Target Target
	// System names the program in the table (the package patterns, say).
	System string
	// Model, when given, is ConfigCrusher's row: a model Measure built.
	Model *ModelFile
	// HeldOut is the number of held-out configurations for the ground truth (0: every
	// configuration when there are at most 2^baselines.MaxBruteForce, else 50).
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
	// Options are the options the black-box approaches vary, Numeric the values they sample of
	// those that are numeric (three or more numeric --values) and Categorical of those that are
	// categorical (runner.CategoricalOption); the rest have two levels (booleans: false and
	// true).
	Options     []string             `json:"options"`
	Numeric     map[string][]float64 `json:"numeric,omitempty"`
	Categorical map[string][]string  `json:"categorical,omitempty"`
	Reps        int                  `json:"reps"`
	HeldOut     int                  `json:"held_out"`
}

// Evaluate compares ConfigCrusher's white-box model with black-box baselines as the paper's
// Tables 5 and 6 do: brute force (for at most 2^baselines.MaxBruteForce configurations), feature-wise,
// pair-wise and random sampling, each followed by stepwise regression on end-to-end times of
// the plain program (built once, no timing probes), against fresh runs of held-out
// configurations. Numeric and categorical options are varied over their values by every
// approach and by the held-out sample, as the white-box model was measured over them; a model
// that reads an option as another kind, or was measured at other categorical values, is an
// error before anything runs.
func Evaluate(ctx context.Context, dir string, res *taint.Result, o EvaluateOptions) (*Evaluation, error) {
	reps := o.Reps
	if reps == 0 {
		reps = 1
	}
	if reps < 1 {
		return nil, fmt.Errorf("--reps %d: want at least 1", reps)
	}
	// The black-box approaches see every option, relevant or not, as the paper's do: the
	// booleans, options of two values (two levels, as the white-box model reads them), numeric
	// options over their values and categorical ones over theirs.
	space := baselines.Space{Values: map[string][]float64{}, Levels: map[string][]string{}}
	var index []int // position of each option of the space among all options
	for i, opt := range res.Options.Options {
		xs, numeric := runner.NumericOption(opt)
		categorical := runner.CategoricalOption(opt)
		if opt.IsBool() || numeric || categorical || len(opt.Values) == 2 {
			space.Names = append(space.Names, opt.Name)
			index = append(index, i)
		}
		switch {
		case numeric:
			space.Values[opt.Name] = xs
		case categorical:
			space.Levels[opt.Name] = opt.Values
		}
	}
	names := space.Names
	if len(names) == 0 {
		return nil, fmt.Errorf("no boolean options, and no options with values, found in %s", o.System)
	}
	if o.Model != nil {
		for _, name := range o.Model.Model.Options() {
			if !slices.Contains(names, name) {
				return nil, fmt.Errorf("the model's option %q is not an option of %s that the baselines vary", name, o.System)
			}
			if err := sameKind(o.Model, space, name); err != nil {
				return nil, err
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
	measure := func(cfg []int) (float64, error) {
		full := make(compress.Config, len(res.Options.Options))
		for i, v := range cfg {
			full[index[i]] = v
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
	cached := func(cfg []int) (float64, error) {
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
	// Brute force for spaces of at most 2^MaxBruteForce configurations, numeric values counted.
	if space.Size() <= 1<<baselines.MaxBruteForce && !o.NoBrute {
		if err := step("brute force", func() (baselines.Run, error) { return space.BruteForce(cached, bopts) }); err != nil {
			return nil, err
		}
	}
	if err := step("feature-wise", func() (baselines.Run, error) { return space.FeatureWise(cached, bopts) }); err != nil {
		return nil, err
	}
	pairs := 0
	if err := step("pair-wise", func() (baselines.Run, error) {
		r, err := space.PairWise(cached, bopts)
		pairs = len(r.Configs)
		return r, err
	}); err != nil {
		return nil, err
	}
	k := o.RandomK
	if k == 0 {
		k = max(pairs, 2)
	}
	k = int(min(uint64(k), space.Size()))
	if err := step("random", func() (baselines.Run, error) { return space.Random(k, o.Seed, cached, bopts) }); err != nil {
		return nil, err
	}
	// Ground truth: fresh runs, not the cache, so no approach is judged on its own measurements.
	held := HeldOutSample(space, o.HeldOut, o.Seed)
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
	tab, err := space.Evaluate(o.System, entries, held, truth)
	if err != nil {
		return nil, err
	}
	ev := &Evaluation{Table: tab, Options: names, Reps: reps, HeldOut: len(held)}
	if len(space.Values) > 0 {
		ev.Numeric = space.Values
	}
	if len(space.Levels) > 0 {
		ev.Categorical = space.Levels
	}
	return ev, nil
}

// sameKind checks that the space varies a model's option as the model was measured: a
// categorical option over values the model measured, a numeric one as numbers, a boolean or
// two-level one as two levels. A mismatch would make every prediction an error or a misreading.
func sameKind(mf *ModelFile, space baselines.Space, name string) error {
	vs, spaceCat := space.Levels[name]
	_, spaceNum := space.Values[name]
	modelCat, modelNum := mf.IsCategorical(name), mf.IsNumeric(name)
	kind := func(cat, num bool) string {
		switch {
		case cat:
			return "categorical"
		case num:
			return "numeric"
		}
		return "two levels"
	}
	if modelCat != spaceCat || modelNum != spaceNum {
		hint := ""
		if modelCat {
			hint = fmt.Sprintf(" (give --values %s%s=%s, as measure had)", name, CategoricalMarker, strings.Join(mf.Levels(name), ","))
		}
		return &sources.DeclError{Msg: fmt.Sprintf("the model reads option %s as %s, the --values given here as %s%s", name, kind(modelCat, modelNum), kind(spaceCat, spaceNum), hint)}
	}
	if modelCat {
		for _, v := range vs {
			if !slices.Contains(mf.Levels(name), v) {
				return &sources.DeclError{Msg: fmt.Sprintf("--values %s: %s=%s was never measured by the model (measured at %s only)", name, name, v, strings.Join(mf.Levels(name), ", "))}
			}
		}
	}
	return nil
}

// HeldOutSample is every configuration of the space when k is 0 (or at least the space's size)
// and the space holds at most 2^baselines.MaxBruteForce configurations, else k distinct
// configurations (50 when k is 0) drawn with the seed, each option's value uniformly.
func HeldOutSample(space baselines.Space, k int, seed uint64) [][]int {
	size := space.Size()
	if size <= 1<<baselines.MaxBruteForce && (k == 0 || uint64(k) >= size) {
		out := make([][]int, size)
		for m := range out {
			out[m] = space.Nth(uint64(m))
		}
		return out
	}
	if k == 0 {
		k = 50
	}
	k = int(min(uint64(k), size))
	rng := rand.New(rand.NewPCG(seed^0x9e3779b97f4a7c15, 7))
	seen := map[string]bool{}
	var out [][]int
	for len(out) < k {
		cfg := make([]int, len(space.Names))
		for i := range cfg {
			cfg[i] = rng.IntN(space.Domain(i))
		}
		if key := fmt.Sprint(cfg); !seen[key] {
			seen[key] = true
			out = append(out, cfg)
		}
	}
	return out
}

// ValueCheck is one configuration with held-out values of the numeric options: the model's
// prediction against the median of fresh end-to-end runs of the plain program.
type ValueCheck struct {
	Setting   string  `json:"setting"`
	Predicted float64 `json:"predicted_s"`
	Measured  float64 `json:"measured_s"`
	// Error is |predicted − measured| / measured; Extrapolated is set outside the measured range.
	Error        float64 `json:"relative_error"`
	Extrapolated bool    `json:"extrapolated,omitempty"`
}

// ValuesEvaluation is EvaluateValues's answer.
type ValuesEvaluation struct {
	Checks []ValueCheck `json:"checks"`
	// MAPE is the mean of the checks' relative errors, in percent.
	MAPE float64 `json:"mape_percent"`
}

// EvaluateValues measures how well a model predicts values of its numeric options that were never
// measured: every assignment of the model's boolean options with every combination of the
// held-out values (option → values) is run end to end (reps runs, the median kept) on the plain
// program and compared with the model's prediction.
func EvaluateValues(ctx context.Context, dir string, res *taint.Result, mf *ModelFile, heldOut map[string][]string, o EvaluateOptions) (*ValuesEvaluation, error) {
	if len(heldOut) == 0 {
		return nil, &sources.DeclError{Msg: "no held-out values given (NAME=v1,v2,...)"}
	}
	held := map[string][]float64{}
	for name, vs := range heldOut {
		if mf.IsCategorical(name) {
			return nil, &sources.DeclError{Msg: fmt.Sprintf("held-out values for %s: it is categorical, and the time of a value never measured is not inferred from the others' (measured: %s)", name, strings.Join(mf.Levels(name), ", "))}
		}
		if !mf.IsNumeric(name) {
			return nil, &sources.DeclError{Msg: fmt.Sprintf("held-out values for %s: the model does not treat it as numeric (measure it with three or more numeric --values)", name)}
		}
		xs, ok := runner.NumericValues(append(append([]string(nil), vs...), vs[0], vs[0]))
		if !ok {
			return nil, &sources.DeclError{Msg: fmt.Sprintf("held-out values for %s: %s are not all numbers or durations", name, strings.Join(vs, ","))}
		}
		held[name] = xs[:len(vs)]
	}
	set, err := res.Options.WithValues(heldOut)
	if err != nil {
		return nil, err
	}
	var bools, cats []string
	for _, name := range mf.Model.Options() {
		switch {
		case mf.IsCategorical(name):
			cats = append(cats, name)
		case !mf.IsNumeric(name):
			bools = append(bools, name)
		}
	}
	var nums []string
	for name := range held {
		nums = append(nums, name)
	}
	sort.Strings(nums)
	index := map[string]int{}
	for i, opt := range set.Options {
		index[opt.Name] = i
	}
	// The configurations: every boolean assignment and every value of the categorical options,
	// times every combination of held-out values.
	var configs []compress.Config
	var settings []ValueCheck
	total := 1 << len(bools)
	for _, name := range cats {
		total *= len(mf.Levels(name))
	}
	for _, name := range nums {
		total *= len(held[name])
	}
	for k := 0; k < total; k++ {
		c := make(compress.Config, len(set.Options))
		on := map[string]bool{}
		num := map[string]float64{}
		cat := map[string]string{}
		rest := k
		var parts []string
		for _, name := range bools {
			v := rest & 1
			rest >>= 1
			opt := set.Options[index[name]]
			if len(opt.Values) < 2 {
				return nil, fmt.Errorf("option %s has no values to set", name)
			}
			c[index[name]] = v
			on[name] = v == 1
			parts = append(parts, fmt.Sprintf("%s=%d", name, v))
		}
		for _, name := range cats {
			vs := mf.Levels(name)
			v := vs[rest%len(vs)]
			rest /= len(vs)
			i := slices.Index(set.Options[index[name]].Values, v)
			if i < 0 {
				return nil, &sources.DeclError{Msg: fmt.Sprintf("option %s: the model's value %s is not among the --values given (%s)", name, v, strings.Join(set.Options[index[name]].Values, ", "))}
			}
			c[index[name]] = i
			cat[name] = v
			parts = append(parts, name+"="+v)
		}
		for _, name := range nums {
			v := rest % len(held[name])
			rest /= len(held[name])
			c[index[name]] = v
			num[name] = held[name][v]
			parts = append(parts, fmt.Sprintf("%s=%s", name, heldOut[name][v]))
		}
		p, err := mf.PredictSetting(influence.Setting{On: on, Num: num, Cat: cat})
		if err != nil {
			return nil, err
		}
		configs = append(configs, c)
		settings = append(settings, ValueCheck{Setting: strings.Join(parts, " "), Predicted: p.Seconds, Extrapolated: len(p.Extrapolated) > 0})
	}
	if dir == "" {
		dir = "."
	}
	reps := o.Reps
	if reps <= 0 {
		reps = 3
	}
	setup := runner.Setup{Dir: dir, Build: []string{"go", "build", "-o", "BIN", o.Target.Pkg}, Args: o.Target.Args, Options: set,
		ConfigTemplate: o.ConfigTemplate, ConfigName: o.ConfigName}
	rr, err := runner.Run(ctx, setup, configs, runner.Options{Reps: reps, Seed: o.Seed, Progress: o.Progress})
	if err != nil {
		return nil, err
	}
	ev := &ValuesEvaluation{}
	for i, cr := range rr.Configs {
		var walls []float64
		for _, run := range cr.Runs {
			walls = append(walls, float64(run.WallNs)/1e9)
		}
		chk := settings[i]
		chk.Measured = runner.Median(walls)
		chk.Error = math.Abs(chk.Predicted-chk.Measured) / chk.Measured
		ev.MAPE += 100 * chk.Error / float64(len(rr.Configs))
		ev.Checks = append(ev.Checks, chk)
	}
	return ev, nil
}
