package build

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/augur-perf/augur/field/plan"
	"github.com/augur-perf/augur/field/wire"
	"github.com/augur-perf/augur/source/frontend"
)

// fixture is testdata/app copied to a temporary module, its release (variant 1 probes every
// unit, variant 2 five) and its builds, made once for all tests.
type fixture struct {
	dir   string
	fns   []*frontend.Func
	m     *plan.Manifest
	plain string // the uninstrumented build
	bins  map[string]Binary
	err   error
}

var (
	fixOnce sync.Once
	fix     fixture
)

func setup(t *testing.T) *fixture {
	t.Helper()
	if testing.Short() {
		t.Skip("builds variants with the go command")
	}
	fixOnce.Do(func() {
		root, err := os.MkdirTemp("", "augur-field-build-test-")
		if err != nil {
			fix.err = err
			return
		}
		fix.err = fix.make(root)
	})
	if fix.err != nil {
		t.Fatal(fix.err)
	}
	return &fix
}

func TestMain(m *testing.M) {
	code := m.Run()
	if fix.dir != "" {
		os.RemoveAll(filepath.Dir(fix.dir))
	}
	os.Exit(code)
}

func (f *fixture) make(root string) error {
	f.dir = filepath.Join(root, "app")
	if err := os.CopyFS(f.dir, os.DirFS("testdata/app")); err != nil {
		return err
	}
	prog, err := frontend.Load(f.dir, "example.com/app")
	if err != nil {
		return err
	}
	if f.fns, err = prog.Select("example.com/app"); err != nil {
		return err
	}
	units := plan.Units(f.fns, nil, func(s string) string { return s })
	f.m, err = plan.Allocate("r1", units, plan.Options{Variants: 1, Bound: len(units), Strategy: plan.RandomBalanced, Seed: 1})
	if err != nil {
		return err
	}
	// Variant 2: classify's switch and returns.
	f.m.Variants = append(f.m.Variants, plan.Variant{ID: 2, Probes: []int{1, 2, 3, 4, 5}})
	f.plain = filepath.Join(root, "plain")
	cmd := exec.Command("go", "build", "-trimpath", "-o", f.plain, ".")
	cmd.Dir = f.dir
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("plain build: %v\n%s", err, out)
	}
	f.bins = map[string]Binary{}
	for name, o := range map[string]Options{
		"default": {},
		"flush":   {Flush: 150 * time.Millisecond, Variants: []int{1}, Token: "tok", Site: "stamped"},
		"small":   {SpoolMax: 700, Variants: []int{2}},
	} {
		o.Dir, o.Main, o.Out = f.dir, ".", filepath.Join(root, name)
		bins, err := Build(f.m, o)
		if err != nil {
			return fmt.Errorf("%s: %v", name, err)
		}
		for _, b := range bins {
			f.bins[fmt.Sprintf("%s/%d", name, b.Variant)] = b
		}
	}
	return nil
}

