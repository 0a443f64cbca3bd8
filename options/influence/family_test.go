package influence

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
)

// familyValues are far from zero, so that a curve's intercept is a long extrapolation and its
// coefficients are strongly correlated: each alone is within noise of zero while the curve's
// prediction at every measured value is not.
var familyValues = []float64{100, 101, 102, 103, 104}

// familyModel measures one region over A and N: 2 s plus effect with A on, plus deterministic
// noise of amplitude 0.03 s (a different pattern with A on).
func familyModel(t *testing.T, effect float64) (Model, Local) {
	t.Helper()
	off := []float64{1, -1, 0, 1, -1}
	on := []float64{0, 1, -1, -1, 1}
	var ms []Measurement
	for i, x := range familyValues {
		ms = append(ms,
			Measurement{Config: Config{}, Num: map[string]float64{"N": x}, Seconds: 2 + 0.03*off[i]},
			Measurement{Config: Config{"A": true}, Num: map[string]float64{"N": x}, Seconds: 2 + effect + 0.03*on[i]})
	}
	l, err := NumericLocalModel(Region{Name: "R", Options: []string{"A", "N"}}, "N", ms)
	if err != nil {
		t.Fatal(err)
	}
	return Global(l), l
}

func familyOptions() FormatOptions {
	return FormatOptions{Precision: 3, Noise: 3, Values: map[string][]float64{"N": familyValues}}
}

// A curve whose coefficients are each within three standard errors of zero but whose
// prediction at every measured value is far from it is printed, all of it.
func TestFamilyCurveShown(t *testing.T) {
	m, l := familyModel(t, 0.5)
	o := familyOptions()
	alone := o
	alone.Values = nil
	alone.Scale = map[string]float64{}
	for _, f := range Forms {
		for _, x := range familyValues {
			g, _ := FormValue(f, x)
			alone.Scale[FormString(f, "N")] = math.Max(alone.Scale[FormString(f, "N")], g)
		}
	}
	for _, term := range m.Terms {
		if alone.Shows(term) {
			t.Errorf("term %q = %v ± %v (scale %v) is beyond noise alone; the test wants each coefficient within it", term.Name(), term.Coef, term.Spread, alone.Scale)
		}
		if term.Numeric != "" && term.Cov == nil {
			t.Errorf("term %q has no covariances", term.Name())
		}
	}
	if got := m.Format(alone); got != "T = 0.000" {
		t.Errorf("judged term by term: %s, want T = 0.000", got)
	}
	for i, shown := range o.Shown(m) {
		if !shown {
			t.Errorf("term %q (%v ± %v) left out of %s", m.Terms[i].Name(), m.Terms[i].Coef, m.Terms[i].Spread, m.Format(o))
		}
	}
	// What is printed predicts what the model predicts (to the printed digits), at every value.
	var printed []Term
	for i, shown := range o.Shown(m) {
		if shown {
			printed = append(printed, m.Terms[i])
		}
	}
	for _, x := range familyValues {
		for _, a := range []bool{false, true} {
			want, _ := PredictAt(m, Config{"A": a}, map[string]float64{"N": x})
			got, _ := PredictAt(Model{Terms: printed}, Config{"A": a}, map[string]float64{"N": x})
			if math.Abs(got-want) > 1e-12 || math.Abs(want-2-0.5*b2f(a)) > 0.05 {
				t.Errorf("A=%v N=%v: printed terms predict %v, the model %v", a, x, got, want)
			}
		}
	}
	var b strings.Builder
	if err := m.WriteText(&b, o, "wall time", func(s string) string { return s }); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "left out") {
		t.Errorf("nothing is noise here:\n%s", b.String())
	}
	t.Logf("shape %s:\n%s", l.Numeric.Shape, b.String())
}

// A curve that is noise (A has no effect) is left out as a whole and listed as one family.
func TestFamilyNoiseLeftOut(t *testing.T) {
	m, _ := familyModel(t, 0)
	o := familyOptions()
	shown := o.Shown(m)
	var names []string
	for i, term := range m.Terms {
		inA := len(term.Options) == 1 && term.Options[0] == "A"
		if shown[i] == inA {
			t.Errorf("term %q (%v ± %v): shown %v", term.Name(), term.Coef, term.Spread, shown[i])
		}
		if inA {
			names = append(names, term.Name())
		}
	}
	var b strings.Builder
	if err := m.WriteText(&b, o, "wall time", func(s string) string { return s }); err != nil {
		t.Fatal(err)
	}
	want := "(left out, within 3 standard errors of zero, each brace a constant and its curve in N at every measured value: {" + strings.Join(names, ", ") + "}; -o keeps every term)"
	if !strings.Contains(b.String(), want) {
		t.Errorf("got\n%s\nwant the line\n%s", b.String(), want)
	}
	if n, judged := FamilyNoise(familyOf(m, "A"), o.Values, 3); !n || !judged {
		t.Errorf("FamilyNoise(A) = %v, %v", n, judged)
	}
	if _, judged := FamilyNoise(familyOf(m, "A"), nil, 3); judged {
		t.Error("judged without the values")
	}
}

