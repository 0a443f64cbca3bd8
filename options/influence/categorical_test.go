package influence

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

var levels4 = []string{"1", "2", "3", "4"}

// stepLaw is a program whose -level selects one of four code paths: region "find" runs a
// different finder at each level (a step, no curve), region "sum" checksums when crc is on, a
// little more slowly at level 3, and region "setup" depends on neither.
func stepLaw(region string, crc bool, level string) float64 {
	b := 0.0
	if crc {
		b = 1
	}
	switch region {
	case "find":
		return map[string]float64{"1": 0.030, "2": 0.050, "3": 0.040, "4": 0.200}[level]
	case "sum":
		extra := 0.0
		if level == "3" {
			extra = 0.012
		}
		return 0.001 + b*(0.020+extra)
	}
	return 0.005
}

// stepLocals measures the three regions at every assignment of their options (reps runs each,
// spread by ±noise around the law) and builds their local models.
func stepLocals(t *testing.T, reps int, noise float64) []Local {
	t.Helper()
	regions := []Region{
		{Name: "find", Position: "enc.go:10:1", Options: []string{"level"}},
		{Name: "sum", Position: "enc.go:20:1", Options: []string{"crc", "level"}},
		{Name: "setup", Position: "main.go:5:1", Options: []string{}},
	}
	kinds := Kinds{Levels: map[string][]string{"level": levels4}}
	var locals []Local
	for _, r := range regions {
		var ms []Measurement
		for _, crc := range []bool{false, true} {
			for _, lv := range levels4 {
				for rep := 0; rep < reps; rep++ {
					d := 0.0
					if reps > 1 {
						d = noise * (2*float64(rep)/float64(reps-1) - 1)
					}
					ms = append(ms, Measurement{Config: Config{"crc": crc}, Cat: map[string]string{"level": lv}, Seconds: stepLaw(r.Name, crc, lv) + d})
				}
			}
		}
		l, err := MixedLocalModel(r, kinds, ms)
		if err != nil {
			t.Fatal(err)
		}
		locals = append(locals, l)
	}
	return locals
}

func coefOf(m Model, name string) (Term, bool) {
	for _, t := range m.Terms {
		if t.Name() == name {
			return t, true
		}
	}
	return Term{}, false
}

// A region's local model with a categorical option is its table dummy-coded against the first
// value: the global model recovers the law's terms exactly, and predicts every configuration.
func TestCategoricalExactRecovery(t *testing.T) {
	locals := stepLocals(t, 1, 0)
	m := Global(locals...)
	want := map[string]float64{
		"":              0.030 + 0.001 + 0.005,
		"[level=2]":     0.020,
		"[level=3]":     0.010,
		"[level=4]":     0.170,
		"crc":           0.020,
		"crc·[level=2]": 0,
		"crc·[level=3]": 0.012,
		"crc·[level=4]": 0,
	}
	if len(m.Terms) != len(want) {
		t.Errorf("%d terms, want %d: %s", len(m.Terms), len(want), m.Format(FormatOptions{Precision: 3, KeepSmall: true}))
	}
	for name, w := range want {
		term, ok := coefOf(m, name)
		if !ok || math.Abs(term.Coef-w) > 1e-12 {
			t.Errorf("term %q = %v (present %v), want %v", name, term.Coef, ok, w)
		}
	}
	if got, wantS := m.Format(FormatOptions{Precision: 3}), "T = 0.036 + 0.020·crc + 0.020·[level=2] + 0.010·[level=3] + 0.170·[level=4] + 0.012·crc·[level=3]"; got != wantS {
		t.Errorf("format:\n got %s\nwant %s", got, wantS)
	}
	if got := strings.Join(m.Levels["level"], ","); got != "1,2,3,4" {
		t.Errorf("model levels %q", got)
	}
	if got := strings.Join(m.Options(), ","); got != "crc,level" {
		t.Errorf("options %s", got)
	}
	// The step's terms trace back to the finder's region, the interaction to the checksum's.
	if term, _ := coefOf(m, "[level=4]"); len(term.Sources) != 1 || term.Sources[0].Region != "find" {
		t.Errorf("[level=4] sources %+v", term.Sources)
	}
	if term, _ := coefOf(m, "crc·[level=3]"); len(term.Sources) != 1 || term.Sources[0].Region != "sum" {
		t.Errorf("crc·[level=3] sources %+v", term.Sources)
	}
	for _, crc := range []bool{false, true} {
		for _, lv := range levels4 {
			truth := stepLaw("find", crc, lv) + stepLaw("sum", crc, lv) + stepLaw("setup", crc, lv)
			got, err := PredictSetting(m, Setting{On: Config{"crc": crc}, Cat: map[string]string{"level": lv}})
			if err != nil || math.Abs(got-truth) > 1e-12 {
				t.Errorf("crc=%v level=%s: %v (%v), want %v", crc, lv, got, err, truth)
			}
		}
	}
	// The table is indexed by mixed radix, crc (the region's first option) fastest.
	sum := locals[1]
	if c := sum.Table[1+2*2]; !(len(c.On) == 1 && c.On[0] == "crc" && c.Levels["level"] == "3") || math.Abs(c.Mean-0.033) > 1e-12 {
		t.Errorf("sum's cell 5: %+v", c)
	}
}

