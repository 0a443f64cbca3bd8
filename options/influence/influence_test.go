package influence

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/augur-perf/augur/options/compress"
)

func configOf(names []string, mask int) Config {
	c := Config{}
	for j, n := range names {
		if mask&(1<<j) != 0 {
			c[n] = true
		}
	}
	return c
}

// The issue's example: T = 1 + 2A + 4AB + 7AC, from its 8 configurations' times.
func TestIssueExample(t *testing.T) {
	names := []string{"A", "B", "C"}
	truth := func(c Config) float64 {
		return 1 + 2*b(c["A"]) + 4*b(c["A"])*b(c["B"]) + 7*b(c["A"])*b(c["C"])
	}
	var ms []Measurement
	for mask := 0; mask < 8; mask++ {
		c := configOf(names, mask)
		ms = append(ms, Measurement{Config: c, Seconds: truth(c)})
	}
	l, err := LocalModel(Region{Name: "main", Position: "main.go:10:2", Options: names}, ms)
	if err != nil {
		t.Fatal(err)
	}
	m := Global(l)
	if got, want := m.String(), "T = 1.00 + 2.00·A + 4.00·A·B + 7.00·A·C"; got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	for mask := 0; mask < 8; mask++ {
		c := configOf(names, mask)
		if p := Predict(m, c); p != truth(c) {
			t.Errorf("Predict(%v) = %v, want %v", c, p, truth(c))
		}
	}
	for _, term := range m.Terms {
		want := 1
		if term.Coef == 0 {
			want = 0
		}
		if len(term.Sources) != want || (want == 1 && term.Sources[0].Position != "main.go:10:2") {
			t.Errorf("term %v: sources %+v", term.Options, term.Sources)
		}
	}
	if s := m.Format(FormatOptions{KeepSmall: true}); !strings.Contains(s, "0.00·B·C") {
		t.Errorf("KeepSmall lost zero terms: %s", s)
	}
}

func b(x bool) float64 {
	if x {
		return 1
	}
	return 0
}

// ConfigCrusher's running example model, rebuilt from per-region tables measured in the
// configurations compress.Minimal chooses for the regions' option sets.
func TestConfigCrusherExample(t *testing.T) {
	all := []string{"A", "B", "C", "D", "E", "F", "G", "H", "I", "J"}
	type region struct {
		opts []string
		f    func(Config) float64
	}
	regions := []region{
		{nil, func(Config) float64 { return 1 }},
		{[]string{"A"}, func(c Config) float64 { return 2.1 * b(c["A"]) }},
		{[]string{"A", "B"}, func(c Config) float64 { return 3 * b(c["A"]) * b(c["B"]) }},
		{[]string{"A", "C"}, func(c Config) float64 { return 4 * b(c["A"]) * b(c["C"]) }},
		{[]string{"D", "E", "F"}, func(c Config) float64 { return 5 * b(c["D"]) * b(c["E"]) * b(c["F"]) }},
	}
	for k, o := range []string{"B", "C", "D", "E", "F", "G", "H", "I"} {
		coef := 0.2 + 0.1*float64(k)
		o := o
		regions = append(regions, region{[]string{o}, func(c Config) float64 { return coef * b(c[o]) }})
	}
	index := map[string]int{}
	for i, n := range all {
		index[n] = i
	}
	var sets [][]int
	for _, r := range regions {
		var s []int
		for _, o := range r.opts {
			s = append(s, index[o])
		}
		sets = append(sets, s)
	}
	res, err := compress.Compress(sets, len(all), compress.Options{Names: all})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Configs) != 8 {
		t.Fatalf("%d configurations, want 8", len(res.Configs))
	}
	var locals []Local
	for ri, r := range regions {
		var ms []Measurement
		for _, cc := range res.Configs {
			c := Config{}
			for o, v := range cc {
				if v != 0 {
					c[all[o]] = true
				}
			}
			ms = append(ms, Measurement{Config: c, Seconds: r.f(c)})
		}
		l, err := LocalModel(Region{Name: "r" + string(rune('0'+ri)), Options: r.opts}, ms)
		if err != nil {
			t.Fatal(err)
		}
		locals = append(locals, l)
	}
	m := Global(locals...)
	want := "T = 1.00 + 2.10·A + 0.20·B + 0.30·C + 0.40·D + 0.50·E + 0.60·F + 0.70·G + 0.80·H + 0.90·I + 3.00·A·B + 4.00·A·C + 5.00·D·E·F"
	if got := m.String(); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	for mask := 0; mask < 1<<len(all); mask++ {
		c := configOf(all, mask)
		truth := 0.0
		for _, r := range regions {
			truth += r.f(c)
		}
		if p := Predict(m, c); math.Abs(p-truth) > 1e-9 {
			t.Fatalf("Predict(%v) = %v, want %v", c, p, truth)
		}
	}
	if got := len(m.Terms[0].Sources); got != 1 {
		t.Errorf("constant term has %d sources", got)
	}
	// A appears in one region alone; its term must trace back to exactly that region.
	for _, term := range m.Terms {
		if len(term.Options) == 1 && term.Options[0] == "A" {
			if len(term.Sources) != 1 || term.Sources[0].Region != "r1" {
				t.Errorf("A's sources: %+v", term.Sources)
			}
		}
	}
}