// want is the closed form of what the probes of unit u count when the app runs with n, g and
// mode: each goroutine classifies 1..n; total runs on {1,2,3} and {4,-1,5}.
func (f *fixture) want(u plan.Unit, n, g uint64, mode string) (count uint64, out []uint64, ok bool) {
	var nd *frontend.Node
	for _, fn := range f.fns {
		if fn.Name == u.Func {
			nd = fn.CFG.Nodes[u.Node]
		}
	}
	c15, c5, c3 := n/15, n/5-n/15, n/3-n/15
	d := n - c15 - c5 - c3
	hit := c15 + c5 + c3
	name := strings.TrimPrefix(u.Func, "example.com/app.")
	modeOut := map[string]uint64{}
	switch mode {
	case "wait":
		modeOut["case 1"] = 1
	case "exit":
		modeOut["case 2"] = 1
	case "handle":
		modeOut["case 3"] = 1
	default:
		modeOut["default"] = 1
	}
	table := map[string]map[string]uint64{ // text → "" (count) and outcome → count
		"classify|switch":                         {"case 1": g * c15, "case 2": g * c5, "case 3": g * c3, "default": g * d},
		"classify|return 3":                       {"": g * c15},
		"classify|return 2":                       {"": g * c5},
		"classify|return 1":                       {"": g * c3},
		"classify|return 0":                       {"": g * d},
		"work|i := 1":                             {"": g},
		"work|for i := 1; i <= n; i++ (cond)":     {"true": g * n, "false": g},
		"work|i++":                                {"": g * n},
		"work|k := classify(i)":                   {"": g * n},
		"work|if k > 0":                           {"true": g * hit, "false": g * d},
		"work|atomic.AddInt64(&out[k], 1)":        {"": g * hit},
		"run|defer wg.Done()":                     {"": g},
		"run|work(n, out)":                        {"": g},
		"total|t := 0":                            {"": 2},
		"total|for _, x := range xs":              {"next": 5, "done": 1},
		"total|if x < 0":                          {"true": 1, "false": 4},
		"total|break":                             {"": 1},
		"total|t += x":                            {"": 4},
		"total|return t":                          {"": 2},
		"main|for w := 0; w < g; w++ (cond)":      {"true": g, "false": 1},
		"main|w++":                                {"": g},
		"main|wg.Add(1)":                          {"": g},
		"main|go run(&wg, n, &out)":               {"": g},
		"main|switch os.Args[3]":                  modeOut,
		"main|time.Sleep(time.Hour)":              {"": modeOut["case 1"]},
		"main|os.Exit(3)":                         {"": modeOut["case 2"]},
		"main|ch := make(chan os.Signal, 1)":      {"": modeOut["case 3"]},
		"main|signal.Notify(ch, syscall.SIGTERM)": {"": modeOut["case 3"]},
		"main|fmt.Println(\"ready\")":             {"": modeOut["case 3"]},
		"main|<-ch":                               {"": modeOut["case 3"]},
		"main|fmt.Println(\"graceful\")":          {"": modeOut["case 3"]},
	}
	key := name + "|" + nd.Text
	m, ok := table[key]
	if !ok && name == "main" {
		m, ok = map[string]uint64{"": 1}, true // the statements main runs once
	}
	if !ok {
		return 0, nil, false
	}
	if nd.IsDecision() {
		for _, e := range nd.Succs {
			out = append(out, m[e.Outcome])
			count += m[e.Outcome]
		}
		return count, out, true
	}
	return m[""], nil, true
}

// collector is the collector's contract: POST /v1/packages with a bearer token; the body one
// package decoded with wire.Decode and validated against the manifest (400 otherwise);
// duplicates of (site, release, seq) acknowledged without counting twice.
type collector struct {
	t      testing.TB
	m      *plan.Manifest
	mu     sync.Mutex
	got    []*wire.Package
	seen   map[string]bool
	posts  int
	status int // answered instead of 200 when not 0
}

func (c *collector) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.posts++
	if r.Method != http.MethodPost || r.URL.Path != "/v1/packages" {
		http.Error(w, "not found", http.StatusNotFound)
		return
	}
	if r.Header.Get("Authorization") != "Bearer tok" {
		http.Error(w, "no token", http.StatusUnauthorized)
		return
	}
	if c.status != 0 {
		http.Error(w, "as the test wants", c.status)
		return
	}
	p, err := wire.Decode(r.Body)
	if err == nil {
		err = p.Validate(c.m)
	}
	if err != nil {
		c.t.Errorf("invalid package: %v", err)
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	key := fmt.Sprintf("%s/%s/%d", p.Site, p.Release, p.Seq)
	if c.seen == nil {
		c.seen = map[string]bool{}
	}
	if !c.seen[key] {
		c.seen[key] = true
		c.got = append(c.got, p)
	}
}

// reset forgets the packages got and answers status from now on (0: 200).
func (c *collector) reset(status int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.got, c.status = nil, status
}

func (c *collector) postCount() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.posts
}

func (c *collector) packages() []*wire.Package {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]*wire.Package(nil), c.got...)
}

