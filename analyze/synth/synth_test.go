package synth

import (
	"bytes"
	"flag"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/augur-perf/augur/markov/checker"
	"github.com/augur-perf/augur/markov/modelio"
	"github.com/augur-perf/augur/markov/pctl"
	"github.com/augur-perf/augur/probe/profile"
	"github.com/augur-perf/augur/source/annot"
	"github.com/augur-perf/augur/source/frontend"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

var (
	corpusOnce sync.Once
	corpusFns  []*frontend.Func
	corpusErr  error
)

func corpus(t testing.TB) []*frontend.Func {
	t.Helper()
	corpusOnce.Do(func() {
		prog, err := frontend.Load(filepath.Join("..", "..", "source", "frontend", "testdata", "src", "corpus"), ".")
		if err != nil {
			corpusErr = err
			return
		}
		corpusFns, corpusErr = prog.Select("corpus")
	})
	if corpusErr != nil {
		t.Fatal(corpusErr)
	}
	return corpusFns
}

// walker simulates invocations of a function on its CFG and counts them as instrumentation
// would: Count per node entered, Outcomes per decision outcome taken, Panics per node a panic
// left. Each walk ends at an exit: after budget steps every node panics (which only moves down
// the chain of deferred calls) and every DeferDispatch takes "done".
type walker struct {
	g       *frontend.CFG
	pt      []int
	rng     *rand.Rand
	weights [][]float64
	pPanic  float64
	budget  int
}

func newWalker(g *frontend.CFG, seed uint64, pPanic float64) *walker {
	w := &walker{g: g, pt: frontend.PanicTargets(g), rng: rand.New(rand.NewPCG(seed, 7)), pPanic: pPanic, budget: 60}
	w.weights = make([][]float64, len(g.Nodes))
	for id, nd := range g.Nodes {
		if nd.IsDecision() {
			w.weights[id] = make([]float64, len(nd.Succs))
			for k := range nd.Succs {
				w.weights[id][k] = 0.05 + w.rng.Float64()
			}
		}
	}
	return w
}

func (w *walker) run(invocations int) *profile.Func {
	g := w.g
	f := &profile.Func{Invocations: uint64(invocations), Nodes: make([]profile.Node, len(g.Nodes))}
	for id, nd := range g.Nodes {
		if nd.IsDecision() {
			f.Nodes[id].Outcomes = make([]uint64, len(nd.Succs))
		}
	}
	for range invocations {
		u := g.Entry
		f.Nodes[u].Count++
		for steps := 0; !g.Nodes[u].IsExit(); steps++ {
			nd := g.Nodes[u]
			late := steps > w.budget
			if nd.Kind == frontend.KindDeferDispatch {
				k := w.choose(u)
				if late {
					for i, e := range nd.Succs {
						if e.Outcome == frontend.OutDone {
							k = i
						}
					}
				}
				f.Nodes[u].Outcomes[k]++
				u = nd.Succs[k].To
			} else if late || w.rng.Float64() < w.pPanic {
				f.Nodes[u].Panics++
				u = w.pt[u]
			} else if nd.IsDecision() {
				k := w.choose(u)
				f.Nodes[u].Outcomes[k]++
				u = nd.Succs[k].To
			} else {
				u = nd.Succs[0].To
			}
			f.Nodes[u].Count++
		}
	}
	return f
}

func (w *walker) choose(u int) int {
	ws := w.weights[u]
	total := 0.0
	for _, x := range ws {
		total += x
	}
	r := w.rng.Float64() * total
	for k, x := range ws {
		if r < x {
			return k
		}
		r -= x
	}
	return len(ws) - 1
}

// conserves checks the counts are what instrumentation of real runs gives: each node's Count is
// its inflow (plus Invocations at the entry), each decision's Count is its outcomes plus panics.
func conserves(g *frontend.CFG, f *profile.Func, pt []int) error {
	in := make([]uint64, len(g.Nodes))
	in[g.Entry] += f.Invocations
	for id, nd := range g.Nodes {
		c := f.Nodes[id]
		if nd.IsExit() {
			continue
		}
		if nd.IsDecision() {
			sum := c.Panics
			for k, e := range nd.Succs {
				in[e.To] += c.Outcomes[k]
				sum += c.Outcomes[k]
			}
			if sum != c.Count {
				return fmt.Errorf("decision %d: count %d, outcomes+panics %d", id, c.Count, sum)
			}
		} else {
			in[nd.Succs[0].To] += c.Count - c.Panics
		}
		in[pt[id]] += c.Panics
	}
	for id := range g.Nodes {
		if in[id] != f.Nodes[id].Count {
			return fmt.Errorf("node %d: count %d, inflow %d", id, f.Nodes[id].Count, in[id])
		}
	}
	return nil
}

func randomRewards(g *frontend.CFG, rng *rand.Rand) annot.Rewards {
	r := make([]float64, len(g.Nodes))
	for id, nd := range g.Nodes {
		if !nd.IsExit() && rng.IntN(4) > 0 {
			r[id] = float64(rng.IntN(1000)) / 100
		}
	}
	return annot.Rewards{"r": r}
}

func check(t *testing.T, res *Result, prop string, method checker.Method) *checker.Result {
	t.Helper()
	f, err := pctl.Parse(prop)
	if err != nil {
		t.Fatal(err)
	}
	out, err := checker.Check(res.Model, f, checker.Options{Method: method})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestIdentity is the key property of synthesis: with counts that conserve flow, the model's
// expected reward to reach an exit is the measured mean reward per invocation, in floating point
// to 1e-9 relative and exactly with the exact checker, with and without Compact.
func TestIdentity(t *testing.T) {
	const prop = `R{"r"}=? [ F "exit" ]`
	fns := corpus(t)
	for _, fn := range fns {
		for seed := uint64(1); seed <= 4; seed++ {
			pPanic := 0.0
			if seed%2 == 0 {
				pPanic = 0.03
			}
			t.Run(fmt.Sprintf("%s/%d", fn.Name, seed), func(t *testing.T) {
				g := fn.CFG
				w := newWalker(g, seed, pPanic)
				f := w.run(40 + int(seed)*30)
				if err := conserves(g, f, w.pt); err != nil {
					t.Fatalf("the walker's counts do not conserve flow: %v", err)
				}
				rw := randomRewards(g, w.rng)
				want := MeasuredMean(f, rw["r"])
				wantExact := MeasuredMeanExact(f, rw["r"])
				for _, compact := range []bool{false, true} {
					res, err := Synthesize(g, f, Options{Rewards: rw, Compact: compact})
					if err != nil {
						t.Fatal(err)
					}
					got := check(t, res, prop, checker.Direct).Initial
					if d := math.Abs(got - want); d > 1e-9*math.Max(1, math.Abs(want)) {
						t.Errorf("compact=%v: R=? [F exit] = %.17g, measured mean %.17g", compact, got, want)
					}
					ex := check(t, res, prop, checker.Exact).InitialExact
					if ex == nil || ex.Cmp(wantExact) != 0 {
						t.Errorf("compact=%v: exact R=? [F exit] = %v, measured mean %v", compact, ex, wantExact.RatString())
					}
					// Every run ends at an exit, so the model reaches one surely.
					if p := check(t, res, `P=? [ F "exit" ]`, checker.Exact).InitialExact; p == nil || p.Cmp(big.NewRat(1, 1)) != 0 {
						t.Errorf("compact=%v: P=? [F exit] = %v, want 1", compact, p)
					}
					if compact && res.Model.N > len(g.Nodes) {
						t.Errorf("compact model has %d states for %d nodes", res.Model.N, len(g.Nodes))
					}
				}
			})
		}
	}
}

// TestPanicTargetsChain checks that panic targets lead, through deferred calls only, to an exit:
// otherwise a panic could loop.
func TestPanicTargetsChain(t *testing.T) {
	for _, fn := range corpus(t) {
		g := fn.CFG
		pt := frontend.PanicTargets(g)
		for id, nd := range g.Nodes {
			to := g.Nodes[pt[id]]
			switch {
			case nd.IsExit():
				if pt[id] != id {
					t.Errorf("%s: exit %d panics to %d", fn.Name, id, pt[id])
				}
			case to.Kind == frontend.KindPanic:
			case to.Kind == frontend.KindDeferRun && to.Chain == frontend.ChainPanic:
			case to.Kind == frontend.KindDeferDispatch && to.Chain == frontend.ChainPanic:
			default:
				t.Errorf("%s: node %d panics to %d (%s)", fn.Name, id, pt[id], to.Kind)
			}
		}
	}
}

func find(t *testing.T, name string) *frontend.Func {
	t.Helper()
	for _, fn := range corpus(t) {
		if fn.Name == "corpus."+name {
			return fn
		}
	}
	t.Fatalf("no corpus function %s", name)
	return nil
}

// TestUnseen checks the policies for decisions the profile never reached.
func TestUnseen(t *testing.T) {
	fn := find(t, "IfElse")
	g := fn.CFG
	f := &profile.Func{Invocations: 0, Nodes: make([]profile.Node, len(g.Nodes))}
	for id, nd := range g.Nodes {
		if nd.IsDecision() {
			f.Nodes[id].Outcomes = make([]uint64, len(nd.Succs))
		}
	}
	res, err := Synthesize(g, f, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Warnings) < 2 {
		t.Errorf("want a warning for the uninvoked function and the unseen decision, got %v", res.Warnings)
	}
	for _, w := range res.Warnings {
		if !strings.Contains(w.String(), ".go:") {
			t.Errorf("warning without position: %s", w)
		}
	}
	if _, err := Synthesize(g, f, Options{Unseen: UnseenError}); err == nil || !strings.Contains(err.Error(), "never reached") || !strings.Contains(err.Error(), ".go:") {
		t.Errorf("UnseenError: got %v", err)
	}
	res, err = Synthesize(g, f, Options{Unseen: UnseenFirst})
	if err != nil {
		t.Fatal(err)
	}
	for id, nd := range g.Nodes {
		if nd.IsDecision() {
			cols, probs := res.Model.Row(id)
			if len(cols) != 1 || cols[0] != nd.Succs[0].To || probs[0] != 1 {
				t.Errorf("UnseenFirst: decision %d row %v %v", id, cols, probs)
			}
		}
	}
	for _, s := range []string{"uniform", "first", "error"} {
		u, err := ParseUnseen(s)
		if err != nil || u.String() != s {
			t.Errorf("ParseUnseen(%q) = %v, %v", s, u, err)
		}
	}
	if _, err := ParseUnseen("zero"); err == nil {
		t.Error("ParseUnseen accepted an unknown policy")
	}
}

// TestBadProfiles checks that profiles that do not fit the CFG are refused with a position.
func TestBadProfiles(t *testing.T) {
	g := find(t, "IfElse").CFG
	w := newWalker(g, 1, 0)
	good := w.run(10)
	cases := map[string]func(f *profile.Func){
		"nodes": func(f *profile.Func) { f.Nodes = f.Nodes[:1] },
		"outcomes": func(f *profile.Func) {
			for id, nd := range g.Nodes {
				if nd.IsDecision() {
					f.Nodes[id].Outcomes = f.Nodes[id].Outcomes[:1]
				}
			}
		},
		"panics": func(f *profile.Func) {
			for id, nd := range g.Nodes {
				if !nd.IsDecision() && !nd.IsExit() {
					f.Nodes[id].Panics = f.Nodes[id].Count + 1
					return
				}
			}
		},
	}
	for name, mutate := range cases {
		f := &profile.Func{Invocations: good.Invocations, Nodes: make([]profile.Node, len(good.Nodes))}
		for i, nd := range good.Nodes {
			f.Nodes[i] = nd
			f.Nodes[i].Outcomes = append([]uint64(nil), nd.Outcomes...)
		}
		mutate(f)
		if _, err := Synthesize(g, f, Options{}); err == nil || !strings.Contains(err.Error(), ".go:") {
			t.Errorf("%s: got %v, want an error with a position", name, err)
		}
	}
}

// TestLabelsAndParams checks the labels and parameter names of a small model.
func TestLabelsAndParams(t *testing.T) {
	fn := find(t, "IfElse")
	g := fn.CFG
	f := newWalker(g, 3, 0.05).run(200)
	res, err := Synthesize(g, f, Options{})
	if err != nil {
		t.Fatal(err)
	}
	m := res.Model
	for _, l := range []string{"init", "end", "panic", "exit", "return"} {
		if _, ok := m.Labels[l]; !ok {
			t.Errorf("label %q missing", l)
		}
	}
	if got := m.Labels["exit"]; len(got) != 2 || got[0] != g.End || got[1] != g.Panic {
		t.Errorf("exit label %v, want [%d %d]", got, g.End, g.Panic)
	}
	for id, nd := range g.Nodes {
		if m.Line[id] != nd.Pos.Line {
			t.Errorf("state %d line %d, want %d", id, m.Line[id], nd.Pos.Line)
		}
		if nd.IsDecision() {
			l := fmt.Sprintf("line%d", nd.Pos.Line)
			if st := m.Labels[l]; len(st) == 0 {
				t.Errorf("no label %s", l)
			}
			a, b := m.RowPtr[id], m.RowPtr[id+1]
			for k := a; k < b; k++ {
				if !strings.HasPrefix(m.Param[k], fmt.Sprintf("p%d", nd.Pos.Line)) {
					t.Errorf("decision %d transition %d has parameter %q", id, k, m.Param[k])
				}
			}
		}
	}
}

var goldenFuncs = []string{"If", "IfElse", "Fib", "ForCond", "RangeSlice", "Select", "DeferStatic", "DeferRecover", "DeferDynamic", "Panic", "Switch"}

// TestGolden keeps the synthesised models of a few corpus functions, in augur's JSON form, from a
// fixed simulated profile with one "steps" reward per statement.
func TestGolden(t *testing.T) {
	for _, name := range goldenFuncs {
		var fn *frontend.Func
		for _, f := range corpus(t) {
			if f.Name == "corpus."+name {
				fn = f
			}
		}
		if fn == nil {
			continue
		}
		g := fn.CFG
		f := newWalker(g, 11, 0.02).run(100)
		// Without panics, so that Compact has chains to merge.
		noPanics := newWalker(g, 11, 0).run(100)
		steps := make([]float64, len(g.Nodes))
		for id, nd := range g.Nodes {
			if !nd.IsExit() {
				steps[id] = 1
			}
		}
		for _, compact := range []bool{false, true} {
			prof := f
			if compact {
				prof = noPanics
			}
			res, err := Synthesize(g, prof, Options{Rewards: annot.Rewards{"steps": steps}, Compact: compact})
			if err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			if err := modelio.WriteJSON(&buf, res.Model); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join("testdata", name+".golden")
			if compact {
				path = filepath.Join("testdata", name+".compact.golden")
			}
			if *update {
				if err := os.MkdirAll("testdata", 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				continue
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test -update)", err)
			}
			if !bytes.Equal(want, buf.Bytes()) {
				t.Errorf("%s differs (go test -update rewrites it):\n--- got\n%s--- want\n%s", path, buf.Bytes(), want)
			}
		}
	}
}
