package instrument

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/augur-perf/augur/probe/profile"
	"github.com/augur-perf/augur/source/frontend"
)

var workDir = filepath.Join("testdata", "src", "work")

type workBuild struct {
	prog          *frontend.Program
	fns           []*frontend.Func
	b             *Build
	plain, instrd string // binaries
}

var (
	workOnce sync.Once
	work     *workBuild
	workErr  error
)

// buildWork instruments example.com/work/lib and builds the workload with and without it.
func buildWork(t *testing.T) *workBuild {
	t.Helper()
	if testing.Short() {
		t.Skip("builds programs")
	}
	workOnce.Do(func() {
		w := &workBuild{}
		dir, err := os.MkdirTemp("", "augur-instrument-test")
		if err != nil {
			workErr = err
			return
		}
		w.prog, workErr = frontend.Load(workDir, "./lib")
		if workErr != nil {
			return
		}
		w.fns, workErr = w.prog.Select("example.com/work/lib")
		if workErr != nil {
			return
		}
		w.b, workErr = Instrument(w.prog, w.fns, filepath.Join(dir, "overlay"))
		if workErr != nil {
			return
		}
		w.plain, w.instrd = filepath.Join(dir, "plain"), filepath.Join(dir, "instr")
		if out, err := goCmd(workDir, "build", "-o", w.plain, ".").CombinedOutput(); err != nil {
			workErr = fmt.Errorf("go build: %v\n%s", err, out)
			return
		}
		if out, err := goCmd(workDir, "build", "-overlay="+w.b.Overlay, "-o", w.instrd, ".").CombinedOutput(); err != nil {
			workErr = fmt.Errorf("go build -overlay: %v\n%s", err, out)
			for orig, f := range w.b.Files {
				src, _ := os.ReadFile(f)
				workErr = fmt.Errorf("%v\n--- %s\n%s", workErr, orig, numbered(src))
			}
			return
		}
		work = w
	})
	if workErr != nil {
		t.Fatal(workErr)
	}
	return work
}

// TestMain removes buildWork's directory once the tests are done.
func TestMain(m *testing.M) {
	code := m.Run()
	if work != nil {
		os.RemoveAll(filepath.Dir(work.plain))
	}
	os.Exit(code)
}

func numbered(src []byte) string {
	var b strings.Builder
	for i, l := range strings.Split(string(src), "\n") {
		fmt.Fprintf(&b, "%4d %s\n", i+1, l)
	}
	return b.String()
}

func goCmd(dir string, args ...string) *exec.Cmd {
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod")
	return cmd
}

type runResult struct {
	stdout, stderr string
	code           int
}

