package runner

import (
	"context"
	"fmt"
	"io"
	"maps"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/augur-perf/augur/options/compress"
	"github.com/augur-perf/augur/options/influence"
	"github.com/augur-perf/augur/options/regions"
	"github.com/augur-perf/augur/options/sources"
	"github.com/augur-perf/augur/options/taint"
	"github.com/augur-perf/augur/options/timing"
)

// truth is the running example's analytic model in units.
func truth(on map[string]bool) float64 {
	v := func(n string) float64 {
		if on[n] {
			return 1
		}
		return 0
	}
	A, B, C, D, E, F := v("A"), v("B"), v("C"), v("D"), v("E"), v("F")
	return 1 + 2.1*A + 0.2*B + 0.3*C + 0.4*D + 0.5*E + 0.6*F + 0.7*v("G") + 0.8*v("H") + 0.9*v("I") +
		3*A*B + 4*A*C + 5*D*E*F
}

// TestRunningExampleEndToEnd runs the whole pipeline on the running example:
// taint, regions (optimised), timing, the runner on the compressed
// configurations, local models, the global model, and compares it with the
// analytic truth over all 1024 configurations.
func TestRunningExampleEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the example about 30 times")
	}
	// time.Sleep overshoots by a fraction of a millisecond per call, more on a loaded machine (go
	// test runs packages in parallel), and process start-ups vary: 100 ms units and the median of
	// 5 runs keep that well inside the 2 % MAPE the issue asks for. A busy machine wakes a sleeper
	// late by milliseconds, and starts a process late by as many, whatever the unit: with 50 ms
	// units, 2.7-9.7 % MAPE in 4 of 12 measurements at load 20-24. Up to three measurements, each
	// logged.
	const unit = 100 * time.Millisecond
	start := time.Now()
	dir, _ := filepath.Abs("../../examples/options")
	u := unit.Seconds()
	var ex example
	var progress strings.Builder
	var failed []string
	for attempt := 1; attempt <= 3; attempt++ {
		progress.Reset()
		ex = measureExample(t, dir, sources.Decls{}, []string{"-unit", unit.String()}, 5, &progress)
		if len(ex.cr.Configs) != 8 {
			t.Fatalf("%d configurations, want 8", len(ex.cr.Configs))
		}
		errs := checkRunningExample(t, ex, u)
		if len(errs) == 0 {
			break
		}
		for _, e := range errs {
			t.Logf("attempt %d: %s", attempt, e)
		}
		failed = append(failed, fmt.Sprintf("attempt %d: %s", attempt, strings.Join(errs, "; ")))
		if attempt == 3 {
			t.Error(strings.Join(failed, "\n"))
		}
	}
	t.Logf("measured in %v", time.Since(start))
	res, cr, setup, opts := ex.res, ex.cr, ex.setup, ex.opts
	names := res.Options.Names()
	index := map[string]int{}
	for i, n := range names {
		index[n] = i
	}
	// A second Run resumes entirely from the cache.
	opts.Progress = nil
	rr2, err := Run(context.Background(), setup, cr.Configs, opts)
	if err != nil {
		t.Fatal(err)
	}
	if rr2.Measured != 0 || rr2.Cached != len(cr.Configs)*opts.Reps {
		t.Errorf("second run measured %d, cached %d", rr2.Measured, rr2.Cached)
	}
	if n := len(cr.Configs) * opts.Reps; !strings.Contains(progress.String(), fmt.Sprintf("runs: %d/%d (100%%)", n, n)) {
		t.Errorf("progress: %q", progress.String())
	}
	// The baselines oracle measures one configuration end to end, cached: D, E and F on are 7.5
	// units, never less, and the process's start-up and its five sleeps' overshoot at most 0.1 s
	// more. One run on a busy machine can overshoot that (108 ms with 50 ms units at load 7-15):
	// up to three oracles are asked, each with a cache of its own, each miss logged.
	cfg := make([]int, len(names))
	cfg[index["D"]], cfg[index["E"]], cfg[index["F"]] = 1, 1, 1
	var misses []string
	for attempt := 1; attempt <= 3; attempt++ {
		o := opts
		o.CacheDir = t.TempDir()
		oracle, closeFn, err := Oracle(context.Background(), setup, o)
		if err != nil {
			t.Fatal(err)
		}
		s1, err1 := oracle(cfg)
		s2, err2 := oracle(cfg)
		closeFn()
		if err1 != nil || err2 != nil || s1 != s2 || s1 < 7.5*u {
			t.Fatalf("oracle: %v then %v (errors %v, %v), want ≥ 7.5 units and cached", s1, s2, err1, err2)
		}
		if s1 <= 7.5*u+0.1 {
			misses = nil
			break
		}
		misses = append(misses, fmt.Sprintf("attempt %d: %v s", attempt, s1))
		t.Logf("oracle, attempt %d: %v s, more than 7.5 units and 0.1 s", attempt, s1)
	}
	if misses != nil {
		t.Errorf("oracle: %s, want ≈ 7.5 units (%.3f s)", strings.Join(misses, "; "), 7.5*u)
	}
	t.Logf("total test time %v", time.Since(start))
}

