package study

import (
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/augur-perf/augur/options/baselines"
	"github.com/augur-perf/augur/options/sources"
)

func TestParseTarget(t *testing.T) {
	got, err := ParseTarget("./examples/options / -unit=10ms -v")
	if err != nil || got.Pkg != "./examples/options" || !slices.Equal(got.Args, []string{"-unit=10ms", "-v"}) {
		t.Errorf("got %+v, %v", got, err)
	}
	for _, s := range []string{"./cmd/x", "./cmd/x /", " ./cmd/x / "} {
		if got, err := ParseTarget(s); err != nil || got.Pkg != "./cmd/x" || len(got.Args) != 0 {
			t.Errorf("%q, no args: %+v, %v", s, got, err)
		}
	}
	var de *sources.DeclError
	if _, err := ParseTarget("./a -v"); !errors.As(err, &de) {
		t.Errorf("a package with a space: %v, want a DeclError", err)
	}
}

// The held-out sample is every configuration for small spaces (numeric options counting all
// their values), else distinct draws that the seed repeats, numeric options at any value.
func TestHeldOutSample(t *testing.T) {
	small := baselines.Space{Names: []string{"a", "b", "n"}, Values: map[string][]float64{"n": {1, 2, 4}}}
	if all := HeldOutSample(small, 0, 1); len(all) != 12 {
		t.Errorf("2·2·3 space, k=0: %d configurations, want all 12", len(all))
	}
	var many []string
	for i := 0; i < 20; i++ {
		many = append(many, fmt.Sprintf("o%d", i))
	}
	big := baselines.Space{Names: many, Values: map[string][]float64{"o3": {1, 2, 3, 4}}}
	a, b := HeldOutSample(big, 30, 7), HeldOutSample(big, 30, 7)
	seen, values := map[string]bool{}, map[int]bool{}
	for i := range a {
		key := fmt.Sprint(a[i])
		if seen[key] || !slices.Equal(a[i], b[i]) {
			t.Fatalf("draw %d: duplicate or not repeatable: %v %v", i, a[i], b[i])
		}
		seen[key] = true
		values[a[i][3]] = true
	}
	if len(a) != 30 || len(values) != 4 {
		t.Errorf("%d draws reaching %d of o3's 4 values, want 30 reaching all", len(a), len(values))
	}
}

func TestParseDecls(t *testing.T) {
	d, err := ParseDecls([]string{"example.com/cfg.Get=Mode@env:MODE"}, nil, []string{"workers=1,8"}, []string{"out"})
	if err != nil || len(d.Sources) != 1 || d.Sources[0].Name != "Mode" || d.Sources[0].Set.Env != "MODE" || len(d.Values["workers"]) != 2 || !slices.Equal(d.Fixed, []string{"out"}) {
		t.Errorf("got %+v, %v", d, err)
	}
	var de *sources.DeclError
	if _, err := ParseDecls(nil, nil, []string{"workers"}, nil); !errors.As(err, &de) {
		t.Errorf("values without '=': %v, want a DeclError", err)
	}
}
