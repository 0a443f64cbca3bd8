package instrument

import (
	"math"
	"math/rand/v2"
	"sort"
	"testing"

	"github.com/augur-perf/augur/analyze/synth"
	"github.com/augur-perf/augur/markov/checker"
	"github.com/augur-perf/augur/markov/pctl"
	"github.com/augur-perf/augur/probe/profile"
	"github.com/augur-perf/augur/source/annot"
	"github.com/augur-perf/augur/source/frontend"
)

// TestIdentityMeasured is PROPER's promise checked end to end on real runs: for every function
// of the workload (every Go construct, panics, defers, recover, gotos, labelled loops, selects,
// recursion), the model synthesised from the instrumentation's counts predicts, as
// R{"r"}=? [F "exit"], exactly the mean reward per invocation that the same counts measure
// (Σ reward·Count / Invocations), for arbitrary rewards: to 1e-9 with the direct method and as
// the same rational with the exact one.
func TestIdentityMeasured(t *testing.T) {
	w := buildWork(t)
	p, _ := sameRun(t, w, "all")
	for _, mode := range []string{"crash", "exit"} {
		q, _ := profileOf(t, w, mode)
		if err := p.Merge(q); err != nil {
			t.Fatal(err)
		}
	}
	fns := funcsByName(w)
	names := make([]string, 0, len(p.Funcs))
	for n, f := range p.Funcs {
		if f.Invocations > 0 {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	if len(names) < 20 {
		t.Fatalf("only %d functions ran", len(names))
	}
	for _, name := range names {
		checkIdentity(t, fns[name], p.Funcs[name], 14)
	}
	t.Logf("identity checked on %d measured functions", len(names))
}

// checkIdentity checks, for arbitrary rewards drawn from seed, that the model synthesised from
// f predicts R{"r"}=? [F "exit"] exactly as the counts measure it: to 1e-9 with the direct
// method and as the same rational with the exact one.
func checkIdentity(t *testing.T, fn *frontend.Func, f *profile.Func, seed uint64) {
	t.Helper()
	prop, err := pctl.Parse(`R{"r"}=? [ F "exit" ]`)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(3, seed))
	name := fn.Name
	reward := make([]float64, len(fn.CFG.Nodes))
	for i, nd := range fn.CFG.Nodes {
		// R[F "exit"] gathers reward until an exit is reached, not in it; annotations cannot
		// name the exits anyway.
		if !nd.IsExit() {
			reward[i] = float64(r.IntN(100)) / 4
		}
	}
	res, err := synth.Synthesize(fn.CFG, f, synth.Options{Rewards: annot.Rewards{"r": reward}})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	direct, err := checker.Check(res.Model, prop, checker.Options{})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	want := synth.MeasuredMean(f, reward)
	if d := math.Abs(direct.Initial - want); d > 1e-9*math.Abs(want) {
		t.Errorf("%s: model predicts %v, runs measured %v", name, direct.Initial, want)
	}
	exact, err := checker.Check(res.Model, prop, checker.Options{Method: checker.Exact})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if wantExact := synth.MeasuredMeanExact(f, reward); exact.InitialExact == nil || exact.InitialExact.Cmp(wantExact) != 0 {
		t.Errorf("%s: exact model %v, measured %v", name, exact.InitialExact, wantExact)
	}
}
