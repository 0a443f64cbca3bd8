package frontend

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// fn selects one corpus function.
func fn(t *testing.T, name string) *CFG {
	t.Helper()
	fns, err := corpus(t).Select("corpus." + name)
	if err != nil {
		t.Fatal(err)
	}
	if len(fns) != 1 {
		t.Fatalf("%s: %d functions", name, len(fns))
	}
	return fns[0].CFG
}

// node finds the node whose text is text (the first with that kind, when kind is not -1).
func node(t *testing.T, g *CFG, kind Kind, text string) *Node {
	t.Helper()
	for _, n := range g.Nodes {
		if n.Text == text && (kind < 0 || n.Kind == kind) {
			return n
		}
	}
	t.Fatalf("no %v node %q in %s", kind, text, FuncName(g.Decl))
	return nil
}

// succ is the target of n's outcome (plain edge: "").
func succ(t *testing.T, g *CFG, n *Node, outcome string) *Node {
	t.Helper()
	for _, e := range n.Succs {
		if e.Outcome == outcome {
			return g.Nodes[e.To]
		}
	}
	t.Fatalf("node %d (%s) has no outcome %q", n.ID, n.Text, outcome)
	return nil
}

// path follows plain edges from n and returns the texts of the nodes up to an exit.
func path(t *testing.T, g *CFG, n *Node) []string {
	t.Helper()
	var texts []string
	for len(texts) < 20 {
		texts = append(texts, n.Text)
		if n.IsExit() {
			return texts
		}
		if len(n.Succs) != 1 {
			texts = append(texts, "?")
			return texts
		}
		n = g.Nodes[n.Succs[0].To]
	}
	return texts
}

func TestSwitchOutcomes(t *testing.T) {
	g := fn(t, "SwitchFallthrough")
	d := node(t, g, KindDecision, "switch x")
	if got := succ(t, g, d, OutDefault).Text; got != "n += 1" {
		t.Errorf("default goes to %q", got)
	}
	if got := succ(t, g, d, "case 2").Text; got != "n += 2" {
		t.Errorf("case 2 goes to %q", got)
	}
	ft := succ(t, g, succ(t, g, d, OutDefault), "")
	if ft.Kind != KindJump || succ(t, g, ft, "").Text != "n += 2" {
		t.Errorf("fallthrough from default does not reach the next clause")
	}
	// The last fallthrough reaches an empty clause, hence what follows the switch.
	if got := succ(t, g, d, "case 5").Text; got != "return n" {
		t.Errorf("empty case 5 goes to %q", got)
	}
	for _, c := range g.Decl.Body.List[0].(*ast.SwitchStmt).Body.List {
		if g.StmtNode[c] != d.ID {
			t.Errorf("clause at %v maps to %d, not the decision", g.Fset.Position(c.Pos()), g.StmtNode[c])
		}
	}

	g = fn(t, "Switch")
	d = node(t, g, KindDecision, "switch x")
	if a, b := succ(t, g, d, "case 2"), succ(t, g, d, OutDefault); a != b || a.Text != "return s" {
		t.Errorf("empty clause and implicit default go to %q and %q", a.Text, b.Text)
	}

	g = fn(t, "SwitchSingle")
	for _, n := range g.Nodes {
		if n.Kind == KindDecision {
			t.Errorf("single-outcome switch is a decision: %s", n.Text)
		}
	}
}

func TestLoops(t *testing.T) {
	g := fn(t, "ForThree")
	cond := node(t, g, KindDecision, "for i := 0; i < n; i++ (cond)")
	if !cond.LoopHead || len(g.LoopHeads()) != 1 {
		t.Errorf("loop heads %v", g.LoopHeads())
	}
	if p := path(t, g, succ(t, g, cond, OutTrue)); !slices.Equal(p[:3], []string{"s += i", "i++", cond.Text}) {
		t.Errorf("body path %q", p)
	}
	if succ(t, g, cond, OutFalse).Text != "return s" {
		t.Errorf("false edge")
	}

	g = fn(t, "NestedContinue")
	outer := node(t, g, KindDecision, "for i := range grid")
	inner := node(t, g, KindDecision, "for j := 0; j < len(grid[i]); j++ (cond)")
	if got := node(t, g, KindStmt, "n++").Loops; !slices.Equal(got, []int{outer.ID, inner.ID}) {
		t.Errorf("n++ in loops %v", got)
	}
	if got := node(t, g, KindStmt, "n *= 2").Loops; !slices.Equal(got, []int{outer.ID}) {
		t.Errorf("n *= 2 in loops %v", got)
	}
	if succ(t, g, node(t, g, KindJump, "continue outer"), "") != outer {
		t.Errorf("continue outer")
	}
	if succ(t, g, node(t, g, KindJump, "break outer"), "").Text != "return n" {
		t.Errorf("break outer")
	}

	g = fn(t, "RangeFunc")
	if !node(t, g, KindDecision, "for i, s := range seq").RangeFunc {
		t.Errorf("range over func not marked")
	}
	if node(t, fn(t, "RangeInt"), KindDecision, "for i := range n").RangeFunc {
		t.Errorf("range over int marked as range over func")
	}

	g = fn(t, "GotoLoop")
	if !node(t, g, KindStmt, "i++").LoopHead {
		t.Errorf("goto target is not a loop head")
	}

	g = fn(t, "ForInfinite")
	if !node(t, g, KindStmt, `println("never")`).Unreachable || !g.Nodes[g.End].Unreachable {
		t.Errorf("code after an infinite loop is reachable")
	}
}

