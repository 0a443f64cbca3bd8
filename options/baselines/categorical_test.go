package baselines

import (
	"fmt"
	"strings"
	"testing"

	"github.com/augur-perf/augur/options/compress"
	"github.com/augur-perf/augur/options/influence"
)

// modes is a space of two boolean options, a categorical one, mode, of three values, and a
// numeric one, n, of three; modeModel a known model on it, dummy-coded against mode=fast:
// T = 1 + 0.5·A + 0.4·[mode=mid] + 2·[mode=best] + 1.5·A·[mode=best] + 0.25·n.
var (
	modes     = Space{Names: []string{"A", "B", "mode", "n"}, Levels: map[string][]string{"mode": {"fast", "mid", "best"}}, Values: map[string][]float64{"n": {1, 2, 4}}}
	modeModel = func() influence.Model {
		m := influence.NewModel([]influence.Term{
			{Coef: 1},
			{Options: []string{"A"}, Coef: 0.5},
			{Levels: map[string]string{"mode": "mid"}, Coef: 0.4},
			{Levels: map[string]string{"mode": "best"}, Coef: 2},
			{Options: []string{"A"}, Levels: map[string]string{"mode": "best"}, Coef: 1.5},
			{Numeric: "n", Form: "x", Coef: 0.25},
		})
		m.Levels = map[string][]string{"mode": {"fast", "mid", "best"}}
		return m
	}()
)

func modeOracle(calls *int) IndexOracle {
	return func(c []int) (float64, error) {
		*calls++
		return influence.PredictSetting(modeModel, modes.SettingOf(c))
	}
}

// Each approach samples the categorical option's values: brute force the product of the
// domains (2·2·3·3), feature-wise each value alone (1 + 1 + 1 + 2 + 2), pair-wise every pair of
// values of every two options (at least 3·3 for mode and n), random draws each value.
func TestCategoricalSamples(t *testing.T) {
	if got := modes.Size(); got != 36 {
		t.Fatalf("size %d, want 36", got)
	}
	calls := 0
	bf, err := modes.BruteForce(modeOracle(&calls), Options{})
	if err != nil || len(bf.Configs) != 36 || calls != 36 {
		t.Fatalf("brute force: %d configurations, %d calls, %v", len(bf.Configs), calls, err)
	}
	fw, err := modes.FeatureWise(modeOracle(&calls), Options{})
	if err != nil || len(fw.Configs) != 7 {
		t.Fatalf("feature-wise: %d configurations (%v), want 7: %v", len(fw.Configs), err, fw.Configs)
	}
	for v := 1; v < 3; v++ {
		want := []int{0, 0, v, 0}
		if !containsConfig(fw.Configs, want) {
			t.Errorf("feature-wise lacks mode=%s alone %v", modes.Levels["mode"][v], want)
		}
	}
	pw, err := modes.PairWise(modeOracle(&calls), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(pw.Configs) < 9 || len(pw.Configs) > 12 {
		t.Errorf("pair-wise: %d configurations, want 9 to 12", len(pw.Configs))
	}
	domains := []int{2, 2, 3, 3}
	var sets [][]int
	for i := 0; i < 4; i++ {
		for j := i + 1; j < 4; j++ {
			sets = append(sets, []int{i, j})
		}
	}
	cfgs := make([]compress.Config, len(pw.Configs))
	for k, c := range pw.Configs {
		cfgs[k] = c
	}
	if err := compress.Verify(cfgs, sets, 4, compress.Options{Domains: domains}); err != nil {
		t.Errorf("pair-wise does not cover every pair of values: %v", err)
	}
	rd, err := modes.Random(12, 5, modeOracle(&calls), Options{})
	if err != nil || len(rd.Configs) != 12 {
		t.Fatalf("random: %d (%v)", len(rd.Configs), err)
	}
	seen := map[int]bool{}
	for _, c := range rd.Configs {
		seen[c[2]] = true
	}
	if len(seen) != 3 {
		t.Errorf("random drew mode values %v, want all three", seen)
	}
	if got := modes.format([]int{1, 0, 2, 1}); got != "{A,mode=best,n=2}" {
		t.Errorf("format %s", got)
	}
}

func containsConfig(cfgs [][]int, c []int) bool {
	for _, x := range cfgs {
		if fmt.Sprint(x) == fmt.Sprint(c) {
			return true
		}
	}
	return false
}

// Brute force's regression, offered a dummy variable per value of mode but the first, recovers
// the model exactly, levels and all.
func TestCategoricalStepwise(t *testing.T) {
	calls := 0
	r, err := modes.BruteForce(modeOracle(&calls), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := r.Model.Format(influence.FormatOptions{Precision: 3}), modeModel.Format(influence.FormatOptions{Precision: 3}); got != want {
		t.Errorf("model\n got %s\nwant %s", got, want)
	}
	if got := strings.Join(r.Model.Levels["mode"], ","); got != "fast,mid,best" {
		t.Errorf("levels %q", got)
	}
	truth := make([]float64, len(r.Configs))
	for k, c := range r.Configs {
		truth[k], _ = influence.PredictSetting(modeModel, modes.SettingOf(c))
	}
	mape, err := modes.MAPE(r.Model, r.Configs, truth)
	if err != nil || mape > 1e-6 {
		t.Errorf("MAPE %v (%v)", mape, err)
	}
	// A model measured at other values of mode cannot be judged on this space.
	other := modeModel
	other.Levels = map[string][]string{"mode": {"fast", "best"}}
	if _, err := modes.MAPE(other, r.Configs, truth); err == nil || !strings.Contains(err.Error(), "mode=mid was never measured") {
		t.Errorf("MAPE of a model without mode=mid: %v", err)
	}
}
