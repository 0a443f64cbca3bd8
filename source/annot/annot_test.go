package annot

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"strconv"
	"strings"
	"testing"

	"github.com/augur-perf/augur/source/frontend"
)

// load parses src as dist.go and builds the CFG of its first function.
func load(t *testing.T, src string) (*token.FileSet, *ast.File, *frontend.CFG) {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "/tmp/pkg/dist.go", src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok {
			g, err := frontend.Build(fset, fd, nil)
			if err != nil {
				t.Fatal(err)
			}
			return fset, f, g
		}
	}
	t.Fatal("no function")
	return nil, nil, nil
}

const good = `package p

// Distance adds. @time=99 in prose is not an annotation.
func Distance(xs []float64) float64 {
	sum := 0.0 // @time=1.5
	// leading prose
	// @time=2, @energy=85
	for i := 0; i < len(xs); i++ {
		if xs[i] > 0 { // @time=0.5
			sum += xs[i] //@energy=1e-3
		}
	}
	// mail bob@example.com
	defer println("x") // @time=3
	/* @energy=4 */
	return sum
}
`

// node returns the ID of the node of kind k starting on line l.
func node(t *testing.T, g *frontend.CFG, k frontend.Kind, l int) int {
	t.Helper()
	for _, nd := range g.Nodes {
		if nd.Kind == k && nd.Pos.Line == l {
			return nd.ID
		}
	}
	t.Fatalf("no %s node on line %d", k, l)
	return -1
}

func TestAttach(t *testing.T) {
	fset, f, g := load(t, good)
	r, err := Parse(fset, f, g)
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(r.Names()); got != "[energy time]" {
		t.Fatalf("names %s", got)
	}
	want := map[string]map[int]float64{
		"time": {
			node(t, g, frontend.KindStmt, 5):     1.5,
			node(t, g, frontend.KindDecision, 8): 2,
			node(t, g, frontend.KindDecision, 9): 0.5,
		},
		"energy": {
			node(t, g, frontend.KindDecision, 8): 85,
			node(t, g, frontend.KindStmt, 10):    1e-3,
			node(t, g, frontend.KindReturn, 16):  4,
		},
	}
	// The defer's reward goes to its DeferRun nodes, not to the registration.
	runs := 0
	for _, nd := range g.Nodes {
		if nd.Kind == frontend.KindDeferRun {
			want["time"][nd.ID] = 3
			runs++
		}
	}
	if runs == 0 {
		t.Fatal("no DeferRun node")
	}
	for name, vs := range r {
		for id, v := range vs {
			if v != want[name][id] {
				t.Errorf("%s at node %d (%s) = %v, want %v", name, id, g.Nodes[id].Text, v, want[name][id])
			}
		}
	}
}

func TestErrors(t *testing.T) {
	cases := []struct {
		body, want string
	}{
		{"\tx := 1 // @energy:67\n\t_ = x", "dist.go:4:19: expected = after @energy, found ':'"},
		{"\tx := 1 // @time=fast\n\t_ = x", "dist.go:4:18: @time: value \"fast\" is not a decimal number"},
		{"\tx := 1 // @time=-1\n\t_ = x", "dist.go:4:18: @time: value -1 is negative"},
		{"\tx := 1 // @=3\n\t_ = x", "dist.go:4:12: expected a reward name"},
		{"\tx := 1 // @time=1 @energy=2\n\t_ = x", "dist.go:4:20: expected , or the end"},
		{"\tx := 1 // @time=Inf\n\t_ = x", "not a decimal number"},
		{"\tx := 1 // @time=1, \n\t_ = x", "expected @name=value after ,"},
		{"\t// @time=1\n\tx := 1 // @time=2\n\t_ = x", "dist.go:5:12: @time is given twice for the statement at line 5 (first at /tmp/pkg/dist.go:4:5)"},
		{"\tx := 1 // @time=1, @time=2\n\t_ = x", "@time is given twice"},
		{"\t// @time=1\n\n\tx := 1\n\t_ = x", "dist.go:4:5: @time attaches to no statement: the line after the comment has no code"},
		{"\tx := 1\n\t_ = x\n\t// @time=1", "dist.go:6:5: @time attaches to no statement"},
		{"\tswitch {\n\t// @time=1\n\tcase true:\n\t}", "dist.go:5:5: @time attaches to no statement: no statement of F starts on line 6"},
	}
	for _, c := range cases {
		src := "package p\n\nfunc F() {\n" + c.body + "\n}\n"
		fset, f, g := load(t, src)
		_, err := Parse(fset, f, g)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q:\n got %v\nwant %s", c.body, err, c.want)
		}
	}
}