func TestDefers(t *testing.T) {
	g := fn(t, "DeferStatic")
	if g.DynamicDefers {
		t.Fatal("DeferStatic has dynamic defers")
	}
	ret0 := node(t, g, KindReturn, "return 0")
	if p := path(t, g, ret0); !slices.Equal(p, []string{"return 0", "run mu.Unlock() (return)", "end"}) {
		t.Errorf("return 0 path %q", p)
	}
	retx := node(t, g, KindReturn, "return x")
	if p := path(t, g, retx); !slices.Equal(p, []string{"return x", `run println("second") (return)`, "run mu.Unlock() (return)", "end"}) {
		t.Errorf("return x path %q", p)
	}
	pan := node(t, g, KindNoReturn, `panic("negative")`)
	if p := path(t, g, pan); !slices.Equal(p, []string{`panic("negative")`, `run println("second") (panic)`, "run mu.Unlock() (panic)", "panic"}) {
		t.Errorf("panic path %q", p)
	}

	g = fn(t, "Exit")
	ex := node(t, g, KindNoReturn, "os.Exit(code)")
	if ex.Term != TermExit || succ(t, g, ex, "").ID != g.Panic {
		t.Errorf("os.Exit does not go straight to Panic")
	}

	g = fn(t, "DeferRecover")
	var run *Node
	for _, n := range g.Nodes {
		if n.Kind == KindDeferRun && n.Chain == ChainPanic && n.Recover {
			run = n
		}
	}
	if run == nil {
		t.Fatal("no recovering DeferRun on the panic chain")
	}
	if succ(t, g, run, OutRecovered).ID != g.End || succ(t, g, run, OutPanicking).ID != g.Panic {
		t.Errorf("recover outcomes %v", run.Succs)
	}
	if fn(t, "DeferNestedRecover").Nodes[0].Recover {
		t.Errorf("recover in a nested literal counted")
	}

	g = fn(t, "DeferDynamic")
	if !g.DynamicDefers || len(g.Defers) != 2 {
		t.Fatalf("DeferDynamic: dynamic %v, defers %v", g.DynamicDefers, g.Defers)
	}
	disp := succ(t, g, node(t, g, KindReturn, "return nil"), "")
	if disp.Kind != KindDeferDispatch || disp.Chain != ChainReturn {
		t.Fatalf("return goes to %v", disp.Kind)
	}
	for k, d := range g.Defers {
		r := succ(t, g, disp, DeferOutcome(k+1))
		if r.Kind != KindDeferRun || r.Defer != d || succ(t, g, r, "") != disp {
			t.Errorf("defer %d: run %d", k+1, r.ID)
		}
	}
	if succ(t, g, disp, OutDone).ID != g.End {
		t.Errorf("done does not end")
	}

	g = fn(t, "Goexit")
	gx := node(t, g, KindNoReturn, "runtime.Goexit()")
	r := succ(t, g, gx, "")
	if gx.Term != TermGoexit || r.Chain != ChainGoexit || len(r.Succs) != 1 || succ(t, g, r, "").ID != g.Panic {
		t.Errorf("Goexit path")
	}

	g = fn(t, "Fatal")
	for text, term := range map[string]Term{`log.Fatal("zero")`: TermExit, `log.Panicf("one %d", x)`: TermPanic, `l.Fatalln("two")`: TermExit, `l.Panic("three")`: TermPanic} {
		if n := node(t, g, KindNoReturn, text); n.Term != term {
			t.Errorf("%s: term %v, want %v", text, n.Term, term)
		}
	}
	if !fn(t, "DeferInBranch").Nodes[0].Unreachable && fn(t, "DeferInBranch").DynamicDefers {
		t.Errorf("defer in a branch that returns is dynamic")
	}
}

