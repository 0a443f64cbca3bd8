package instrument

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/augur-perf/augur/probe/profile"
	"github.com/augur-perf/augur/source/frontend"
)

// concTruth is what testdata/src/work/conc's TestConcurrent must count: 64 goroutines, each
// calling Work(x) for x < 100k, Framed(x) when x%4 == 1 and Pair(x) when x%4 == 2, worked out
// here without probes.
type concTruth struct {
	work, framed                  uint64
	workCond, workBody, workEven  uint64
	workX3, workRet2              uint64
	framedCond, framedBody, fram7 uint64
	pair, pair5                   uint64
}

func truthOf(goroutines, calls int) concTruth {
	var t concTruth
	work := func(x int) {
		t.work++
		trips := uint64(x % 8)
		t.workCond += trips + 1
		t.workBody += trips
		t.workEven += (trips + 1) / 2
		if x%3 == 0 {
			t.workX3++
			t.workRet2++
		}
	}
	for x := range calls {
		work(x)
		if x%4 == 1 {
			t.framed++
			t.framedCond += uint64(x%5) + 1
			t.framedBody += uint64(x % 5)
			for i := range x % 5 {
				work(i + x)
			}
			if x%7 == 0 {
				t.fram7++
			}
		}
		if x%4 == 2 {
			t.pair++
			work(x)
			if x%5 == 0 {
				t.pair5++
				work(x + 1)
			}
		}
	}
	g := uint64(goroutines)
	return concTruth{t.work * g, t.framed * g, t.workCond * g, t.workBody * g, t.workEven * g,
		t.workX3 * g, t.workRet2 * g, t.framedCond * g, t.framedBody * g, t.fram7 * g, t.pair * g, t.pair5 * g}
}

// measureConc instruments package conc, runs its TestConcurrent (built with extra flags) and
// returns the profile.
func measureConc(t *testing.T, flags ...string) (*profile.Profile, []*frontend.Func) {
	return measureTest(t, "conc", "TestConcurrent", 0, 4, flags...)
}

// measureTest instruments package pkg of the work module, runs its test name (built with extra
// flags) with GOMAXPROCS cpu, which must exit with status code, and returns the profile.
func measureTest(t *testing.T, pkg, name string, code, cpu int, flags ...string) (*profile.Profile, []*frontend.Func) {
	t.Helper()
	p, fns, _ := measureTestDir(t, pkg, name, code, cpu, flags...)
	return p, fns
}

