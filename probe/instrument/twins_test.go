package instrument

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/augur-perf/augur/probe/profile"
	"github.com/augur-perf/augur/source/frontend"
)

// TestTwins runs testdata/src/work/twins, whose entries and twins take every shape (methods,
// unnamed, blank and variadic parameters, goroutines and function values in twins, panics
// through an entry recovered by its caller 50 000 times, recursion through values), and compares
// the counts with the truth; the blocks the entries take are given back (the counter file does
// not grow with the panics).
func TestTwins(t *testing.T) {
	list, _, ts := planPackage(t, "twins")
	var entries, twins []string
	for k, fn := range list {
		name := strings.TrimPrefix(fn.Name, "example.com/work/twins.")
		if ts.entry[k] {
			entries = append(entries, name)
		}
		if ts.twin[k] {
			twins = append(twins, name)
		}
	}
	sort.Strings(entries)
	sort.Strings(twins)
	if got, want := strings.Join(entries, " "), "(*T).Sum Assert Cuts Deep Halved Halved2 Headers Late LateEvens LatePick SafeSum Spawn SumAt T.Add Tupled Twice UsesGeneric Words mustPos sum2 sum4"; got != want {
		t.Errorf("entries: %s, want %s", got, want)
	}
	if got, want := strings.Join(twins, " "), "(*T).Sum Assert At Cuts Deep Halved Halved2 Headers Late LateEvens LatePick Max SafeSum Spawn SumAt T.Add Tupled Twice UsesGeneric Words add1 evens idxOf mustPos pick sum2 sum4"; got != want {
		t.Errorf("twins: %s, want %s", got, want)
	}

	p, fns, dir := measureTestDir(t, "twins", "TestTwins", 0, 4)
	// The truth, worked out as TestTwins runs.
	add1, big := 0, 0
	call := func(x int) int {
		add1++
		if x > 10 {
			big++
			return x
		}
		return x + 1
	}
	for i := 0; i < 1000; i++ {
		call(2)
		call(i % 20)
		call(3)
		call(30)
		n := i % 12
		call(n)
		call(n)
		call(call(n))
		call(i % 15)
	}
	for i := 0; i < 100_000; i++ {
		if i%2 == 1 {
			call(1)
		}
	}
	for n := 10; n > 0; n-- {
		if n%2 == 1 {
			call(n)
		}
	}
	// Headers, as it runs, into its panics; SafeSum's first loop.
	for k := 0; k < 7; k++ {
		for _, x := range []int{3, 2, 1, 0, 5} {
			call(x)
		}
		func() {
			defer func() { recover() }()
			xs := []int{3, 2, 1, 0, 5}
			s := 0
			if call(len(xs)) > 3 {
				s++
			}
			for i := 0; call(i) < k; i++ {
				s += xs[i]
			}
			for i := k; xs[i] > 0; i-- {
				s--
			}
			call(s % 3)
		}()
	}
	// Words: add1(0) in its default case.
	for _, w := range []string{"", "a", "Hello World", "aeiou AEIOU xyz", "QQ qq Qa aQ"} {
		vowel := func(c byte) bool { return strings.IndexByte("aeiou", c) >= 0 }
		up := func(c byte) bool { return c >= 'A' && c <= 'Z' }
		for i := 0; i < len(w); i++ {
			for i < len(w) && (vowel(w[i]) || up(w[i])) {
				i++
			}
			if i >= len(w) {
				break
			}
			if !up(w[i]) {
				call(0)
			}
		}
	}
	for i := 0; i < 30; i++ {
		func() {
			for _, x := range []int{i % 3, i % 6} {
				if x >= 4 {
					return // At panics
				}
				call(x % 3) // Late
			}
			if i%5 == 0 {
				call(0) // Assert(nil)
				call(1) // Assert(i); Assert("x") panics
			}
		}()
	}
	call(9) // Late(xs, 9), which panics after the call
	const P = "example.com/work/twins."
	byName := funcsOf(fns)
	for name, want := range map[string]uint64{
		"add1": uint64(add1), "mustPos": 100_000, "Caught": 100_000, "Deep": 11, "T.Add": 1000, "(*T).Sum": 1000,
		"Spawn": 1000, "Twice": 1000, "UsesGeneric": 1000, "Max": 1000, "catch": 100_000,
	} {
		if f := p.Funcs[P+name]; f == nil || f.Invocations != want {
			t.Errorf("%s: %v invocations, want %d", name, f, want)
		}
	}
	a := p.Funcs[P+"add1"]
	if got := a.Nodes[node(t, byName[P+"add1"], "return x")].Count; got != uint64(big) {
		t.Errorf("add1: return x ran %d times, want %d", got, big)
	}
	m := p.Funcs[P+"mustPos"]
	mp := byName[P+"mustPos"]
	if got := m.Nodes[node(t, mp, `panic("negative")`)].Count; got != 50_000 || m.Nodes[mp.CFG.Panic].Count != 50_000 {
		t.Errorf("mustPos: panic ran %d times, %d invocations panicked, want 50000", got, m.Nodes[mp.CFG.Panic].Count)
	}
	// Per P a block and its cache of blocks, and those Get added (four at a time): not one
	// per panic.
	if n := counterBlocks(t, dir); n > 9+8*8+8 {
		t.Errorf("%d blocks in the counter file", n)
	}
	for _, fn := range fns {
		checkIdentity(t, fn, p.Funcs[fn.Name], 5)
	}
}