// A value never measured is refused, naming the measured values; so is a missing value.
func TestCategoricalUnmeasuredValue(t *testing.T) {
	m := Global(stepLocals(t, 1, 0)...)
	_, err := PredictSetting(m, Setting{Cat: map[string]string{"level": "5"}})
	if err == nil || !strings.Contains(err.Error(), "level=5 was never measured") || !strings.Contains(err.Error(), "1, 2, 3, 4") {
		t.Errorf("level 5: %v", err)
	}
	if _, err := PredictSetting(m, Setting{On: Config{"crc": true}}); err == nil || !strings.Contains(err.Error(), "categorical option level (one of 1, 2, 3, 4)") {
		t.Errorf("no level: %v", err)
	}
	if v := Predict(m, Config{}); !math.IsNaN(v) {
		t.Errorf("Predict without the level: %v, want NaN", v)
	}
}

// The standard errors of dummy terms add as boolean terms' do: [M=v] is T(v) − T(first), so its
// variance is the sum of the two cells'.
func TestCategoricalSpread(t *testing.T) {
	var ms []Measurement
	for i, v := range []string{"a", "b", "c"} {
		se := 0.01 * float64(i+1)
		ms = append(ms, Measurement{Cat: map[string]string{"M": v}, Seconds: float64(i + 1), SE: se})
	}
	l, err := MixedLocalModel(Region{Name: "r", Options: []string{"M"}}, Kinds{Levels: map[string][]string{"M": {"a", "b", "c"}}}, ms)
	if err != nil {
		t.Fatal(err)
	}
	m := Global(l)
	for name, want := range map[string]float64{"": 0.01, "[M=b]": math.Hypot(0.01, 0.02), "[M=c]": math.Hypot(0.01, 0.03)} {
		if term, _ := coefOf(m, name); math.Abs(term.Spread-want) > 1e-12 {
			t.Errorf("%q spread %v, want %v", name, term.Spread, want)
		}
	}
}

// Random tables over two boolean and two categorical options, transformed and summed back,
// reproduce every cell (the transform is exact and invertible).
func TestCategoricalRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	levels := map[string][]string{"M": {"x", "y", "z"}, "P": {"10", "2", "30", "4"}}
	r := Region{Name: "r", Options: []string{"A", "M", "B", "P"}}
	for iter := 0; iter < 50; iter++ {
		truth := map[string]float64{}
		var ms []Measurement
		for mask := 0; mask < 4; mask++ {
			for _, mv := range levels["M"] {
				for _, pv := range levels["P"] {
					c := Config{"A": mask&1 != 0, "B": mask&2 != 0}
					cat := map[string]string{"M": mv, "P": pv}
					v := math.Round(rng.NormFloat64()*1000) / 100
					truth[key(c, cat)] = v
					ms = append(ms, Measurement{Config: c, Cat: cat, Seconds: v})
				}
			}
		}
		rng.Shuffle(len(ms), func(i, j int) { ms[i], ms[j] = ms[j], ms[i] })
		l, err := MixedLocalModel(r, Kinds{Levels: levels}, ms)
		if err != nil {
			t.Fatal(err)
		}
		if len(l.Terms) != 4*3*4 || len(l.Table) != 48 {
			t.Fatalf("%d terms, %d cells", len(l.Terms), len(l.Table))
		}
		m := Global(l)
		for _, meas := range ms {
			got, err := PredictSetting(m, Setting{On: meas.Config, Cat: meas.Cat})
			if err != nil || math.Abs(got-truth[key(meas.Config, meas.Cat)]) > 1e-9 {
				t.Fatalf("%v %v: %v (%v), want %v", meas.Config, meas.Cat, got, err, meas.Seconds)
			}
		}
	}
	// Unmeasured assignments and unknown values are named.
	ms := []Measurement{{Config: Config{}, Cat: map[string]string{"M": "x"}, Seconds: 1}}
	if _, err := MixedLocalModel(Region{Name: "r", Options: []string{"A", "M"}}, Kinds{Levels: levels}, ms); err == nil || !strings.Contains(err.Error(), "{A=true M=x}") || !strings.Contains(err.Error(), "{A=false M=y}") {
		t.Errorf("missing assignments: %v", err)
	}
	ms[0].Cat["M"] = "w"
	if _, err := MixedLocalModel(Region{Name: "r", Options: []string{"M"}}, Kinds{Levels: levels}, ms); err == nil || !strings.Contains(err.Error(), "M=w is not one of the option's values (x, y, z)") {
		t.Errorf("unknown value: %v", err)
	}
}

