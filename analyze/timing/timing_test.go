package timing

import (
	"testing"

	"github.com/augur-perf/augur/probe/profile"
	"github.com/augur-perf/augur/source/frontend"
)

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

// The targets of a timed run: only invoked functions; named ones required, else all optional;
// the first scenario is the baseline.
func TestTargets(t *testing.T) {
	a := &frontend.Func{Name: "p.A"}
	b := &frontend.Func{Name: "p.B"}
	c := &frontend.Func{Name: "p.C"}
	p := &profile.Profile{Funcs: map[string]*profile.Func{"p.A": {Invocations: 3}, "p.B": {Invocations: 0}}}
	ts := FuncTargets([]*frontend.Func{a, b, c}, p, nil)
	if len(ts) != 1 || ts[0].Fn != a || !ts[0].Optional || ts[0].Label != "p.A" {
		t.Errorf("unnamed: %+v", ts)
	}
	if ts := FuncTargets([]*frontend.Func{a, b, c}, p, map[string]bool{"p.B": true}); len(ts) != 0 {
		t.Errorf("named p.B, never invoked: %+v", ts)
	}
	if ts := FuncTargets([]*frontend.Func{a}, p, map[string]bool{"p.A": true}); len(ts) != 1 || ts[0].Optional {
		t.Errorf("named p.A: %+v", ts)
	}
	q := &profile.Profile{Funcs: map[string]*profile.Func{"p.A": {Invocations: 1}}}
	ts = ScenarioTargets(a, []*profile.Profile{p, {Funcs: map[string]*profile.Func{}}, q}, []string{"base.json", "none.json", "q.json"})
	if len(ts) != 2 || ts[0].Label != "baseline" || ts[1].Label != "q.json" || ts[1].F != q.Funcs["p.A"] {
		t.Errorf("scenarios: %+v", ts)
	}
}
