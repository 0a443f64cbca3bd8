package instrument

import (
	"testing"

	"github.com/augur-perf/augur/source/frontend"
)

// TestDerivedLeaves runs testdata/src/work/leaves, whose tiny leaves are counted at their call
// sites (in locals of the callers' register regions, or pinned where a panic may follow the
// call or the caller keeps a frame), from eight goroutines and into panics, and compares their
// invocations with the truth; a leaf also used as a value is counted in itself.
func TestDerivedLeaves(t *testing.T) {
	p, fns := measureTest(t, "leaves", "TestLeaves", 0, 4)
	const text = "ab1 22 x_y9 Z" // as leaves_test.go
	isDigit := func(c byte) bool { return c >= '0' && c <= '9' }
	isLetter := func(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
	// Classify's calls, once.
	digits, letters := 0, 0
	for i := 0; i < len(text); i++ {
		digits++
		if !isDigit(text[i]) {
			letters++
		}
		if i+1 < len(text) {
			letters++
			if !isLetter(text[i+1]) {
				digits++
			}
		}
	}
	spaces := 0
	for i := 0; i < len(text); i++ {
		if text[i] == ' ' {
			spaces++
		}
	}
	const P = "example.com/work/leaves."
	for name, want := range map[string]uint64{
		"isDigit":  uint64(8 * digits),
		"isLetter": uint64(8 * letters),
		// Scale: three calls, the third panicking in the assignment after it; Total: four,
		// the fifth index panicking before the call; Asserted: three, the third assertion
		// panicking.
		"twice": 3 + 4 + 3,
		// Deferred, then Valued through the value and directly when the value said no.
		"isSpace":  uint64(len(text) + len(text) + len(text) - spaces),
		"Classify": 8,
	} {
		f := p.Funcs[P+name]
		if f == nil {
			t.Errorf("%s: not in the profile", name)
			continue
		}
		if f.Invocations != want {
			t.Errorf("%s: %d invocations, want %d", name, f.Invocations, want)
		}
	}
	byName := funcsOf(fns)
	// Inexact: a guard true without a panic (undone at the next flush), then a real panic.
	in, inFn := p.Funcs[P+"Inexact"], byName[P+"Inexact"]
	cond, body := in.Nodes[node(t, inFn, "if (ok")], in.Nodes[node(t, inFn, "c++")]
	if in.Invocations != 2 || cond.Count != 5+3 || cond.Panics != 1 || body.Count != 2 ||
		in.Nodes[inFn.CFG.End].Count != 1 || in.Nodes[inFn.CFG.Panic].Count != 1 {
		t.Errorf("Inexact: %d calls, if ran %d times, panicked %d (want 2, 8, 1), c++ %d (want 2), exits end %d panic %d",
			in.Invocations, cond.Count, cond.Panics, body.Count, in.Nodes[inFn.CFG.End].Count, in.Nodes[inFn.CFG.Panic].Count)
	}
	for _, name := range []string{"isDigit", "isLetter", "twice", "Classify", "Scale", "Total", "Asserted", "Inexact"} {
		checkIdentity(t, byName[P+name], p.Funcs[P+name], 5)
	}
	// Which are derived: all but isSpace (a value too).
	prog, err := frontend.Load(workDir, "./leaves")
	if err != nil {
		t.Fatal(err)
	}
	list, err := prog.Select("example.com/work/leaves")
	if err != nil {
		t.Fatal(err)
	}
	derived, _ := derivedLeaves(list[0].Pkg, list)
	got := map[string]bool{}
	for k := range derived {
		got[list[k].Name] = true
	}
	for _, name := range []string{"isDigit", "isLetter", "twice"} {
		if !got[P+name] {
			t.Errorf("%s: not derived", name)
		}
	}
	if got[P+"isSpace"] || len(got) != 3 {
		t.Errorf("derived: %v", got)
	}
}
