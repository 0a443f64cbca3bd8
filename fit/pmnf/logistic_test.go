package pmnf

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
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
