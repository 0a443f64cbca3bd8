package instrument

import (
	"fmt"
	"testing"
)

// TestShadowing instruments testdata/src/work/shadow, a package that redeclares every
// predeclared identifier at package level (types, constants, nil, builtins) and declares names
// like augur's: it must build and count what ran.
func TestShadowing(t *testing.T) {
	p, fns := measureTest(t, "shadow", "TestAll", 0, 1)
	byName := funcsOf(fns)
	const S = "example.com/work/shadow."
	for _, c := range []struct {
		fn, node string
		count    uint64
		outcomes []uint64
	}{
		{"Sum", "for i := 0; i < 10; i++ (cond)", 11, []uint64{10, 1}},
		{"Sum", "if i%2 == 0", 10, []uint64{5, 5}},
		{"Sum", "s += xs[i] / d", 5, nil},
		{"Sum", "if s > 10", 1, []uint64{1, 0}},
		{"Check", "if i < 0", 3, []uint64{1, 2}},
		{"Check", "return xs[i] + _augur_cs + _augur_frame + _augur1_x, err", 2, nil},
		{"Loop", "switch i % 3", 5, []uint64{2, 2, 1}},
		{"Loop", "panic()", 5, nil},
		{"Label", "if b", 2, []uint64{1, 1}},
	} {
		fn := byName[S+c.fn]
		f := p.Funcs[S+c.fn]
		got := f.Nodes[node(t, fn, c.node)]
		if got.Count != c.count || got.Panics != 0 || c.outcomes != nil && fmt.Sprint(got.Outcomes) != fmt.Sprint(c.outcomes) {
			t.Errorf("%s %q: count %d outcomes %v panics %d; want %d %v 0", c.fn, c.node, got.Count, got.Outcomes, got.Panics, c.count, c.outcomes)
		}
	}
	for _, fn := range fns {
		if f := p.Funcs[fn.Name]; f.Invocations > 0 {
			checkIdentity(t, fn, f, 11)
		}
	}
}
