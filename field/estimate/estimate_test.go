package estimate

import (
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/augur-perf/augur/field/plan"
	"github.com/augur-perf/augur/field/store"
	"github.com/augur-perf/augur/field/wire"
	"github.com/augur-perf/augur/probe/instrument"
	"github.com/augur-perf/augur/probe/profile"
	"github.com/augur-perf/augur/source/frontend"
)

func scanOf(recs []*store.Record) func(func(*store.Record) error) error {
	return func(fn func(*store.Record) error) error {
		for _, r := range recs {
			if err := fn(r); err != nil {
				return err
			}
		}
		return nil
	}
}

// TestClosedForm checks the estimator on counts worked out by hand (see the comments).
func TestClosedForm(t *testing.T) {
	m := &plan.Manifest{Format: plan.Format, Release: "r1",
		Units:    []plan.Unit{{ID: 1, Pos: "a.go:1:1"}, {ID: 2, Pos: "a.go:2:1", Outcomes: 2}, {ID: 3, Pos: "a.go:3:1"}},
		Variants: []plan.Variant{{ID: 1, Probes: []int{1, 2}}, {ID: 2, Probes: []int{1, 3}}}}
	rec := func(site string, seq uint64, variant int, uptime, rate float64, cs ...wire.Count) *store.Record {
		return &store.Record{Site: site, Release: "r1", Seq: seq, Variant: variant, Uptime: uptime, Rate: rate, Counts: cs}
	}
	recs := []*store.Record{
		// Site a, variant 1: two packages of one run (uptime grows), then a restart.
		rec("a", 1, 1, 10, 0, wire.Count{Probe: 1, N: 4}, wire.Count{Probe: 2, N: 3, Out: []uint64{1, 2}}),
		rec("a", 2, 1, 20, 0, wire.Count{Probe: 1, N: 2}),
		rec("a", 3, 1, 5, 0, wire.Count{Probe: 1, N: 10}, wire.Count{Probe: 2, N: 5, Out: []uint64{5, 0}}),
		// Site b, variant 2, sampled at rate 0.5: 3 counted stands for 6.
		rec("b", 1, 2, 1, 0.5, wire.Count{Probe: 1, N: 3}),
		// Site c, variant 2: a run that counted nothing.
		rec("c", 1, 2, 1, 0),
	}
	e, err := Build(m, scanOf(recs))
	if err != nil {
		t.Fatal(err)
	}
	if e.Runs != 4 || e.Packages != 5 || !reflect.DeepEqual(e.VariantRuns, map[int]int{1: 2, 2: 2}) {
		t.Errorf("runs %d packages %d per variant %v; want 4, 5, {1:2 2:2}", e.Runs, e.Packages, e.VariantRuns)
	}
	wantSites := []Site{{"a", 3, 2, 24, 12}, {"b", 1, 1, 3, 3}, {"c", 1, 1, 0, 0}}
	if !reflect.DeepEqual(e.Sites, wantSites) {
		t.Errorf("sites %+v, want %+v", e.Sites, wantSites)
	}
	near := func(what string, got, want float64) {
		t.Helper()
		if math.Abs(got-want) > 1e-12 {
			t.Errorf("%s = %v, want %v", what, got, want)
		}
	}
	// Unit 1: runs count 6, 10, 6, 0: mean 5.5, N·mean 22, sd √17, SE 4·√17/√4.
	u1 := e.Units[0]
	near("unit 1 count", u1.Count, 22)
	near("unit 1 SE", *u1.SE, 2*math.Sqrt(17))
	// Unit 2 (variant 1's two runs): counts 3, 5 → 16; outcomes (1,2), (5,0) → P = (6/8, 2/8),
	// outcome counts 4·(3, 1); SE of P: √(((1−.75·3)² + (5−.75·5)²)/(2·1))/4 = 0.3125.
	u2 := e.Units[1]
	near("unit 2 count", u2.Count, 16)
	near("unit 2 P0", u2.P[0], 0.75)
	near("unit 2 P1", u2.P[1], 0.25)
	near("unit 2 out0", u2.Out[0], 12)
	near("unit 2 out1", u2.Out[1], 4)
	near("unit 2 P0 SE", u2.PSE[0], 0.3125)
	near("unit 2 P1 SE", u2.PSE[1], 0.3125)
	if u3 := e.Units[2]; u3.Runs != 2 || u3.Count != 0 || u3.Seen {
		t.Errorf("unit 3 %+v: probed by 2 runs, never seen", u3)
	}
	if seen, probed := e.Covered(); seen != 2 || probed != 3 {
		t.Errorf("covered %d of %d probed, want 2 of 3", seen, probed)
	}
	if hot := e.Hot(); len(hot) != 1 || hot[0].ID != 1 {
		t.Errorf("hot %+v, want unit 1 alone (5 %% of 3 units, rounded up)", hot)
	}
	if _, err := Build(m, scanOf([]*store.Record{rec("a", 1, 2, 1, 0, wire.Count{Probe: 2, N: 1})})); err == nil {
		t.Error("a count of a probe the variant does not carry was accepted")
	}
}