// checkRunningExample compares the running example's model with the analytic truth in units of
// u seconds, term by term and over all 1024 configurations (MAPE at most 2 %), and gives what
// does not match.
func checkRunningExample(t *testing.T, ex example, u float64) []string {
	t.Helper()
	var errs []string
	model, rr := ex.model, ex.rr
	// The base region is the whole process, so the truth is the formula plus the start-up and
	// exit cost no sleep accounts for: the wall time outside main, measured in the same runs.
	over := outsideMain(rr)
	t.Logf("process start-up and exit: %.2f ms per run", over*1e3)
	scaled := make([]influence.Term, 0, len(model.Terms))
	for _, tm := range model.Terms {
		scaled = append(scaled, influence.Term{Options: tm.Options, Coef: tm.Coef / u})
	}
	t.Logf("model (units): %s", influence.NewModel(scaled).Format(influence.FormatOptions{Precision: 2, Threshold: 0.05}))
	want := map[string]float64{"": 1 + over/u, "A": 2.1, "B": 0.2, "C": 0.3, "D": 0.4, "E": 0.5, "F": 0.6, "G": 0.7, "H": 0.8,
		"I": 0.9, "A,B": 3, "A,C": 4, "D,E,F": 5}
	for _, k := range slices.Sorted(maps.Keys(want)) {
		w := want[k]
		var ops []string
		if k != "" {
			ops = strings.Split(k, ",")
		}
		if got := model.Coef(ops...) / u; math.Abs(got-w) > 0.15 {
			errs = append(errs, fmt.Sprintf("coefficient {%s} = %.3f units, want %.1f", k, got, w))
		}
	}
	for _, tm := range model.Terms {
		k := strings.Join(tm.Options, ",")
		if _, ok := want[k]; !ok && math.Abs(tm.Coef/u) > 0.15 {
			errs = append(errs, fmt.Sprintf("spurious term {%s} = %.3f units", k, tm.Coef/u))
		}
	}
	ten := []string{"A", "B", "C", "D", "E", "F", "G", "H", "I", "J"}
	var mape float64
	for m := 0; m < 1024; m++ {
		cfg := influence.Config{}
		for i, n := range ten {
			if m&(1<<i) != 0 {
				cfg[n] = true
			}
		}
		want := truth(cfg)*u + over
		mape += math.Abs(influence.Predict(model, cfg)-want) / want
	}
	mape = 100 * mape / 1024
	t.Logf("MAPE over 1024 configurations: %.2f%% (%d regions after optimisation, %d before; %d runs)",
		mape, len(ex.after), len(ex.before), rr.Measured)
	if mape > 2 {
		errs = append(errs, fmt.Sprintf("MAPE %.2f%% > 2%%", mape))
	}
	return errs
}

