package rt

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/augur-perf/augur/field/plan"
	"github.com/augur-perf/augur/field/wire"
)

// The test's counters: probe 3 a statement (slot 0), probe 9 a decision of two outcomes
// (slots 1, 2).
var testS = Blocks[[3]uint64](3)

var testStamp = &Stamp{Release: "r1", Variant: 2, Probes: []Probe{{ID: 3, Slot: 0}, {ID: 9, Slot: 1, Outcomes: 2}}}

var testManifest = &plan.Manifest{
	Format: plan.Format, Release: "r1",
	Units:    []plan.Unit{{ID: 3}, {ID: 9, Outcomes: 2}, {ID: 11}},
	Variants: []plan.Variant{{ID: 1, Probes: []int{11}}, {ID: 2, Probes: []int{3, 9}}},
}

// collector implements the collector's contract: POST /v1/packages with a bearer token, one
// package decoded strictly and validated against the manifest, and, when batches is set, POST
// /v1/batches (augur-field-batch/1, each line so decoded); status answers what the test wants
// for a request as a whole (200 when it returns 0), reject the packages of a batch it refuses.
type collector struct {
	t       *testing.T
	mu      sync.Mutex
	got     []*wire.Package
	posts   int
	sizes   []int                     // packages per post
	status  func(n int) (int, string) // status and Retry-After of the n-th post
	batches bool
	reject  func(p *wire.Package) bool
	// answer, if set, replaces a batch's answer.
	answer string
}