// sums adds up the packages' counts per probe.
func sums(ps []*wire.Package) map[int]wire.Count {
	s := map[int]wire.Count{}
	for _, p := range ps {
		for _, c := range p.Counts {
			t := s[c.Probe]
			t.Probe, t.N = c.Probe, t.N+c.N
			if len(c.Out) > 0 && t.Out == nil {
				t.Out = make([]uint64, len(c.Out))
			}
			for k, o := range c.Out {
				t.Out[k] += o
			}
			s[c.Probe] = t
		}
	}
	return s
}

// check compares what the collector got from variant v with the closed form, times runs.
func (f *fixture) check(t *testing.T, ps []*wire.Package, v int, n, g, runs uint64, mode string) {
	t.Helper()
	got := sums(ps)
	var probes []int
	for _, vv := range f.m.Variants {
		if vv.ID == v {
			probes = vv.Probes
		}
	}
	units := map[int]plan.Unit{}
	for _, u := range f.m.Units {
		units[u.ID] = u
	}
	checked := 0
	for _, id := range probes {
		u := units[id]
		count, out, ok := f.want(u, n, g, mode)
		if !ok {
			if _, sent := got[id]; sent {
				t.Errorf("unit %d (%s %s) is counted but cannot be (a deferred call running)", id, u.Func, u.Pos)
			}
			continue
		}
		checked++
		c := got[id]
		if c.N != runs*count {
			t.Errorf("unit %d (%s %s): count %d, want %d", id, u.Func, u.Pos, c.N, runs*count)
		}
		for k := range out {
			if c.N > 0 && (len(c.Out) != len(out) || c.Out[k] != runs*out[k]) {
				t.Errorf("unit %d (%s %s): outcomes %v, want %v × %d", id, u.Func, u.Pos, c.Out, out, runs)
				break
			}
		}
		delete(got, id)
	}
	if checked == 0 {
		t.Fatalf("variant %d: no unit checked", v)
	}
	for id := range got {
		t.Errorf("variant %d sent unit %d, which it does not probe", v, id)
	}
}

type result struct {
	stdout string
	err    string // the exit status
}

func run(t *testing.T, bin string, env []string, args ...string) result {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), env...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	return result{out.String(), fmt.Sprint(err)}
}

func env(url, spool string) []string {
	return []string{"AUGUR_FIELD_URL=" + url, "AUGUR_FIELD_TOKEN=tok", "AUGUR_FIELD_SITE=site-1", "AUGUR_FIELD_SPOOL=" + spool}
}

// The counts the collector gets are the closed form, exactly, with eight goroutines counting
// at once; a variant reports only its own probes; the host's output and exit status are the
// uninstrumented build's.
func TestExactCountsConcurrent(t *testing.T) {
	f := setup(t)
	c := &collector{t: t, m: f.m}
	srv := httptest.NewServer(c)
	defer srv.Close()
	plain := run(t, f.plain, nil, "30000", "8", "x")
	spool := t.TempDir() // one site: the sequence goes on across the variants
	for _, v := range []int{1, 2} {
		c.reset(0)
		r := run(t, f.bins[fmt.Sprintf("default/%d", v)].Path, env(srv.URL, spool), "30000", "8", "x")
		if r != plain {
			t.Fatalf("variant %d: output %q, %v; uninstrumented %q, %v", v, r.stdout, r.err, plain.stdout, plain.err)
		}
		f.check(t, c.packages(), v, 30000, 8, 1, "x")
	}
	if b := f.bins["default/1"]; len(b.Skipped) != 1 || b.Probes != len(f.m.Variants[0].Probes)-1 {
		t.Errorf("variant 1 counts %d units and skips %v; want all but the deferred call", b.Probes, b.Skipped)
	}
}

