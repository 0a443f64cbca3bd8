package study

import (
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/augur-perf/augur/options/sources"
)

func TestParseTarget(t *testing.T) {
	got, err := ParseTarget("./examples/options / -unit=10ms -v")
	if err != nil || got.Pkg != "./examples/options" || !slices.Equal(got.Args, []string{"-unit=10ms", "-v"}) {
		t.Errorf("got %+v, %v", got, err)
	}
	if got, err := ParseTarget("./cmd/x"); err != nil || got.Pkg != "./cmd/x" || len(got.Args) != 0 {
		t.Errorf("no args: %+v, %v", got, err)
	}
	var de *sources.DeclError
	if _, err := ParseTarget("./a -v"); !errors.As(err, &de) {
		t.Errorf("a package with a space: %v, want a DeclError", err)
	}
}

// The held-out sample is every configuration for small programs, else distinct draws that the
// seed repeats.
func TestHeldOutSample(t *testing.T) {
	if all := HeldOutSample(3, 0, 1); len(all) != 8 {
		t.Errorf("n=3, k=0: %d configurations, want all 8", len(all))
	}
	a, b := HeldOutSample(20, 30, 7), HeldOutSample(20, 30, 7)
	seen := map[string]bool{}
	for i := range a {
		key := fmt.Sprint(a[i])
		if seen[key] || !slices.Equal(a[i], b[i]) {
			t.Fatalf("draw %d: duplicate or not repeatable: %v %v", i, a[i], b[i])
		}
		seen[key] = true
	}
	if len(a) != 30 {
		t.Errorf("%d draws, want 30", len(a))
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