// example is what measureExample gives.
type example struct {
	res           *taint.Result
	before, after []regions.Region
	cr            compress.Result
	rr            *Result
	model         influence.Model
	setup         Setup
	opts          Options
}

// measureExample runs ConfigCrusher's pipeline on an example program: taint, regions
// (optimised), timing, the runner on the compressed configurations (reps runs each, args given
// to every run), and the global model; it fails t on any timing issue.
func measureExample(t *testing.T, dir string, decls sources.Decls, args []string, reps int, progress io.Writer) example {
	t.Helper()
	pkgs, err := taint.Load(taint.Config{Dir: dir}, ".")
	if err != nil {
		t.Fatal(err)
	}
	res, err := taint.Analyze(pkgs, decls)
	if err != nil {
		t.Fatal(err)
	}
	before, after, err := regions.Find(res)
	if err != nil {
		t.Fatal(err)
	}
	b, err := timing.Instrument(res, after, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	names := res.Options.Names()
	index := map[string]int{}
	for i, n := range names {
		index[n] = i
	}
	var sets [][]int
	for _, r := range before {
		var s []int
		for _, o := range r.Options {
			s = append(s, index[o])
		}
		sets = append(sets, s)
	}
	cr, err := compress.Compress(sets, len(names), compress.Options{Names: names})
	if err != nil {
		t.Fatal(err)
	}
	setup := Setup{Dir: dir, Build: []string{"go", "build", "-o", "BIN", "."}, Args: args, Options: res.Options, Timing: b}
	opts := Options{Reps: reps, Seed: 1, CacheDir: t.TempDir(), Progress: progress}
	rr, err := Run(context.Background(), setup, cr.Configs, opts)
	if err != nil {
		t.Fatal(err)
	}
	if rr.Concurrent {
		t.Errorf("concurrent regions reported: %v", rr.Configs[0].Issues)
	}
	for _, c := range rr.Configs {
		if len(c.Issues) > 0 {
			t.Errorf("%s: issues %v", c.Text, c.Issues)
		}
	}
	model, _, err := Model(rr, after, Wall)
	if err != nil {
		t.Fatal(err)
	}
	return example{res, before, after, cr, rr, model, setup, opts}
}

// outsideMain is the median wall time of a run outside every region (process start-up and exit).
func outsideMain(rr *Result) float64 {
	var outside []float64
	for _, c := range rr.Configs {
		for _, run := range c.Runs {
			if run.Times == nil {
				continue
			}
			ns := run.WallNs
			for _, rt := range run.Times.Regions {
				ns -= rt.SelfNs
			}
			outside = append(outside, float64(ns)/1e9)
		}
	}
	return Median(outside)
}

// TestEnvConfigEndToEnd: options read from the environment through one shared helper, with no
// declarations and no --values: five influence sets, the unused option irrelevant, four
// configurations measured, and a model whose predictions for all 64 configurations of the six
// relevant options match the program's analytic cost.
func TestEnvConfigEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the example a dozen times")
	}
	const unit = 100 * time.Millisecond
	dir, _ := filepath.Abs("../../examples/envconfig")
	// Sleeps overshoot on a loaded machine, by a few milliseconds a sleep whatever its length,
	// and process start-ups vary by as much: with 20 ms units, 24 of 25 measurements at load
	// 13-22 were 2.1-13.7 % off; 100 ms units make the same delays a fifth of the error (3 of 12
	// measurements at load 14-24 over 2 %, at most 2.45 %). Up to three measurements, each
	// logged; the structure is checked on each.
	var failed []string
	for attempt := 1; attempt <= 3; attempt++ {
		mape := measureEnvConfig(t, dir, unit)
		if mape <= 2 {
			return
		}
		failed = append(failed, fmt.Sprintf("attempt %d: MAPE %.2f%% > 2%%", attempt, mape))
		t.Log(failed[len(failed)-1])
	}
	t.Error(strings.Join(failed, "; "))
}