// With the collector down the package waits in the spool; the host behaves as without augur;
// the next run, with the collector up, delivers both, oldest first, with distinct sequence
// numbers.
func TestCollectorDownThenUp(t *testing.T) {
	f := setup(t)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	url := "http://" + l.Addr().String()
	l.Close() // nothing listens there now
	spool := t.TempDir()
	bin := f.bins["default/1"].Path
	plain := run(t, f.plain, nil, "300", "2", "x")
	if r := run(t, bin, env(url, spool), "300", "2", "x"); r != plain {
		t.Fatalf("collector down: output %q, %v; uninstrumented %q, %v", r.stdout, r.err, plain.stdout, plain.err)
	}
	if q := spooled(t, spool); len(q) != 1 {
		t.Fatalf("spool holds %v, want one package", q)
	}
	c := &collector{t: t, m: f.m}
	srv := httptest.NewServer(c)
	defer srv.Close()
	if r := run(t, bin, env(srv.URL, spool), "300", "2", "x"); r != plain {
		t.Fatalf("collector up: output %q, %v", r.stdout, r.err)
	}
	ps := c.packages()
	if len(ps) != 2 || ps[0].Seq >= ps[1].Seq {
		t.Fatalf("collector got %d packages (want 2, oldest first)", len(ps))
	}
	f.check(t, ps, 1, 300, 2, 2, "x")
	if q := spooled(t, spool); len(q) != 0 {
		t.Fatalf("spool still holds %v", q)
	}
}

func spooled(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), "pkg-") {
			out = append(out, e.Name())
		}
	}
	return out
}

// A spool bounded to 700 bytes holds the newest packages; every package dropped is counted,
// in the dropped field of a later package or, when none was delivered since, in the spool
// directory for the next run. The host never notices.
func TestSpoolFullDropsOldest(t *testing.T) {
	f := setup(t)
	spool := t.TempDir()
	bin := f.bins["small/2"].Path
	plain := run(t, f.plain, nil, "30", "1", "x")
	const down = 8
	for range down {
		if r := run(t, bin, env("http://127.0.0.1:1", spool), "30", "1", "x"); r != plain {
			t.Fatalf("output %q, %v; uninstrumented %q, %v", r.stdout, r.err, plain.stdout, plain.err)
		}
		var total int64
		for _, n := range spooled(t, spool) {
			info, err := os.Stat(filepath.Join(spool, n))
			if err != nil {
				t.Fatal(err)
			}
			total += info.Size()
		}
		if total > 700 {
			t.Fatalf("spool holds %d bytes, bound 700", total)
		}
	}
	kept := len(spooled(t, spool))
	if kept == 0 || kept >= down {
		t.Fatalf("spool kept %d of %d packages", kept, down)
	}
	c := &collector{t: t, m: f.m}
	srv := httptest.NewServer(c)
	defer srv.Close()
	run(t, bin, env(srv.URL, spool), "30", "1", "x")
	ps := c.packages()
	var reported uint64
	seqs := map[uint64]bool{}
	for _, p := range ps {
		reported += p.Dropped
		seqs[p.Seq] = true
	}
	if data, err := os.ReadFile(filepath.Join(spool, "dropped.r1.site-1")); err == nil {
		var pending uint64
		fmt.Sscan(string(data), &pending)
		reported += pending
	}
	made := uint64(down + 1)
	for _, p := range ps {
		t.Logf("delivered seq %d dropped %d", p.Seq, p.Dropped)
	}
	if reported != made-uint64(len(ps)) {
		t.Fatalf("%d packages made, %d delivered, %d drops reported", made, len(ps), reported)
	}
	for s := made - uint64(len(ps)) + 1; s <= made; s++ {
		if !seqs[s] {
			t.Fatalf("delivered seqs %v: want the newest %d", seqs, len(ps))
		}
	}
}