func (c *collector) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.posts++
	batch := c.batches && r.URL.Path == "/v1/batches"
	if r.Method != http.MethodPost || r.URL.Path != "/v1/packages" && !batch {
		http.Error(w, "not found", http.StatusNotFound)
		return
	}
	if r.Header.Get("Authorization") != "Bearer tok" {
		http.Error(w, "no token", http.StatusUnauthorized)
		return
	}
	if c.status != nil {
		if code, after := c.status(c.posts); code != 0 {
			if after != "" {
				w.Header().Set("Retry-After", after)
			}
			http.Error(w, "as the test wants", code)
			return
		}
	}
	if batch {
		pkgs, errs, err := wire.DecodeBatch(r.Body)
		if err != nil {
			c.t.Errorf("invalid batch: %v", err)
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		c.sizes = append(c.sizes, len(pkgs))
		a := wire.BatchAnswer{Format: wire.BatchFormat}
		for i, p := range pkgs {
			if errs[i] == nil {
				errs[i] = p.Validate(testManifest)
			}
			if errs[i] != nil {
				c.t.Errorf("invalid package %d of a batch: %v", i+1, errs[i])
			}
			if c.reject != nil && c.reject(p) {
				a.Results = append(a.Results, wire.Result{Status: "rejected", Code: 400, Error: "as the test wants"})
				continue
			}
			c.got = append(c.got, p)
			a.Results = append(a.Results, wire.Result{Status: "accepted"})
		}
		if c.answer != "" {
			io.WriteString(w, c.answer)
			return
		}
		json.NewEncoder(w).Encode(a)
		return
	}
	p, err := wire.Decode(r.Body)
	if err == nil {
		err = p.Validate(testManifest)
	}
	if err != nil {
		c.t.Errorf("invalid package: %v", err)
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	c.sizes = append(c.sizes, 1)
	c.got = append(c.got, p)
}

func agentFor(t *testing.T, url, spool string) *agent {
	env := map[string]string{"AUGUR_FIELD_URL": url, "AUGUR_FIELD_TOKEN": "tok", "AUGUR_FIELD_SITE": "eu 1", "AUGUR_FIELD_SPOOL": spool}
	a := newAgent(testStamp, 3, func(k string) string { return env[k] })
	if a == nil {
		t.Fatal("no agent with a URL")
	}
	return a
}

func hit(k int, n uint64) {
	for range n {
		p := Pin()
		testS[p%len(testS)][k]++
		Unpin()
	}
}

// Packages carry deltas: the second package has only what was counted after the first.
func TestDeltasDelivered(t *testing.T) {
	c := &collector{t: t}
	srv := httptest.NewServer(c)
	defer srv.Close()
	a := agentFor(t, srv.URL, t.TempDir())
	base := snapshot(3)
	copy(a.last, base)
	hit(0, 5)
	hit(1, 3)
	hit(2, 1)
	a.mu.Lock()
	a.make()
	a.deliver(context.Background(), time.Time{})
	hit(0, 2)
	a.make()
	a.deliver(context.Background(), time.Time{})
	a.mu.Unlock()
	if len(c.got) != 2 {
		t.Fatalf("collector got %d packages, want 2", len(c.got))
	}
	p, q := c.got[0], c.got[1]
	if p.Site != "eu_1" || p.Variant != 2 || p.Seq != 1 || q.Seq != 2 {
		t.Fatalf("site %q variant %d seqs %d %d", p.Site, p.Variant, p.Seq, q.Seq)
	}
	if len(p.Counts) != 2 || p.Counts[0].N != 5 || p.Counts[1].N != 4 || p.Counts[1].Out[0] != 3 || p.Counts[1].Out[1] != 1 {
		t.Fatalf("first package counts %+v", p.Counts)
	}
	if len(q.Counts) != 1 || q.Counts[0].Probe != 3 || q.Counts[0].N != 2 {
		t.Fatalf("second package counts %+v", q.Counts)
	}
	// Nothing new: no package.
	a.mu.Lock()
	a.make()
	a.mu.Unlock()
	if a.q.len() != 0 {
		t.Fatal("an empty package was queued")
	}
	// The sequence continues in the next run with the same spool directory.
	b := agentFor(t, srv.URL, a.q.dir)
	if s := b.seq.next(); s != 3 {
		t.Fatalf("next run's first seq %d, want 3", s)
	}
}

// Each status class: 400 and 401 drop (never retried), 429 and 503 wait as Retry-After says,
// 500 and an unreachable collector back off exponentially with jitter.
func TestStatuses(t *testing.T) {
	for _, tc := range []struct {
		code   int
		after  string
		queued int
		min    time.Duration
		max    time.Duration
	}{
		{400, "", 0, 0, 0},
		{401, "", 0, 0, 0},
		{403, "", 0, 0, 0},
		{429, "7", 1, 7 * time.Second, 7 * time.Second},
		{503, "3", 1, 3 * time.Second, 3 * time.Second},
		{503, "", 1, 100 * time.Millisecond, 100 * time.Millisecond},
		{500, "", 1, 50 * time.Millisecond, 100 * time.Millisecond},
	} {
		c := &collector{t: t, status: func(int) (int, string) { return tc.code, tc.after }}
		srv := httptest.NewServer(c)
		a := agentFor(t, srv.URL, t.TempDir())
		a.base = 100 * time.Millisecond
		hit(0, 1)
		a.mu.Lock()
		a.make()
		start := time.Now()
		a.deliver(context.Background(), time.Time{})
		end := time.Now()
		a.mu.Unlock()
		srv.Close()
		if c.posts != 1 || a.q.len() != tc.queued {
			t.Errorf("%d: %d posts, %d queued; want 1 post, %d queued", tc.code, c.posts, a.q.len(), tc.queued)
		}
		if tc.queued == 0 {
			if a.dropped != 1 {
				t.Errorf("%d: dropped %d, want 1", tc.code, a.dropped)
			}
			continue
		}
		// The wait counts from the answer, somewhere between start and end: the request's own
		// time on a loaded machine is not the wait's.
		if early, late := a.retryAt.Sub(end), a.retryAt.Sub(start); late < tc.min-50*time.Millisecond || early > tc.max+50*time.Millisecond {
			t.Errorf("%d Retry-After %q: waits %v to %v, want %v to %v", tc.code, tc.after, early, late, tc.min, tc.max)
		}
	}
}

// Consecutive failures double the backoff, each drawn from its upper half, up to the cap.
func TestBackoffGrows(t *testing.T) {
	a := agentFor(t, "http://127.0.0.1:1", "")
	a.q = &queue{max: 1 << 20}
	a.base = 10 * time.Millisecond
	a.q.push([]byte(`{}`))
	for k := 1; k <= 25; k++ {
		before := time.Now()
		a.deliver(context.Background(), time.Time{})
		want := min(a.base<<(k-1), backoffCap)
		if k > 20 {
			want = backoffCap
		}
		got := a.retryAt.Sub(before)
		if got < want/2 || got > want+time.Second {
			t.Fatalf("failure %d: waits %v, want %v to %v", k, got, want/2, want)
		}
	}
}

// A full spool drops the oldest packages and counts them, with the drops the dropped
// packages reported, so that no drop goes unreported.
func TestSpoolFull(t *testing.T) {
	for _, dir := range []string{t.TempDir(), ""} {
		q := &queue{dir: dir, max: 100}
		pkg := func(i, dropped int) []byte {
			s := `{"dropped":` + string(rune('0'+dropped)) + `,"x":"` + strings.Repeat("x", 20) + string(rune('a'+i)) + `"}`
			return []byte(s)
		}
		var dropped uint64
		for i := range 6 {
			dropped += q.push(pkg(i, i%2))
		}
		// 40 bytes each: two fit. Packages 0..3 dropped, carrying 0+1+0+1.
		if dropped != 6 {
			t.Errorf("dir %q: dropped %d, want 6", dir, dropped)
		}
		_, datas := q.oldest(1, 1000)
		if len(datas) != 1 || !strings.HasSuffix(string(datas[0]), `e"}`) || q.len() != 2 {
			t.Errorf("dir %q: oldest %q of %d, want package 4 of 2", dir, datas, q.len())
		}
		if d := q.push(make([]byte, 101)); d != 1 {
			t.Errorf("dir %q: a package larger than the spool: %d dropped, want 1", dir, d)
		}
		if dir != "" {
			var total int64
			names, sizes := q.files()
			for _, s := range sizes {
				total += s
			}
			if total > 100 || len(names) != 2 {
				t.Errorf("spool holds %d files of %d bytes", len(names), total)
			}
		}
	}
}

// Without a URL the runtime does nothing: no agent, so no goroutine and no I/O.
func TestDisabledWithoutURL(t *testing.T) {
	spool := filepath.Join(t.TempDir(), "spool")
	env := map[string]string{"AUGUR_FIELD_SPOOL": spool}
	if a := newAgent(testStamp, 3, func(k string) string { return env[k] }); a != nil {
		t.Fatal("an agent without a URL")
	}
	if _, err := os.Stat(spool); !os.IsNotExist(err) {
		t.Fatalf("spool directory touched: %v", err)
	}
}

func TestRetryAfter(t *testing.T) {
	if d := retryAfter("12", time.Second); d != 12*time.Second {
		t.Fatalf("12: %v", d)
	}
	if d := retryAfter("99999999", time.Second); d != retryAfterCap {
		t.Fatalf("huge: %v", d)
	}
	if d := retryAfter(time.Now().Add(30*time.Second).UTC().Format(http.TimeFormat), time.Second); d < 28*time.Second || d > 30*time.Second {
		t.Fatalf("date: %v", d)
	}
	if d := retryAfter("soon", time.Second); d != time.Second {
		t.Fatalf("garbage: %v", d)
	}
}

func TestSiteName(t *testing.T) {
	if s := siteName("eu west/1"); s != "eu_west_1" {
		t.Fatal(s)
	}
	if s := siteName(strings.Repeat("x", 200)); len(s) != 128 {
		t.Fatal(len(s))
	}
	if s := siteName(""); s == "" {
		t.Fatal("no site from the host name")
	}
}

// Any Retry-After header gives a wait between 0 and the cap, and never a panic.
func FuzzRetryAfter(f *testing.F) {
	for _, s := range []string{"", "0", "12", "-3", "99999999999999999999", "Wed, 21 Oct 2015 07:28:00 GMT", "soon"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, h string) {
		if d := retryAfter(h, time.Second); d < 0 || d > retryAfterCap {
			t.Fatalf("%q: wait %v", h, d)
		}
	})
}