// counterBlocks is how many blocks the counter file of package pkg in dir holds.
func counterBlocks(t *testing.T, dir string) int {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "*.cnt"))
	if len(files) != 1 {
		t.Fatalf("counter files %v", files)
	}
	data, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	nl := strings.IndexByte(string(data), '\n')
	hlen, stride, err := headerLine(data, nl)
	if err != nil {
		t.Fatal(err)
	}
	return (len(data) - hlen) / (8 * stride)
}

// TestTwinsAgree measures testdata/src/work/twins with twins (their paths counted, panics
// through spills), without (every function counting in itself), and with every function keeping
// a frame, and requires the same profile from the three: twins count what ran, panics included.
func TestTwinsAgree(t *testing.T) {
	profiles := agreeTest(t, "", "twins", "TestTwins", 4)
	at := profiles[0].Funcs["example.com/work/twins.At"]
	if panics := panicsOf(at); at.Invocations != 60 || panics == 0 {
		t.Errorf("At: %d invocations, %d panics", at.Invocations, panics)
	}
	// Late and LatePick: 50 calls from SumAt (At panics first in 10), and one that panics after
	// the twin it calls returned; LateEvens: one that returns, one that panics.
	for name, want := range map[string]uint64{"Late": 51, "LatePick": 51, "LateEvens": 2} {
		f := profiles[0].Funcs["example.com/work/twins."+name]
		if panics := panicsOf(f); f.Invocations != want || panics != 1 {
			t.Errorf("%s: %d invocations, %d panics, want %d, 1", name, f.Invocations, panics, want)
		}
	}
	// half returned 9 times, 6 of them before the call it is an argument of panicked.
	if h := profiles[0].Funcs["example.com/work/twins.half"]; h.Invocations != 9 {
		t.Errorf("half: %d invocations, want 9", h.Invocations)
	}
	// Cuts' paths end inside conditions with init and post statements (_augur_cx).
	cuts := profiles[0].Funcs["example.com/work/twins.Cuts"]
	if panics := panicsOf(cuts); cuts.Invocations != 7 || panics == 0 {
		t.Errorf("Cuts: %d invocations, %d panics", cuts.Invocations, panics)
	}
	// SafeSum divides by zero in a loop whose index cannot panic (a register loop with a
	// mirror), after one whose index and call cannot (a register loop without).
	ss := profiles[0].Funcs["example.com/work/twins.SafeSum"]
	if panics := panicsOf(ss); ss.Invocations != 7 || panics != 3 {
		t.Errorf("SafeSum: %d invocations, %d panics", ss.Invocations, panics)
	}
}

// TestTrickyAgree measures field/build's testdata/tricky (labelled loops, goto, fallthrough,
// type switches, select, sends in loops, ranges of every kind, else-if chains, empty blocks,
// defer and recover), whose functions call each other (twins counting paths), with twins, without
// and with every function keeping a frame, and requires the same profile from the three.
func TestTrickyAgree(t *testing.T) {
	if testing.Short() {
		t.Skip("builds with the go command")
	}
	var fns []*frontend.Func
	profiles := inModes(func(string) *profile.Profile {
		dir := filepath.Join(t.TempDir(), "tricky")
		if err := os.CopyFS(dir, os.DirFS("../../field/build/testdata/tricky")); err != nil {
			t.Fatal(err)
		}
		prog, err := frontend.Load(dir, "example.com/tricky")
		if err != nil {
			t.Fatal(err)
		}
		if fns, err = prog.Select("example.com/tricky"); err != nil {
			t.Fatal(err)
		}
		m, err := Measure(prog, fns, Workload{Args: []string{"go", "run", ".", "60"}, Dir: dir})
		if err != nil {
			t.Fatal(err)
		}
		return m.Profile
	})
	checkAgree(t, "", fns, profiles)
}

