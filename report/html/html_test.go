package html

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	goruntime "runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/augur-perf/augur/analyze/calls"
	"github.com/augur-perf/augur/analyze/predict"
	"github.com/augur-perf/augur/analyze/synth"
	"github.com/augur-perf/augur/markov/checker"
	"github.com/augur-perf/augur/probe/profile"
	"github.com/augur-perf/augur/source/frontend"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden and docs/report.png")

var distance struct {
	once sync.Once
	r    *Report
	err  error
}

// distanceReport is the report of examples/distance.L1 under PROPER's given usage (1000 calls)
// with a what-if (a 1.8-unit loop body), 95 % intervals and the distributions: every part of
// the page, from an analysis whose numbers the README and predict's example state.
func distanceReport(t testing.TB) *Report {
	distance.once.Do(func() {
		distance.r, distance.err = buildDistance()
	})
	if distance.err != nil {
		t.Fatal(distance.err)
	}
	return distance.r
}

func buildDistance() (*Report, error) {
	_, fn, err := frontend.LoadFunc("../..", "github.com/augur-perf/augur/examples/distance.L1")
	if err != nil {
		return nil, err
	}
	p, err := predict.ReadProfile("../../examples/distance/usage.json", fn)
	if err != nil {
		return nil, err
	}
	base, err := predict.Baseline(fn, p, "examples/distance/usage.json")
	if err != nil {
		return nil, err
	}
	faster, err := predict.SetReward("time@distance.go:21=1.8")
	if err != nil {
		return nil, err
	}
	scs, err := predict.WhatIf(fn, base, []predict.Change{faster}, nil, nil)
	if err != nil {
		return nil, err
	}
	var outs []*predict.Outcome
	for _, sc := range append([]predict.Scenario{base}, scs...) {
		o, err := sc.Predict(fn, predict.Options{})
		if err != nil {
			return nil, err
		}
		outs = append(outs, o)
	}
	ivs, err := outs[0].Intervals(0.95, 1000, 1)
	if err != nil {
		return nil, err
	}
	sps, err := outs[0].Spreads(checker.Options{})
	if err != nil {
		return nil, err
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		return nil, err
	}
	return Build(Analysis{Func: fn, Outcomes: outs, By: "time", Intervals: ivs, Spreads: sps, Root: root})
}

func render(t testing.TB, r *Report) []byte {
	var b bytes.Buffer
	if err := Write(&b, r); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func golden(t *testing.T, name string, got []byte) {
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		gl, wl := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
		for i := 0; i < min(len(gl), len(wl)); i++ {
			if gl[i] != wl[i] {
				t.Fatalf("%s differs at line %d:\ngot  %.300s\nwant %.300s\n(go test ./report/html -update rewrites it)", path, i+1, gl[i], wl[i])
			}
		}
		t.Fatalf("%s differs in length: %d lines, want %d (go test ./report/html -update rewrites it)", path, len(gl), len(wl))
	}
}

// The page of the distance example, byte for byte: rendering is deterministic, and any change
// to it is seen here.
func TestDistanceGolden(t *testing.T) {
	r := distanceReport(t)
	a, b := render(t, r), render(t, r)
	if !bytes.Equal(a, b) {
		t.Fatal("two renderings of the same report differ")
	}
	golden(t, "distance.html.golden", a)
}

func TestRankingGolden(t *testing.T) {
	golden(t, "ranking.html.golden", render(t, rankingReport()))
}

// rankingReport is a small ranking: a recursion, a leaf and a name that needs escaping.
func rankingReport() *Report {
	return BuildRanking("./examples/rec/...", "rec.json", "cost", []calls.Row{
		{Func: "example.com/rec.Fib", Invocations: 1, Exclusive: 2, Inclusive: 177, Calls: map[string]float64{"example.com/rec.Fib": 2}},
		{Func: "example.com/rec.leaf", Invocations: 89, Exclusive: 1, Inclusive: 1},
		{Func: "example.com/rec.<b>odd</b>", Invocations: 3, Exclusive: 0.5, Inclusive: 0.5},
	}, []string{"rec/rec.go:12:9"})
}