// walk runs g once from its entry, taking decision outcomes at random (a loop's back edge with
// probability 0.7), and adds the visits to f: flow-consistent counts, as instrumentation would
// record them.
func walk(g *frontend.CFG, f *profile.Func, rng *rand.Rand) {
	f.Invocations++
	for id := g.Entry; !g.Nodes[id].IsExit(); {
		nd := g.Nodes[id]
		f.Nodes[id].Count++
		k := 0
		if nd.IsDecision() {
			k = rng.IntN(len(nd.Succs))
			for j, s := range nd.Succs {
				if s.Back && rng.Float64() < 0.7 {
					k = j
				}
			}
			f.Nodes[id].Outcomes[k]++
		}
		id = nd.Succs[k].To
	}
}

// TestProfileRecoversTruth: when every site-run does the same, the field profile built from
// variants that each probe half the units is exactly the summed profile of full
// instrumentation, whatever the sampling rate (here 1/2 at one site).
func TestProfileRecoversTruth(t *testing.T) {
	prog, err := frontend.Load("../..", "github.com/augur-perf/augur/examples/distance")
	if err != nil {
		t.Fatal(err)
	}
	fns, err := prog.Select("github.com/augur-perf/augur/examples/distance")
	if err != nil {
		t.Fatal(err)
	}
	units := plan.Units(fns, nil, func(s string) string { return s })
	m, err := plan.Allocate("r1", units, plan.Options{Variants: 2, Bound: (len(units) + 1) / 2, Strategy: plan.RandomBalanced, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	// One run's truth: 50 invocations of each function, doubled so that a rate of 1/2 counts
	// an exact half.
	rng := rand.New(rand.NewPCG(1, 2))
	one := map[string]*profile.Func{}
	for _, fn := range fns {
		f := &profile.Func{Nodes: make([]profile.Node, len(fn.CFG.Nodes))}
		for id, nd := range fn.CFG.Nodes {
			if nd.IsDecision() {
				f.Nodes[id].Outcomes = make([]uint64, len(nd.Succs))
			}
		}
		for range 50 {
			walk(fn.CFG, f, rng)
		}
		one[fn.Name] = f
	}
	countOf := func(u plan.Unit, div uint64) wire.Count {
		n := one[u.Func].Nodes[u.Node]
		c := wire.Count{Probe: u.ID, N: 2 * n.Count / div}
		for _, o := range n.Outcomes {
			c.Out = append(c.Out, 2*o/div)
		}
		return c
	}
	var recs []*store.Record
	const sites = 6
	for s := range sites {
		v := m.Variants[s%2]
		rate, div := 0.0, uint64(1)
		if s == 3 {
			rate, div = 0.5, 2
		}
		r := &store.Record{Site: string(rune('a' + s)), Release: "r1", Seq: 1, Variant: v.ID, Uptime: 60, Rate: rate}
		for _, id := range v.Probes {
			r.Counts = append(r.Counts, countOf(units[id-1], div))
		}
		recs = append(recs, r)
	}
	e, err := Build(m, scanOf(recs))
	if err != nil {
		t.Fatal(err)
	}
	p, notes, err := e.Profile(fns, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(notes.Missing) != 0 || len(notes.NoInvocations) != 0 || p.Runs != sites {
		t.Errorf("notes %+v, runs %d; want every decision estimated from %d runs", notes, p.Runs, sites)
	}
	for _, fn := range fns {
		got, truth := p.Funcs[fn.Name], one[fn.Name]
		if got == nil {
			t.Errorf("%s is missing from the field profile", fn.Name)
			continue
		}
		if h, _ := instrument.FuncHash(fn); got.Hash != h {
			t.Errorf("%s: hash %q, want %q", fn.Name, got.Hash, h)
		}
		if got.Invocations != 2*sites*truth.Invocations {
			t.Errorf("%s: %d invocations, want %d", fn.Name, got.Invocations, 2*sites*truth.Invocations)
		}
		for id, n := range truth.Nodes {
			if fn.CFG.Nodes[id].IsExit() || fn.CFG.Nodes[id].Unreachable {
				continue
			}
			want := profile.Node{Count: 2 * sites * n.Count}
			for _, o := range n.Outcomes {
				want.Outcomes = append(want.Outcomes, 2*sites*o)
			}
			if !reflect.DeepEqual(got.Nodes[id], want) {
				t.Errorf("%s node %d: %+v, want %+v", fn.Name, id, got.Nodes[id], want)
			}
		}
	}
}

// TestMissingAndBase: with one variant probing a single unit, the other decisions have no field
// data — listed, left empty — and --base fills them from an in-house profile, saying so.
func TestMissingAndBase(t *testing.T) {
	prog, err := frontend.Load("../..", "github.com/augur-perf/augur/examples/distance")
	if err != nil {
		t.Fatal(err)
	}
	fns, err := prog.Select("github.com/augur-perf/augur/examples/distance")
	if err != nil {
		t.Fatal(err)
	}
	units := plan.Units(fns, nil, func(s string) string { return s })
	var l1 *frontend.Func
	for _, fn := range fns {
		if fn.Name == "github.com/augur-perf/augur/examples/distance.L1" {
			l1 = fn
		}
	}
	entry := 0
	for _, u := range units {
		if u.Func == l1.Name && u.Node == l1.CFG.Entry {
			entry = u.ID
		}
	}
	m := &plan.Manifest{Format: plan.Format, Release: "r1", Units: units, Variants: []plan.Variant{{ID: 1, Probes: []int{entry}}}}
	c := wire.Count{Probe: entry, N: 10}
	if u := units[entry-1]; u.Outcomes > 0 {
		c.Out = make([]uint64, u.Outcomes)
		c.Out[0] = 10
	}
	e, err := Build(m, scanOf([]*store.Record{{Site: "a", Release: "r1", Seq: 1, Variant: 1, Uptime: 1, Counts: []wire.Count{c}}}))
	if err != nil {
		t.Fatal(err)
	}
	_, notes, err := e.Profile(fns, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(notes.Missing) == 0 || len(notes.Filled) != 0 {
		t.Errorf("notes %+v: want the unprobed decisions listed and nothing filled", notes)
	}
	base := &profile.Profile{Format: profile.Format, Runs: 1, Funcs: map[string]*profile.Func{}}
	rng := rand.New(rand.NewPCG(5, 6))
	for _, fn := range fns {
		f := &profile.Func{Nodes: make([]profile.Node, len(fn.CFG.Nodes))}
		for id, nd := range fn.CFG.Nodes {
			if nd.IsDecision() {
				f.Nodes[id].Outcomes = make([]uint64, len(nd.Succs))
			}
		}
		for range 20 {
			walk(fn.CFG, f, rng)
		}
		base.Funcs[fn.Name] = f
	}
	p, notes, err := e.Profile(fns, base)
	if err != nil {
		t.Fatal(err)
	}
	if len(notes.Filled) == 0 {
		t.Errorf("notes %+v: want decisions filled from the base", notes)
	}
	f := p.Funcs[l1.Name]
	if f == nil || f.Invocations != 10 {
		t.Fatalf("L1 in the field profile: %+v; want 10 invocations (its entry's count)", f)
	}
	for id, nd := range l1.CFG.Nodes {
		if !nd.IsDecision() || nd.Unreachable || id == l1.CFG.Entry {
			continue
		}
		var sum uint64
		for _, o := range f.Nodes[id].Outcomes {
			sum += o
		}
		if sum == 0 && f.Nodes[id].Count > 0 {
			t.Errorf("L1 decision %d ran %d times but was not filled", id, f.Nodes[id].Count)
		}
	}
}

// TestAgainst compares with a reference by hand: units 1 and 2 ran in the reference, the field
// saw unit 1 only; the reference's top unit (5 % of 3, rounded up: 1) is unit 2, not found.
func TestAgainst(t *testing.T) {
	e := &Estimates{Units: []Unit{
		{Unit: plan.Unit{ID: 1}, Runs: 2, Count: 9, Seen: true},
		{Unit: plan.Unit{ID: 2}, Runs: 1, Count: 0},
		{Unit: plan.Unit{ID: 3}, Runs: 1},
	}}
	got := e.Against(map[int]uint64{1: 5, 2: 50})
	want := Reference{Seen: 2, Covered: 1, Coverage: 0.5, Hot: 1, HotFound: 0, Unmatched: 1}
	if got != want {
		t.Errorf("Against = %+v, want %+v", got, want)
	}
}