// Packages are sent every flush period while the host runs; SIGTERM sends the last one and
// ends the process by the signal, as without augur; the counts add up exactly.
func TestPeriodicFlushAndSIGTERM(t *testing.T) {
	f := setup(t)
	c := &collector{t: t, m: f.m}
	srv := httptest.NewServer(c)
	defer srv.Close()
	start := func(bin string, env []string) (*exec.Cmd, *bytes.Buffer) {
		cmd := exec.Command(bin, "3000", "4", "wait")
		cmd.Env = append(os.Environ(), env...)
		var out bytes.Buffer
		cmd.Stdout = &out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		return cmd, &out
	}
	// The uninstrumented build: killed by SIGTERM.
	cmd, _ := start(f.plain, nil)
	time.Sleep(300 * time.Millisecond)
	cmd.Process.Signal(syscall.SIGTERM)
	plainErr := cmd.Wait()
	// The token and site are the stamped defaults.
	cmd, out := start(f.bins["flush/1"].Path, []string{"AUGUR_FIELD_URL=" + srv.URL, "AUGUR_FIELD_SPOOL=" + t.TempDir(), "AUGUR_FIELD_TOKEN=", "AUGUR_FIELD_SITE="})
	deadline := time.Now().Add(20 * time.Second)
	for len(c.packages()) < 1 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if len(c.packages()) < 1 {
		t.Fatal("no periodic package within 20 s at a flush period of 150 ms")
	}
	time.Sleep(400 * time.Millisecond) // more periods: nothing new counted, nothing sent
	asleep(t, cmd.Process.Pid)
	cmd.Process.Signal(syscall.SIGTERM)
	err := cmd.Wait()
	var ee, pe *exec.ExitError
	if !errors.As(err, &ee) || !errors.As(plainErr, &pe) || ee.Sys().(syscall.WaitStatus) != pe.Sys().(syscall.WaitStatus) {
		t.Fatalf("instrumented ends with %v, uninstrumented with %v", err, plainErr)
	}
	if !ee.Sys().(syscall.WaitStatus).Signaled() {
		t.Fatalf("not ended by the signal: %v", err)
	}
	if out.String() == "" {
		t.Fatal("no output")
	}
	f.check(t, c.packages(), 1, 3000, 4, 1, "wait")
	ps := c.packages()
	if ps[0].Site != "stamped" {
		t.Fatalf("packages from site %q, want the stamped site", ps[0].Site)
	}
	sort.Slice(ps, func(i, j int) bool { return ps[i].Seq < ps[j].Seq })
	for i := 1; i < len(ps); i++ {
		if ps[i].Uptime < ps[i-1].Uptime {
			t.Fatalf("uptimes go back: %v then %v", ps[i-1].Uptime, ps[i].Uptime)
		}
	}
	// With a flush period of a minute, the package SIGTERM sends holds everything.
	c.reset(0)
	cmd = exec.Command(f.bins["default/1"].Path, "3000", "4", "wait")
	cmd.Env = append(os.Environ(), env(srv.URL, t.TempDir())...)
	pipe, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	bufio.NewScanner(pipe).Scan() // main has printed
	asleep(t, cmd.Process.Pid)    // and counted its switch and its sleep
	cmd.Process.Signal(syscall.SIGTERM)
	err = cmd.Wait()
	if !errors.As(err, &ee) || ee.Sys().(syscall.WaitStatus) != pe.Sys().(syscall.WaitStatus) {
		t.Fatalf("instrumented ends with %v, uninstrumented with %v", err, plainErr)
	}
	if ps := c.packages(); len(ps) != 1 {
		t.Fatalf("%d packages, want the one SIGTERM sends", len(ps))
	}
	f.check(t, c.packages(), 1, 3000, 4, 1, "wait")
}

// asleep waits until every thread of process pid sleeps (state S in /proc/PID/task/*/stat) in
// two looks 5 ms apart, for at most 20 s. The app in mode "wait" is then in time.Sleep(time.Hour)
// with everything before it counted: its goroutines never block, and main blocks nowhere else
// but in wg.Wait, while they run. Its output line is printed before main's switch and sleep are
// counted, so seeing it is not enough: a SIGTERM right after it, at load 20, sent a package
// without them (1 run in 25). Without /proc (not Linux) it returns at once.
func asleep(t *testing.T, pid int) {
	t.Helper()
	dir := fmt.Sprintf("/proc/%d/task", pid)
	if _, err := os.Stat(dir); err != nil {
		t.Logf("%s: %v; not waiting for the process to sleep", dir, err)
		return
	}
	deadline := time.Now().Add(20 * time.Second)
	for looks := 0; looks < 2; {
		if time.Now().After(deadline) {
			t.Fatalf("process %d: its threads did not all sleep within 20 s", pid)
		}
		time.Sleep(5 * time.Millisecond)
		tasks, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		all := len(tasks) > 0
		for _, task := range tasks {
			stat, err := os.ReadFile(filepath.Join(dir, task.Name(), "stat"))
			i := bytes.LastIndexByte(stat, ')') // the state follows the command's name in parentheses
			if err != nil || i < 0 || i+2 >= len(stat) || stat[i+2] != 'S' {
				all = false
				break
			}
		}
		if all {
			looks++
		} else {
			looks = 0
		}
	}
}

