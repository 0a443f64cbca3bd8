package influence

import (
	"encoding/json"
	"math"
	"math/rand"
	"strings"
	"testing"
)

// measure makes one measurement per assignment of A and value of N from a true law, with
// relative noise.
func measure(law func(a bool, n float64) float64, values []float64, noise float64, rng *rand.Rand) []Measurement {
	var ms []Measurement
	for _, a := range []bool{false, true} {
		for _, x := range values {
			t := law(a, x)
			if noise > 0 {
				t *= 1 + noise*(2*rng.Float64()-1)
			}
			ms = append(ms, Measurement{Config: Config{"A": a}, Num: map[string]float64{"N": x}, Seconds: t})
		}
	}
	return ms
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// Each law's form is recovered from five measured values, its coefficients exactly, and values
// never measured (held out) are predicted.
func TestNumericForms(t *testing.T) {
	train := []float64{1, 2, 4, 8, 16}
	heldOut := []float64{3, 6, 12, 24}
	laws := []struct {
		form string
		law  func(a bool, n float64) float64
		want map[string]float64 // term (Term.Name) → coefficient
	}{
		{"x", func(a bool, n float64) float64 { return 0.5 + 0.1*b2f(a) + 0.02*n + 0.03*b2f(a)*n },
			map[string]float64{"": 0.5, "A": 0.1, "N": 0.02, "A·N": 0.03}},
		{"log2(x)", func(a bool, n float64) float64 { return 1 + 0.2*math.Log2(n) + 0.4*b2f(a)*math.Log2(n) },
			map[string]float64{"": 1, "A": 0, "log2(N)": 0.2, "A·log2(N)": 0.4}},
		{"x^2", func(a bool, n float64) float64 { return 0.3 + 0.001*n*n + 0.25*b2f(a) },
			map[string]float64{"": 0.3, "A": 0.25, "N^2": 0.001, "A·N^2": 0}},
		{"x + log2(x)", func(a bool, n float64) float64 { return 0.5 + 0.001*n + 0.2*math.Log2(n) - 0.1*b2f(a)*math.Log2(n) },
			map[string]float64{"": 0.5, "A": 0, "N": 0.001, "A·N": 0, "log2(N)": 0.2, "A·log2(N)": -0.1}},
	}
	r := Region{Name: "R1", Options: []string{"A", "N"}}
	for _, l := range laws {
		loc, err := NumericLocalModel(r, "N", measure(l.law, train, 0, nil))
		if err != nil {
			t.Fatal(err)
		}
		if loc.Numeric.Shape != l.form {
			t.Errorf("%s: chose %s (cross-validation %v)", l.form, loc.Numeric.Shape, loc.Numeric.CV)
		}
		m := Global(loc)
		for _, term := range m.Terms {
			w, ok := l.want[term.Name()]
			if !ok || math.Abs(term.Coef-w) > 1e-9 {
				t.Errorf("%s: term %q = %v, want %v (%v) in %s", l.form, term.Name(), term.Coef, w, ok, m)
			}
		}
		for _, x := range heldOut {
			for _, a := range []bool{false, true} {
				got, err := PredictAt(m, Config{"A": a}, map[string]float64{"N": x})
				if want := l.law(a, x); err != nil || math.Abs(got-want) > 1e-8*want {
					t.Errorf("%s: A=%v N=%v: %v (%v), want %v", l.form, a, x, got, err, want)
				}
			}
		}
	}
}

// With 2 % noise the held-out error stays near the noise, and the model prints and round-trips.
func TestNumericNoise(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	law := func(a bool, n float64) float64 { return 2 + 0.5*math.Log2(n) + b2f(a)*(0.3+0.2*math.Log2(n)) }
	var ms []Measurement
	for rep := 0; rep < 5; rep++ {
		ms = append(ms, measure(law, []float64{1, 4, 16, 64, 256}, 0.02, rng)...)
	}
	loc, err := NumericLocalModel(Region{Name: "R", Options: []string{"N", "A"}}, "N", ms)
	if err != nil {
		t.Fatal(err)
	}
	if loc.Numeric.Shape != "log2(x)" {
		t.Errorf("chose %s (%v)", loc.Numeric.Shape, loc.Numeric.CV)
	}
	m := Global(loc)
	var mape float64
	n := 0
	for _, x := range []float64{2, 8, 32, 128, 512} {
		for _, a := range []bool{false, true} {
			got, _ := PredictAt(m, Config{"A": a}, map[string]float64{"N": x})
			mape += math.Abs(got-law(a, x)) / law(a, x)
			n++
		}
	}
	if mape = 100 * mape / float64(n); mape > 2 {
		t.Errorf("held-out MAPE %.2f%% > 2%%", mape)
	}
	t.Logf("held-out MAPE with 2%% noise: %.2f%%", mape)
	if s := m.String(); !strings.Contains(s, "·log2(N)") || !strings.Contains(s, "·A·log2(N)") {
		t.Errorf("format: %s", s)
	}
	data, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	back, err := ParseModel(data)
	if err != nil {
		t.Fatal(err)
	}
	if back.String() != m.String() {
		t.Errorf("round trip:\n%s\n%s", m, back)
	}
	if !math.IsNaN(Predict(m, Config{})) {
		t.Error("Predict without N's value should be NaN")
	}
	if _, err := PredictAt(m, Config{}, nil); err == nil || !strings.Contains(err.Error(), "numeric option N") {
		t.Errorf("PredictAt without N: %v", err)
	}
	if _, err := PredictAt(m, Config{}, map[string]float64{"N": 0}); err == nil {
		t.Error("log2(0) predicted")
	}
}

func TestNumericErrors(t *testing.T) {
	r := Region{Name: "R", Options: []string{"A", "N"}}
	law := func(a bool, n float64) float64 { return n }
	if _, err := NumericLocalModel(r, "N", measure(law, []float64{1, 2}, 0, nil)); err == nil || !strings.Contains(err.Error(), "at least 3") {
		t.Errorf("two values: %v", err)
	}
	ms := measure(law, []float64{1, 2, 3}, 0, nil)
	if _, err := NumericLocalModel(r, "N", ms[:5]); err == nil || !strings.Contains(err.Error(), "A=true") {
		t.Errorf("a missing value with A on: %v", err)
	}
	if _, err := NumericLocalModel(r, "M", ms); err == nil {
		t.Error("an option the region does not have")
	}
	for _, bad := range []string{
		`{"terms":[{"options":[],"numeric":"N","coef":1}]}`,
		`{"terms":[{"options":[],"numeric":"N","form":"sqrt","coef":1}]}`,
		`{"terms":[{"options":["N"],"numeric":"N","form":"x","coef":1}]}`,
	} {
		if _, err := ParseModel([]byte(bad)); err == nil {
			t.Errorf("ParseModel accepted %s", bad)
		}
	}
}
