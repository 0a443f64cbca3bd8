package profile

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"math"
	"path/filepath"
	"strings"
	"testing"

	pprof "github.com/google/pprof/profile"

	"github.com/augur-perf/augur/source/frontend"
)

const sumSrc = `package p

// Sum adds.
func Sum(xs []float64, s string) float64 {
	sum := 0.0
	for i := 0; i < len(xs); i++ {
		sum += expensive(
			xs[i])
	}
	switch s {
	case "a":
		sum++
	}
	return sum
}
`

// buildCFG builds the CFG of the first function of src, in file /tmp/pkg/sum.go.
func buildCFG(t *testing.T, src string) *frontend.CFG {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "/tmp/pkg/sum.go", src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	g, err := frontend.Build(fset, f.Decls[0].(*ast.FuncDecl), nil)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// nodeOn gives the node whose text starts with prefix.
func nodeOn(t *testing.T, g *frontend.CFG, prefix string) int {
	t.Helper()
	for id, nd := range g.Nodes {
		if strings.HasPrefix(nd.Text, prefix) {
			return id
		}
	}
	t.Fatalf("no node %q", prefix)
	return -1
}

// TestFromCPU: samples go to the statement containing their line and are divided by that
// statement's own count. The loop body holds the expensive call (on two lines), the header is
// cheap: the body must get the body's time, not the for line.
func TestFromCPU(t *testing.T) {
	g := buildCFG(t, sumSrc)
	f := &Func{Invocations: 10, Nodes: make([]Node, len(g.Nodes))}
	counts := map[string]uint64{"sum := 0.0": 10, "i := 0": 10, "for i := 0": 110, "i++": 100,
		"sum += expensive": 100, "switch s": 10, "sum++": 4, "return sum": 10}
	for prefix, c := range counts {
		f.Nodes[nodeOn(t, g, prefix)].Count = c
	}
	lines := Lines{
		4:  {NS: 500, Samples: 5},     // the func line: prologue, once per call
		6:  {NS: 2200, Samples: 22},   // the header: init, condition and post
		7:  {NS: 90000, Samples: 900}, // the call
		8:  {NS: 10000, Samples: 100}, // its argument, on the next line
		11: {NS: 300, Samples: 3},     // a case clause: the switch's
		15: {NS: 1000, Samples: 10},   // the closing brace: epilogue
	}
	// The timed run made twice the calls of the counted one; a sample stands for 100 ns.
	tm := FromCPU(g, f, lines, 20, 100, 0)
	body := nodeOn(t, g, "sum += expensive")
	if got := tm.NS[body]; got != 100000.0/200 {
		t.Errorf("the body: %v ns per execution, want %v", got, 100000.0/200)
	}
	if tm.Samples[body] != 1000 || tm.Runs[body] != 200 {
		t.Errorf("the body: %v samples in %v runs, want 1000 in 200", tm.Samples[body], tm.Runs[body])
	}
	// The header's line is shared in proportion to counts: the same time per execution.
	for _, h := range []string{"i := 0", "for i := 0", "i++"} {
		if got := tm.NS[nodeOn(t, g, h)]; math.Abs(got-2200.0/440) > 1e-12 {
			t.Errorf("%s: %v ns per execution, want %v", h, got, 2200.0/440)
		}
	}
	if got := tm.NS[nodeOn(t, g, "switch s")]; got != 300.0/20 {
		t.Errorf("switch: %v, want the case line's %v", got, 300.0/20)
	}
	if got := tm.NS[g.Entry]; got != 1500.0/20 {
		t.Errorf("entry: %v, want prologue and epilogue %v", got, 1500.0/20)
	}
	// Expected time per call is every sample's time over the timed run's calls.
	total := 0.0
	for id := range g.Nodes {
		total += tm.NS[id] * float64(f.Nodes[id].Count) / float64(f.Invocations)
	}
	if math.Abs(total-104000.0/20) > 1e-9 {
		t.Errorf("the nodes account for %v ns per call, want %v", total, 104000.0/20)
	}
	if se := tm.StdErr(body); math.Abs(se-500/math.Sqrt(1000)) > 1e-12 {
		t.Errorf("standard error of the body %v, want %v", se, 500/math.Sqrt(1000))
	}
	if se := tm.StdErr(nodeOn(t, g, "return sum")); se != 100.0/20 {
		t.Errorf("an unsampled node's error %v, want one sample over its runs %v", se, 100.0/20)
	}
	// With the profile's total CPU time known, a time is a share of it: the body has 1000 of
	// 2000 samples, a binomial count.
	tm = FromCPU(g, f, lines, 20, 100, 2000)
	if se := tm.StdErr(body); math.Abs(se-100.0/200*math.Sqrt(1000-1000*1000/2000.0)) > 1e-9 {
		t.Errorf("binomial standard error of the body %v, want %v", se, 100.0/200*math.Sqrt(500))
	}
	// The whole function's time per call: its 1040 samples of 2000, each weighing u = 1/20 against
	// the mean ū = 0.026 of all 2000, plus (u−ū)² for each of the two statements never sampled.
	w := make([]float64, len(g.Nodes))
	for id := range w {
		w[id] = float64(f.Nodes[id].Count) / float64(f.Invocations)
	}
	if se, want := math.Sqrt(tm.Variance(w)), 100*math.Sqrt((1040-1040*1040/2000.0)/400+2*0.024*0.024); math.Abs(se-want) > 1e-9 {
		t.Errorf("standard error per call %v, want %v", se, want)
	}
	if se := tm.StdErr(g.End); !math.IsNaN(se) {
		t.Errorf("a node that never ran: error %v, want NaN (unknown)", se)
	}
}

// TestCPUByFunc: a sample is charged once per function, to its outermost frame (inlined frames
// included), and only to the functions asked for; a sample in a caller's own code on the line
// that calls the function is the call's cost (CallSite), one on another line is not.
func TestCPUByFunc(t *testing.T) {
	fnF := &pprof.Function{ID: 1, Name: "example.com/p.F", Filename: "/p/f.go"}
	fnG := &pprof.Function{ID: 2, Name: "example.com/p.G[...]", Filename: "/p/f.go"}
	fnM := &pprof.Function{ID: 3, Name: "main.main", Filename: "/p/main.go"}
	loc := func(id uint64, lines ...pprof.Line) *pprof.Location {
		return &pprof.Location{ID: id, Line: lines}
	}
	leafG := loc(1, pprof.Line{Function: fnG, Line: 30})
	// F at line 12 with G inlined into it at line 31: the innermost frame comes first.
	inl := loc(2, pprof.Line{Function: fnG, Line: 31}, pprof.Line{Function: fnF, Line: 12})
	fAt10 := loc(3, pprof.Line{Function: fnF, Line: 10})
	mainAt := loc(4, pprof.Line{Function: fnM, Line: 5})
	mainElse := loc(5, pprof.Line{Function: fnM, Line: 6})
	p := &pprof.Profile{
		SampleType: []*pprof.ValueType{{Type: "samples", Unit: "count"}, {Type: "cpu", Unit: "nanoseconds"}},
		PeriodType: &pprof.ValueType{Type: "cpu", Unit: "nanoseconds"}, Period: 1e7,
		Function: []*pprof.Function{fnF, fnG, fnM},
		Location: []*pprof.Location{leafG, inl, fAt10, mainAt, mainElse},
		Sample: []*pprof.Sample{
			// F recursing: F:10 → F:12 (G inlined) → G:30; F is charged at 10, G at 31.
			{Location: []*pprof.Location{leafG, inl, fAt10, mainAt}, Value: []int64{2, 2e7}},
			{Location: []*pprof.Location{mainAt}, Value: []int64{1, 1e7}},
			{Location: []*pprof.Location{mainElse}, Value: []int64{4, 4e7}},
		},
	}
	var buf bytes.Buffer
	if err := p.Write(&buf); err != nil {
		t.Fatal(err)
	}
	c, err := ReadCPU(&buf, []string{"example.com/p.F", "example.com/p.G", "example.com/p.H"})
	if err != nil {
		t.Fatal(err)
	}
	if c.PeriodNS != 1e7 || c.Samples != 7 {
		t.Errorf("period %d, %d samples; want 1e7 and 7", c.PeriodNS, c.Samples)
	}
	got := c.Funcs
	want := map[string]Lines{
		"example.com/p.F": {10: {NS: 2e7, Samples: 2}, CallSite: {NS: 1e7, Samples: 1}},
		"example.com/p.G": {31: {NS: 2e7, Samples: 2}},
		"example.com/p.H": {},
	}
	for name, w := range want {
		if g := got[name]; len(g) != len(w) || g.Total() != w.Total() || g[10] != w[10] || g[31] != w[31] || g[CallSite] != w[CallSite] {
			t.Errorf("%s: %v, want %v", name, g, w)
		}
	}
	if _, err := ReadCPU(strings.NewReader("not a profile"), nil); err == nil {
		t.Error("no error for a broken profile")
	}
}

// TestTimeFileRoundTrip: a saved time gives every node its own value back.
func TestTimeFileRoundTrip(t *testing.T) {
	g := buildCFG(t, sumSrc)
	f := &Func{Invocations: 10, Nodes: make([]Node, len(g.Nodes))}
	tm := &NodeTime{NS: make([]float64, len(g.Nodes)), Samples: make([]float64, len(g.Nodes)), Runs: make([]float64, len(g.Nodes)), NSPerSample: 1e7, TotalSamples: 500}
	for id, nd := range g.Nodes {
		if !nd.IsExit() {
			f.Nodes[id].Count = uint64(id + 1)
			tm.NS[id], tm.Samples[id], tm.Runs[id] = float64(10*id+1), float64(id), float64(id+1)
		}
	}
	fn := &frontend.Func{Name: "p.Sum", CFG: g, Decl: g.Decl}
	tf := NewTimeFile(TimeInfo{Workload: []string{"go", "test"}, Runs: 1, Go: "go1.26"})
	tf.Add(fn, tm, Lines{4: {NS: 5, Samples: 1}}, 10, "/tmp")
	path := filepath.Join(t.TempDir(), "t.time.json")
	if err := tf.Write(path); err != nil {
		t.Fatal(err)
	}
	back, err := ReadTimeFile(path)
	if err != nil {
		t.Fatal(err)
	}
	got, err := back.For(fn)
	if err != nil {
		t.Fatal(err)
	}
	for id, nd := range g.Nodes {
		if got.NS[id] != tm.NS[id] || got.Samples[id] != tm.Samples[id] || got.Runs[id] != tm.Runs[id] || got.TotalSamples != 500 {
			t.Errorf("node %d (%s): read back %v/%v/%v, wrote %v/%v/%v", id, nd.Text, got.NS[id], got.Samples[id], got.Runs[id], tm.NS[id], tm.Samples[id], tm.Runs[id])
		}
	}
	if _, err := back.For(&frontend.Func{Name: "p.Other", CFG: g}); err == nil {
		t.Error("a function the file does not have: no error")
	}
}

// FuzzDecodeTimeFile: any input is read or refused, never a panic, and what is read has a
// known position for every value.
func FuzzDecodeTimeFile(f *testing.F) {
	f.Add(`{"format":"augur-rewards/1","measured":{"functions":{"p.F":{"ns_per_sample":10000000,"statements":{"f.go:3:2":{"samples":4,"executions":2}}}}},"rewards":{"time":{"f.go:3:2":7}}}`)
	f.Add(`{"format":"augur-rewards/1","rewards":{"time":{"f.go:3":1}}}`)
	f.Add(`{"format":"augur-rewards/1","measured":{"functions":{"p.F":null}},"rewards":{"time":{}}}`)
	f.Fuzz(func(t *testing.T, s string) {
		tf, err := DecodeTimeFile(strings.NewReader(s))
		if err != nil || tf == nil {
			return
		}
		for _, ft := range tf.Measured.Functions {
			for k := range ft.Stmts {
				if _, ok := tf.Rewards["time"][k]; !ok {
					t.Fatalf("statement %s without a value", k)
				}
			}
		}
	})
}