// os.Exit in main sends the last package before the process exits with its status.
func TestOsExitFlushes(t *testing.T) {
	f := setup(t)
	c := &collector{t: t, m: f.m}
	srv := httptest.NewServer(c)
	defer srv.Close()
	plain := run(t, f.plain, nil, "300", "2", "exit")
	if r := run(t, f.bins["default/1"].Path, env(srv.URL, t.TempDir()), "300", "2", "exit"); r != plain || plain.err != "exit status 3" {
		t.Fatalf("output %q, %v; uninstrumented %q, %v", r.stdout, r.err, plain.stdout, plain.err)
	}
	f.check(t, c.packages(), 1, 300, 2, 1, "exit")
}

// A host that handles SIGTERM itself goes on as without augur (it gets the signal and shuts
// down gracefully, exit status 0), and what it counts after the signal reaches the collector
// too when main returns.
func TestHostHandlesSIGTERM(t *testing.T) {
	f := setup(t)
	c := &collector{t: t, m: f.m}
	srv := httptest.NewServer(c)
	defer srv.Close()
	term := func(bin string, env []string) (string, error) {
		cmd := exec.Command(bin, "300", "2", "handle")
		cmd.Env = append(os.Environ(), env...)
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		var lines []string
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			lines = append(lines, sc.Text())
			if sc.Text() == "ready" {
				cmd.Process.Signal(syscall.SIGTERM)
			}
		}
		return strings.Join(lines, "\n"), cmd.Wait()
	}
	plainOut, plainErr := term(f.plain, nil)
	out, err := term(f.bins["flush/1"].Path, env(srv.URL, t.TempDir()))
	if out != plainOut || fmt.Sprint(err) != fmt.Sprint(plainErr) || !strings.HasSuffix(out, "graceful") {
		t.Fatalf("output %q, %v; uninstrumented %q, %v", out, err, plainOut, plainErr)
	}
	f.check(t, c.packages(), 1, 300, 2, 1, "handle")
}

// A collector that answers 400 gets the package once: it is dropped, not retried, and the drop
// is counted for the next run's first package.
func TestInvalidDroppedNotRetried(t *testing.T) {
	f := setup(t)
	c := &collector{t: t, m: f.m, status: http.StatusBadRequest}
	srv := httptest.NewServer(c)
	defer srv.Close()
	spool := t.TempDir()
	run(t, f.bins["default/2"].Path, env(srv.URL, spool), "30", "1", "x")
	if n := c.postCount(); n != 1 || len(spooled(t, spool)) != 0 {
		t.Fatalf("%d posts, spool %v; want 1 post and an empty spool", n, spooled(t, spool))
	}
	c.reset(0)
	run(t, f.bins["default/2"].Path, env(srv.URL, spool), "30", "1", "x")
	if ps := c.packages(); len(ps) != 1 || ps[0].Dropped != 1 {
		t.Fatalf("next run's packages %v: want one reporting 1 dropped", ps)
	}
}

// Without AUGUR_FIELD_URL (and none stamped) the variant only counts: no request, no spool.
func TestDisabledWhenUnset(t *testing.T) {
	f := setup(t)
	c := &collector{t: t, m: f.m}
	srv := httptest.NewServer(c)
	defer srv.Close()
	spool := filepath.Join(t.TempDir(), "spool")
	plain := run(t, f.plain, nil, "300", "2", "x")
	r := run(t, f.bins["default/1"].Path, []string{"AUGUR_FIELD_URL=", "AUGUR_FIELD_SPOOL=" + spool}, "300", "2", "x")
	if r != plain {
		t.Fatalf("output %q, %v; uninstrumented %q, %v", r.stdout, r.err, plain.stdout, plain.err)
	}
	if _, err := os.Stat(spool); !os.IsNotExist(err) || c.postCount() != 0 {
		t.Fatalf("spool %v, %d posts: want neither", err, c.postCount())
	}
}