// Whatever a sequence file holds (a damaged disk, another program), numbers only go up.
func FuzzSequenceFile(f *testing.F) {
	for _, s := range []string{"", "00000000000000000007\n", "x", "18446744073709551615", "4611686018427387903", "-1", "7\n\n\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, content []byte) {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "seq"), content, 0o600); err != nil {
			t.Fatal(err)
		}
		s := &sequence{dir: dir, name: "seq"}
		a := s.next()
		b := s.next()
		if a < 1 || b <= a {
			t.Fatalf("%q: numbers %d then %d", content, a, b)
		}
	})
}

// A package larger than a collector accepts goes as several, each within wire.MaxBody, with
// distinct sequence numbers, together holding every count once.
func TestLargePackageSplit(t *testing.T) {
	if maxBody != wire.MaxBody {
		t.Fatalf("maxBody %d, wire.MaxBody %d", maxBody, wire.MaxBody)
	}
	a := agentFor(t, "http://127.0.0.1:1", t.TempDir())
	p := pkg{Format: Format, Release: "r1", Variant: 2, Site: "s", Dropped: 3}
	const n = 100000
	for i := 1; i <= n; i++ {
		p.Counts = append(p.Counts, count{Probe: i, N: 123456789, Out: []uint64{123456789, 0}})
	}
	parts := a.encode(p)
	if len(parts) < 3 {
		t.Fatalf("%d parts", len(parts))
	}
	seqs := map[uint64]bool{}
	next, dropped := 1, uint64(0)
	for _, data := range parts {
		q, err := wire.Decode(strings.NewReader(string(data)))
		if err != nil {
			t.Fatalf("part of %d bytes: %v", len(data), err)
		}
		if seqs[q.Seq] {
			t.Fatalf("seq %d twice", q.Seq)
		}
		seqs[q.Seq] = true
		dropped += q.Dropped
		for _, c := range q.Counts {
			if c.Probe != next {
				t.Fatalf("probe %d, want %d", c.Probe, next)
			}
			next++
		}
	}
	if next != n+1 || dropped != 3 {
		t.Fatalf("%d counts, %d dropped; want %d and 3", next-1, dropped, n)
	}
}