func familyOf(m Model, opts ...string) []Term {
	var out []Term
	for _, t := range m.Terms {
		if equalStrings(t.Options, opts) {
			out = append(out, t)
		}
	}
	return out
}

// The curve's prediction has the standard error least squares gives it: for a + b·x over
// n points, s²·(1/n + (x − x̄)²/Sxx), here checked against the textbook formula.
func TestFamilyPredictionSE(t *testing.T) {
	xs := []float64{1, 2, 3, 4, 5}
	ys := []float64{1.1, 1.9, 3.2, 3.9, 5.1}
	X, y := make([][]float64, len(xs)), ys
	for i, x := range xs {
		X[i] = []float64{1, x}
	}
	c, cov := leastSquares(X, y)
	var sse, sxx float64
	for i, x := range xs {
		d := y[i] - c[0] - c[1]*x
		sse += d * d
		sxx += (x - 3) * (x - 3)
	}
	s2 := sse / 3
	for _, x := range xs {
		want := s2 * (1.0/5 + (x-3)*(x-3)/sxx)
		got := cov[0][0] + 2*x*cov[0][1] + x*x*cov[1][1]
		if math.Abs(got-want) > 1e-12 {
			t.Errorf("x=%v: variance %v, want %v", x, got, want)
		}
	}
	if math.Abs(cov[0][1]-cov[1][0]) > 1e-15 || cov[0][1] >= 0 {
		t.Errorf("Cov(a, b) = %v, %v: want symmetric and negative for positive x", cov[0][1], cov[1][0])
	}
}

// Covariances add over regions, survive JSON, and a model that lost them gets them back from
// its locals (a file written before they were recorded).
func TestFamilyCovariances(t *testing.T) {
	m1, l1 := familyModel(t, 0.5)
	_, l2 := familyModel(t, 0.25)
	l2.Region.Name = "R2"
	g := Global(l1, l2)
	for _, term := range g.Terms {
		if term.Numeric == "" {
			continue
		}
		one := familyOf(m1, term.Options...)
		var c1 float64
		for _, u := range one {
			if u.Numeric != "" && u.Form == term.Form {
				c1 = u.Cov[CovConstant]
			}
		}
		if math.Abs(term.Cov[CovConstant]-2*c1) > 1e-12*math.Abs(c1) {
			t.Errorf("%s: covariance %v, want twice %v", term.Name(), term.Cov[CovConstant], c1)
		}
	}
	data, err := json.Marshal(g)
	if err != nil {
		t.Fatal(err)
	}
	back, err := ParseModel(data)
	if err != nil {
		t.Fatal(err)
	}
	o := familyOptions()
	if back.Format(o) != g.Format(o) {
		t.Errorf("round trip: %s, want %s", back.Format(o), g.Format(o))
	}
	// Strip the covariances, as in a file written before they were recorded.
	strip := func(ts []Term) []Term {
		out := append([]Term(nil), ts...)
		for i := range out {
			out[i].Cov = nil
		}
		return out
	}
	old := Model{Terms: strip(g.Terms)}
	l1o, l2o := l1, l2
	l1o.Terms, l2o.Terms = strip(l1.Terms), strip(l2.Terms)
	restored, locals, ok := RestoreCov(old, []Local{l1o, l2o})
	if !ok || len(locals) != 2 {
		t.Fatal("covariances not restored")
	}
	for i, term := range restored.Terms {
		for k, v := range g.Terms[i].Cov {
			if math.Abs(term.Cov[k]-v) > 1e-12*math.Abs(v) {
				t.Errorf("%s: restored covariance with %s %v, want %v", term.Name(), k, term.Cov[k], v)
			}
		}
	}
	if _, _, ok := RestoreCov(g, []Local{l1, l2}); ok {
		t.Error("restored covariances a model already has")
	}
	other, _ := familyModel(t, 0.75)
	if _, _, ok := RestoreCov(Model{Terms: strip(other.Terms)}, []Local{l1o}); ok {
		t.Error("restored covariances from locals that are not the model's")
	}
	for _, bad := range []string{
		`{"terms":[{"options":[],"coef":1,"cov":{"1":0.1}}]}`,
		`{"terms":[{"options":[],"numeric":"N","form":"x","coef":1,"cov":{"x":0.1}}]}`,
		`{"terms":[{"options":[],"numeric":"N","form":"x","coef":1,"cov":{"sqrt":0.1}}]}`,
	} {
		if _, err := ParseModel([]byte(bad)); err == nil {
			t.Errorf("ParseModel accepted %s", bad)
		}
	}
}
