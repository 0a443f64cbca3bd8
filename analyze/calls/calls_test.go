package calls_test

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/augur-perf/augur/analyze/calls"
	"github.com/augur-perf/augur/analyze/predict"
	"github.com/augur-perf/augur/probe/instrument"
	"github.com/augur-perf/augur/probe/profile"
	"github.com/augur-perf/augur/source/annot"
	"github.com/augur-perf/augur/source/frontend"
)

// TestRecursion measures the call tree of testdata/rec with real probes and composes it: Walk's
// inclusive cost has the closed form 2/(1-f) with f its measured recursion frequency (about 8),
// and Top's inclusive model equals the measured cost of everything Top ran, per call, exactly.
func TestRecursion(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs an instrumented workload")
	}
	prog, err := frontend.Load("testdata", "./rec")
	if err != nil {
		t.Fatal(err)
	}
	fns, err := prog.Select("example.com/rec")
	if err != nil {
		t.Fatal(err)
	}
	m, err := instrument.Measure(prog, fns, instrument.Workload{Args: []string{"go", "test", "./rec"}, Dir: "testdata"})
	if err != nil || m.ExitCode != 0 {
		t.Fatalf("%v %+v", err, m)
	}
	g := calls.Build(fns)
	excl := map[string]float64{}
	measured := 0.0 // the total cost of every statement that ran
	for _, fn := range fns {
		pf := m.Profile.Funcs[fn.Name]
		if pf == nil || pf.Invocations == 0 {
			continue
		}
		sc, err := predict.Baseline(fn, m.Profile, "workload")
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := sc.Rewards["cost"]; !ok {
			continue
		}
		out, err := sc.Predict(fn, predict.Options{})
		if err != nil {
			t.Fatal(err)
		}
		excl[fn.Name] = out.Values[0].Initial
		measured += totalCost(sc.Rewards, pf)
	}
	rows, err := calls.Compose(g, m.Profile, excl)
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]calls.Row{}
	for _, r := range rows {
		byName[strings.TrimPrefix(r.Func, "example.com/rec.")] = r
	}
	walk, top := byName["Walk"], byName["Top"]
	f := walk.Calls["example.com/rec.Walk"]
	if math.Abs(f-0.75) > 0.03 {
		t.Errorf("Walk recurses %v times per call, want about 3/4", f)
	}
	if want := 2 / (1 - f); math.Abs(walk.Inclusive-want) > 1e-9*want {
		t.Errorf("Walk inclusive %v, closed form 2/(1-f) = %v", walk.Inclusive, want)
	}
	if top.Calls["example.com/rec.Walk"] != 2 || top.Calls["example.com/rec.Leaf"] != 1 {
		t.Errorf("Top's calls %v", top.Calls)
	}
	perTop := measured / float64(top.Invocations)
	if math.Abs(top.Inclusive-perTop) > 1e-9*perTop {
		t.Errorf("Top inclusive %v, measured %v per call", top.Inclusive, perTop)
	}
	if top.Exclusive != 0.5 || rows[0].Func != "example.com/rec.Top" {
		t.Errorf("rows %+v", rows)
	}
	if len(g.Dynamic) != 1 || g.Dynamic[0].Line != 105 {
		t.Errorf("dynamic call sites %v, want only the call of the returned closure on line 105", g.Dynamic)
	}
	// tally runs once directly and once as a method value.
	if n := top.Calls["example.com/rec.(*counter).tally"]; n != 2 {
		t.Errorf("Top calls tally %v times per call, want 2", n)
	}
	// The interface call goes to wheel.Spin two times in three, (*gear).Spin once, as measured.
	if w, gr := top.Calls["example.com/rec.wheel.Spin"], top.Calls["example.com/rec.(*gear).Spin"]; math.Abs(w-2.0/3) > 1e-3 || math.Abs(gr-1.0/3) > 1e-3 {
		t.Errorf("Top's interface calls: wheel %v, gear %v", w, gr)
	}
	for lit, per := range map[string]float64{"Spawn.func1": 1, "Spawn.func2": 1.5, "adder.func1": 1} {
		var caller calls.Row
		for name, r := range byName {
			if strings.HasPrefix(lit, name+".") && name != lit {
				caller = r
			}
		}
		if got := caller.Calls["example.com/rec."+lit]; math.Abs(got-per) > 1e-9 {
			t.Errorf("%s: %v calls per invocation of %s, want %v", lit, got, caller.Func, per)
		}
	}
	t.Logf("Walk: %.4f inclusive (f = %.4f); Top: %.4f inclusive = measured %.4f", walk.Inclusive, f, top.Inclusive, perTop)

	// Every call recursing twice with certainty diverges, and says so.
	p2 := &profile.Profile{Funcs: map[string]*profile.Func{}}
	for name, pf := range m.Profile.Funcs {
		c := *pf
		p2.Funcs[name] = &c
	}
	wf := *p2.Funcs["example.com/rec.Walk"]
	wf.Nodes = append([]profile.Node(nil), wf.Nodes...)
	for i := range wf.Nodes {
		wf.Nodes[i].Count = wf.Invocations // every statement, the recursive call included, each time
	}
	p2.Funcs["example.com/rec.Walk"] = &wf
	var de *calls.DivergentError
	if _, err := calls.Compose(g, p2, excl); !errors.As(err, &de) || !strings.Contains(err.Error(), "Walk") {
		t.Errorf("a recursion with one call per call: %v", err)
	}
}

// totalCost is Σ count(node)·cost(node) over a function's statements.
func totalCost(r annot.Rewards, pf *profile.Func) float64 {
	var sum float64
	for id, v := range r["cost"] {
		if id < len(pf.Nodes) {
			sum += float64(pf.Nodes[id].Count) * v
		}
	}
	return sum
}