// A backlog in the spool directory drains oldest first, every package once, in one batch.
func TestBacklogOldestFirst(t *testing.T) {
	c := &collector{t: t, batches: true}
	srv := httptest.NewServer(c)
	defer srv.Close()
	a := agentFor(t, srv.URL, t.TempDir())
	copy(a.last, snapshot(3)) // what other tests counted
	a.mu.Lock()
	defer a.mu.Unlock()
	for range 200 {
		hit(0, 1)
		a.make()
	}
	a.deliver(context.Background(), time.Time{})
	if len(c.got) != 200 || a.q.len() != 0 || c.posts != 1 {
		t.Fatalf("delivered %d of 200, %d left", len(c.got), a.q.len())
	}
	for i, p := range c.got {
		if p.Seq != uint64(i+1) || p.Counts[0].N != 1 {
			t.Fatalf("package %d: seq %d, counts %+v", i, p.Seq, p.Counts)
		}
	}
}

// A backlog goes as batches when the collector takes them: 1100 packages (in memory) in two
// requests of at most 1024, oldest first, every package once; a collector without /v1/batches
// gets them one by one after one refused batch.
func TestBacklogBatched(t *testing.T) {
	for _, batches := range []bool{true, false} {
		c := &collector{t: t, batches: batches}
		srv := httptest.NewServer(c)
		a := agentFor(t, srv.URL, t.TempDir())
		a.q = &queue{max: 1 << 30}
		copy(a.last, snapshot(3))
		a.mu.Lock()
		n := 1100
		if !batches {
			n = 5
		}
		for range n {
			hit(0, 1)
			a.make()
		}
		a.deliver(context.Background(), time.Time{})
		a.mu.Unlock()
		srv.Close()
		wantPosts := []int{1024, n - 1024}
		if !batches {
			wantPosts = make([]int, n)
			for i := range wantPosts {
				wantPosts[i] = 1
			}
		}
		if len(c.got) != n || a.q.len() != 0 || fmt.Sprint(c.sizes) != fmt.Sprint(wantPosts) {
			t.Fatalf("batches %v: delivered %d of %d in posts of %v, %d left", batches, len(c.got), n, c.sizes[:min(len(c.sizes), 5)], a.q.len())
		}
		if batches != !a.single || !batches && c.posts != n+1 {
			t.Errorf("batches %v: single %v after %d posts", batches, a.single, c.posts)
		}
		for i, p := range c.got {
			if p.Seq != uint64(i+1) || p.Counts[0].N != 1 {
				t.Fatalf("package %d: seq %d, counts %+v", i, p.Seq, p.Counts)
			}
		}
	}
}