func key(c Config, cat map[string]string) string {
	return levelKey(cat) + "|" + strings.Join(maskNames([]string{"A", "B"}, b2i(c["A"])|2*b2i(c["B"])), ",")
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// A curve per categorical value: a numeric option in a region with a categorical one gets a
// curve for each value, dummy-coded like any other coefficient.
func TestCategoricalTimesNumeric(t *testing.T) {
	xs := []float64{1, 2, 4, 8}
	law := map[string]func(x float64) float64{
		"fast": func(x float64) float64 { return 1 + 0.5*x },
		"best": func(x float64) float64 { return 2 + 3*math.Log2(x) },
		"mid":  func(x float64) float64 { return 1.5 + 0.5*x },
	}
	var ms []Measurement
	for mode, f := range law {
		for _, x := range xs {
			ms = append(ms, Measurement{Cat: map[string]string{"mode": mode}, Num: map[string]float64{"N": x}, Seconds: f(x)})
		}
	}
	l, err := MixedLocalModel(Region{Name: "r", Options: []string{"N", "mode"}}, Kinds{Numeric: "N", Levels: map[string][]string{"mode": {"fast", "mid", "best"}}}, ms)
	if err != nil {
		t.Fatal(err)
	}
	m := Global(l)
	for mode, f := range law {
		for _, x := range []float64{1, 3, 8} {
			got, err := PredictSetting(m, Setting{Cat: map[string]string{"mode": mode}, Num: map[string]float64{"N": x}})
			if err != nil || math.Abs(got-f(x)) > 1e-9 {
				t.Errorf("mode=%s N=%v: %v (%v), want %v (model %s)", mode, x, got, err, f(x), m.Format(FormatOptions{Precision: 3}))
			}
		}
	}
	if l.Numeric == nil || len(l.Numeric.Points) != 12 || l.Numeric.Points[0].Levels["mode"] == "" {
		t.Errorf("points %+v", l.Numeric)
	}
	// A file written with these locals but without covariances gets them back (RestoreCov),
	// categorical values included.
	stripped := Model{Levels: m.Levels}
	for _, term := range m.Terms {
		term.Cov = nil
		stripped.Terms = append(stripped.Terms, term)
	}
	back, _, ok := RestoreCov(stripped, []Local{l})
	if !ok {
		t.Fatal("RestoreCov refused the model's own locals")
	}
	for i := range back.Terms {
		if back.Terms[i].Numeric != "" && back.Terms[i].Cov == nil {
			t.Errorf("term %s has no covariances back", back.Terms[i].Name())
		}
	}
}

// The dummy terms of one categorical option are judged as a family: all left out when every
// value's term is within noise, all shown when one stands out.
func TestCategoricalNoiseFamily(t *testing.T) {
	mk := func(effects map[string]float64) Model {
		var ms []Measurement
		for i, v := range []string{"a", "b", "c"} {
			for _, crc := range []bool{false, true} {
				base := 1.0
				if crc {
					base += 0.5
				}
				ms = append(ms, Measurement{Config: Config{"crc": crc}, Cat: map[string]string{"M": v}, Seconds: base + effects[v] + 0.001*float64(i), SE: 0.01})
			}
		}
		l, err := MixedLocalModel(Region{Name: "r", Options: []string{"crc", "M"}}, Kinds{Levels: map[string][]string{"M": {"a", "b", "c"}}}, ms)
		if err != nil {
			t.Fatal(err)
		}
		return Global(l)
	}
	o := FormatOptions{Precision: 3, Noise: 3}
	// b is 0.002 from a (spread ≈ 0.014): alone it is noise, but c is 0.3 from a: the family
	// stands out and is printed whole.
	m := mk(map[string]float64{"c": 0.3})
	if got, want := m.Format(o), "T = 1.000 + 0.001·[M=b] + 0.302·[M=c] + 0.500·crc"; got != want {
		t.Errorf("a step at c:\n got %s\nwant %s", got, want)
	}
	if (FormatOptions{Precision: 3, Noise: 3}).Shows(m.Terms[1]) {
		t.Errorf("[M=b] alone must be noise: %+v", m.Terms[1])
	}
	// Nothing stands out: the family is left out, and listed in one brace.
	m = mk(nil)
	if got, want := m.Format(o), "T = 1.000 + 0.500·crc"; got != want {
		t.Errorf("no step:\n got %s\nwant %s", got, want)
	}
	var b bytes.Buffer
	if err := m.WriteText(&b, o, "wall time", func(s string) string { return s }); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "{[M=b], [M=c]}") || !strings.Contains(b.String(), "the terms of every value of M together") {
		t.Errorf("noise listing:\n%s", b.String())
	}
	noisy, judged := FamilyNoise([]Term{m.Terms[1], m.Terms[2]}, nil, 3)
	if !noisy || !judged {
		t.Errorf("FamilyNoise of [M=b], [M=c]: noisy %v judged %v", noisy, judged)
	}
}