// TestPackagesAgree measures the test packages of testdata/src/work (the lib program with all its
// modes' calls, panics in every kind of expression, derived leaves, shadowed predeclared names,
// the kernels' tests, loops counted without a path register from four goroutines) with twins, without and with every function keeping a frame, and requires
// the same profile from the three.
func TestPackagesAgree(t *testing.T) {
	for _, c := range []struct{ pkg, test string }{
		{"panics", "TestAll"}, {"panics", "TestVia"}, {"leaves", "TestLeaves"}, {"shadow", "TestAll"}, {"kern", "TestRealKernels"},
		{"trips", "TestTrips"}, {"twinedges", "TestAll"}, {"generics", "TestAll"},
	} {
		agreeTest(t, c.pkg+", ", c.pkg, c.test, 4)
	}
	// The lib program, run with "all".
	var fns []*frontend.Func
	profiles := inModes(func(string) *profile.Profile {
		prog, err := frontend.Load(workDir, "./lib")
		if err != nil {
			t.Fatal(err)
		}
		if fns, err = prog.Select("example.com/work/lib"); err != nil {
			t.Fatal(err)
		}
		m, err := Measure(prog, fns, Workload{Args: []string{"go", "run", ".", "all"}, Dir: workDir})
		if err != nil {
			t.Fatal(err)
		}
		return m.Profile
	})
	checkAgree(t, "lib, ", fns, profiles)
}

// modes are the ways of counting the agreement tests compare: with twins, without, and with a
// frame in every function, the reference.
var modes = []string{"twins", "none", "frames"}

// inModes returns the profiles measure gives in each of the modes, in their order.
func inModes(measure func(mode string) *profile.Profile) []*profile.Profile {
	var ps []*profile.Profile
	for _, mode := range modes {
		ps = append(ps, func() *profile.Profile {
			noTwins, forceFrame = mode == "none", mode == "frames"
			defer func() { noTwins, forceFrame = false, false }()
			return measure(mode)
		}())
	}
	return ps
}

// agreeTest measures test name of testdata package pkg (with cpu Ps) in every mode, requires the
// same counts from all of them (label starts the errors) and returns the profiles.
func agreeTest(t *testing.T, label, pkg, name string, cpu int) []*profile.Profile {
	t.Helper()
	var fns []*frontend.Func
	profiles := inModes(func(string) (p *profile.Profile) {
		p, fns = measureTest(t, pkg, name, 0, cpu)
		return p
	})
	checkAgree(t, label, fns, profiles)
	return profiles
}

// checkAgree requires the functions fns to have the same counts in the profiles of every mode.
func checkAgree(t *testing.T, label string, fns []*frontend.Func, ps []*profile.Profile) {
	t.Helper()
	for _, fn := range fns {
		want := ps[2].Funcs[fn.Name]
		for i, mode := range modes[:2] {
			got := ps[i].Funcs[fn.Name]
			if fmt.Sprint(got.Invocations, got.Nodes) != fmt.Sprint(want.Invocations, want.Nodes) {
				t.Errorf("%s%s, %s:\n got %d %+v\nwant %d %+v", label, mode, fn.Name, got.Invocations, got.Nodes, want.Invocations, want.Nodes)
			}
		}
	}
}

// TestOldGo measures testdata/src/old, a module whose go.mod says go 1.16: it builds (the
// package's own files call nothing generic) and counts what ran.
func TestOldGo(t *testing.T) {
	if testing.Short() {
		t.Skip("builds with the go command")
	}
	dir := filepath.Join(t.TempDir(), "old")
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("testdata", "src", "old"))); err != nil {
		t.Fatal(err)
	}
	prog, err := frontend.Load(dir, ".")
	if err != nil {
		t.Fatal(err)
	}
	fns, err := prog.Select("example.com/old")
	if err != nil {
		t.Fatal(err)
	}
	m, err := Measure(prog, fns, Workload{Args: []string{"go", "test", "-count=1", "."}, Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]uint64{"Digits": 1, "isDigit": 9, "add": 6} {
		if got := m.Profile.Funcs["example.com/old."+name].Invocations; got != want {
			t.Errorf("%s: %d invocations, want %d", name, got, want)
		}
	}
}