// The page's structure: one heat-map row per source line, the hottest line at the top level,
// one node per state, one bar per scenario, and nothing that would load from elsewhere.
func TestDistanceStructure(t *testing.T) {
	page := string(render(t, distanceReport(t)))
	rows := regexp.MustCompile(`<tr class="src heat-(\d)" id="L(\d+)"`).FindAllStringSubmatch(page, -1)
	// L1 is declared on lines 14 to 24 of distance.go.
	if len(rows) != 11 || rows[0][2] != "14" || rows[10][2] != "24" {
		t.Fatalf("heat map rows %v, want lines 14 to 24", rows)
	}
	for _, r := range rows {
		if (r[2] == "21") != (r[1] == "9") {
			t.Errorf("line %s has level %s: only line 21 (the loop body, all of the time) is the hottest", r[2], r[1])
		}
	}
	if n := strings.Count(page, `<g class="node `); n != 10 {
		t.Errorf("%d graph nodes, want the model's 10 states", n)
	}
	if n := strings.Count(page, `class="edge back"`); n != 1 {
		t.Errorf("%d back edges, want the loop's one", n)
	}
	if n := strings.Count(page, `<g class="node decision`); n != 2 {
		t.Errorf("%d decisions, want 2 (the if and the loop condition)", n)
	}
	if !strings.Contains(page, `data-p="0.1"`) || !strings.Contains(page, `data-p="0.90909"`) {
		t.Error("the edges do not carry the branch probabilities 0.1 and 10/11")
	}
	if n := strings.Count(page, `<rect class="bar `); n != 4 {
		t.Errorf("%d bars, want 2 properties × 2 scenarios", n)
	}
	if n := strings.Count(page, `<g class="errbar bayesian"`); n != 2 {
		t.Errorf("%d Bayesian error bars, want one per baseline property", n)
	}
	if n := strings.Count(page, `<svg id="dist-`); n != 2 {
		t.Errorf("%d distributions, want one per reward", n)
	}
	for _, bad := range []string{"http://", "https://", "<script", "src="} {
		if strings.Contains(page, bad) {
			t.Errorf("the page has %q: it must load nothing", bad)
		}
	}
}

// BenchmarkWrite renders the distance report: the page of a small function with every section.
func BenchmarkWrite(b *testing.B) {
	r := distanceReport(b)
	for b.Loop() {
		var out bytes.Buffer
		if err := Write(&out, r); err != nil {
			b.Fatal(err)
		}
	}
}

// With --compact a state stands for several statements: the graph has the model's states, each
// with all its statements' text, and the heat map still one row per source line.
func TestCompactGraph(t *testing.T) {
	_, fn, err := frontend.LoadFunc("../..", "github.com/augur-perf/augur/examples/distance.L1")
	if err != nil {
		t.Fatal(err)
	}
	p, err := predict.ReadProfile("../../examples/distance/usage.json", fn)
	if err != nil {
		t.Fatal(err)
	}
	base, err := predict.Baseline(fn, p, "usage.json")
	if err != nil {
		t.Fatal(err)
	}
	o, err := base.Predict(fn, predict.Options{Synth: synth.Options{Compact: true}})
	if err != nil {
		t.Fatal(err)
	}
	r, err := Build(Analysis{Func: fn, Outcomes: []*predict.Outcome{o}})
	if err != nil {
		t.Fatal(err)
	}
	g := r.Function.Graph
	if n := o.Synth.Model.N; g.States != n || len(g.Nodes) != n || n >= len(fn.CFG.Nodes) {
		t.Fatalf("%d states, %d nodes: want the compact model's %d (fewer than the %d CFG nodes)", g.States, len(g.Nodes), n, len(fn.CFG.Nodes))
	}
	merged := false
	for _, nd := range g.Nodes {
		merged = merged || strings.Contains(nd.Text, "d := 0; i := 0")
	}
	if !merged {
		t.Errorf("no state shows the merged statements d := 0; i := 0: %+v", g.Nodes)
	}
	if rows := len(r.Function.Heat[0].Lines); rows != 11 {
		t.Errorf("%d heat-map rows, want L1's 11 lines", rows)
	}
}

