package instrument

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/augur-perf/augur/source/frontend"
	"golang.org/x/tools/go/packages"
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
		// panicking; (*span).Lo and Wide: six each, and three panicking before the call.
		"twice": 3 + 4 + 3 + 6 + 6,
		// Deferred, then Valued through the value and directly when the value said no.
		"isSpace":  uint64(len(text) + len(text) + len(text) - spaces),
		"Classify": 8,
		"pick":     uint64(len(text)),
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
	for _, name := range []string{"isDigit", "isLetter", "twice", "Classify", "Scale", "Total", "Asserted", "Inexact", "pick", "Picks", "(*span).Lo", "(*span).Wide"} {
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

// TestSplitLeaves runs testdata/src/work/leafx/use, which calls package leafx's exported leaves
// from another instrumented package (directly, through a dot import, from a twin, into a panic,
// through a function value, from eight goroutines) and from the uninstrumented test, and leafx's
// own functions that call them; the calls augur sees call copies without probes and count at
// the call sites, the others count in the leaves. Each leaf's invocations must be the truth. use
// dot-imports leafx and leafx/other, which both have an unexported split leaf isDot: their
// copies, unexported, do not collide.
func TestSplitLeaves(t *testing.T) {
	if testing.Short() {
		t.Skip("builds programs")
	}
	prog, err := frontend.Load(workDir, "./leafx/...")
	if err != nil {
		t.Fatal(err)
	}
	fns, _, err := prog.SelectAll(nil)
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	b, err := Instrument(prog, fns, out)
	if err != nil {
		t.Fatal(err)
	}
	// The mechanism must be in use: use's files call the copies. Clamped's loop calls leafx's
	// leaves Clamp and Pick, which count themselves, without flushing its locals before them:
	// one pinned commit, at the end.
	calls, clamped, methods := 0, "", 0
	for orig, dst := range b.Files {
		if filepath.Base(filepath.Dir(orig)) == "use" {
			data, err := os.ReadFile(dst)
			if err != nil {
				t.Fatal(err)
			}
			calls += strings.Count(string(data), "AugurLeaf_")
			methods += strings.Count(string(data), ".AugurLeaf_Empty()") + strings.Count(string(data), ".AugurLeaf_Len()")
			if _, after, ok := strings.Cut(string(data), "\nfunc Clamped("); ok {
				clamped, _, _ = strings.Cut(after, "\nfunc ")
			}
		}
	}
	if n := strings.Count(clamped, "_augur_r.Pin()"); n != 1 {
		t.Errorf("Clamped pins %d times, want 1:\n%s", n, clamped)
	}
	if methods < 2 { // Spans's static calls of Empty and Len
		t.Errorf("package use calls the tiny methods' copies %d times, want 2 or more", methods)
	}
	if calls < 8 { // Score 3, Fill, Words, Doubled, Spans 2; twins and paths' repeated conditions more
		t.Errorf("package use calls the leaves' copies %d times, want 6 or more", calls)
	}
	bin := filepath.Join(t.TempDir(), "use.test")
	if out, err := goCmd(filepath.Join(workDir, "leafx", "use"), "test", "-c", "-o", bin, "-overlay="+b.Overlay, "-vet=off", ".").CombinedOutput(); err != nil {
		t.Fatalf("go test -c: %v\n%s", err, out)
	}
	dir := t.TempDir()
	if r := runBin(t, bin, dir, "-test.run=^TestUse$", "-test.cpu=4"); r.code != 0 {
		t.Fatalf("exit %d:\n%s%s", r.code, r.stdout, r.stderr)
	}
	p, n, err := b.Collect(dir)
	if err != nil || n != 3 {
		t.Fatalf("%d counter files: %v", n, err)
	}
	// The truth, from use_test.go.
	const text = "Hello, wOrld. An Ant ate a lEaf."
	var vowel, upper, double, dot uint64
	isVowel := func(c byte) bool { vowel++; return strings.IndexByte("aeiou", c) >= 0 }
	isUpper := func(c byte) bool { upper++; return c >= 'A' && c <= 'Z' }
	score := func(s string) {
		for i := 0; i < len(s); i++ {
			_ = isVowel(s[i]) || isUpper(s[i]) || isVowel(s[i]|0x20)
		}
	}
	words := func(s string) {
		start := -1
		for i := 0; i <= len(s); i++ {
			letter := i < len(s) && (isUpper(s[i]) || s[i] >= 'a' && s[i] <= 'z')
			switch {
			case letter && start < 0:
				start = i
			case !letter && start >= 0:
				score(s[start:i])
				start = -1
			}
		}
	}
	for range 9 { // Parallel's eight goroutines, then the test's own calls
		score(text)
		words(text)
	}
	for i := 0; i < len(text); i++ {
		isUpper(text[i]) // Valued
		if isVowel(text[i]) && i+1 < len(text) {
			isUpper(text[i+1]) // Vowels
		}
		dot++ // Dots through the value
		if text[i] == '.' {
			dot++
		}
		isVowel(text[i]) // the test
	}
	double = 3 + 3 + 1 // Doubled, Fill (the third call returns, its assignment panics), the test
	// other.isDot, from Doubled's Periods: directly, then through the value when it said no.
	otherDot := uint64(len(text))
	for i := 0; i < len(text); i++ {
		if text[i] != '.' && text[i] != ',' {
			otherDot++
		}
	}
	// Bytes(xs, "abc") and Bytes(xs, "ab~c") score their strings; Clamp and Pick: three calls
	// each from Bytes(xs, "abc"), two from Clamped(xs, "Ab"), three from Bytes(xs, "ab~c"),
	// Pick panicking at '~'.
	for _, s := range []string{"abc", "ab~c"} {
		score(s)
	}
	clamp, pick := uint64(3+2+3), uint64(3+2+3)
	// Spans and Total: Empty for each of the three spans, Len for the two that are not empty;
	// Spans's Len through the interface; the test's Empty on a nil *Span.
	empty, length, mid := uint64(3+3+1), uint64(2+2+1), uint64(2+1)
	const P = "example.com/work/leafx"
	for name, want := range map[string]uint64{P + ".IsVowel": vowel, P + ".IsUpper": upper, P + ".Double": double, P + ".isDot": dot, P + "/other.isDot": otherDot, P + ".Clamp": clamp, P + ".Pick": pick, P + ".(*Span).Empty": empty, P + ".Span.Len": length, P + ".Span.mid": mid} {
		if f := p.Funcs[name]; f == nil || f.Invocations != want {
			t.Errorf("%s: %v, want %d invocations", name, f, want)
		}
	}
	byName := funcsOf(fns)
	for name, f := range p.Funcs {
		if err := conserves(byName[name].CFG, f); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		if f.Invocations > 0 {
			checkIdentity(t, byName[name], f, 9)
		}
	}
}

// derivedLeaves returns the derived leaves of one package (pkg, its functions list, instrumented
// alone) and the call sites of each function of list that calls leaves counted at their call
// sites (derived or split).
func derivedLeaves(pkg *packages.Package, list []*frontend.Func) (map[int]bool, map[int][]*callSite) {
	lp := findLeaves([]leafPkg{{pkg, list}})
	return lp.derived[pkg.PkgPath], lp.sites[pkg.PkgPath]
}

// TestLeafSites measures testdata/src/work/leafsites, whose derived leaves are called in nodes
// that may panic after they returned (a send on a closed channel, a later case of a switch, the
// right operand of an && in an if or a for condition), with twins, without and with frames: every
// call that returned counts.
func TestLeafSites(t *testing.T) {
	profiles := agreeTest(t, "", "leafsites", "TestAll", 1)
	// Each shape runs twice on each length n of 0 to 6.
	want := map[string]uint64{}
	for n := range 7 {
		want["lv19"] += 2
		want["lv31"] += 2 * 2 // both cases
		want["lv45"] += 2
		want["lv63"] += 2
		for i := 0; ; i++ { // S64's condition, until false or xs[i+2] panics
			want["lv64"] += 2
			if n/2+1 <= i || i+2 >= n {
				break
			}
		}
	}
	for i, mode := range modes {
		for name, w := range want {
			if got := profiles[i].Funcs["example.com/work/leafsites."+name].Invocations; got != w {
				t.Errorf("%s: %s: %d invocations, want %d", mode, name, got, w)
			}
		}
	}
}
