package instrument

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/augur-perf/augur/source/frontend"
)

// TestPanicTable runs testdata/src/work/panics: one loop per operation that can panic (index,
// slice, conversion, nil dereference, field and its address, nil map write, type assertion,
// division and modulo in statements, conditions and switch tags, shifts, interface comparison, send
// on a closed channel, call), each panicking at iteration K = 4, and compares the counts with the
// truth: whether the loop keeps its counts in registers (guards or a deferred flush) or not,
// nothing is lost when it unwinds.
func TestPanicTable(t *testing.T) {
	const K = 4
	p, fns := measureTest(t, "panics", "TestAll", 0, 1)
	byName := funcsOf(fns)
	const P = "example.com/work/panics."
	for _, c := range []struct{ fn, body, panics string }{
		{"Index", "s += i", "s += xs[i]"},
		{"Slice", "s += i", "s += len(xs[:i+1])"},
		{"Convert", "s += i", "s += (*[2]int)(xs[i:])[0]"},
		{"Deref", "s += i", "s += *ps[i]"},
		{"Field", "s += i", "s += ps[i].b"},
		{"Addr", "s += i", "s += *(&ps[i].b)"},
		{"NilMap", "s += i", "m[i] = s"},
		{"Assert", "s += i", "s += vs[i].(int)"},
		{"Div", "s += i", "s += 100 / (k - i)"},
		{"Mod", "s += i", "s += 100 % (k - i)"},
		{"DivAssign", "s += i + 1000", "s /= k - i"},
		{"DivCond", "s += i", "if 100/(k-i) > 30"},
		{"ModSwitch", "s += i", "switch 100 % (k - i)"},
		{"Shift", "s += i", "s += 1 << (k - i - 1)"},
		{"ShiftAssign", "s += i", "s <<= k - i - 1"},
		{"Compare", "s += i", "if vs[i] == vs[k]"},
		{"Send", "s += i", "ch <- i"},
		{"Call", "s += i", "s += f(i)"},
		{"IndexCond", "s += i", "for xs[i] >= 0"},
	} {
		fn := byName[P+c.fn]
		f := p.Funcs[P+c.fn]
		g := fn.CFG
		body, pan := f.Nodes[node(t, fn, c.body)], f.Nodes[node(t, fn, c.panics)]
		wantBody := uint64(K + 1)
		if c.fn == "IndexCond" {
			wantBody = K // the condition panics before the K+1th body
		}
		total := panicsOf(f)
		if f.Invocations != 1 || body.Count != wantBody || pan.Count != K+1 || pan.Panics != 1 || total != 1 ||
			f.Nodes[g.Panic].Count != 1 || f.Nodes[g.End].Count != 0 {
			t.Errorf("%s: %d calls, %q ran %d times (want %d), %q ran %d times and panicked %d (want %d, 1), %d panics in all, exits end %d panic %d",
				c.fn, f.Invocations, c.body, body.Count, wantBody, c.panics, pan.Count, pan.Panics, K+1, total, f.Nodes[g.End].Count, f.Nodes[g.Panic].Count)
		}
		if c.fn != "IndexCond" {
			if post := f.Nodes[node(t, fn, "i++")]; post.Count != K {
				t.Errorf("%s: i++ ran %d times, want %d", c.fn, post.Count, K)
			}
		}
		checkIdentity(t, fn, f, 9)
	}
}

// TestNestedGuards runs testdata/src/work/panics/nest.go and nest_odd.go: loops two deep,
// counted in registers with guards whose blocks end in the panic (a statement run in the guard's
// block, a condition or a defined value evaluated again there, after line directives where the
// guard is not on the condition's line), and guards at odd places. The workload checks that
// each panic comes from the line marked "panics: <name>"; here the one panic is counted at the
// node that holds that line, and the model's expectation equals the measured mean.
func TestNestedGuards(t *testing.T) {
	p, fns := measureTest(t, "panics", "TestNest", 0, 1)
	byName := funcsOf(fns)
	marked := map[string]int{}
	for _, file := range []string{"nest.go", "nest_odd.go"} {
		src, err := os.ReadFile(filepath.Join(workDir, "panics", file))
		if err != nil {
			t.Fatal(err)
		}
		for i, l := range strings.Split(string(src), "\n") {
			if _, name, ok := strings.Cut(l, "// panics: "); ok {
				marked[name] = i + 1
			}
		}
	}
	if len(marked) != 12 {
		t.Fatalf("%d marked lines, want 12", len(marked))
	}
	const P = "example.com/work/panics."
	for name, line := range marked {
		fn, f := byName[P+name], p.Funcs[P+name]
		var at []string
		ok := f.Invocations == 1
		for i, nd := range f.Nodes {
			if nd.Panics > 0 {
				g := fn.CFG.Nodes[i]
				at = append(at, fmt.Sprintf("%s (lines %d-%d) %d", g.Text, g.Pos.Line, g.End.Line, nd.Panics))
				ok = ok && nd.Panics == 1 && g.Pos.Line <= line && line <= g.End.Line
			}
		}
		if !ok || len(at) != 1 {
			t.Errorf("%s: %d calls, panics counted at %v; want one at line %d", name, f.Invocations, at, line)
		}
		checkIdentity(t, fn, f, 9)
	}
}