// Random coefficients → tables → transform back, exactly (up to rounding), for both the
// measurement path and the table path, with repetitions averaged.
func TestMobiusRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for iter := 0; iter < 200; iter++ {
		k := rng.IntN(7)
		names := make([]string, k)
		for j := range names {
			names[j] = string(rune('A' + j))
		}
		rng.Shuffle(k, func(x, y int) { names[x], names[y] = names[y], names[x] })
		coef := make([]float64, 1<<k)
		for u := range coef {
			if rng.IntN(3) > 0 {
				coef[u] = math.Round(rng.NormFloat64()*1000) / 100
			}
		}
		var ms []Measurement
		for mask := 0; mask < 1<<k; mask++ {
			tm := 0.0
			for u := range coef {
				if u&mask == u {
					tm += coef[u]
				}
			}
			reps := 1 + rng.IntN(3)
			// Symmetric noise around the true time averages back to it.
			for r := 0; r < reps; r++ {
				ms = append(ms, Measurement{Config: configOf(names, mask), Seconds: tm + 0.01*float64(r) - 0.005*float64(reps-1)})
			}
		}
		rng.Shuffle(len(ms), func(x, y int) { ms[x], ms[y] = ms[y], ms[x] })
		l, err := LocalModel(Region{Name: "r", Options: names}, ms)
		if err != nil {
			t.Fatal(err)
		}
		m := Global(l)
		for u, c := range coef {
			got := m.Coef(maskNames(names, u)...)
			if math.Abs(got-c) > 1e-9 {
				t.Fatalf("k=%d: coefficient of %v = %v, want %v", k, maskNames(names, u), got, c)
			}
		}
		l2, err := LocalFromTable(l.Region, l.Table)
		if err != nil {
			t.Fatal(err)
		}
		for i := range l.Terms {
			if l.Terms[i].Coef != l2.Terms[i].Coef {
				t.Fatal("table path differs")
			}
		}
	}
}

func TestMissingAssignments(t *testing.T) {
	ms := []Measurement{
		{Config: Config{}, Seconds: 1},
		{Config: Config{"A": true}, Seconds: 2},
		{Config: Config{"A": true, "B": true}, Seconds: 3},
	}
	_, err := LocalModel(Region{Name: "loop", Position: "x.go:3:1", Options: []string{"A", "B"}}, ms)
	if err == nil || !strings.Contains(err.Error(), "{A=false B=true}") || !strings.Contains(err.Error(), "x.go:3:1") {
		t.Errorf("error %v does not name the missing assignment", err)
	}
	if _, err := LocalModel(Region{Name: "r", Options: []string{"A", "A"}}, ms); err == nil {
		t.Error("duplicate option accepted")
	}
	if _, err := LocalModel(Region{Name: "r"}, []Measurement{{Config: Config{}, Seconds: math.NaN()}}); err == nil {
		t.Error("NaN accepted")
	}
}

func TestSpread(t *testing.T) {
	// Off: 1.0 and 1.2 (mean 1.1, sd √0.02); on: 3.0 three times.
	ms := []Measurement{{Config: Config{}, Seconds: 1.0}, {Config: Config{}, Seconds: 1.2}, {Config: Config{"A": true}, Seconds: 3}, {Config: Config{"A": true}, Seconds: 3}, {Config: Config{"A": true}, Seconds: 3}}
	l, err := LocalModel(Region{Name: "r", Options: []string{"A"}}, ms)
	if err != nil {
		t.Fatal(err)
	}
	sem := math.Sqrt(0.02) / math.Sqrt(2)
	if c := l.Table[0]; c.N != 2 || math.Abs(c.SD-math.Sqrt(0.02)) > 1e-12 {
		t.Errorf("cell %+v", c)
	}
	m := Global(l)
	if got := m.Terms[0].Spread; math.Abs(got-sem) > 1e-12 {
		t.Errorf("constant spread %v, want %v", got, sem)
	}
	if got := m.Terms[1].Spread; math.Abs(got-sem) > 1e-12 {
		t.Errorf("A spread %v, want %v (only the off cell varies)", got, sem)
	}
	if s := m.Format(FormatOptions{Spread: true}); s != "T = (1.10 ± 0.10) + (1.90 ± 0.10)·A" {
		t.Errorf("format %q", s)
	}
}

