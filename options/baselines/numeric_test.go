package baselines

import (
	"math"
	"testing"

	"github.com/augur-perf/augur/options/compress"
	"github.com/augur-perf/augur/options/influence"
)

// mixed is a space of two boolean options and a numeric one, n, of four values; numericModel a
// known model on it: T = 1 + 0.5·A + 0.25·n + 0.75·A·B + 2·B·log2(n).
var (
	mixed        = Space{Names: []string{"A", "B", "n"}, Values: map[string][]float64{"n": {1, 2, 4, 8}}}
	numericModel = influence.NewModel([]influence.Term{
		{Coef: 1},
		{Options: []string{"A"}, Coef: 0.5},
		{Options: []string{}, Numeric: "n", Form: "x", Coef: 0.25},
		{Options: []string{"A", "B"}, Coef: 0.75},
		{Options: []string{"B"}, Numeric: "n", Form: "log2(x)", Coef: 2},
	})
)

func numericOracle(calls *int) IndexOracle {
	return func(c []int) (float64, error) {
		*calls++
		on, num := mixed.Setting(c)
		return influence.PredictAt(numericModel, on, num)
	}
}

// TestNumericBruteForce: every one of the 2·2·4 configurations is measured, and the
// regression, offered the numeric option's linear, logarithmic and quadratic forms, recovers
// the model exactly (its MAPE over the whole space is rounding).
func TestNumericBruteForce(t *testing.T) {
	calls := 0
	r, err := mixed.BruteForce(numericOracle(&calls), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if calls != 16 || len(r.Configs) != 16 {
		t.Fatalf("%d calls, %d configurations, want 16", calls, len(r.Configs))
	}
	all := make([][]int, 16)
	truth := make([]float64, 16)
	for k := range all {
		all[k] = mixed.Nth(uint64(k))
		on, num := mixed.Setting(all[k])
		truth[k], _ = influence.PredictAt(numericModel, on, num)
	}
	mape, err := mixed.MAPE(r.Model, all, truth)
	if err != nil || mape > 1e-6 {
		t.Fatalf("MAPE %v (%v), model %s", mape, err, r.Model)
	}
	if got := r.Model.String(); got != numericModel.String() {
		t.Errorf("model %s, want %s", got, numericModel)
	}
}

// TestNumericSamples checks what each sampling approach measures in a mixed space:
// feature-wise the default (n at its first value) and each value alone (1 + 2 + 3
// configurations), pair-wise every pair of values of every two options (8 for n with a
// boolean), random distinct configurations that reach the numeric option's other values.
func TestNumericSamples(t *testing.T) {
	calls := 0
	fw, err := mixed.FeatureWise(numericOracle(&calls), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(fw.Configs) != 6 {
		t.Errorf("feature-wise measured %d configurations, want 6: %v", len(fw.Configs), fw.Configs)
	}
	pw, err := mixed.PairWise(numericOracle(&calls), Options{})
	if err != nil {
		t.Fatal(err)
	}
	cc := make([]compress.Config, len(pw.Configs))
	for k, c := range pw.Configs {
		cc[k] = c
	}
	if err := compress.Verify(cc, [][]int{{0, 1}, {0, 2}, {1, 2}}, 3, compress.Options{Domains: []int{2, 2, 4}}); err != nil {
		t.Fatal(err)
	}
	if len(pw.Configs) < 8 || len(pw.Configs) > 10 {
		t.Errorf("pair-wise measured %d configurations, want 8 to 10", len(pw.Configs))
	}
	rd, err := mixed.Random(10, 3, numericOracle(&calls), Options{})
	if err != nil {
		t.Fatal(err)
	}
	seen, values := map[string]bool{}, map[int]bool{}
	for _, c := range rd.Configs {
		k := mixed.format(c)
		if seen[k] {
			t.Errorf("duplicate configuration %s", k)
		}
		seen[k] = true
		values[c[2]] = true
	}
	if len(values) < 3 {
		t.Errorf("random sampling reached %d of n's 4 values", len(values))
	}
	if _, err := mixed.Random(17, 3, numericOracle(&calls), Options{}); err == nil {
		t.Error("17 distinct configurations of a space of 16 accepted")
	}
	if tab, err := mixed.Evaluate("mixed", []Entry{fw.Entry(), pw.Entry(), rd.Entry()}, rd.Configs, rd.Times); err != nil || len(tab.Rows) != 3 || math.IsNaN(tab.Rows[0].MAPE) {
		t.Errorf("evaluate: %v, %+v", err, tab)
	}
}

// TestNumericLogNeedsPositive: a numeric option with the value 0 is not offered the
// logarithmic form (undefined there), so the fit uses the forms it can evaluate everywhere.
func TestNumericLogNeedsPositive(t *testing.T) {
	sp := Space{Names: []string{"z"}, Values: map[string][]float64{"z": {0, 1, 2, 3}}}
	cfgs := [][]int{{0}, {1}, {2}, {3}}
	times := []float64{1, 2, 5, 10} // 1 + z^2
	m, err := sp.Stepwise(cfgs, times, StepwiseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, term := range m.Terms {
		if term.Form == "log2(x)" {
			t.Errorf("log2 term on a value of 0: %s", m)
		}
	}
	if math.Abs(m.Coef()-1) > 1e-9 || len(m.Terms) != 2 || m.Terms[1].Form != "x^2" {
		t.Errorf("model %s, want 1 + z^2", m)
	}
}
