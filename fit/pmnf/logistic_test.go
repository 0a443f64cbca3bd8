package pmnf

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

// TestFitLogistic draws branch outcomes (0 or 1) with P(true) = 1/(1 + e^−(3 − 0.5·n)) at n =
// 1..16, 400 invocations each, and recovers the form and its coefficients.
func TestFitLogistic(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var s []Sample
	for n := 1; n <= 16; n++ {
		p := 1 / (1 + math.Exp(-(3 - 0.5*float64(n))))
		for range 400 {
			y := 0.0
			if rng.Float64() < p {
				y = 1
			}
			s = append(s, Sample{At: map[string]float64{"n": float64(n)}, Y: y})
		}
	}
	c, err := FitLogistic(s, []string{"n"}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if c.Expr.Form() != "logistic(n + c)" || math.Abs(c.Expr.Terms[0].Coef-3) > 0.3 || math.Abs(c.Expr.Terms[1].Coef+0.5) > 0.05 {
		t.Errorf("fitted %s (%s), want about logistic(3 - 0.5·n)", c.Expr, c.Expr.Form())
	}
	if got := c.Expr.Value(map[string]float64{"n": 6}); math.Abs(got-0.5) > 0.05 {
		t.Errorf("P(true) at n=6 = %v, want about 1/2", got)
	}
	if !strings.HasPrefix(c.Expr.String(), "logistic(") {
		t.Errorf("printed %s", c.Expr)
	}
	// Not probabilities; and a parameter that separates the outcomes perfectly.
	if _, err := FitLogistic([]Sample{{At: map[string]float64{"n": 1}, Y: 2}}, []string{"n"}, Options{}); err == nil || !strings.Contains(err.Error(), "in [0, 1]") {
		t.Errorf("a count: %v", err)
	}
	var sep []Sample
	for n := 1; n <= 10; n++ {
		sep = append(sep, Sample{At: map[string]float64{"n": float64(n)}, Y: float64(n / 6)})
	}
	if c, err := FitLogistic(sep, []string{"n"}, Options{}); err == nil && c.Expr.Form() != "logistic(c)" {
		t.Errorf("perfect separation gave %s", c.Expr)
	}
}

// TestFitTree: a branch taken exactly when n > 10 (0 or 1 per invocation, sizes 1..20) is a
// step that logistic regression refuses (perfect separation) and a tree of depth 1 fits exactly.
func TestFitTree(t *testing.T) {
	var s []Sample
	for n := 1; n <= 20; n++ {
		for range 3 {
			y := 0.0
			if n > 10 {
				y = 1
			}
			s = append(s, Sample{At: map[string]float64{"n": float64(n)}, Y: y})
		}
	}
	c, err := FitTree(s, []string{"n"}, ForSamples(s))
	if err != nil {
		t.Fatal(err)
	}
	// Held-out sizes next to the step (10, 11) are misjudged by folds that never saw them, so
	// the cross-validated error is not 0; it is still well below the mean's, errors being
	// judged relative to the mean for a probability.
	mean, err := FitHypothesis(s, []string{"n"}, nil, ForSamples(s))
	if err != nil {
		t.Fatal(err)
	}
	if c.Expr.String() != "(n < 10.5 ? 0 : 1)" || c.CVError >= mean.CVError || c.Expr.Form() != "tree(n)" {
		t.Errorf("fitted %s (form %s, cv %v; the mean's %v)", c.Expr, c.Expr.Form(), c.CVError, mean.CVError)
	}
	for _, n := range []float64{3, 11, 1e6} {
		if got, want := c.Expr.Value(map[string]float64{"n": n}), map[bool]float64{false: 0, true: 1}[n > 10]; got != want {
			t.Errorf("at n=%v: %v, want %v", n, got, want)
		}
	}
	data, err := json.Marshal(c.Expr)
	if err != nil {
		t.Fatal(err)
	}
	var back Expr
	if err := json.Unmarshal(data, &back); err != nil || back.String() != c.Expr.String() {
		t.Errorf("JSON round trip: %s → %v %v", data, back, err)
	}
	for _, bad := range []string{`{"terms":null,"tree":{"op":"lt","param":"n","value":1,"args":[{"op":"const"}]}}`, `{"terms":null,"tree":{"op":"exp"}}`} {
		if err := json.Unmarshal([]byte(bad), &back); err == nil {
			t.Errorf("%s accepted", bad)
		}
	}
}

// TestFitGP recovers a law outside the normal form, 100/(n + 5), from exact values at n =
// 1..30: symbolic regression's cross-validated error is below 0.1 %, the normal form's search
// stays above it, and the same seed gives the same law.
func TestFitGP(t *testing.T) {
	var s []Sample
	for n := 1; n <= 30; n++ {
		s = append(s, Sample{At: map[string]float64{"n": float64(n)}, Y: 100 / (float64(n) + 5)})
	}
	c, cut, err := FitGP(s, []string{"n"}, Options{}, GPOptions{Seed: 1, Budget: time.Minute})
	if err != nil || cut {
		t.Fatalf("%v (cut short: %v)", err, cut)
	}
	pm, err := Search(s, []string{"n"}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if c.CVError > 1e-3 || pm.Best.CVError <= c.CVError {
		t.Errorf("GP %s (cv %.3g), normal form %s (cv %.3g)", c.Expr, c.CVError, pm.Best.Expr, pm.Best.CVError)
	}
	if got := c.Expr.Value(map[string]float64{"n": 95}); math.Abs(got-1) > 0.01 {
		t.Errorf("GP %s at n=95: %v, want 1", c.Expr, got)
	}
	again, _, _ := FitGP(s, []string{"n"}, Options{}, GPOptions{Seed: 1, Budget: time.Minute})
	if again.Expr.String() != c.Expr.String() {
		t.Errorf("the same seed gave %s and %s", c.Expr, again.Expr)
	}
	t.Logf("GP: %s (cv %.3g); normal form: %s (cv %.3g)", c.Expr, c.CVError, pm.Best.Expr, pm.Best.CVError)
}