func TestFormat(t *testing.T) {
	m := NewModel([]Term{{Options: []string{"B", "A"}, Coef: -2}, {Options: nil, Coef: 0.001}, {Options: []string{"A"}, Coef: -1.5}, {Options: []string{"A", "B"}, Coef: 0.5}})
	if got := m.String(); got != "T = -1.50·A - 1.50·A·B" {
		t.Errorf("got %q", got)
	}
	if got := (Model{}).String(); got != "T = 0.00" {
		t.Errorf("empty model %q", got)
	}
	if got := m.Format(FormatOptions{KeepSmall: true, Precision: 3}); got != "T = 0.001 - 1.500·A - 1.500·A·B" {
		t.Errorf("got %q", got)
	}
}

func TestJSONRoundTrip(t *testing.T) {
	m := NewModel([]Term{{Options: []string{"B", "A"}, Coef: 4, Spread: 0.1, Sources: []Source{{Region: "r", Position: "p.go:1:1", Coef: 4}}}, {Coef: 1}})
	data, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	back, err := ParseModel(data)
	if err != nil {
		t.Fatal(err)
	}
	again, _ := json.Marshal(back)
	if string(again) != string(data) {
		t.Errorf("round trip:\n%s\n%s", data, again)
	}
	for _, bad := range []string{
		`{"terms":[{"options":["A","A"],"coef":1}]}`,
		`{"terms":[{"options":["A"],"coef":1},{"options":["A"],"coef":2}]}`,
		`{"terms":[{"options":[""],"coef":1}]}`,
		`{"terms":[{"options":["A"],"coef":1,"spread":-1}]}`,
		`{"terms":[],"extra":1}`,
		`{"terms":[]} {}`,
	} {
		if _, err := ParseModel([]byte(bad)); err == nil {
			t.Errorf("accepted %s", bad)
		}
	}
}

func FuzzParseModel(f *testing.F) {
	f.Add([]byte(`{"terms":[{"options":[],"coef":1},{"options":["A","B"],"coef":4,"sources":[{"region":"r","coef":4}]}]}`))
	f.Add([]byte(`{"terms":[{"options":["A"],"coef":1e308}]}`))
	f.Add([]byte(`{}`))
	f.Add([]byte(`{"terms":[{"options":[],"coef":1},{"options":["A"],"levels":{"M":"b"},"coef":2}],"levels":{"M":["a","b","c"]}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := ParseModel(data)
		if err != nil {
			return
		}
		out, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		m2, err := ParseModel(out)
		if err != nil {
			t.Fatalf("re-parse of %s: %v", out, err)
		}
		if m.String() != m2.String() {
			t.Fatalf("%s != %s", m, m2)
		}
		_ = Predict(m, Config{})
	})
}

func TestNoise(t *testing.T) {
	// One summarised measurement per cell, each with standard error 0.01: every cell
	// variance is 1e-4, and the interaction A·B sums four of them (spread 0.02).
	ms := []Measurement{
		{Config: Config{}, Seconds: 1, SE: 0.01},
		{Config: Config{"A": true}, Seconds: 2, SE: 0.01},
		{Config: Config{"B": true}, Seconds: 1.5, SE: 0.01},
		{Config: Config{"A": true, "B": true}, Seconds: 2.55, SE: 0.01},
	}
	l, err := LocalModel(Region{Name: "r", Options: []string{"A", "B"}}, ms)
	if err != nil {
		t.Fatal(err)
	}
	m := Global(l)
	ab := m.Terms[len(m.Terms)-1]
	if strings.Join(ab.Options, "·") != "A·B" || math.Abs(ab.Coef-0.05) > 1e-12 || math.Abs(ab.Spread-0.02) > 1e-12 {
		t.Fatalf("A·B term %+v, want 0.05 ± 0.02", ab)
	}
	if got := m.Format(FormatOptions{}); got != "T = 1.00 + 1.00·A + 0.50·B + 0.05·A·B" {
		t.Errorf("without Noise: %q", got)
	}
	// 0.05 is 2.5 standard errors: kept at 2, left out at 3.
	if got := m.Format(FormatOptions{Noise: 2}); got != "T = 1.00 + 1.00·A + 0.50·B + 0.05·A·B" {
		t.Errorf("Noise 2: %q", got)
	}
	if got := m.Format(FormatOptions{Noise: 3}); got != "T = 1.00 + 1.00·A + 0.50·B" {
		t.Errorf("Noise 3: %q", got)
	}
	if !(FormatOptions{Noise: 3, KeepSmall: true}).Shows(ab) {
		t.Error("KeepSmall must show every term")
	}
}
