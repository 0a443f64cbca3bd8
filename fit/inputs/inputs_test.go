package inputs

import (
	"errors"
	"math"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	ds, err := Parse("n~lognormal(8,1.2), m=5, k~choice(1:0.5, 10:0.5), u~uniform(0,2)")
	if err != nil {
		t.Fatal(err)
	}
	if len(ds) != 4 || ds[0].Param != "k" || ds[1].Kind != "fixed" || ds[2].Kind != "lognormal" || ds[2].A != 8 || ds[3].B != 2 {
		t.Errorf("%+v", ds)
	}
	for _, c := range []struct {
		in  string
		col int
	}{
		{"n", 1},
		{"n=x", 3},
		{"n=1, n=2", 6},
		{"n~gamma(1,2)", 3},
		{"n~normal(1)", 10},
		{"n~normal(1,-1)", 10},
		{"n~choice(1:0.5,2:0.4)", 10},
		{"n~choice(1:0.5,2)", 16},
		{"n=1,,m=2", 5},
	} {
		_, err := Parse(c.in)
		var pe *Error
		if !errors.As(err, &pe) || pe.Col != c.col {
			t.Errorf("%q: %v, want an error at column %d", c.in, err, c.col)
		}
	}
}

// Exact over finite inputs; Monte Carlo within its stated error otherwise (the lognormal's mean
// is e^(μ+σ²/2)).
func TestExpect(t *testing.T) {
	ds, _ := Parse("n~choice(1:0.25,3:0.75), m=2")
	e, err := Expect(ds, func(at map[string]float64) float64 { return at["n"] * at["m"] }, map[string][2]float64{"n": {1, 2}}, 0, 1)
	if err != nil || !e.Exact || e.Mean != 2*(0.25+2.25) || e.OutOfRange != 0.75 {
		t.Errorf("%+v %v", e, err)
	}
	ds, _ = Parse("n~lognormal(1,0.5)")
	e, err = Expect(ds, func(at map[string]float64) float64 { return at["n"] }, nil, 200000, 7)
	want := math.Exp(1 + 0.125)
	if err != nil || e.Exact || math.Abs(e.Mean-want) > 4*e.SE || e.SE <= 0 || e.SE > 0.01*want {
		t.Errorf("%+v %v, want mean %v", e, err, want)
	}
	if _, err := Expect(ds, func(map[string]float64) float64 { return math.NaN() }, nil, 10, 1); err == nil || !strings.Contains(err.Error(), "undefined") {
		t.Errorf("NaN law: %v", err)
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"n~lognormal(8,1.2), m=5", "k~choice(1:0.5,10:0.5)", "u~uniform(0,1)", "n=(", "n~normal(,)"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ds, err := Parse(s)
		if err != nil {
			var pe *Error
			if !errors.As(err, &pe) || pe.Col < 1 {
				t.Fatalf("%q: error without a column: %v", s, err)
			}
			return
		}
		for _, d := range ds {
			if d.Finite() && len(d.Values) != len(d.Probs) {
				t.Fatalf("%+v", d)
			}
		}
	})
}

// FromFlags takes exactly one of --inputs and --at, values only for --at, and says what is wrong
// as a usage error.
func TestFromFlags(t *testing.T) {
	text, ds, err := FromFlags("", "n=1e6, m=5")
	if err != nil || text != "n=1e6, m=5" || len(ds) != 2 {
		t.Fatalf("%q %v %v", text, ds, err)
	}
	if text, ds, err := FromFlags("n~uniform(1,2)", ""); err != nil || text != "n~uniform(1,2)" || ds[0].Kind != "uniform" {
		t.Errorf("%q %v %v", text, ds, err)
	}
	for _, c := range []struct{ spec, at, want string }{
		{"", "", "give --inputs or --at (one of them)"},
		{"n=1", "n=2", "give --inputs or --at (one of them)"},
		{"", "n~normal(1,2)", "--at takes values (n=1e6), not distributions"},
		{"bogus", "", `--inputs "bogus": column 1: "bogus": want NAME=VALUE or NAME~DIST(...)`},
	} {
		_, _, err := FromFlags(c.spec, c.at)
		var fe *FlagError
		if !errors.As(err, &fe) || !fe.UsageError() || err.Error() != c.want {
			t.Errorf("%q, %q: %v, want the usage error %q", c.spec, c.at, err, c.want)
		}
	}
}