func TestDumpStable(t *testing.T) {
	fns := corpusFuncs(t)
	for _, f := range fns {
		g, err := Build(corpus(t).Fset, f.Decl, f.Pkg.TypesInfo)
		if err != nil {
			t.Fatal(err)
		}
		if a, b := dump(t, f.CFG), dump(t, g); a != b {
			t.Errorf("%s: two builds differ", f.Name)
		}
	}
}

func TestSelect(t *testing.T) {
	p := corpus(t)
	for spec, want := range map[string]string{
		"corpus.Simple":            "corpus.Simple",
		"corpus.(*T).Inc":          "corpus.(*T).Inc",
		"corpus.T.Inc":             "corpus.(*T).Inc",
		"corpus.T.Get":             "corpus.T.Get",
		"corpus.(T).Get":           "corpus.T.Get",
		"corpus.(*List[E]).Push":   "corpus.(*List).Push",
		"corpus.List.Push":         "corpus.(*List).Push",
		"corpus.Map":               "corpus.Map",
		"corpus.SwitchFallthrough": "corpus.SwitchFallthrough",
	} {
		fns, err := p.Select(spec)
		if err != nil {
			t.Errorf("%s: %v", spec, err)
			continue
		}
		if len(fns) != 1 || fns[0].Name != want || fns[0].Obj == nil || fns[0].CFG == nil {
			t.Errorf("%s: got %d functions, first %q", spec, len(fns), fns[0].Name)
		}
	}

	// The whole package: every function with a body, in source order of files and declarations,
	// each followed by its function literals, named as the Go toolchain names closures.
	all, err := p.Select("corpus")
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	var lits func(name string, body ast.Node, top bool)
	lits = func(name string, body ast.Node, top bool) {
		k := 0
		ast.Inspect(body, func(n ast.Node) bool {
			l, ok := n.(*ast.FuncLit)
			if !ok {
				return true
			}
			k++
			inner := fmt.Sprintf("%s.%d", name, k)
			if top {
				inner = fmt.Sprintf("%s.func%d", name, k)
			}
			want = append(want, inner)
			lits(inner, l.Body, false)
			return false
		})
	}
	for _, f := range p.Packages[0].Syntax {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
				want = append(want, "corpus."+FuncName(fd))
				lits("corpus."+FuncName(fd), fd.Body, true)
			}
		}
	}
	if !slices.Contains(want, "corpus.DeferNestedRecover.func1.1") {
		t.Errorf("the corpus lost its nested literal: %q", want)
	}
	for _, spec := range []string{"corpus.DeferNestedRecover.func1.1", "corpus.GoStmt.func1"} {
		fns, err := p.Select(spec)
		if err != nil || len(fns) != 1 || fns[0].Name != spec || fns[0].Lit == nil || fns[0].Sig == nil || fns[0].Parent == nil {
			t.Errorf("Select(%s) = %v, %v", spec, fns, err)
		}
	}
	var got []string
	for i, f := range all {
		got = append(got, f.Name)
		if i > 0 && filepath.Base(p.Fset.Position(f.Decl.Pos()).Filename) == filepath.Base(p.Fset.Position(all[i-1].Decl.Pos()).Filename) && f.Decl.Pos() < all[i-1].Decl.Pos() {
			t.Errorf("%s before %s", all[i-1].Name, f.Name)
		}
	}
	if !slices.Equal(got, want) || len(got) < 60 {
		t.Errorf("package selection %q", got)
	}

	for spec, wantErr := range map[string]string{
		"corpus.Smple":         "close matches: Simple",
		"corpus.T.Gte":         "close matches: T.Get",
		"corpus.Nothing_Here":  "no close matches",
		"corpsu.Simple":        "names no loaded package; close matches: corpus",
		"corpus.(T":            "is not a function name",
		"corpus.":              "is not a function name",
		"corpus.T.Simple":      "no function T.Simple",
		"corpus.Simple.func1":  "Simple has 0 function literals, not 1",
		"corpus.Nothing.func1": "no function Nothing",
	} {
		_, err := p.Select(spec)
		if err == nil || !strings.Contains(err.Error(), wantErr) {
			t.Errorf("%s: error %v, want %q", spec, err, wantErr)
		}
	}
}

