package regions

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/augur-perf/augur/options/sources"
	"github.com/augur-perf/augur/options/taint"
)

func analyse(t *testing.T, dir string) *taint.Result {
	t.Helper()
	pkgs, err := taint.Load(taint.Config{Dir: dir}, ".")
	if err != nil {
		t.Fatal(err)
	}
	res, err := taint.Analyze(pkgs, sources.Decls{})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func text(t *testing.T, rs []Region, base string) string {
	t.Helper()
	var buf bytes.Buffer
	if err := WriteText(&buf, rs, TextOptions{Base: base}); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

func find(t *testing.T, dir string) (before, after []Region) {
	t.Helper()
	before, after, err := Find(analyse(t, dir))
	if err != nil {
		t.Fatal(err)
	}
	return before, after
}

// TestRunningExample checks Algorithm 2's regions on ConfigCrusher's running
// example (one per influenced decision, ending where the next decision
// starts or at the closing brace) and the optimised regions.
func TestRunningExample(t *testing.T) {
	const dir = "../../examples/options"
	before, after := find(t, dir)
	want := `R1   main.go:51:2-56:2  foo  {A}        if a
R2   main.go:56:2-59:2  foo  {A, B}     if b && x
R3   main.go:59:2-62:2  foo  {D, E, F}  if d && e && f
R4   main.go:62:2-65:2  foo  {A}        if a
R5   main.go:65:2-68:2  foo  {B}        if b
R6   main.go:68:2-71:2  foo  {C}        if c
R7   main.go:71:2-74:2  foo  {D}        if d
R8   main.go:74:2-77:2  foo  {E}        if e
R9   main.go:77:2-80:2  foo  {F}        if f
R10  main.go:80:2-83:2  foo  {G}        if g
R11  main.go:83:2-86:2  foo  {H}        if h
R12  main.go:86:2-89:1  foo  {I}        if i
R13  main.go:92:2-95:1  moo  {A, C}     if c
`
	if got := text(t, before, dir); got != want {
		t.Errorf("before:\n%s\nwant:\n%s", got, want)
	}
	// moo's region is lifted to its call (and spreads over the if-a body);
	// x := false joins the first region; {A}+{A,B}, {A}+{B} and {D}+{E}+{F}
	// merge because their unions are interactions of Algorithm 2.
	want = `R1  main.go:50:2-59:2  foo  {A, B}     if a; if b && x
R2  main.go:52:3-55:2  foo  {A, C}     call moo: if c
R3  main.go:59:2-62:2  foo  {D, E, F}  if d && e && f
R4  main.go:62:2-68:2  foo  {A, B}     if a; if b
R5  main.go:68:2-71:2  foo  {C}        if c
R6  main.go:71:2-80:2  foo  {D, E, F}  if d; if e; if f
R7  main.go:80:2-83:2  foo  {G}        if g
R8  main.go:83:2-86:2  foo  {H}        if h
R9  main.go:86:2-89:1  foo  {I}        if i
`
	if got := text(t, after, dir); got != want {
		t.Errorf("after:\n%s\nwant:\n%s", got, want)
	}
	var buf bytes.Buffer
	if err := WriteJSON(&buf, after, TextOptions{Base: dir}); err != nil {
		t.Fatal(err)
	}
	var js []struct {
		ID      int
		Start   string
		Options []string
	}
	if err := json.Unmarshal(buf.Bytes(), &js); err != nil || len(js) != 9 || js[1].Start != "main.go:52:3" {
		t.Errorf("JSON %v: %s", err, buf.String())
	}
}

// TestExpandAndMerge: uninfluenced statements join the regions, which then
// touch; {A}∪{B} and {A,B} are the interaction {A,B}, so one region remains.
func TestExpandAndMerge(t *testing.T) {
	before, after := find(t, "testdata/expand")
	if len(before) != 3 {
		t.Fatalf("before:\n%s", text(t, before, "testdata"))
	}
	got := text(t, after, "testdata")
	if len(after) != 1 || after[0].Start.Line != 13 || after[0].End.Line != 26 || strings.Join(after[0].Options, ",") != "A,B" {
		t.Errorf("after:\n%s", got)
	}
}

// TestNestedMerge: a nested region's options always contain the outer
// region's (control dependence), so nesting in one function merges; the two
// resulting regions stay apart because {A,B,C} is no interaction, and the
// labeled statement is never absorbed.
func TestNestedMerge(t *testing.T) {
	before, after := find(t, "testdata/nested")
	if len(before) != 5 {
		t.Fatalf("before:\n%s", text(t, before, "testdata"))
	}
	got := text(t, after, "testdata")
	if len(after) != 2 || strings.Join(after[0].Options, ",") != "A,B" || strings.Join(after[1].Options, ",") != "B,C" ||
		after[1].Start.Line != 23 {
		t.Errorf("after:\n%s", got)
	}
}

// TestCalleeLift: work's body is one region {C}; it moves to both call
// statements in main, which then merge into one region of main.
func TestCalleeLift(t *testing.T) {
	before, after := find(t, "testdata/callee")
	if len(before) != 1 || before[0].Func != "work" {
		t.Fatalf("before:\n%s", text(t, before, "testdata"))
	}
	got := text(t, after, "testdata")
	if len(after) != 1 || after[0].Func != "main" || !strings.Contains(after[0].Text, "call work") ||
		after[0].Start.Line != 21 || after[0].End.Line != 25 {
		t.Errorf("after:\n%s", got)
	}
}

// TestLoopLift: the region covering the loop body moves to the loop.
func TestLoopLift(t *testing.T) {
	before, after := find(t, "testdata/loop")
	if len(before) != 1 || before[0].Start.Line != 15 {
		t.Fatalf("before:\n%s", text(t, before, "testdata"))
	}
	got := text(t, after, "testdata")
	if len(after) != 1 || !strings.HasPrefix(after[0].Text, "loop: ") || after[0].Start.Line > 14 || after[0].End.Line != 20 {
		t.Errorf("after:\n%s", got)
	}
}

// TestCoveredCallee: step runs only inside main's region, whose options
// contain step's, so step's region goes (its time is the call site's); kept
// is also deferred, which runs it outside main's regions, so its region
// stays.
func TestCoveredCallee(t *testing.T) {
	before, after := find(t, "testdata/covered")
	funcs := func(rs []Region) string {
		var fs []string
		for _, r := range rs {
			fs = append(fs, r.Func)
		}
		return strings.Join(fs, " ")
	}
	if f := funcs(before); !strings.Contains(f, "step") || !strings.Contains(f, "kept") {
		t.Fatalf("before:\n%s", text(t, before, "testdata"))
	}
	if f := funcs(after); strings.Contains(f, "step") || !strings.Contains(f, "kept") || !strings.Contains(f, "main") {
		t.Errorf("after:\n%s", text(t, after, "testdata"))
	}
}

// TestNoCrossing checks that optimised regions of one file nest or are
// disjoint when a lifted call site lies inside a merged region: timing keeps
// one nesting stack, so crossing spans cannot be timed.
func TestNoCrossing(t *testing.T) {
	_, after := find(t, "testdata/lifted")
	for _, a := range after {
		for _, b := range after {
			if a.File == b.File && a.Start.Offset < b.Start.Offset && b.Start.Offset < a.End.Offset && a.End.Offset < b.End.Offset {
				t.Errorf("regions %d (%s..%s) and %d (%s..%s) cross", a.ID, a.Start, a.End, b.ID, b.Start, b.End)
			}
		}
	}
	if len(after) != 2 {
		t.Errorf("after:\n%s", text(t, after, "testdata"))
	}
}

// TestLineDirectives finds the region of a decision in generated code whose //line directive
// names another file (spec.rl): it is located, and reported, in the Go file (it was looked for
// in spec.rl, at gen.go's offsets).
func TestLineDirectives(t *testing.T) {
	before, _ := find(t, "testdata/lined")
	if got := text(t, before, "testdata/lined"); !strings.Contains(got, "gen.go:9:2-") || strings.Contains(got, "spec.rl") {
		t.Errorf("regions:\n%s", got)
	}
}
