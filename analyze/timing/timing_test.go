package timing

import "testing"

// ParsePrecision reads percentages and fractions alike.
func TestParsePrecision(t *testing.T) {
	for s, want := range map[string]float64{"5%": 0.05, "0.05": 0.05, "50%": 0.5} {
		if v, err := ParsePrecision(s); err != nil || v != want {
			t.Errorf("%s: %v, %v; want %v", s, v, err, want)
		}
	}
	if FormatNS(1500) != "1.5 µs" || FormatNS(2.5e9) != "2.5 s" {
		t.Errorf("FormatNS: %s, %s", FormatNS(1500), FormatNS(2.5e9))
	}
}

// FuzzParsePrecision: --precision reads 5% or 0.05, refuses anything else, never panics.
func FuzzParsePrecision(f *testing.F) {
	for _, s := range []string{"5%", "0.05", "100%", "0", "-1%", "abc", "1e-3", "NaN%", "%"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := ParsePrecision(s)
		if err == nil && !(v > 0 && v < 1) {
			t.Fatalf("%q read as %v", s, v)
		}
	})
}