func TestLoadErrors(t *testing.T) {
	_, err := Load(filepath.Join("testdata", "src", "broken"), ".")
	if err == nil {
		t.Fatal("no error")
	}
	for _, want := range []string{"broken.go:5:9: ", "broken.go:9:2: undefined: undefined"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not contain %q", err, want)
		}
	}
	if _, err := Load(filepath.Join("testdata", "src", "corpus"), "./nonexistent"); err == nil {
		t.Errorf("no error for a missing package")
	}
}

func TestBuildErrors(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"func f() { break }", "x.go:1:12: break is not in a loop, switch or select"},
		{"func f() { switch { default: continue } }", "x.go:1:30: continue is not in a loop"},
		{"func f() { for { continue L } }", "x.go:1:18: continue L: no enclosing statement labelled L"},
		{"func f() { L: switch { default: continue L } }", "x.go:1:33: continue L: L does not label a loop"},
		{"func f() { goto M }", "x.go:1:12: goto M: label not defined"},
		{"func f(x int) { switch x { case 1: fallthrough } }", "x.go:1:36: cannot fallthrough the final case"},
		{"func f(x any) { switch x.(type) { case int: fallthrough; default: } }", "x.go:1:45: cannot fallthrough in a type switch"},
		{"func f(x int) { if x > 0 { fallthrough } }", "x.go:1:28: fallthrough is only allowed"},
		{"func f() { L: ; L: ; }", "x.go:1:17: label L defined twice"},
		{"func f()", "x.go:1:1: function f has no body"},
	} {
		fset := token.NewFileSet()
		file, err := parser.ParseFile(fset, "x.go", "package p\n"+tc.src, 0)
		if err != nil {
			t.Fatalf("%s: %v", tc.src, err)
		}
		// Line 1 of the snippet is line 2 of the file.
		want := strings.Replace(tc.want, "x.go:1:", "x.go:2:", 1)
		_, err = Build(fset, file.Decls[0].(*ast.FuncDecl), nil)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want %q", tc.src, err, want)
		}
		if _, ok := err.(*Error); err != nil && !ok {
			t.Errorf("%s: error is %T", tc.src, err)
		}
	}

	// A malformed statement is an error, not a dropped statement.
	fset := token.NewFileSet()
	file, _ := parser.ParseFile(fset, "x.go", "package p\nfunc f() { x := 1; _ = x }", 0)
	fd := file.Decls[0].(*ast.FuncDecl)
	fd.Body.List[1] = &ast.BadStmt{From: fd.Body.List[1].Pos(), To: fd.Body.List[1].End()}
	if _, err := Build(fset, fd, nil); err == nil || !strings.Contains(err.Error(), "x.go:2:20: cannot represent a malformed statement") {
		t.Errorf("BadStmt: %v", err)
	}
}

// TestUntyped builds unformatted, untyped code: explicit empty statements and the builtin panic
// recognised by name.
func TestUntyped(t *testing.T) {
	fset := token.NewFileSet()
	src := "package p\nfunc f(x int) { ; if x > 0 { panic(x) }; for ;; { ; break } }\n"
	file, err := parser.ParseFile(fset, "x.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	g, err := Build(fset, file.Decls[0].(*ast.FuncDecl), nil)
	if err != nil {
		t.Fatal(err)
	}
	checkCFG(t, "f", g)
	var buf bytes.Buffer
	g.Dump(&buf)
	want := `# f: entry 0, end 6, panic 7, defers none
0 empty x.go:2:17  ;  -> 1
1 decision x.go:2:22  if x > 0  -> true:2, false:3
2 noreturn x.go:2:30  panic(x)  -> 7
3 loop x.go:2:42  for  -> 4
4 empty x.go:2:51  ;  -> 5
5 jump x.go:2:53  break  -> 6
6 end x.go:2:61  end
7 panic x.go:2:61  panic
`
	if buf.String() != want {
		t.Errorf("got\n%s", buf.String())
	}
}

// TestLoadBetween loads a and c of testdata/src/between, where a imports b (not loaded) and b
// imports c: b is checked from source too, so that a sees c's Node as c declares it, and only
// the packages named are the program's.
func TestLoadBetween(t *testing.T) {
	prog, err := Load(filepath.Join("testdata", "src", "between"), "./a", "./c")
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, p := range prog.Packages {
		paths = append(paths, p.PkgPath)
	}
	if got := strings.Join(paths, " "); got != "example.com/between/a example.com/between/c" {
		t.Errorf("packages %s", got)
	}
	if _, err := prog.Select("example.com/between/a.Twice"); err != nil {
		t.Error(err)
	}
}