// The same inputs build the same binary, byte for byte, and the user's tree is untouched.
func TestReproducible(t *testing.T) {
	f := setup(t)
	before := treeHash(t, f.dir)
	bins, err := Build(f.m, Options{Dir: f.dir, Main: ".", Out: t.TempDir(), Variants: []int{2}})
	if err != nil {
		t.Fatal(err)
	}
	if bins[0].SHA256 != f.bins["default/2"].SHA256 {
		t.Fatalf("variant 2 built twice: %s and %s", bins[0].SHA256, f.bins["default/2"].SHA256)
	}
	data, err := os.ReadFile(bins[0].Path)
	if err != nil {
		t.Fatal(err)
	}
	for _, leak := range []string{"augur-field-build-", f.dir} {
		if bytes.Contains(data, []byte(leak)) {
			t.Errorf("the binary contains the path %s", leak)
		}
	}
	if after := treeHash(t, f.dir); after != before {
		t.Fatal("the build changed the user's tree")
	}
}

func treeHash(t *testing.T, dir string) string {
	t.Helper()
	h := sha256.New()
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		fmt.Fprintf(h, "%s %d\n", p, len(data))
		h.Write(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("%x", h.Sum(nil))
}

// A manifest of other source is refused with the unit and its position.
func TestStaleManifest(t *testing.T) {
	f := setup(t)
	m := *f.m
	m.Units = append([]plan.Unit(nil), f.m.Units...)
	m.Units[0].Pos = "main.go:1:1"
	_, err := Build(&m, Options{Dir: f.dir, Main: ".", Out: t.TempDir(), Variants: []int{1}})
	if err == nil || !strings.Contains(err.Error(), "source changed since the plan") {
		t.Fatalf("got %v", err)
	}
}

// TestSampledUnbiased: a variant built with --rate 0.1 counts each probe execution with
// probability 0.1 (CBI's geometric countdowns), and the packages say so: over five runs of the
// app, every unit's count / rate lies within 4.5 standard errors (√(N(1−r)/r)) of the exact
// number of executions, and the counts are not exact (sampling happened).
func TestSampledUnbiased(t *testing.T) {
	f := setup(t)
	const rate, runs = 0.1, 5
	bins, err := Build(f.m, Options{Dir: f.dir, Main: ".", Out: t.TempDir(), Variants: []int{1}, Rate: rate})
	if err != nil {
		t.Fatal(err)
	}
	c := &collector{t: t, m: f.m}
	srv := httptest.NewServer(c)
	defer srv.Close()
	plain := run(t, f.plain, nil, "30000", "4", "x")
	spool := t.TempDir() // one site: its sequence goes on across the runs
	for range runs {
		if r := run(t, bins[0].Path, env(srv.URL, spool), "30000", "4", "x"); r != plain {
			t.Fatalf("sampled variant: output %q, %v; uninstrumented %q, %v", r.stdout, r.err, plain.stdout, plain.err)
		}
	}
	for _, p := range c.packages() {
		if p.Rate != rate {
			t.Fatalf("a package of rate %v, want %v", p.Rate, rate)
		}
	}
	got := sums(c.packages())
	checked, inexact := 0, 0
	for _, u := range f.m.Units {
		want, _, ok := f.want(u, 30000, 4, "x")
		if !ok || want < 1000 {
			continue
		}
		n := float64(runs * want)
		est := float64(got[u.ID].N) / rate
		se := math.Sqrt(n * (1 - rate) / rate)
		if math.Abs(est-n) > 4.5*se {
			t.Errorf("unit %d (%s): %v executions estimated, %v true (se %.0f)", u.ID, u.Pos, est, n, se)
		}
		if est != n {
			inexact++
		}
		checked++
	}
	if checked < 3 || inexact == 0 {
		t.Errorf("%d units checked, %d inexact: want several, sampled", checked, inexact)
	}
}