// measureEnvConfig measures examples/envconfig, checks its sets and configurations, and gives
// the model's MAPE over all 64 configurations of the six relevant options against the program's
// analytic cost.
func measureEnvConfig(t *testing.T, dir string, unit time.Duration) float64 {
	t.Helper()
	ex := measureExample(t, dir, sources.Decls{Fixed: []string{"unit"}}, []string{"-unit", unit.String()}, 3, nil)
	if got := strings.Join(ex.res.Irrelevant, " "); got != "APP_UNUSED" {
		t.Errorf("irrelevant: %s", got)
	}
	distinct := map[string]bool{}
	for _, r := range ex.before {
		distinct[strings.Join(r.Options, ",")] = true
	}
	for _, s := range []string{"APP_COMPRESS", "APP_COMPRESS,APP_ENCRYPT", "APP_CACHE", "APP_LOG,APP_VERIFY", "APP_TRACE"} {
		if !distinct[s] {
			t.Errorf("no region influenced by exactly {%s}; sets: %v", s, distinct)
		}
	}
	if len(ex.cr.Configs) != 4 {
		t.Errorf("%d configurations, want 4", len(ex.cr.Configs))
	}
	u, over := unit.Seconds(), outsideMain(ex.rr)
	six := []string{"APP_CACHE", "APP_COMPRESS", "APP_ENCRYPT", "APP_LOG", "APP_TRACE", "APP_VERIFY"}
	var mape float64
	for m := 0; m < 64; m++ {
		cfg := influence.Config{}
		for i, n := range six {
			cfg[n] = m&(1<<i) != 0
		}
		v := func(n string) float64 {
			if cfg[n] {
				return 1
			}
			return 0
		}
		want := (1+2*v("APP_COMPRESS")+3*v("APP_COMPRESS")*v("APP_ENCRYPT")+1.5*v("APP_CACHE")+
			2.5*v("APP_VERIFY")*v("APP_LOG")+0.5*v("APP_TRACE"))*u + over
		mape += math.Abs(influence.Predict(ex.model, cfg)-want) / want
	}
	mape = 100 * mape / 64
	t.Logf("model: %s; MAPE over 64 configurations %.2f%%", ex.model.Format(influence.FormatOptions{Precision: 3}), mape)
	return mape
}

// TestDeclaredFieldsEndToEnd: options a program loads with its own parser, declared as struct
// fields with how a run sets them, are analysed, compressed and measured like any other.
func TestDeclaredFieldsEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a program a dozen times")
	}
	dir, _ := filepath.Abs("testdata/declared")
	pkg := "github.com/augur-perf/augur/options/runner/testdata/declared"
	fast, err := sources.ParseField(pkg + ".config.fast=fast@flag:-fast")
	if err != nil {
		t.Fatal(err)
	}
	big, err := sources.ParseField(pkg + ".config.big=big@env:DECLARED_BIG")
	if err != nil {
		t.Fatal(err)
	}
	// DECLARED_BIG is also an os.Getenv the analysis finds; hold it fixed so the field is the option.
	ex := measureExample(t, dir, sources.Decls{Fields: []sources.Field{fast, big}, Fixed: []string{"DECLARED_BIG"}}, nil, 3, nil)
	if got := strings.Join(ex.res.Options.Names(), " "); got != "big fast" {
		t.Fatalf("options %s", got)
	}
	// 10 ms, 5 when fast, 20 more when big: the model must see both effects.
	if c := ex.model.Coef("fast"); c > -0.003 {
		t.Errorf("fast saves %.4f s, want about -0.005", c)
	}
	if c := ex.model.Coef("big"); c < 0.015 {
		t.Errorf("big costs %.4f s, want about +0.02", c)
	}
}
