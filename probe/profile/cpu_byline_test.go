package profile

import (
	"math"
	"testing"

	"go/ast"
	"go/parser"
	"go/token"

	"github.com/augur-perf/augur/source/frontend"
)

// TestFromCPU: a line's sampled time is shared by the runs of the nodes on it, so the model's
// expected time (Σ reward·count / invocations) is exactly the time sampled per invocation.
func TestFromCPU(t *testing.T) {
	g := distanceCFG(t)
	f := &Func{Invocations: 10, Nodes: make([]Node, len(g.Nodes))}
	for id := range g.Nodes {
		f.Nodes[id].Count = uint64(1 + id)
	}
	cpu := map[string]int64{"/tmp/pkg/dist.go:8": 9000, "/tmp/pkg/dist.go:9": 500, "/elsewhere.go:8": 7}
	r := FromCPU(g, f, cpu)
	total := 0.0
	for id, v := range r {
		total += v * float64(f.Nodes[id].Count)
		if line := g.Nodes[id].Pos.Line; v != 0 && line != 8 && line != 9 {
			t.Errorf("node %d on line %d got %v", id, line, v)
		}
	}
	if math.Abs(total-9500) > 1e-9 {
		t.Errorf("the nodes account for %v ns, want the 9500 sampled on their lines", total)
	}
	// Line 8 holds the loop's init, condition and post: each gets the line's time per run.
	runs := uint64(0)
	for id, nd := range g.Nodes {
		if nd.Pos.Line == 8 {
			runs += f.Nodes[id].Count
		}
	}
	for id, nd := range g.Nodes {
		if nd.Pos.Line == 8 && r[id] != 9000/float64(runs) {
			t.Errorf("node %d (%s): %v ns per run, want %v", id, nd.Text, r[id], 9000/float64(runs))
		}
	}
}

// distanceCFG builds the CFG of a loop whose init, condition and post share line 8.
func distanceCFG(t *testing.T) *frontend.CFG {
	t.Helper()
	const src = `package p

// Distance adds.
func Distance(xs []float64) float64 {
	sum := 0.0
	// leading prose
	// more prose
	for i := 0; i < len(xs); i++ {
		if xs[i] > 0 {
			sum += xs[i]
		}
	}
	return sum
}
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "/tmp/pkg/dist.go", src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	g, err := frontend.Build(fset, f.Decls[0].(*ast.FuncDecl), nil)
	if err != nil {
		t.Fatal(err)
	}
	return g
}
