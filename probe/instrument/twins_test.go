package instrument

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/augur-perf/augur/source/frontend"
)

// TestTwins runs testdata/src/work/twins, whose entries and twins take every shape (methods,
// unnamed, blank and variadic parameters, goroutines and function values in twins, panics
// through an entry recovered by its caller 50 000 times, recursion through values), and compares
// the counts with the truth; the blocks the entries take are given back (the counter file does
// not grow with the panics).
func TestTwins(t *testing.T) {
	prog, err := frontend.Load(workDir, "./twins")
	if err != nil {
		t.Fatal(err)
	}
	list, err := prog.Select("example.com/work/twins")
	if err != nil {
		t.Fatal(err)
	}
	pkg := list[0].Pkg
	var plans []*funcPlan
	for k, fn := range list {
		p, err := newPlan(fn, k)
		if err != nil {
			t.Fatal(err)
		}
		plans = append(plans, p)
	}
	ts := findTwins(pkg.TypesInfo, pkg.Syntax, list, plans)
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
	if got, want := strings.Join(entries, " "), "(*T).Sum Deep Spawn T.Add Twice UsesGeneric mustPos"; got != want {
		t.Errorf("entries: %s, want %s", got, want)
	}
	if got, want := strings.Join(twins, " "), "(*T).Sum Deep Spawn T.Add Twice UsesGeneric add1 mustPos"; got != want {
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
