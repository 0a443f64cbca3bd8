package usage

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"math/big"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/augur-perf/augur/analyze/synth"
	"github.com/augur-perf/augur/markov/checker"
	"github.com/augur-perf/augur/markov/pctl"
	"github.com/augur-perf/augur/source/frontend"
)

// PROPER's running example, with the decisions on lines 5 and 9.
const l1 = `package distance

// L1 returns the distance.
func L1(a, b []int) (int, error) {
	if len(a) != len(b) {
		return 0, nil
	}
	d := 0
	for i := 0; i < len(a); i++ {
		d += a[i] - b[i]
	}
	return d, nil
}
`

func build(t *testing.T, src string) *frontend.Func {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "/src/distance/distance.go", src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	d := f.Decls[0].(*ast.FuncDecl)
	g, err := frontend.Build(fset, d, nil)
	if err != nil {
		t.Fatal(err)
	}
	return &frontend.Func{Name: "example.com/distance.L1", Decl: d, CFG: g}
}

func decode(t *testing.T, s string) *Usage {
	t.Helper()
	u, err := Decode(strings.NewReader(s), "u.json")
	if err != nil {
		t.Fatal(err)
	}
	return u
}

func TestPROPERExample(t *testing.T) {
	fn := build(t, l1)
	u := decode(t, `{"format":"augur-usage/1","functions":{"example.com/distance.L1":{"invocations":100,
		"decisions":{"distance.go:5":{"true":30,"false":70},"distance.go:9":{"true":5000,"false":70}}}}}`)
	p, err := u.Profile([]*frontend.Func{fn})
	if err != nil {
		t.Fatal(err)
	}
	f := p.Funcs[fn.Name]
	g := fn.CFG
	want := map[int]uint64{}
	for _, nd := range g.Nodes {
		switch {
		case nd.Pos.Line == 5, nd.Pos.Line == 8:
			want[nd.ID] = map[int]uint64{5: 100, 8: 70}[nd.Pos.Line]
		case nd.Kind == frontend.KindReturn && nd.Pos.Line == 6:
			want[nd.ID] = 30
		case nd.Kind == frontend.KindDecision && nd.Pos.Line == 9:
			want[nd.ID] = 5070
		case nd.Pos.Line == 10:
			want[nd.ID] = 5000
		case nd.Kind == frontend.KindEnd:
			want[nd.ID] = 100
		}
	}
	for id, c := range want {
		if f.Nodes[id].Count != c {
			t.Errorf("node %d (%s): count %d, want %d", id, g.Nodes[id].Text, f.Nodes[id].Count, c)
		}
	}
	// PROPER's formula: the loop body runs 5000/100 = 50 times per invocation.
	body := make([]float64, len(g.Nodes))
	for _, nd := range g.Nodes {
		if nd.Pos.Line == 10 {
			body[nd.ID] = 1
		}
	}
	res, err := synth.Synthesize(g, f, synth.Options{Rewards: map[string][]float64{"body": body}})
	if err != nil {
		t.Fatal(err)
	}
	q, _ := pctl.Parse(`R{"body"}=? [ F "exit" ]`)
	r, err := checker.Check(res.Model, q, checker.Options{Method: checker.Exact})
	if err != nil {
		t.Fatal(err)
	}
	if r.InitialExact.Cmp(big.NewRat(50, 1)) != 0 {
		t.Errorf("expected body runs %v, want 50", r.InitialExact)
	}
}