// Models with categorical terms round-trip through JSON; their levels are checked on reading,
// and an old file (no levels) reads as before.
func TestCategoricalJSON(t *testing.T) {
	m := Global(stepLocals(t, 3, 0.002)...)
	data, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(data, []byte(`"levels":{"level":"3"}`)) || !bytes.Contains(data, []byte(`"levels":{"level":["1","2","3","4"]}`)) {
		t.Errorf("JSON lacks the levels: %s", data)
	}
	back, err := ParseModel(data)
	if err != nil {
		t.Fatal(err)
	}
	again, _ := json.Marshal(back)
	if !bytes.Equal(again, data) {
		t.Errorf("round trip:\n%s\n%s", data, again)
	}
	for _, bad := range []string{
		`{"terms":[{"options":[],"levels":{"M":"b"},"coef":1}]}`,                                                                     // no levels in the model
		`{"terms":[{"options":[],"levels":{"M":"a"},"coef":1}],"levels":{"M":["a","b"]}}`,                                            // the reference value
		`{"terms":[{"options":[],"levels":{"M":"q"},"coef":1}],"levels":{"M":["a","b"]}}`,                                            // not a value
		`{"terms":[{"options":["M"],"levels":{"M":"b"},"coef":1}],"levels":{"M":["a","b"]}}`,                                         // both kinds
		`{"terms":[{"options":["M"],"coef":1}],"levels":{"M":["a","b"]}}`,                                                            // boolean and categorical
		`{"terms":[{"options":[],"numeric":"M","form":"x","coef":1}],"levels":{"M":["a","b"]}}`,                                      // numeric and categorical
		`{"terms":[],"levels":{"M":["a"]}}`,                                                                                          // one value
		`{"terms":[],"levels":{"M":["a","a"]}}`,                                                                                      // repeated
		`{"terms":[{"options":[],"levels":{"M":"b"},"coef":1},{"options":[],"levels":{"M":"b"},"coef":2}],"levels":{"M":["a","b"]}}`, // twice
	} {
		if _, err := ParseModel([]byte(bad)); err == nil {
			t.Errorf("accepted %s", bad)
		}
	}
	old := []byte(`{"terms":[{"options":[],"coef":1},{"options":["A"],"coef":2}]}`)
	om, err := ParseModel(old)
	if err != nil || om.Levels != nil || Predict(om, Config{"A": true}) != 3 {
		t.Errorf("old model: %+v, %v", om, err)
	}
	if out, _ := json.Marshal(om); string(out) != `{"terms":[{"options":[],"coef":1},{"options":["A"],"coef":2}]}` {
		t.Errorf("old model rewritten as %s", out)
	}
}
