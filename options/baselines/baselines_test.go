package baselines

import (
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/augur-perf/augur/options/compress"
	"github.com/augur-perf/augur/options/influence"
)

var names = []string{"A", "B", "C", "D", "E", "F"}

// interactionHeavy is a known model with strong interactions: T = 2 + 1A + 0.5B + 3AB + 4CD + 2.5ACE.
var interactionHeavy = influence.NewModel([]influence.Term{
	{Coef: 2},
	{Options: []string{"A"}, Coef: 1},
	{Options: []string{"B"}, Coef: 0.5},
	{Options: []string{"A", "B"}, Coef: 3},
	{Options: []string{"C", "D"}, Coef: 4},
	{Options: []string{"A", "C", "E"}, Coef: 2.5},
})

// oracle measures the model with multiplicative noise of the given relative size, reproducibly.
func oracle(m influence.Model, noise float64, seed uint64) (Oracle, *int) {
	rng := rand.New(rand.NewPCG(seed, 1))
	calls := 0
	return func(c []bool) (float64, error) {
		calls++
		return influence.Predict(m, ToInfluence(names, c)) * (1 + noise*(2*rng.Float64()-1)), nil
	}, &calls
}

func heldOut(t *testing.T, m influence.Model, k int) ([][]bool, []float64) {
	rng := rand.New(rand.NewPCG(99, 98))
	var cfgs [][]bool
	var truth []float64
	for i := 0; i < k; i++ {
		c := make([]bool, len(names))
		for o := range c {
			c[o] = rng.IntN(2) == 1
		}
		cfgs = append(cfgs, c)
		truth = append(truth, influence.Predict(m, ToInfluence(names, c)))
	}
	return cfgs, truth
}