func TestErrors(t *testing.T) {
	fn := build(t, l1)
	head := `{"format":"augur-usage/1","functions":{"example.com/distance.L1":{"invocations":100,"decisions":`
	cases := []struct{ decisions, want string }{
		{`{"distance.go:6":{"true":1}}`, `u.json: functions["example.com/distance.L1"].decisions["distance.go:6"]: no decision of example.com/distance.L1 is at distance.go:6 (its decisions are at distance.go:5:5, distance.go:9:14)`},
		{`{"distance.go:5":{"yes":1}}`, `/src/distance/distance.go:5:5: decision "if len(a) != len(b)" has no outcome "yes" (it has "true", "false")`},
		{`{"distance.go:5":{"true":30,"false":70}}`, `/src/distance/distance.go:9:14: function example.com/distance.L1: decision "for i := 0; i < len(a); i++ (cond)" is reached but the usage profile gives no counts for it (key distance.go:9:14, outcomes "true", "false")`},
		{`{"distance.go:5":{"true":30,"false":60},"distance.go:9":{"true":5000,"false":60}}`, `distance.go:5:5: function example.com/distance.L1: decision "if len(a) != len(b)" is reached 100 times by the given counts, but its outcomes add up to 90`},
		{`{"distance.go:5":{"true":30,"false":70},"distance.go:9:3":{"true":5000,"false":70}}`, `no decision of example.com/distance.L1 is at distance.go:9:3`},
		{`{"distance.go":{"true":1}}`, `"distance.go" is not file:line or file:line:col`},
	}
	for _, c := range cases {
		u := decode(t, head+c.decisions+`}}}`)
		_, err := u.Profile([]*frontend.Func{fn})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s:\n got %v\nwant %s", c.decisions, err, c.want)
		}
	}
	u := decode(t, `{"format":"augur-usage/1","functions":{"example.com/distance.L2":{"invocations":1}}}`)
	if _, err := u.Profile([]*frontend.Func{fn}); err == nil || !strings.Contains(err.Error(), "L2 is not among") {
		t.Errorf("unknown function: %v", err)
	}
	for _, s := range []string{
		`{"format":"augur-usage/2","functions":{}}`,
		`{"format":"augur-usage/1","functions":{"f":{}}}`,
		`{"format":"augur-usage/1","functions":{"f":{"invocations":-1}}}`,
		`{"format":"augur-usage/1","functions":{"f":{"invocations":1,"calls":2}}}`,
	} {
		if _, err := Decode(strings.NewReader(s), "u.json"); err == nil || !strings.HasPrefix(err.Error(), "u.json") {
			t.Errorf("%s: %v", s, err)
		}
	}
}

// TestCorpusRoundTrip states, for every corpus function with static defers, the decision counts
// of simulated runs without panics as a given profile, and checks the flow derivation gives back
// every node count the runs had.
func TestCorpusRoundTrip(t *testing.T) {
	prog, err := frontend.Load(filepath.Join("..", "..", "source", "frontend", "testdata", "src", "corpus"), ".")
	if err != nil {
		t.Fatal(err)
	}
	fns, err := prog.Select("corpus")
	if err != nil {
		t.Fatal(err)
	}
	tried := 0
	for _, fn := range fns {
		g := fn.CFG
		if g.DynamicDefers {
			continue
		}
		rng := rand.New(rand.NewPCG(uint64(len(g.Nodes)), 3))
		counts, outs, ok := walk(g, rng, 50)
		if !ok {
			continue // runs that could only end by panicking
		}
		uf := &Func{Invocations: 50, Decisions: map[string]map[string]uint64{}}
		for id, nd := range g.Nodes {
			if nd.IsDecision() && counts[id] > 0 {
				m := map[string]uint64{}
				for k, e := range nd.Succs {
					m[e.Outcome] += outs[id][k]
				}
				uf.Decisions[fmt.Sprintf("%s:%d:%d", filepath.Base(nd.Pos.Filename), nd.Pos.Line, nd.Pos.Column)] = m
			}
		}
		u := &Usage{Name: "u.json", Funcs: map[string]*Func{fn.Name: uf}}
		f, err := u.Func(fn.Name, g)
		if err != nil {
			t.Errorf("%s: %v", fn.Name, err)
			continue
		}
		tried++
		for id := range g.Nodes {
			if f.Nodes[id].Count != counts[id] {
				t.Errorf("%s: node %d: derived count %d, runs counted %d", fn.Name, id, f.Nodes[id].Count, counts[id])
			}
		}
	}
	if tried < 30 {
		t.Errorf("only %d corpus functions round-tripped", tried)
	}
}

// walk runs the CFG n times choosing outcomes at random, without panics; ok is false when a run
// does not end within a bound.
func walk(g *frontend.CFG, rng *rand.Rand, n int) (counts []uint64, outs [][]uint64, ok bool) {
	counts = make([]uint64, len(g.Nodes))
	outs = make([][]uint64, len(g.Nodes))
	for id, nd := range g.Nodes {
		outs[id] = make([]uint64, len(nd.Succs))
	}
	for range n {
		u := g.Entry
		counts[u]++
		for steps := 0; !g.Nodes[u].IsExit(); steps++ {
			if steps > 1000 {
				return nil, nil, false
			}
			nd := g.Nodes[u]
			k := 0
			if nd.IsDecision() {
				k = rng.IntN(len(nd.Succs))
				if steps > 200 {
					k = len(nd.Succs) - 1 // the "false", "done" or "default" outcome leaves a loop
				}
			}
			outs[u][k]++
			u = nd.Succs[k].To
			counts[u]++
		}
	}
	return counts, outs, true
}