// TestDerefSafe: (*Reader).LineOffset in testdata/src/work/panics/deref.go dereferences its
// receiver in an if statement and again in the init and the condition of a for loop below it. Those
// (and the uses of r after them) cannot panic, so nothing counts their panics and the function
// needs no frame (it used to get one: nothing could count the panics of a for loop's init
// statement); the panics of a nil receiver and of an index past the end are counted where they
// happen. (*Reader).Pos returns early for a nil receiver: the statements after that guard cannot
// panic either.
func TestDerefSafe(t *testing.T) {
	prog, err := frontend.Load(workDir, "./panics")
	if err != nil {
		t.Fatal(err)
	}
	plan := func(name string) (*frontend.Func, *funcPlan) {
		fns, err := prog.Select("example.com/work/panics." + name)
		if err != nil || len(fns) != 1 {
			t.Fatalf("%v %v", fns, err)
		}
		fn, pkg := fns[0], fns[0].Pkg
		noteSafeIndexes(pkg.TypesInfo, pkg.Syntax)
		src, err := os.ReadFile(prog.Fset.File(fn.Decl.Pos()).Name())
		if err != nil {
			t.Fatal(err)
		}
		safe := derefSafe(pkg.TypesInfo, fn, newLeafFuncs(pkg.TypesInfo, pkg.Syntax), exprSource(src, prog.Fset, pkg.TypesInfo, nil))
		p, err := newPlan(fn, 0, safe)
		if err != nil {
			t.Fatal(err)
		}
		return fn, p
	}
	fn, p := plan("(*Reader).LineOffset")
	for _, text := range []string{"i := r.head", "for i := r.head", "r.off = v", "return r.off"} {
		if i := node(t, fn, text); p.mayPanic[i] {
			t.Errorf("%q may panic, says the plan", text)
		}
	}
	if p.frame || !p.mayPanic[node(t, fn, "if r.off < 0")] {
		t.Errorf("frame %v; the if statement may panic: %v", p.frame, p.mayPanic[node(t, fn, "if r.off < 0")])
	}
	fn, p = plan("(*Reader).Pos")
	for _, text := range []string{"d := r.pos - r.off", "return d + r.head"} {
		if i := node(t, fn, text); p.mayPanic[i] {
			t.Errorf("Pos: %q may panic, says the plan", text)
		}
	}
	// A local that nothing assigns but its definition: after the guard in Escape; not in Chain,
	// whose loop defines p again before dereferencing it, nor where its name means another
	// variable too (Switched's clause's v, the package's gp in Shadowed).
	fn, p = plan("Escape")
	if i := node(t, fn, "return *v"); p.mayPanic[i] {
		t.Error("Escape: \"return *v\" may panic, says the plan")
	}
	for _, c := range [][2]string{{"Chain", "s += *p"}, {"Switched", "return v.name"}, {"Shadowed", "return *gp"}} {
		fn, p = plan(c[0])
		if i := node(t, fn, c[1]); !p.mayPanic[i] {
			t.Errorf("%s: %q cannot panic, says the plan", c[0], c[1])
		}
	}

	prof, mfns := measureTest(t, "panics", "TestDeref", 0, 1)
	const name = "example.com/work/panics.(*Reader).LineOffset"
	f, mfn := prof.Funcs[name], funcsOf(mfns)[name]
	want := map[string]uint64{"if r.off < 0": 1, "if r.src[i] == '\\t'": 1}
	for i, nd := range f.Nodes {
		if text := mfn.CFG.Nodes[i].Text; nd.Panics != want[text] {
			t.Errorf("%q panicked %d times, want %d", text, nd.Panics, want[text])
		}
	}
	if f.Invocations != 5 {
		t.Errorf("%d invocations, want 5", f.Invocations)
	}
	checkIdentity(t, mfn, f, 9)
	pos, pfn := prof.Funcs["example.com/work/panics.(*Reader).Pos"], funcsOf(mfns)["example.com/work/panics.(*Reader).Pos"]
	if pos == nil || pos.Invocations != 2 || panicsOf(pos) != 0 || pos.Nodes[node(t, pfn, "return -1")].Count != 1 {
		t.Errorf("Pos: %+v, want 2 invocations, one returning -1, no panics", pos)
	}
	checkIdentity(t, pfn, pos, 9)
	for name, want := range map[string][2]uint64{"Escape": {2, 0}, "Chain": {2, 1}, "Switched": {2, 1}, "Shadowed": {1, 1}} {
		f := prof.Funcs["example.com/work/panics."+name]
		if f.Invocations != want[0] || panicsOf(f) != want[1] {
			t.Errorf("%s: %d invocations, %d panics, want %d, %d", name, f.Invocations, panicsOf(f), want[0], want[1])
		}
	}
}