func TestBruteForceRecoversModel(t *testing.T) {
	orc, calls := oracle(interactionHeavy, 0.001, 1)
	r, err := BruteForce(names, orc, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if *calls != 64 || len(r.Configs) != 64 {
		t.Fatalf("%d calls, %d configurations", *calls, len(r.Configs))
	}
	cfgs, truth := heldOut(t, interactionHeavy, 200)
	if mape := MAPE(r.Model, names, cfgs, truth); mape > 0.5 {
		t.Errorf("brute force + stepwise MAPE %.3f%%, model %s", mape, r.Model)
	}
	if got := r.Model.String(); got != interactionHeavy.String() {
		t.Errorf("recovered %s\nwant      %s", got, interactionHeavy)
	}
	if r.MeasuringTime <= 0 {
		t.Error("no measuring time")
	}
}

func TestStepwiseExact(t *testing.T) {
	// Without noise, the fit is exact and stops as soon as the error vanishes.
	var cfgs [][]bool
	var times []float64
	for mask := 0; mask < 64; mask++ {
		c := make([]bool, 6)
		for o := range c {
			c[o] = mask&(1<<o) != 0
		}
		cfgs = append(cfgs, c)
		times = append(times, influence.Predict(interactionHeavy, ToInfluence(names, c)))
	}
	m, err := Stepwise(names, cfgs, times, StepwiseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, term := range interactionHeavy.Terms {
		if got := m.Coef(term.Options...); math.Abs(got-term.Coef) > 1e-9 {
			t.Errorf("coefficient of %v = %v, want %v", term.Options, got, term.Coef)
		}
	}
	if len(m.Terms) != len(interactionHeavy.Terms) {
		t.Errorf("extra terms: %s", m)
	}
	if _, err := Stepwise(names, cfgs, times[:3], StepwiseOptions{}); err == nil {
		t.Error("length mismatch accepted")
	}
}

func TestFeatureWiseMissesInteractions(t *testing.T) {
	orc, _ := oracle(interactionHeavy, 0, 1)
	r, err := FeatureWise(names, orc, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Configs) != len(names)+1 {
		t.Fatalf("%d configurations", len(r.Configs))
	}
	cfgs, truth := heldOut(t, interactionHeavy, 200)
	if mape := MAPE(r.Model, names, cfgs, truth); mape < 10 {
		t.Errorf("feature-wise MAPE only %.2f%% on an interaction-heavy model: %s", mape, r.Model)
	}
	for _, term := range r.Model.Terms {
		if len(term.Options) > 1 {
			t.Errorf("feature-wise learned interaction %v it cannot have seen", term.Options)
		}
	}
}

func TestPairWise(t *testing.T) {
	orc, _ := oracle(interactionHeavy, 0, 1)
	r, err := PairWise(names, orc, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var pairs [][]int
	for i := range names {
		for j := i + 1; j < len(names); j++ {
			pairs = append(pairs, []int{i, j})
		}
	}
	cc := make([]compress.Config, len(r.Configs))
	for k, c := range r.Configs {
		cc[k] = c
	}
	if err := compress.Verify(cc, pairs, len(names), compress.Options{}); err != nil {
		t.Fatal(err)
	}
	if len(r.Configs) > 10 {
		t.Errorf("pair-wise over 6 options took %d configurations", len(r.Configs))
	}
}

func TestRandomDeterministic(t *testing.T) {
	orc, _ := oracle(interactionHeavy, 0.01, 1)
	a, err := Random(names, 20, 42, orc, Options{})
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Random(names, 20, 42, orc, Options{})
	c, _ := Random(names, 20, 43, orc, Options{})
	same := func(x, y Run) bool {
		for k := range x.Configs {
			for o := range x.Configs[k] {
				if x.Configs[k][o] != y.Configs[k][o] {
					return false
				}
			}
		}
		return true
	}
	if !same(a, b) {
		t.Error("equal seeds, different samples")
	}
	if same(a, c) {
		t.Error("different seeds, same sample")
	}
	seen := map[string]bool{}
	for _, cfg := range a.Configs {
		k := Space{Names: names}.format(cfg)
		if seen[k] {
			t.Errorf("duplicate configuration %s", k)
		}
		seen[k] = true
	}
	// Dense: all 64 configurations, drawn by the shuffle path.
	all, err := Random(names, 64, 1, orc, Options{})
	if err != nil || len(all.Configs) != 64 {
		t.Fatalf("dense sample: %v", err)
	}
	if _, err := Random(names, 65, 1, orc, Options{}); err == nil {
		t.Error("65 distinct configurations of 6 options accepted")
	}
}

func TestBudgetsAndErrors(t *testing.T) {
	orc, calls := oracle(interactionHeavy, 0, 1)
	if _, err := BruteForce(names, orc, Options{Budget: 10}); !errors.Is(err, ErrBudget) {
		t.Errorf("brute force over budget: %v", err)
	}
	if _, err := Random(names, 20, 1, orc, Options{Budget: 10}); !errors.Is(err, ErrBudget) {
		t.Errorf("random over budget: %v", err)
	}
	if *calls != 0 {
		t.Errorf("%d measurements made despite the budget", *calls)
	}
	many := make([]string, 17)
	for i := range many {
		many[i] = string(rune('a' + i))
	}
	if _, err := BruteForce(many, orc, Options{}); err == nil || !strings.Contains(err.Error(), "Force") {
		t.Errorf("17 options: %v", err)
	}
	failing := func([]bool) (float64, error) { return 0, errors.New("crashed") }
	if _, err := FeatureWise(names, failing, Options{}); err == nil || !strings.Contains(err.Error(), "crashed") {
		t.Errorf("oracle error lost: %v", err)
	}
}

func TestEvaluateTable(t *testing.T) {
	cfgs, truth := heldOut(t, interactionHeavy, 100)
	var entries []Entry
	for _, run := range []func() (Run, error){
		func() (Run, error) {
			o, _ := oracle(interactionHeavy, 0.001, 2)
			return BruteForce(names, o, Options{})
		},
		func() (Run, error) {
			o, _ := oracle(interactionHeavy, 0.001, 2)
			return FeatureWise(names, o, Options{})
		},
		func() (Run, error) { o, _ := oracle(interactionHeavy, 0.001, 2); return PairWise(names, o, Options{}) },
		func() (Run, error) {
			o, _ := oracle(interactionHeavy, 0.001, 2)
			return Random(names, 16, 7, o, Options{})
		},
	} {
		r, err := run()
		if err != nil {
			t.Fatal(err)
		}
		entries = append(entries, r.Entry())
	}
	// A white-box entry, as ConfigCrusher would report: the true model from few configurations.
	entries = append(entries, Entry{Approach: "ConfigCrusher", Configs: 8, MeasuringTime: 80, Model: interactionHeavy})
	tab, err := Evaluate("synthetic", names, entries, cfgs, truth)
	if err != nil {
		t.Fatal(err)
	}
	text := tab.String()
	t.Log("\n" + text)
	for _, want := range []string{"brute force", "feature-wise", "pair-wise", "random (k=16)", "ConfigCrusher", "MAPE"} {
		if !strings.Contains(text, want) {
			t.Errorf("table lacks %q", want)
		}
	}
	if tab.Rows[0].MAPE > 0.5 || tab.Rows[1].MAPE < 10 || tab.Rows[4].MAPE != 0 {
		t.Errorf("unexpected MAPEs: %+v", tab.Rows)
	}
	data, err := json.Marshal(tab)
	if err != nil {
		t.Fatal(err)
	}
	var back Table
	if err := json.Unmarshal(data, &back); err != nil || len(back.Rows) != 5 || back.Rows[0].Configs != 64 {
		t.Errorf("JSON round trip: %v %s", err, data)
	}
	if _, err := Evaluate("x", names, entries, cfgs, make([]float64, len(cfgs))); err == nil {
		t.Error("zero truth accepted")
	}
}
