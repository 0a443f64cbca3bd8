package profile_test

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"

	"github.com/augur-perf/augur/probe/profile"
	"github.com/augur-perf/augur/source/frontend"
)

// ExampleFromCPU turns the CPU samples of a timed run into each statement's time per execution:
// the loop body's line holds 90 of the 100 samples, each standing for 1 µs of the run's exact CPU
// time; the func line's 2 (the prologue) are the entry's, once per call. "return s" was never
// sampled: its time is 0, give or take one sample over its 10 runs.
func ExampleFromCPU() {
	const src = `package p

func Sum(xs []int) int {
	s := 0
	for _, x := range xs {
		s += work(x)
	}
	return s
}
`
	fset := token.NewFileSet()
	f, _ := parser.ParseFile(fset, "/p/sum.go", src, 0)
	g, _ := frontend.Build(fset, f.Decls[0].(*ast.FuncDecl), nil)
	// The counts of the same workload: 10 calls of 100 elements.
	counts := &profile.Func{Invocations: 10, Nodes: make([]profile.Node, len(g.Nodes))}
	for id, nd := range g.Nodes {
		switch nd.Text {
		case "s := 0", "return s":
			counts.Nodes[id].Count = 10
		case "for _, x := range xs":
			counts.Nodes[id].Count = 1010
		case "s += work(x)":
			counts.Nodes[id].Count = 1000
		}
	}
	lines := profile.Lines{5: {Samples: 8}, 6: {Samples: 90}, 3: {Samples: 2}}
	t := profile.FromCPU(g, counts, lines, 10, 1000, 100)
	for id, nd := range g.Nodes {
		if counts.Nodes[id].Count > 0 {
			fmt.Printf("%-22s %6.2f ns ± %.2f (%g samples)\n", nd.Text, t.NS[id], t.StdErr(id), t.Samples[id])
		}
	}
	// Output:
	// s := 0                 200.00 ns ± 140.00 (2 samples)
	// for _, x := range xs     7.92 ns ± 2.69 (8 samples)
	// s += work(x)            90.00 ns ± 3.00 (90 samples)
	// return s                 0.00 ns ± 100.00 (0 samples)
}