// measureTestDir is measureTest that also returns the directory of the counter files.
func measureTestDir(t *testing.T, pkg, name string, code, cpu int, flags ...string) (*profile.Profile, []*frontend.Func, string) {
	t.Helper()
	if testing.Short() {
		t.Skip("builds programs")
	}
	prog, err := frontend.Load(workDir, "./"+pkg)
	if err != nil {
		t.Fatal(err)
	}
	fns, err := prog.Select("example.com/work/" + pkg)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Instrument(prog, fns, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(t.TempDir(), pkg+".test")
	args := append([]string{"test", "-c", "-o", bin, "-overlay=" + b.Overlay, "-vet=off"}, flags...)
	if out, err := goCmd(filepath.Join(workDir, pkg), append(args, ".")...).CombinedOutput(); err != nil {
		t.Fatalf("go test -c: %v\n%s", err, out)
	}
	dir := t.TempDir()
	r := runBin(t, bin, dir, "-test.run=^"+name+"$", "-test.cpu="+strconv.Itoa(cpu))
	if r.code != code {
		t.Fatalf("%s: exit %d, want %d:\n%s%s", name, r.code, code, r.stdout, r.stderr)
	}
	p, n, err := b.Collect(dir)
	if err != nil || n != 1 {
		t.Fatalf("%d counter files: %v", n, err)
	}
	for _, fn := range fns {
		if fn.FromCgo() {
			continue // not counted (see TestCgoFilesLeftOut)
		}
		if err := conserves(fn.CFG, p.Funcs[fn.Name]); err != nil {
			t.Errorf("%s: %v", fn.Name, err)
		}
	}
	return p, fns, dir
}

// checkConc compares the concurrent run's counts with the truth, node by node, and checks the
// identity (model expectation = measured mean) on both functions.
func checkConc(t *testing.T, p *profile.Profile, fns []*frontend.Func) {
	t.Helper()
	want := truthOf(64, 100_000)
	byName := funcsOf(fns)
	const C = "example.com/work/conc."
	w, fr, pr := byName[C+"Work"], byName[C+"Framed"], byName[C+"Pair"]
	wp, fp, pp := p.Funcs[C+"Work"], p.Funcs[C+"Framed"], p.Funcs[C+"Pair"]
	for _, c := range []struct {
		fn       *frontend.Func
		f        *profile.Func
		node     string
		count    uint64
		outcomes []uint64
	}{
		{w, wp, "s := 0", want.work, nil},
		{w, wp, "for i := 0; i < x%8; i++ (cond)", want.workCond, []uint64{want.workBody, want.work}},
		{w, wp, "if i&1 == 0", want.workBody, []uint64{want.workEven, want.workBody - want.workEven}},
		{w, wp, "s--", want.workBody - want.workEven, nil},
		{w, wp, "if x%3 == 0", want.work, []uint64{want.workX3, want.work - want.workX3}},
		{w, wp, "return s * 2", want.workRet2, nil},
		{w, wp, "return s", want.work - want.workRet2, nil},
		{fr, fp, "for i := 0; i < x%5; i++ (cond)", want.framedCond, []uint64{want.framedBody, want.framed}},
		{fr, fp, "r += Work(i + x)", want.framedBody, nil},
		{fr, fp, "if x%7 == 0", want.framed, []uint64{want.fram7, want.framed - want.fram7}},
		{fr, fp, "return -r", want.fram7, nil},
		{pr, pp, "if x%5 == 0", want.pair, []uint64{want.pair5, want.pair - want.pair5}},
		{pr, pp, "return Work(x) - Work(x+1)", want.pair5, nil},
		{pr, pp, "return Work(x)", want.pair - want.pair5, nil},
	} {
		got := c.f.Nodes[node(t, c.fn, c.node)]
		if got.Count != c.count || got.Panics != 0 || c.outcomes != nil && fmt.Sprint(got.Outcomes) != fmt.Sprint(c.outcomes) {
			t.Errorf("%s %q: count %d outcomes %v panics %d; want %d %v 0", c.fn.Name, c.node, got.Count, got.Outcomes, got.Panics, c.count, c.outcomes)
		}
	}
	if wp.Invocations != want.work || fp.Invocations != want.framed || pp.Invocations != want.pair {
		t.Errorf("invocations: Work %d, Framed %d, Pair %d; want %d, %d, %d", wp.Invocations, fp.Invocations, pp.Invocations, want.work, want.framed, want.pair)
	}
	for _, fn := range fns {
		if fn.Name == C+"Serve" {
			continue // run by TestServeBlocked only
		}
		if fn.Name == C+"At" {
			continue // run by TestPanics only
		}
		checkIdentity(t, fn, p.Funcs[fn.Name], 7)
		// 64 goroutines on 4 threads, 100k calls each: overlaps are seen. Concurrent is a lower
		// bound: Framed's deferred closure, a brief region, does not look (and, a few
		// instructions, would overlap itself only by chance, and not at all while a loaded
		// machine runs the test's threads one at a time), so only Work, Framed and Pair (through
		// its entry), which run long enough, must be seen.
		if !p.Funcs[fn.Name].Concurrent && fn.Lit == nil {
			t.Errorf("%s: not seen running on several goroutines at once", fn.Name)
		}
	}
}

// TestTwinPanics runs testdata/src/work/conc's TestPanics: At, whose entry looks for other
// goroutines in it and whose twin panics in half of its calls, runs on one goroutine at a time,
// each call on another thread. The panics must not leave it owned (the entry's Put gives the
// ownership up), else a later call on another thread would count an overlap that never happened.
func TestTwinPanics(t *testing.T) {
	p, fns := measureTest(t, "conc", "TestPanics", 0, 4)
	at := p.Funcs["example.com/work/conc.At"]
	if at == nil || at.Invocations != 4000 || at.Concurrent {
		t.Fatalf("At: %+v, want 4000 invocations, not concurrent", at)
	}
	if got := at.Nodes[funcsOf(fns)["example.com/work/conc.At"].CFG.Panic].Count; got != 2000 {
		t.Errorf("At: %d invocations panicked, want 2000", got)
	}
	checkIdentity(t, funcsOf(fns)["example.com/work/conc.At"], at, 7)
}

// TestConcurrentExact: one instrumented function called from 64 goroutines × 100k calls (and
// another, with defers, from the same goroutines) counts exactly what ran.
func TestConcurrentExact(t *testing.T) {
	p, fns := measureConc(t)
	checkConc(t, p, fns)
}

// TestConcurrentOverflow is TestConcurrentExact with GOMAXPROCS 16, raised by go test after the
// counter blocks were made (8 on this machine): half the Ps share the locked overflow block.
func TestConcurrentOverflow(t *testing.T) {
	p, fns := measureTest(t, "conc", "TestConcurrent", 0, 16)
	checkConc(t, p, fns)
}

// TestConcurrentRace is TestConcurrentExact under the race detector: the probes cause no race
// report (TestConcurrent would fail) and stay exact.
func TestConcurrentRace(t *testing.T) {
	p, fns := measureConc(t, "-race")
	checkConc(t, p, fns)
}

// TestConcurrentExit ends the process with os.Exit while eight goroutines are inside Work, Framed
// and Pair (whose twin counts paths): the invocations cut short count as unwound where they
// stopped, and every count conserves flow.
func TestConcurrentExit(t *testing.T) {
	t.Setenv("CONC_EXIT", "1")
	p, _ := measureTest(t, "conc", "TestExitRunning", 3, 16)
	for _, name := range []string{"Work", "Pair"} {
		if f := p.Funcs["example.com/work/conc."+name]; f.Invocations < 1000 {
			t.Errorf("%s ran %d times", name, f.Invocations)
		}
	}
}

// TestBlockedLoopCounted ends the process while Serve's loop, which calls, waits in its 101st
// receive: what the loop counted before it blocked is in the counters (a call or a channel
// operation in a body region flushes its locals first). A receive cannot panic, so the
// invocation cut short there counts as unwound at the last node before it that may.
func TestBlockedLoopCounted(t *testing.T) {
	t.Setenv("CONC_SERVE", "1")
	p, fns := measureTest(t, "conc", "TestServeBlocked", 3, 2)
	fn := funcsOf(fns)["example.com/work/conc.Serve"]
	f := p.Funcs[fn.Name]
	if got := f.Nodes[node(t, fn, "x, ok := <-ch")].Count; f.Invocations != 1 || got != 101 {
		t.Errorf("Serve: %d invocations, %d receives; want 1, 101", f.Invocations, got)
	}
	if w := p.Funcs["example.com/work/conc.Work"]; w.Invocations != 100 {
		t.Errorf("Work ran %d times, want 100", w.Invocations)
	}
}

// TestInconsistentCounts damages a counter file (100 more "then" outcomes of Classify's first
// decision than ran, as lost or stray increments would) and requires Collect to refuse the
// counts, naming the function, instead of deriving a negative count.
func TestInconsistentCounts(t *testing.T) {
	w := buildWork(t)
	dir := t.TempDir()
	runBin(t, w.instrd, dir, "all")
	files, err := filepath.Glob(filepath.Join(dir, "*.cnt"))
	if err != nil || len(files) != 1 {
		t.Fatalf("counter files %v: %v", files, err)
	}
	const name = "example.com/work/lib.Classify"
	var plan *funcPlan
	for _, pl := range w.b.Packages[0].plans {
		if pl.fn.Name == name {
			plan = pl
		}
	}
	ctr := plan.flow(node(t, plan.fn, "if x < 0"), 0)
	if !plan.rawFlow[ctr-plan.flow(0, 0)] {
		t.Fatalf("the outcome is not counted")
	}
	data, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	nl := bytes.IndexByte(data, '\n')
	hlen, _, _ := headerLine(data, nl)
	at := data[hlen+8*ctr:]
	binary.NativeEndian.PutUint64(at, binary.NativeEndian.Uint64(at)+100)
	if err := os.WriteFile(files[0], data, 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, err = w.b.Collect(dir)
	var ie *InconsistentError
	if !errors.As(err, &ie) || len(ie.Funcs) != 1 || !strings.Contains(ie.Funcs[0], name) || !strings.Contains(err.Error(), "do not conserve flow") {
		t.Fatalf("Collect: %v", err)
	}
	t.Log(err)
}

// TestJournalReplay writes a committed journal entry into a counter file, as a process ending
// between committing a flush and copying it leaves it, and requires the reader to finish the
// copy.
func TestJournalReplay(t *testing.T) {
	w := buildWork(t)
	dir := t.TempDir()
	runBin(t, w.instrd, dir, "all")
	files, _ := filepath.Glob(filepath.Join(dir, "*.cnt"))
	if len(files) != 1 {
		t.Fatalf("counter files %v", files)
	}
	pk, before, err := readCounterFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	if pk.Journal == 0 {
		t.Fatal("no journal")
	}
	data, _ := os.ReadFile(files[0])
	nl := bytes.IndexByte(data, '\n')
	hlen, _, _ := headerLine(data, nl)
	word := func(i int) []byte { return data[hlen+8*i:] }
	const ctr = 3
	old := binary.NativeEndian.Uint64(word(ctr))
	binary.NativeEndian.PutUint64(word(pk.Counters), 1)
	binary.NativeEndian.PutUint64(word(pk.Counters+1), ctr)
	binary.NativeEndian.PutUint64(word(pk.Counters+2), old+5)
	if err := os.WriteFile(files[0], data, 0o644); err != nil {
		t.Fatal(err)
	}
	_, after, err := readCounterFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	for i := range before {
		want := before[i]
		if i == ctr {
			want += 5
		}
		if after[i] != want {
			t.Errorf("counter %d: %d, want %d", i, after[i], want)
		}
	}
}

func funcsOf(fns []*frontend.Func) map[string]*frontend.Func {
	m := map[string]*frontend.Func{}
	for _, fn := range fns {
		m[fn.Name] = fn
	}
	return m
}

// TestWindowsReopen runs testdata/src/work/window, whose functions run on eight goroutines at
// once only after 40 000 calls from one, which shut their first look windows: a body region
// (Steps), a function that counts its invocation at entry (Drain) and a frame function
// (Deferred) are seen running concurrently only because commits of their invocation counters
// reopen the windows. (Deferred's deferred closure is brief: it does not look.)
func TestWindowsReopen(t *testing.T) {
	p, fns := measureTest(t, "window", "TestLate", 0, 4)
	for _, fn := range fns {
		checkIdentity(t, fn, p.Funcs[fn.Name], 7)
		if !p.Funcs[fn.Name].Concurrent && fn.Lit == nil {
			t.Errorf("%s: not seen running on several goroutines at once", fn.Name)
		}
	}
}