func runBin(t *testing.T, bin, profDir string, args ...string) runResult {
	t.Helper()
	cmd := exec.Command(bin, args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	cmd.Env = os.Environ()
	if profDir != "" {
		cmd.Env = append(cmd.Env, EnvDir+"="+profDir)
	}
	err := cmd.Run()
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return runResult{out.String(), errb.String(), code}
}

// traceLines keeps what a panic report says about the program: messages and file:line, not
// addresses, offsets or goroutine ids.
// (Inlining differs: an instrumented function with a defer is not inlined, so its frame shows
// arguments where the original shows "(...)".)
var noise = regexp.MustCompile(` ?\+0x[0-9a-f]+|goroutine \d+|\([^()\n]*\)\n`)

func trace(s string) string { return noise.ReplaceAllString(s, "") }

// profileOf runs the instrumented workload with args and collects its profile.
func profileOf(t *testing.T, w *workBuild, args ...string) (*profile.Profile, runResult) {
	t.Helper()
	dir := t.TempDir()
	r := runBin(t, w.instrd, dir, args...)
	p, n, err := w.b.Collect(dir)
	if err != nil {
		t.Fatal(err)
	}
	if n != 1 {
		t.Fatalf("%d counter files, want 1", n)
	}
	return p, r
}

// conserves checks the counts as synthesis will use them: each node's Count is its inflow
// (plus Invocations at the entry, plus the Panics that frontend.PanicTargets sends there), each
// decision's Count is its outcomes plus panics, and a plain node's outflow is Count − Panics.
func conserves(g *frontend.CFG, f *profile.Func) error {
	pt := frontend.PanicTargets(g)
	if len(f.Nodes) != len(g.Nodes) {
		return fmt.Errorf("%d nodes, CFG has %d", len(f.Nodes), len(g.Nodes))
	}
	in := make([]uint64, len(g.Nodes))
	in[g.Entry] += f.Invocations
	for id, nd := range g.Nodes {
		c := f.Nodes[id]
		if nd.IsExit() {
			continue
		}
		if c.Panics > c.Count {
			return fmt.Errorf("node %d (%s): %d panics, count %d", id, nd.Text, c.Panics, c.Count)
		}
		if nd.IsDecision() {
			if len(c.Outcomes) != len(nd.Succs) {
				return fmt.Errorf("decision %d: %d outcomes", id, len(c.Outcomes))
			}
			sum := c.Panics
			for k, e := range nd.Succs {
				in[e.To] += c.Outcomes[k]
				sum += c.Outcomes[k]
			}
			if sum != c.Count {
				return fmt.Errorf("decision %d (%s): count %d, outcomes+panics %d", id, nd.Text, c.Count, sum)
			}
		} else {
			in[nd.Succs[0].To] += c.Count - c.Panics
		}
		if c.Recovered > c.Panics {
			return fmt.Errorf("node %d (%s): %d of %d panics recovered", id, nd.Text, c.Recovered, c.Panics)
		}
		in[pt[id]] += c.Panics - c.Recovered
		in[g.End] += c.Recovered
	}
	for id, nd := range g.Nodes {
		if in[id] != f.Nodes[id].Count {
			return fmt.Errorf("node %d (%s): count %d, inflow %d", id, nd.Text, f.Nodes[id].Count, in[id])
		}
		if f.Nodes[id].Count > 1<<62 {
			return fmt.Errorf("node %d (%s): count %d (negative?)", id, nd.Text, f.Nodes[id].Count)
		}
	}
	return nil
}

func funcsByName(w *workBuild) map[string]*frontend.Func {
	m := map[string]*frontend.Func{}
	for _, fn := range w.fns {
		m[fn.Name] = fn
	}
	return m
}

func checkAll(t *testing.T, w *workBuild, p *profile.Profile) {
	t.Helper()
	fns := funcsByName(w)
	names := make([]string, 0, len(p.Funcs))
	for n := range p.Funcs {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if err := conserves(fns[n].CFG, p.Funcs[n]); err != nil {
			var b bytes.Buffer
			fns[n].CFG.Dump(&b)
			t.Errorf("%s: %v\n%s%+v", n, err, b.String(), p.Funcs[n].Nodes)
		}
	}
	if len(p.Funcs) != len(w.fns) {
		t.Errorf("%d functions in the profile, %d selected", len(p.Funcs), len(w.fns))
	}
}

func sameRun(t *testing.T, w *workBuild, args ...string) (*profile.Profile, runResult) {
	t.Helper()
	want := runBin(t, w.plain, "", args...)
	p, got := profileOf(t, w, args...)
	if got.stdout != want.stdout || got.code != want.code || trace(got.stderr) != trace(want.stderr) {
		t.Errorf("%v: instrumented run differs:\n%q\n%q\n--- got (exit %d)\n%s\n%s\n--- want (exit %d)\n%s\n%s", args, trace(got.stderr), trace(want.stderr),
			got.code, got.stdout, got.stderr, want.code, want.stdout, want.stderr)
	}
	return p, got
}

func TestConservationAll(t *testing.T) {
	w := buildWork(t)
	p, _ := sameRun(t, w, "all")
	checkAll(t, w, p)
	// One goroutine runs every instrumented function.
	for name, f := range p.Funcs {
		if f.Concurrent {
			t.Errorf("%s: seen running on several goroutines at once", name)
		}
	}
}

func TestExitAndCrash(t *testing.T) {
	w := buildWork(t)
	for _, mode := range []string{"exit", "crash", "spin"} {
		t.Run(mode, func(t *testing.T) {
			p, r := sameRun(t, w, mode)
			if r.code == 0 {
				t.Errorf("exit status 0")
			}
			checkAll(t, w, p)
			switch mode {
			case "exit":
				f := p.Funcs["example.com/work/lib.ExitNow"]
				if f.Invocations != 1 || f.Nodes[0].Count != 1 || f.Nodes[1].Count != 1 {
					t.Errorf("ExitNow: %+v", f)
				}
				if s := p.Funcs["example.com/work/lib.Sum"]; s.Invocations != 1 {
					t.Errorf("Sum: %+v", s)
				}
			case "crash":
				f := p.Funcs["example.com/work/lib.Div"]
				if f.Invocations != 2 || f.Nodes[0].Count != 2 || f.Nodes[0].Panics != 1 || f.Nodes[1].Count != 1 {
					t.Errorf("Div: %+v", f)
				}
				if !strings.Contains(r.stderr, "lib/branch.go:28") {
					t.Errorf("the panic's trace does not point at branch.go:28:\n%s", r.stderr)
				}
			case "spin":
				f := p.Funcs["example.com/work/lib.Spin"]
				// i := 0; for { xs[i]++; i++ }: xs[i]++ runs 6 times, the 6th panics.
				want := []uint64{1, 6, 6, 5}
				for i, c := range want {
					if f.Nodes[i].Count != c {
						t.Errorf("Spin node %d: count %d, want %d (%+v)", i, f.Nodes[i].Count, c, f.Nodes)
					}
				}
				if f.Nodes[2].Panics != 1 {
					t.Errorf("Spin: panics %+v", f.Nodes)
				}
			}
		})
	}
}

// node finds the node of fn whose text starts with prefix.
func node(t *testing.T, fn *frontend.Func, prefix string) int {
	t.Helper()
	for _, nd := range fn.CFG.Nodes {
		if nd.Text == prefix {
			return nd.ID
		}
	}
	for _, nd := range fn.CFG.Nodes {
		if strings.HasPrefix(nd.Text, prefix) {
			return nd.ID
		}
	}
	t.Fatalf("%s: no node %q", fn.Name, prefix)
	return -1
}

func TestExpectedCounts(t *testing.T) {
	w := buildWork(t)
	p, _ := sameRun(t, w, "all")
	fns := funcsByName(w)
	type want struct {
		fn, node string
		count    uint64
		outcomes []uint64
		panics   uint64
	}
	const L = "example.com/work/lib."
	for _, c := range []want{
		{"Classify", "if x < 0", 7, []uint64{1, 6}, 0},
		{"Classify", "y := x % 10", 6, nil, 0},
		{"Classify", "if y == 0", 6, []uint64{3, 3}, 0},
		{"Classify", "if x < 5", 3, []uint64{1, 2}, 0},
		{"Classify", "if x > 100", 2, []uint64{0, 2}, 0},
		{"Sum", "for i := 0; i < n; i++ (cond)", 11, []uint64{10, 1}, 0},
		{"Sum", "s += i", 10, nil, 0},
		{"Fib", "if n < 2", 177, []uint64{89, 88}, 0},
		// Switch(x) for x = 0..12: default for 0 and 5..12, case 1 once (falls through), case 2
		// once, case 3,4 twice.
		{"Switch", "switch x", 13, []uint64{9, 1, 1, 2}, 0},
		{"Switch", "r += 2", 2, nil, 0},
		{"Switch", "switch", 13, []uint64{2, 5, 6}, 0},
		{"Kind", "switch t := v.(type)", 4, []uint64{1, 1, 1, 1}, 0},
		{"Div", "q := a / b", 1, nil, 1},
		{"Lookup", "return xs[i] * 2", 2, nil, 1},
		{"Upper", "return strings.ToUpper(*p)", 2, nil, 1},
		{"Goto", "if i < n", 5, []uint64{4, 1}, 0},
		{"GotoForever", "i++", 3, nil, 0},
		// Walk(4, false) then Walk(4, true), whose 4th post statement dereferences nil.
		{"Walk", "p = p.next", 8, nil, 1},
		{"Walk", "for p := head; p != nil; p = p.next (cond)", 9, []uint64{8, 1}, 0},
		{"Spin", "xs[i]++", 4, nil, 1},
		{"Forever", "for", 5, nil, 0},
		{"While", "for n > 1", 112, []uint64{111, 1}, 0},
	} {
		fn := fns[L+c.fn]
		id := node(t, fn, c.node)
		got := p.Funcs[L+c.fn].Nodes[id]
		if got.Count != c.count || got.Panics != c.panics || c.outcomes != nil && fmt.Sprint(got.Outcomes) != fmt.Sprint(c.outcomes) {
			t.Errorf("%s node %d %q: got count %d outcomes %v panics %d; want %d %v %d",
				c.fn, id, c.node, got.Count, got.Outcomes, got.Panics, c.count, c.outcomes, c.panics)
		}
	}
	if f := p.Funcs[L+"Fib"]; f.Invocations != 177 {
		t.Errorf("Fib invocations %d, want 177", f.Invocations)
	}
	if f := p.Funcs[L+"Depth"]; f.Invocations != 4 || fmt.Sprint(f.Nodes[node(t, fns[L+"Depth"], "if n == 0")].Outcomes) != "[1 3]" {
		t.Errorf("Depth: %+v", f)
	}
}

// TestUserFilesUntouched hashes the test module before and after instrumenting and running.
func TestUserFilesUntouched(t *testing.T) {
	before := hashTree(t, workDir)
	w := buildWork(t)
	sameRun(t, w, "all")
	if _, err := Instrument(w.prog, w.fns, t.TempDir()); err != nil {
		t.Fatal(err)
	}
	if after := hashTree(t, workDir); after != before {
		t.Errorf("the user's files changed")
	}
}

func hashTree(t *testing.T, root string) string {
	h := sha256.New()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		fmt.Fprintf(h, "%s %x\n", path, sha256.Sum256(b))
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("%x", h.Sum(nil))
}

// TestCorpusCompiles instruments every function of the frontend's corpus and compiles it.
func TestCorpusCompiles(t *testing.T) {
	if testing.Short() {
		t.Skip("builds programs")
	}
	dir := filepath.Join("..", "..", "source", "frontend", "testdata", "src", "corpus")
	prog, err := frontend.Load(dir, ".")
	if err != nil {
		t.Fatal(err)
	}
	fns, err := prog.Select("corpus")
	if err != nil {
		t.Fatal(err)
	}
	b, err := Instrument(prog, fns, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if out, err := goCmd(dir, "build", "-overlay="+b.Overlay, "./...").CombinedOutput(); err != nil {
		msg := fmt.Sprintf("go build -overlay: %v\n%s", err, out)
		for orig, f := range b.Files {
			src, _ := os.ReadFile(f)
			msg += fmt.Sprintf("\n--- %s\n%s", orig, numbered(src))
		}
		t.Fatal(msg)
	}
}

// TestSchemesAgree runs the kernels (normally and into panics) instrumented as usual (twins
// counting paths, frame-free functions, register loops), without twins, and with every function
// forced to keep the frame, and requires the same profile from the three, conserving flow.
func TestSchemesAgree(t *testing.T) {
	if testing.Short() {
		t.Skip("builds programs")
	}
	dir := filepath.Join(workDir, "kern")
	prog, err := frontend.Load(workDir, "./kern")
	if err != nil {
		t.Fatal(err)
	}
	fns, err := prog.Select("example.com/work/kern")
	if err != nil {
		t.Fatal(err)
	}
	measure := func(force, none bool) *profile.Profile {
		forceFrame, noTwins = force, none
		b, err := Instrument(prog, fns, t.TempDir())
		forceFrame, noTwins = false, false
		if err != nil {
			t.Fatal(err)
		}
		bin := filepath.Join(t.TempDir(), "kern.test")
		if out, err := goCmd(dir, "test", "-c", "-o", bin, "-overlay="+b.Overlay, "-vet=off", ".").CombinedOutput(); err != nil {
			t.Fatalf("go test -c: %v\n%s", err, out)
		}
		pdir := t.TempDir()
		if r := runBin(t, bin, pdir, "-test.run=^TestKernels$"); r.code != 0 {
			t.Fatalf("kernels failed: %s%s", r.stdout, r.stderr)
		}
		p, n, err := b.Collect(pdir)
		if err != nil || n != 1 {
			t.Fatalf("%d counter files: %v", n, err)
		}
		for _, fn := range fns {
			if err := conserves(fn.CFG, p.Funcs[fn.Name]); err != nil {
				t.Errorf("force %v: %s: %v", force, fn.Name, err)
			}
		}
		return p
	}
	got, none, want := measure(false, false), measure(false, true), measure(true, false)
	for _, fn := range fns {
		w := want.Funcs[fn.Name]
		for _, g := range []*profile.Func{got.Funcs[fn.Name], none.Funcs[fn.Name]} {
			if fmt.Sprint(g.Invocations, g.Nodes) != fmt.Sprint(w.Invocations, w.Nodes) {
				t.Errorf("%s:\n got %d %+v\nwant %d %+v", fn.Name, g.Invocations, g.Nodes, w.Invocations, w.Nodes)
			}
		}
	}
	m := got.Funcs["example.com/work/kern.MatMul"]
	if panics := panicsOf(m); m.Invocations != 4 || panics != 3 {
		t.Errorf("MatMul: %d invocations, %d panics; want 4, 3", m.Invocations, panics)
	}
}

// panicsOf is how often f's nodes panicked, in all.
func panicsOf(f *profile.Func) uint64 {
	n := uint64(0)
	for _, nd := range f.Nodes {
		n += nd.Panics
	}
	return n
}