// A batch's answer decides each package: the rejected ones are dropped and counted, the others
// removed; a batch answered as a whole with 503 keeps everything for later, and an answer that
// does not account for every package keeps everything and backs off.
func TestBatchAnswers(t *testing.T) {
	make3 := func(a *agent) {
		copy(a.last, snapshot(3))
		for range 3 {
			hit(0, 1)
			a.make()
		}
	}
	c := &collector{t: t, batches: true, reject: func(p *wire.Package) bool { return p.Seq == 2 }}
	srv := httptest.NewServer(c)
	defer srv.Close()
	a := agentFor(t, srv.URL, t.TempDir())
	a.mu.Lock()
	make3(a)
	a.deliver(context.Background(), time.Time{})
	a.mu.Unlock()
	if a.q.len() != 0 || a.dropped != 1 || len(c.got) != 2 || c.got[0].Seq != 1 || c.got[1].Seq != 3 {
		t.Errorf("one of three rejected: %d queued, %d dropped, %d got; want 0, 1, 2", a.q.len(), a.dropped, len(c.got))
	}

	// A batch refused as a whole goes package by package, each decided alone; later
	// deliveries batch again.
	c = &collector{t: t, batches: true, status: func(n int) (int, string) {
		if n == 1 {
			return 401, ""
		}
		return 0, ""
	}}
	srv401 := httptest.NewServer(c)
	defer srv401.Close()
	a = agentFor(t, srv401.URL, t.TempDir())
	a.mu.Lock()
	make3(a)
	a.deliver(context.Background(), time.Time{})
	a.mu.Unlock()
	if a.q.len() != 0 || a.dropped != 0 || fmt.Sprint(c.sizes) != "[1 1 1]" || a.single {
		t.Errorf("a batch refused whole: %d queued, %d dropped, posts of %v, single %v; want 0, 0, [1 1 1], false", a.q.len(), a.dropped, c.sizes, a.single)
	}

	for _, tc := range []struct {
		name   string
		status int
		answer string
	}{
		{"503", 503, ""},
		{"too few results", 0, `{"format":"augur-field-batch/1","results":[{"status":"accepted"}]}`},
		{"unknown status", 0, `{"format":"augur-field-batch/1","results":[{"status":"accepted"},{"status":"?"},{"status":"accepted"}]}`},
		{"not JSON", 0, `{`},
	} {
		c := &collector{t: t, batches: true, answer: tc.answer, status: func(int) (int, string) { return tc.status, "2" }}
		srv := httptest.NewServer(c)
		a := agentFor(t, srv.URL, t.TempDir())
		a.base = 100 * time.Millisecond
		a.mu.Lock()
		make3(a)
		start := time.Now()
		a.deliver(context.Background(), time.Time{})
		end := time.Now()
		a.mu.Unlock()
		srv.Close()
		// The wait counts from the answer, between start and end.
		early, late := a.retryAt.Sub(end), a.retryAt.Sub(start)
		if a.q.len() != 3 || a.dropped != 0 || c.posts != 1 || a.single {
			t.Errorf("%s: %d queued, %d dropped, %d posts, single %v; want 3, 0, 1, false", tc.name, a.q.len(), a.dropped, c.posts, a.single)
		}
		if tc.status == 503 && (late < 1900*time.Millisecond || early > 2100*time.Millisecond) ||
			tc.status == 0 && (late < 0 || early > 150*time.Millisecond || a.fails != 1) {
			t.Errorf("%s: waits %v to %v after %d failures", tc.name, early, late, a.fails)
		}
	}
}

// A batch takes the oldest packages while they fit its size and are lines; a package that is not
// one line goes alone.
func TestOldestBatch(t *testing.T) {
	for _, dir := range []string{t.TempDir(), ""} {
		q := &queue{dir: dir, max: 1 << 20}
		line := func(c byte) []byte { return append(bytes.Repeat([]byte{c}, 399), '\n') }
		for _, d := range [][]byte{line('a'), line('b'), line('c'), []byte("d\nd\n"), line('e')} {
			q.push(d)
		}
		first := func(datas [][]byte) string {
			var s []byte
			for _, d := range datas {
				s = append(s, d[0])
			}
			return string(s)
		}
		steps := []struct {
			n, size int
			want    string
		}{{10, 1000, "ab"}, {1, 1000, "a"}, {10, 10, "a"}, {10, 5000, "abc"}}
		for _, st := range steps {
			if _, datas := q.oldest(st.n, st.size); first(datas) != st.want {
				t.Errorf("dir %q: oldest(%d, %d) = %q, want %q", dir, st.n, st.size, first(datas), st.want)
			}
		}
		for _, want := range []string{"abc", "d", "e"} {
			names, datas := q.oldest(10, 5000)
			if first(datas) != want {
				t.Errorf("dir %q: %q, want %q", dir, first(datas), want)
			}
			for _, n := range names {
				q.remove(n)
			}
		}
	}
}

// A URL that cannot make a request never will: what waits for it is dropped and counted, alone
// or batched, not retried for ever.
func TestBadURLDrops(t *testing.T) {
	a := agentFor(t, "http://bad host", t.TempDir())
	a.q = &queue{max: 1 << 20}
	for range 3 {
		a.q.push([]byte(`{"x":1}` + "\n"))
	}
	a.deliver(context.Background(), time.Time{})
	if a.q.len() != 0 || a.dropped != 3 || a.fails != 0 {
		t.Errorf("%d queued, %d dropped, %d failures; want 0, 3, 0", a.q.len(), a.dropped, a.fails)
	}
}
