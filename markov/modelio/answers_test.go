package modelio

import (
	"math"
	"path/filepath"
	"testing"

	"github.com/augur-perf/augur/internal/testmodels"
	"github.com/augur-perf/augur/markov/checker"
	"github.com/augur-perf/augur/markov/dtmc"
	"github.com/augur-perf/augur/markov/pctl"
)

// TestRoundTripAnswers: a model written in each machine format and read back gives the same
// answers to the same properties, digit for digit.
func TestRoundTripAnswers(t *testing.T) {
	props := []string{`P=? [ F "done" ]`, `P=? [ F<=5 "done" ]`, `R=? [ F "done" ]`, `R=? [ C<=3 ]`, `S=? [ "done" ]`}
	checked := 0
	for _, smp := range testmodels.Samples {
		m := smp.Model(t)
		if _, ok := m.Labels["done"]; !ok || len(m.Rewards) == 0 {
			continue
		}
		checked++
		dir := t.TempDir()
		base := filepath.Join(dir, smp.Name)
		if err := WriteJSONFile(base+".json", m); err != nil {
			t.Fatal(err)
		}
		if _, err := WritePRISMFiles(base+"-prism", m, PRISMWriteOptions{}); err != nil {
			t.Fatal(err)
		}
		if _, err := WriteStormFiles(base+"-storm", m); err != nil {
			t.Fatal(err)
		}
		for _, path := range []string{base + ".json", base + "-prism.tra", base + "-storm.tra"} {
			back, err := Load(path)
			if err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			for _, prop := range props {
				want, got := answer(t, m, prop), answer(t, back, prop)
				if want != got && !(math.IsNaN(want) && math.IsNaN(got)) {
					t.Errorf("%s %s: %v after the round trip, %v before", filepath.Base(path), prop, got, want)
				}
			}
		}
	}
	if checked == 0 {
		t.Fatal("no sample model has a \"done\" label and a reward structure")
	}
}

func answer(t *testing.T, m *dtmc.Model, prop string) float64 {
	t.Helper()
	f, err := pctl.Parse(prop)
	if err != nil {
		t.Fatal(err)
	}
	r, err := checker.Check(m, f, checker.Options{})
	if err != nil {
		t.Fatalf("%s: %v", prop, err)
	}
	return r.Initial
}