// A model or a call graph too large to read is not drawn, and the page says so.
func TestLargeGraphOmitted(t *testing.T) {
	var rows []calls.Row
	for i := range MaxGraphStates + 1 {
		rows = append(rows, calls.Row{Func: fmt.Sprintf("p.F%d", i), Inclusive: 1})
	}
	page := string(render(t, BuildRanking("./p", "p.json", "cost", rows, nil)))
	if !strings.Contains(page, `id="graph-omitted"`) || strings.Contains(page, `id="graph"`) {
		t.Error("a call graph of more than MaxGraphStates functions is drawn, or not said to be omitted")
	}
	if n := strings.Count(page, `<tr data-function=`); n != len(rows) {
		t.Errorf("the table has %d functions, want all %d", n, len(rows))
	}
	if n := strings.Count(page, `<g class="func"`); n != rankingRows {
		t.Errorf("the chart has %d bars, want the top %d", n, rankingRows)
	}
}

// BenchmarkWriteLarge renders the largest page a function gets: a 10000-line heat map, a graph
// of MaxGraphStates states (a chain of decisions, each a loop back), five scenarios and a
// distribution of 10000 values.
func BenchmarkWriteLarge(b *testing.B) {
	const lines = 10000
	h := HeatMap{Reward: "time"}
	for i := range lines {
		h.Lines = append(h.Lines, Line{Number: i + 1, Text: "\tx += f(x) // a statement", Statements: i%2 == 0, Executions: float64(i % 7), Reward: float64(i % 13), Share: float64(i%13) / lines, Level: i % (Levels + 1)})
	}
	g := &Graph{States: MaxGraphStates, Init: []int{0}}
	for s := range MaxGraphStates {
		g.Nodes = append(g.Nodes, Node{State: s, Line: s + 1, Kind: "decision", Text: "i < len(a)", Visits: 1})
		if s+1 < MaxGraphStates {
			g.Edges = append(g.Edges, Edge{From: s, To: s + 1, P: 0.9})
		}
		if s > 0 {
			g.Edges = append(g.Edges, Edge{From: s, To: s - 1, P: 0.1})
		}
	}
	g.Transitions = len(g.Edges)
	scenarios := []string{"baseline", "a", "b", "c", "d"}
	p := Property{Name: `R{"time"}=? [ F "end" ]`}
	for i := range scenarios {
		p.Cells = append(p.Cells, Cell{OK: true, Value: float64(10 + i), Bars: []ErrorBar{{Kind: "bayesian", Lo: 9, Hi: 11 + float64(i)}}})
	}
	d := Distribution{Reward: "time", Mean: 50, SD: 10}
	for i := range 10000 {
		d.Values = append(d.Values, float64(i))
		d.Probs = append(d.Probs, 1e-4)
	}
	r := &Report{Title: "large", Function: &Function{Name: "p.Large", Heat: []HeatMap{h}, Graph: g, Scenarios: scenarios,
		Properties: []Property{p}, Distributions: []Distribution{d}}}
	var size int
	for b.Loop() {
		var out bytes.Buffer
		if err := Write(&out, r); err != nil {
			b.Fatal(err)
		}
		size = out.Len()
	}
	b.ReportMetric(float64(size)/1e6, "MB/page")
}

