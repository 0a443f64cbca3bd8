package instrument

import (
	"math/big"
	"testing"

	"github.com/augur-perf/augur/analyze/synth"
	"github.com/augur-perf/augur/markov/checker"
	"github.com/augur-perf/augur/markov/pctl"
)

// TestRecovered: panics that a deferred call recovers, where the CFG does not show the recovery
// (a callee's panic with no panic chain in the CFG, a deferred method that recovers), are
// measured as Recovered when the function then returns normally and not when it panics again
// (a recovering literal re-panicking, an earlier deferred call panicking after the recovery);
// the model sends them to End, and its probability of ending normally is the measured one.
func TestRecovered(t *testing.T) {
	w := buildWork(t)
	p, _ := sameRun(t, w, "all")
	fns := funcsByName(w)
	const L = "example.com/work/lib."
	for _, c := range []struct {
		fn, node           string
		panics, recovered  uint64
		invocations, ended uint64 // calls, and calls that returned normally
	}{
		// Safe(f): f() panics in 9 of its 10 calls in "all", every one recovered (the CFG has
		// no panic chain: only an explicit panic makes one).
		{"Safe", "f()", 9, 9, 10, 10},
		// NamedRecover(1), (-1), (0): the explicit panic makes a panic chain, on which 10 / 0
		// unwinds too; there the deferred method recovers both.
		{"NamedRecover", "_ = 10 / x", 1, 0, 3, 3},
		{"NamedRecover", "run catcher{&err}.catch() (panic)", 2, 2, 3, 3},
		// Repanic(2), (4), (7): at(three, 4) and at(three, 7) panic; only the first is recovered.
		{"Repanic", "return at(three, x)", 2, 1, 3, 2},
		// LaterPanic(1), (2), (9): m[x] = 1 always panics and is recovered, but for 9 the other
		// deferred call panics afterwards.
		{"LaterPanic", "m[x] = 1", 3, 2, 3, 2},
	} {
		fn := fns[L+c.fn]
		f := p.Funcs[L+c.fn]
		got := f.Nodes[node(t, fn, c.node)]
		if got.Panics != c.panics || got.Recovered != c.recovered {
			t.Errorf("%s %q: panics %d recovered %d; want %d %d", c.fn, c.node, got.Panics, got.Recovered, c.panics, c.recovered)
		}
		end := f.Nodes[fn.CFG.End].Count
		if f.Invocations != c.invocations || end != c.ended || f.Nodes[fn.CFG.Panic].Count != c.invocations-c.ended {
			t.Errorf("%s: %d calls, %d ended, %d panicked; want %d, %d", c.fn, f.Invocations, end, f.Nodes[fn.CFG.Panic].Count, c.invocations, c.ended)
		}
		res, err := synth.Synthesize(fn.CFG, f, synth.Options{})
		if err != nil {
			t.Fatal(err)
		}
		prop, _ := pctl.Parse(`P=? [ F "end" ]`)
		r, err := checker.Check(res.Model, prop, checker.Options{Method: checker.Exact})
		if err != nil {
			t.Fatal(err)
		}
		if want := big.NewRat(int64(c.ended), int64(c.invocations)); r.InitialExact.Cmp(want) != 0 {
			t.Errorf("%s: the model ends normally with probability %v, the runs did %v", c.fn, r.InitialExact, want)
		}
		checkIdentity(t, fn, f, 5)
	}
}