// TestLiteralsOwnTheirAnnotations: an annotation inside a function literal, well formed or not,
// is the literal's (a function of its own), not the enclosing function's.
func TestLiteralsOwnTheirAnnotations(t *testing.T) {
	src := "package p\n\nfunc F() {\n\tf := func() {\n\t\tprintln() // @time=1\n\t\tprintln() // @time=x\n\t}\n\tf() // @cost=2\n}\n"
	fset, f, g := load(t, src)
	r, err := Parse(fset, f, g)
	if err != nil || len(r) != 1 || r["cost"] == nil {
		t.Fatalf("F: rewards %v, error %v; want only F's own cost", r, err)
	}
	lit := g.Decl.Body.List[0].(*ast.AssignStmt).Rhs[0].(*ast.FuncLit)
	lg, err := frontend.Build(fset, &ast.FuncDecl{Name: ast.NewIdent("F.func1"), Type: lit.Type, Body: lit.Body}, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, err = Parse(fset, f, lg)
	if err == nil || !strings.Contains(err.Error(), "dist.go:6:22: @time: value \"x\" is not a decimal number") {
		t.Fatalf("F.func1: error %v, want the literal's malformed annotation", err)
	}
}

func TestCheckFile(t *testing.T) {
	src := "package p\n\n// @time=1\nvar x = 1\n\nfunc F() {\n\tx++ // @time=2\n}\n"
	fset, f, _ := load(t, src)
	err := CheckFile(fset, f)
	if err == nil || !strings.Contains(err.Error(), "dist.go:3:4: @time attaches to no statement: it is outside every function body") {
		t.Errorf("got %v", err)
	}
}

func TestRewardsFile(t *testing.T) {
	fset, f, g := load(t, good)
	r, err := Parse(fset, f, g)
	if err != nil {
		t.Fatal(err)
	}
	rf, err := Decode(strings.NewReader(`{"format":"augur-rewards/1","rewards":{"time":{"dist.go:5":1.8,"pkg/dist.go:10:4":0.25},"mem":{"dist.go:8":7}}}`), "r.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := rf.Set("time@dist.go:5=9"); err != nil {
		t.Fatal(err)
	}
	if err := rf.Apply(g, r); err != nil {
		t.Fatal(err)
	}
	if err := rf.Unused(); err != nil {
		t.Fatal(err)
	}
	if v := r["time"][node(t, g, frontend.KindStmt, 5)]; v != 9 {
		t.Errorf("--set after the file: time on line 5 = %v, want 9", v)
	}
	if v := r["time"][node(t, g, frontend.KindStmt, 10)]; v != 0.25 {
		t.Errorf("time on line 10 = %v, want 0.25", v)
	}
	if v := r["mem"][node(t, g, frontend.KindDecision, 8)]; v != 7 {
		t.Errorf("mem on the for line = %v, want 7", v)
	}
	if v := r["energy"][node(t, g, frontend.KindDecision, 8)]; v != 85 {
		t.Errorf("energy kept from the source = %v, want 85", v)
	}

	// A position inside the function where no statement starts, and one nowhere.
	bad := &File{}
	if err := bad.Set("time@dist.go:11=1"); err != nil {
		t.Fatal(err)
	}
	if err := bad.Apply(g, Rewards{}); err == nil || !strings.Contains(err.Error(), "--set: time at dist.go:11: no statement of Distance starts there") {
		t.Errorf("got %v", err)
	}
	far := &File{}
	_ = far.Set("time@other.go:5=1")
	_ = far.Apply(g, Rewards{})
	if err := far.Unused(); err == nil || !strings.Contains(err.Error(), "other.go:5") {
		t.Errorf("got %v", err)
	}

	for _, in := range []string{
		`{"format":"augur-rewards/2","rewards":{}}`,
		`{"format":"augur-rewards/1","rewards":{"time":{"dist.go":1}}}`,
		`{"format":"augur-rewards/1","rewards":{"time":{"dist.go:x":1}}}`,
		`{"format":"augur-rewards/1","rewards":{"time":{"dist.go:3":-1}}}`,
		`{"format":"augur-rewards/1","rewards":{"time":{"dist.go:3":"fast"}}}`,
		`{"format":"augur-rewards/1","rewards":{"1time":{"dist.go:3":1}}}`,
		`{"format":"augur-rewards/1","extra":1}`,
	} {
		if _, err := Decode(strings.NewReader(in), "r.json"); err == nil || !strings.HasPrefix(err.Error(), "r.json") {
			t.Errorf("%s: got %v", in, err)
		}
	}
	for _, s := range []string{"time", "time@dist.go=1", "@dist.go:3=1", "time@dist.go:3=-2", "time@dist.go:3=x"} {
		if err := (&File{}).Set(s); err == nil {
			t.Errorf("Set(%q) accepted", s)
		}
	}
}

func TestParseTextProse(t *testing.T) {
	for _, s := range []string{" mail bob@example.com", "TODO(@me)", "", "  ", "go:noinline"} {
		if _, ok, err := ParseText(s); ok || err != nil {
			t.Errorf("%q: ok=%v err=%v", s, ok, err)
		}
	}
}

// FuzzParseText checks the annotation parser never panics, reports offsets inside the text,
// and reads back what it accepted when it is written out again.
func FuzzParseText(f *testing.F) {
	for _, s := range []string{" @time=2.5", " @time=2.5, @energy=85", "@energy:67", "@time=fast", "@time=-1", "@=3", " bob@x.com", "@a=1e3,@b=.5", "@x=1e+", "@t=1,"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		items, ok, err := ParseText(s)
		if !ok {
			if items != nil || err != nil {
				t.Fatalf("not an annotation but items %v err %v", items, err)
			}
			return
		}
		if err != nil {
			if se := err.(*SyntaxError); se.Off < 0 || se.Off > len(s) {
				t.Fatalf("offset %d outside %q", se.Off, s)
			}
			return
		}
		var parts []string
		for _, it := range items {
			if it.Value < 0 || it.Value != it.Value || it.Off < 0 || it.Off >= len(s) || s[it.Off] != '@' {
				t.Fatalf("bad item %+v of %q", it, s)
			}
			parts = append(parts, "@"+it.Name+"="+strconv.FormatFloat(it.Value, 'g', -1, 64))
		}
		again, ok, err := ParseText(strings.Join(parts, ", "))
		if !ok || err != nil || len(again) != len(items) {
			t.Fatalf("%q read back as %v %v %v", s, again, ok, err)
		}
		for i := range items {
			if again[i].Name != items[i].Name || again[i].Value != items[i].Value {
				t.Fatalf("%q read back as %v", s, again)
			}
		}
	})
}