// Open hands the file's absolute path to the desktop's opener (xdg-open on Linux): a fake one
// on the PATH records what it was given.
func TestOpen(t *testing.T) {
	if goruntime.GOOS != "linux" {
		t.Skip("the fake opener is a shell script standing in for xdg-open")
	}
	dir := t.TempDir()
	got := filepath.Join(dir, "opened")
	script := "#!/bin/sh\necho \"$1\" > " + got + ".tmp && mv " + got + ".tmp " + got + "\n"
	if err := os.WriteFile(filepath.Join(dir, "xdg-open"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	t.Chdir(dir)
	if err := Open("r.html"); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if b, err := os.ReadFile(got); err == nil {
			if want := filepath.Join(dir, "r.html") + "\n"; string(b) != want {
				t.Errorf("the opener got %q, want %q", b, want)
			}
			return
		}
	}
	t.Fatal("the opener never ran")
}

// A Target writes the report and says so; it builds nothing without a path; a file it cannot
// write is an --html error; Open without a path is a usage error.
func TestTarget(t *testing.T) {
	var log bytes.Buffer
	build := func() (*Report, error) { return rankingReport(), nil }
	path := filepath.Join(t.TempDir(), "ranking.html")
	if err := (Target{Path: path}).Show(build, &log); err != nil || log.String() != "wrote "+path+"\n" {
		t.Errorf("%v, log %q", err, log.String())
	}
	if _, err := os.Stat(path); err != nil {
		t.Error(err)
	}
	if err := (Target{}).Show(func() (*Report, error) { panic("built without a path") }, &log); err != nil {
		t.Error(err)
	}
	err := (Target{Path: filepath.Join(t.TempDir(), "no", "r.html")}).Show(build, &log)
	if err == nil || !strings.HasPrefix(err.Error(), "--html: open ") {
		t.Errorf("no directory: %v", err)
	}
	var te *TargetError
	if err := (Target{Open: true}).Check(); !errors.As(err, &te) || !te.UsageError() || err.Error() != "--open opens the --html report: give --html FILE" {
		t.Errorf("open without a path: %v", err)
	}
}

// A function after a //line directive that names another file (generated code: goyacc's output
// names its grammar) is shown in its own file's text and lines, each statement on its line, as
// the graph's states are (the page read the named file, at the named lines).
func TestLineDirectiveSource(t *testing.T) {
	_, fn, err := frontend.LoadFunc("../../probe/instrument/testdata/src/work", "example.com/work/lined.F")
	if err != nil {
		t.Fatal(err)
	}
	p := &profile.Profile{Funcs: map[string]*profile.Func{fn.Name: {Invocations: 10,
		Nodes: []profile.Node{{Count: 10, Outcomes: []uint64{6, 4}}, {Count: 6}, {Count: 4}, {Count: 10}, {}}}}}
	base, err := predict.Baseline(fn, p, "p.json")
	if err != nil {
		t.Fatal(err)
	}
	o, err := base.Predict(fn, predict.Options{})
	if err != nil {
		t.Fatal(err)
	}
	r, err := Build(Analysis{Func: fn, Outcomes: []*predict.Outcome{o}})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(r.Function.Position, "gen.go:8") {
		t.Errorf("position %s, want gen.go:8", r.Function.Position)
	}
	want := map[string]float64{"if x > 0 {": 1, "return 1": 0.6, "return 0": 0.4}
	lines := map[int]string{}
	for _, l := range r.Function.Heat[0].Lines {
		lines[l.Number] = strings.TrimSpace(l.Text)
		if e, ok := want[strings.TrimSpace(l.Text)]; ok != l.Statements || math.Abs(l.Executions-e) > 1e-9 {
			t.Errorf("line %d %q: statements %v, executions %v; want %v", l.Number, l.Text, l.Statements, l.Executions, e)
		}
	}
	for _, nd := range r.Function.Graph.Nodes {
		if nd.Kind == "decision" && lines[nd.Line] != "if x > 0 {" {
			t.Errorf("the decision's state is on line %d, %q", nd.Line, lines[nd.Line])
		}
	}
}
