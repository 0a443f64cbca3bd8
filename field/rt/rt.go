// The build line gives this file its own language version: copied into a program whose go.mod
// says an older go (1.16, say), it still builds with what it uses (min, max, range over an int).
//go:build go1.22

// Package rt is the probe runtime of deployed variants (augur field build): a copy of this file,
// with a generated file that stamps the variant (its release, variant, probes and collector
// defaults) and declares its counters, becomes one package of the user's program through the
// overlay, and the probes of every instrumented package add to its counters. It counts
// (per-P blocks, exact with any number of goroutines), and when a collector URL is configured
// it sends packages of augur-field-package/1 (see package github.com/augur-perf/augur/field/wire)
// of the counts since the previous package: periodically, at normal exit from main and on
// SIGTERM or SIGINT, several waiting at once as one batch (augur-field-batch/1, one request
// whose answer decides each package); what cannot be delivered waits in a bounded on-disk
// spool, oldest first; retries back off exponentially with jitter and honour Retry-After. All
// network I/O runs off the probes' path, with timeouts, and nothing it does may crash or block
// the host program.
//
// It must import nothing but the standard library: it is compiled into the user's program.
package rt

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"math"
	"math/rand/v2"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
	"unsafe"
)

// Bool is bool, for conditions converted in code where bool may be shadowed.
type Bool = bool

// Pin pins the goroutine to its P and returns the P's id: until Unpin nothing else runs on that
// P, so a plain add to the P's block is exact (sync.Pool does the same).
//
//go:linkname Pin runtime.procPin
func Pin() int

// Unpin ends Pin.
//
//go:linkname Unpin runtime.procUnpin
func Unpin()

// Stamp is what a variant's build writes into it.
type Stamp struct {
	Release string
	Variant int
	// URL, Token, Site and Spool are the defaults of AUGUR_FIELD_URL, AUGUR_FIELD_TOKEN,
	// AUGUR_FIELD_SITE and AUGUR_FIELD_SPOOL.
	URL, Token, Site, Spool string
	// Flush is the period of packages; SpoolMax the most bytes the spool holds.
	Flush    time.Duration
	SpoolMax int64
	// Rate, below 1, samples: each probe execution is counted with probability Rate (see
	// Gap); packages carry it, so that the collector scales the counts by 1/Rate.
	Rate float64
	// Probes are the variant's probes by unit id; each has counter slots from Slot on.
	Probes []Probe
}

// Probe is one probed unit: a statement (one slot: its count) or a decision (one slot per
// outcome, in the order of the front end's successors; its count is their sum).
type Probe struct {
	ID, Slot, Outcomes int
}

var (
	blocks [][]uint64 // per P
	over   []uint64   // the Ps beyond the blocks, atomically
)

// Blocks makes the counter blocks of width slots, one per P, as arrays A (a constant index into
// an array pointer needs no bounds check). There are at least 8 blocks, and as many as CPUs or
// GOMAXPROCS if more; a P beyond them adds to the overflow block with Over. The blocks are an
// anonymous mapping, which the race detector does not shadow: the probes' plain adds are
// exclusive by pinning and the reader loads atomically.
func Blocks[A any](width int) []*A {
	ns := max(runtime.NumCPU(), runtime.GOMAXPROCS(0), 8)
	w := max(width, 1)
	var words []uint64
	if data, err := syscall.Mmap(-1, 0, 8*w*(ns+1), syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE); err == nil {
		words = unsafe.Slice((*uint64)(unsafe.Pointer(&data[0])), w*(ns+1))
	} else {
		words = make([]uint64, w*(ns+1))
	}
	blocks = nil
	out := make([]*A, ns)
	for i := range ns {
		blocks = append(blocks, words[i*w:i*w+width])
		out[i] = (*A)(unsafe.Pointer(&words[i*w]))
	}
	over = words[ns*w : ns*w+width]
	return out
}

// Over counts slot k for a P beyond the blocks.
//
//go:noinline
func Over(k int) { atomic.AddUint64(&over[k], 1) }

// Sampling (Liblit et al.'s CBI): a sampled build's probes decrement their P's countdown, the
// second-last slot of its block, and count only the execution that takes it to zero, which
// draws the next countdown with Gap from the block's random state (its last slot). Countdowns
// geometric with mean 1/rate make each execution counted with probability rate, independently
// of the others, so count/rate estimates the executions without bias.
var (
	rate   float64
	overMu sync.Mutex // the overflow block's countdown
)

// Gap advances the random state and draws a countdown: the number of executions up to and
// including the next one counted, geometric with parameter rate.
func Gap(state *uint64) uint64 {
	x := *state // xorshift64*
	x ^= x >> 12
	x ^= x << 25
	x ^= x >> 27
	*state = x
	u := float64((x*2685821657736338717)>>11+1) / (1 << 53) // in (0, 1]
	return uint64(math.Log(u)/math.Log1p(-rate)) + 1
}

// OverSampled is Over in a sampled build.
//
//go:noinline
func OverSampled(k int) {
	overMu.Lock()
	n := len(over)
	over[n-2]--
	if over[n-2] == 0 {
		over[n-2] = Gap(&over[n-1])
		atomic.AddUint64(&over[k], 1)
	}
	overMu.Unlock()
}

// startSampling seeds every block's random state and draws its first countdown.
func startSampling(r float64) {
	rate = r
	seed := uint64(time.Now().UnixNano())
	for i, b := range append(blocks, over) {
		n := len(b)
		b[n-1] = (seed+uint64(i)+1)*0x9E3779B97F4A7C15 | 1
		b[n-2] = Gap(&b[n-1])
	}
}

// snapshot adds the blocks up, slot by slot.
func snapshot(width int) []uint64 {
	s := make([]uint64, width)
	for k := range s {
		v := atomic.LoadUint64(&over[k])
		for _, b := range blocks {
			v += atomic.LoadUint64(&b[k])
		}
		s[k] = v
	}
	return s
}

// Format is the package format (field/wire.Format).
const Format = "augur-field-package/1"

// pkg and count are field/wire's Package and Count, field for field.
type pkg struct {
	Format  string  `json:"format"`
	Release string  `json:"release"`
	Variant int     `json:"variant"`
	Site    string  `json:"site"`
	Seq     uint64  `json:"seq"`
	Uptime  float64 `json:"uptime_s"`
	Rate    float64 `json:"rate,omitempty"`
	Dropped uint64  `json:"dropped,omitempty"`
	Counts  []count `json:"counts"`
}

type count struct {
	Probe int      `json:"p"`
	N     uint64   `json:"n"`
	Out   []uint64 `json:"out,omitempty"`
}

// Timeouts and backoff. A request in the background may take its time; at exit the host waits
// for the final delivery at most exitWait.
const (
	requestTimeout = 10 * time.Second
	exitWait       = 2 * time.Second
	backoffBase    = time.Second
	backoffCap     = 5 * time.Minute
	retryAfterCap  = time.Hour
)

// agent sends one process's packages.
type agent struct {
	stamp *Stamp
	width int
	url   string
	// batchURL takes several packages at once (augur-field-batch/1); single is set once the
	// collector shows it has no such endpoint, and packages then go one per request.
	batchURL string
	single   bool
	token    string
	site     string
	start    time.Time
	client   *http.Client
	q        *queue
	seq      *sequence

	mu      sync.Mutex // the snapshot, the queue and delivery
	last    []uint64
	dropped uint64 // packages dropped since the previous package was made
	// droppedFile carries dropped over to the next run (in the spool directory).
	droppedFile string
	// retryAt is when delivery may be tried again; fails counts consecutive failures.
	retryAt time.Time
	fails   int
	// base is the first backoff (tests shorten it).
	base time.Duration

	stop    chan struct{}
	cancel  context.CancelFunc
	ctx     context.Context
	stopped sync.Once
}

var the *agent

// Start configures the runtime from the environment and the stamp: without a collector URL it
// does nothing more (the probes count in memory; no goroutine, no I/O); with one it starts the
// sender and the signal handler.
func Start(s *Stamp) {
	width := 0
	for _, p := range s.Probes {
		width = max(width, p.Slot+max(p.Outcomes, 1))
	}
	if s.Rate > 0 && s.Rate < 1 {
		startSampling(s.Rate)
	}
	a := newAgent(s, width, os.Getenv)
	if a == nil {
		return
	}
	the = a
	go a.loop()
	var sigs []os.Signal
	for _, sig := range []os.Signal{syscall.SIGTERM, syscall.SIGINT} {
		// A signal the host was started ignoring (nohup, a background job) stays ignored.
		if !signal.Ignored(sig) {
			sigs = append(sigs, sig)
		}
	}
	if len(sigs) > 0 {
		ch := make(chan os.Signal, 1)
		signal.Notify(ch, sigs...)
		go func() {
			sig := <-ch
			a.final()
			// Give the signal back: without a handler of the host's own, the default action
			// ends the process with the status a shell shows as 128+signal, as without augur.
			signal.Stop(ch)
			if s, ok := sig.(syscall.Signal); ok {
				syscall.Kill(os.Getpid(), s)
			}
		}()
	}
}

// Exit sends the last package; the build defers it at the start of main.
func Exit() {
	if the != nil {
		the.final()
	}
}

// Flushed sends the last package and returns code: the build wraps the argument of each
// os.Exit call of the main package in it, since os.Exit skips deferred calls.
func Flushed(code int) int {
	Exit()
	return code
}

func newAgent(s *Stamp, width int, getenv func(string) string) *agent {
	env := func(name, def string) string {
		if v := getenv(name); v != "" {
			return v
		}
		return def
	}
	url := env("AUGUR_FIELD_URL", s.URL)
	if url == "" {
		return nil
	}
	base := strings.TrimRight(url, "/")
	a := &agent{stamp: s, width: width, url: base + "/v1/packages", batchURL: base + "/v1/batches",
		token: env("AUGUR_FIELD_TOKEN", s.Token), start: time.Now(), base: backoffBase,
		client: &http.Client{Timeout: requestTimeout}, stop: make(chan struct{}), last: make([]uint64, width)}
	a.ctx, a.cancel = context.WithCancel(context.Background())
	a.site = siteName(env("AUGUR_FIELD_SITE", s.Site))
	dir := env("AUGUR_FIELD_SPOOL", s.Spool)
	if dir == "" {
		if c, err := os.UserCacheDir(); err == nil {
			dir = filepath.Join(c, "augur-field")
		}
	}
	limit := s.SpoolMax
	if limit <= 0 {
		limit = 16 << 20
	}
	if dir != "" && os.MkdirAll(dir, 0o700) != nil {
		dir = ""
	}
	a.q = &queue{dir: dir, max: limit}
	a.seq = &sequence{dir: dir, name: "seq." + siteName(s.Release) + "." + a.site}
	if dir != "" {
		a.droppedFile = filepath.Join(dir, "dropped."+siteName(s.Release)+"."+a.site)
		if data, err := os.ReadFile(a.droppedFile); err == nil {
			a.dropped, _ = strconv.ParseUint(strings.TrimSpace(string(data)), 10, 64)
			os.Remove(a.droppedFile)
		}
	}
	return a
}

// saveDropped keeps the count of dropped packages no package of this run reported for the
// next run's first package.
func (a *agent) saveDropped() {
	switch {
	case a.droppedFile == "":
	case a.dropped > 0:
		os.WriteFile(a.droppedFile, []byte(strconv.FormatUint(a.dropped, 10)+"\n"), 0o600)
	default:
		os.Remove(a.droppedFile) // reported since an earlier final
	}
}

// siteName makes a site id of the wire format (letters, digits, ._:-, at most 128) from s, or
// from the host name when s is empty.
func siteName(s string) string {
	if s == "" {
		s, _ = os.Hostname()
	}
	b := []byte(s)
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == ':' || c == '-') {
			b[i] = '_'
		}
	}
	if len(b) > 128 {
		b = b[:128]
	}
	if len(b) == 0 {
		return "site"
	}
	return string(b)
}

// loop makes a package every flush period and delivers the queue when delivery is due.
func (a *agent) loop() {
	period := a.stamp.Flush
	if period <= 0 {
		period = time.Minute
	}
	next := time.Now().Add(period)
	t := time.NewTimer(0) // a spool left by earlier runs is delivered at once
	for {
		select {
		case <-a.stop:
			t.Stop()
			return
		case <-t.C:
		}
		now := time.Now()
		a.mu.Lock()
		if !now.Before(next) {
			a.make()
			next = now.Add(period)
		}
		if !now.Before(a.retryAt) {
			a.deliver(a.ctx, time.Time{})
		}
		wake := next
		if a.q.len() > 0 && a.retryAt.Before(wake) {
			wake = a.retryAt
		}
		a.mu.Unlock()
		t.Reset(max(time.Until(wake), time.Millisecond))
	}
}

// final makes the last package and delivers what it can within exitWait; the rest stays in
// the spool for the next run. It stops the background sender; called again (a host that
// handles the signal itself goes on running, then returns from main), it sends what was
// counted since. A request the background has in flight may finish
// within exitWait (cancelled, its outcome is unknown: a package the collector got stays queued
// and is sent again, which the collector acknowledges as a duplicate). The queue goes first,
// so that the last package finds room in the spool when the collector is up.
func (a *agent) final() {
	a.stopped.Do(func() { close(a.stop) })
	deadline := time.Now().Add(exitWait)
	for !a.mu.TryLock() {
		if time.Now().After(deadline) {
			a.cancel()
			a.mu.Lock()
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	defer a.mu.Unlock()
	a.retryAt = time.Time{}
	a.deliver(context.Background(), deadline)
	delivered := a.q.len() == 0
	a.make()
	if delivered {
		a.deliver(context.Background(), deadline)
	}
	a.saveDropped()
}

// make queues a package of the counts since the previous one (a.mu held). Nothing counted and
// nothing dropped, it makes none.
func (a *agent) make() {
	cur := snapshot(a.width)
	p := pkg{Format: Format, Release: a.stamp.Release, Variant: a.stamp.Variant, Site: a.site,
		Uptime: time.Since(a.start).Seconds(), Dropped: a.dropped, Counts: []count{}}
	if a.stamp.Rate > 0 && a.stamp.Rate < 1 {
		p.Rate = a.stamp.Rate
	}
	for _, pr := range a.stamp.Probes {
		c := count{Probe: pr.ID}
		if pr.Outcomes == 0 {
			c.N = cur[pr.Slot] - a.last[pr.Slot]
		} else {
			c.Out = make([]uint64, pr.Outcomes)
			for k := range c.Out {
				c.Out[k] = cur[pr.Slot+k] - a.last[pr.Slot+k]
				c.N += c.Out[k]
			}
		}
		if c.N > 0 {
			p.Counts = append(p.Counts, c)
		}
	}
	if len(p.Counts) == 0 && a.dropped == 0 {
		return
	}
	sort.Slice(p.Counts, func(i, j int) bool { return p.Counts[i].Probe < p.Counts[j].Probe })
	copy(a.last, cur)
	dropped := uint64(0)
	for _, data := range a.encode(p) {
		dropped += a.q.push(data)
	}
	a.dropped = dropped
}

// maxBody is the largest package or batch a collector accepts (field/wire.MaxBody); maxBatch
// the most packages of a batch (field/wire.MaxBatch).
const (
	maxBody  = 1 << 20
	maxBatch = 1024
)

// encode writes p as one package or, if it is larger than a collector accepts (a variant of
// many thousand probes), as several, each with some of the counts and a sequence number of its
// own: deltas of disjoint probes add up the same.
func (a *agent) encode(p pkg) [][]byte {
	p.Seq = a.seq.next()
	data, err := json.Marshal(p)
	if err != nil {
		return nil
	}
	if len(data) < maxBody || len(p.Counts) < 2 {
		return [][]byte{append(data, '\n')}
	}
	h := len(p.Counts) / 2
	first, second := p, p
	first.Counts, second.Counts, second.Dropped = p.Counts[:h], p.Counts[h:], 0
	return append(a.encode(first), a.encode(second)...)
}

// Outcomes of one delivery attempt.
const (
	sent    = iota // acknowledged
	refused        // 4xx: never retried
	later          // 429, 503: retry after the collector's delay
	failed         // other errors: retry with backoff
)

// deliver sends the queue oldest first until it is empty, an attempt fails or the deadline
// passes (a.mu held). Several packages waiting go as one batch (augur-field-batch/1), whose
// answer says what became of each; one package goes alone, as do all once the collector shows
// it has no batches (404 or 405: an older collector), and all of this delivery when it refuses
// a batch as a whole (401, 413, …), so that each package is then decided on its own.
func (a *agent) deliver(ctx context.Context, deadline time.Time) {
	alone := a.single
	for {
		n := maxBatch
		if alone {
			n = 1
		}
		names, datas := a.q.oldest(n, maxBody)
		if len(datas) == 0 {
			return
		}
		if !deadline.IsZero() && !time.Now().Before(deadline) {
			return
		}
		rctx, cancel := ctx, context.CancelFunc(func() {})
		if !deadline.IsZero() {
			rctx, cancel = context.WithDeadline(ctx, deadline)
		}
		var res []int
		var wait time.Duration
		if len(datas) == 1 {
			var r int
			r, wait = a.post(rctx, datas[0])
			res = []int{r}
		} else {
			res, wait = a.postBatch(rctx, datas)
		}
		cancel()
		switch {
		case res == nil:
			a.single, alone = true, true
			continue
		case len(datas) > 1 && len(res) == 1 && res[0] == refused:
			alone = true
			continue
		case len(res) > 1 || res[0] == sent || res[0] == refused:
			for i, r := range res {
				a.q.remove(names[i])
				if r == refused {
					a.dropped += 1 + carried(datas[i])
				}
			}
			a.fails = 0
		case res[0] == later:
			a.retryAt = time.Now().Add(wait)
			return
		default:
			a.fails++
			b := a.base << min(a.fails-1, 20)
			if b > backoffCap || b <= 0 {
				b = backoffCap
			}
			// Full jitter over the upper half: sites that failed together retry apart.
			a.retryAt = time.Now().Add(b/2 + time.Duration(rand.Int64N(int64(b/2)+1)))
			return
		}
	}
}

// errBadURL is a URL that cannot make a request: it never will, so what waits for it is
// refused rather than retried.
var errBadURL = errors.New("bad collector URL")

func (a *agent) request(ctx context.Context, url string, body []byte) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return nil, errBadURL
	}
	req.Header.Set("Content-Type", "application/json")
	if a.token != "" {
		req.Header.Set("Authorization", "Bearer "+a.token)
	}
	return a.client.Do(req)
}

func (a *agent) post(ctx context.Context, data []byte) (int, time.Duration) {
	resp, err := a.request(ctx, a.url, data)
	if err == errBadURL {
		return refused, 0
	}
	if err != nil {
		return failed, 0
	}
	resp.Body.Close()
	return outcome(resp, a.base)
}

// outcome classifies a collector's answer to a request as a whole.
func outcome(resp *http.Response, base time.Duration) (int, time.Duration) {
	switch c := resp.StatusCode; {
	case c >= 200 && c < 300:
		return sent, 0
	case c == http.StatusTooManyRequests || c == http.StatusServiceUnavailable:
		return later, retryAfter(resp.Header.Get("Retry-After"), base)
	case c == http.StatusRequestTimeout:
		return failed, 0
	case c >= 400 && c < 500:
		return refused, 0
	}
	return failed, 0
}

// batchAnswer is field/wire's BatchAnswer, as far as the runtime reads it.
type batchAnswer struct {
	Results []struct {
		Status string `json:"status"`
	} `json:"results"`
}

// postBatch sends datas (each one line) as one batch and returns the outcome of each package,
// or, for the batch as a whole, one outcome (later or failed: nothing is removed, everything
// is sent again, and what the collector committed meanwhile comes back as duplicates; refused:
// the packages go alone); nil when the collector has no batch endpoint.
func (a *agent) postBatch(ctx context.Context, datas [][]byte) ([]int, time.Duration) {
	var body []byte
	for _, d := range datas {
		body = append(body, d...)
	}
	resp, err := a.request(ctx, a.batchURL, body)
	if err == errBadURL {
		return []int{refused}, 0
	}
	if err != nil {
		return []int{failed}, 0
	}
	defer resp.Body.Close()
	r, wait := outcome(resp, a.base)
	switch {
	case resp.StatusCode == http.StatusNotFound || resp.StatusCode == http.StatusMethodNotAllowed:
		return nil, 0
	case r != sent:
		return []int{r}, wait
	}
	var ans batchAnswer
	if err := json.NewDecoder(io.LimitReader(resp.Body, maxBody)).Decode(&ans); err != nil || len(ans.Results) != len(datas) {
		return []int{failed}, 0
	}
	res := make([]int, len(datas))
	for i, x := range ans.Results {
		switch x.Status {
		case "accepted", "duplicate":
			res[i] = sent
		case "rejected":
			res[i] = refused
		default:
			return []int{failed}, 0
		}
	}
	return res, 0
}

// retryAfter reads a Retry-After header: seconds or an HTTP date, at most retryAfterCap;
// without one, def.
func retryAfter(h string, def time.Duration) time.Duration {
	if s, err := strconv.Atoi(strings.TrimSpace(h)); err == nil && s >= 0 {
		if s >= int(retryAfterCap/time.Second) {
			return retryAfterCap
		}
		return time.Duration(s) * time.Second
	}
	if t, err := http.ParseTime(h); err == nil {
		return min(max(time.Until(t), 0), retryAfterCap)
	}
	return def
}

// queue holds the packages not yet delivered, oldest first: files in dir (written whole, then
// renamed into place), or memory when there is no usable directory. Either holds at most max
// bytes; a package that does not fit drops the oldest.
type queue struct {
	dir string
	max int64
	mem [][]byte
	n   int // packages pushed by this process (file names)
	// listing is what oldest last listed of the directory, oldest first, less what was
	// removed since; push clears it.
	listing []string
}

func (q *queue) files() (names []string, sizes []int64) {
	ents, err := os.ReadDir(q.dir)
	if err != nil {
		return nil, nil
	}
	for _, e := range ents {
		if !strings.HasPrefix(e.Name(), "pkg-") || !strings.HasSuffix(e.Name(), ".json") {
			continue
		}
		info, err := e.Info()
		if err != nil {
			continue
		}
		names = append(names, e.Name())
		sizes = append(sizes, info.Size())
	}
	return names, sizes // ReadDir sorts by name: oldest first
}

// push queues data and returns how many packages it dropped to make room (data itself, if it
// is larger than the whole queue, or cannot be written).
func (q *queue) push(data []byte) (dropped uint64) {
	if int64(len(data)) > q.max {
		return 1 + carried(data)
	}
	if q.dir == "" {
		var total int64
		for _, d := range q.mem {
			total += int64(len(d))
		}
		for total+int64(len(data)) > q.max {
			total -= int64(len(q.mem[0]))
			dropped += 1 + carried(q.mem[0])
			q.mem = q.mem[1:]
		}
		q.mem = append(q.mem, data)
		return dropped
	}
	q.listing = nil
	names, sizes := q.files()
	var total int64
	for _, s := range sizes {
		total += s
	}
	for i := 0; total+int64(len(data)) > q.max && i < len(names); i++ {
		old, _ := os.ReadFile(filepath.Join(q.dir, names[i]))
		if os.Remove(filepath.Join(q.dir, names[i])) == nil {
			dropped += 1 + carried(old)
		}
		total -= sizes[i]
	}
	// Named by time, so that the oldest sorts first; the process and a counter keep names
	// of processes sharing the directory apart.
	q.n++
	name := "pkg-" + pad(uint64(time.Now().UnixNano())) + "-" + strconv.Itoa(os.Getpid()) + "-" + strconv.Itoa(q.n) + ".json"
	tmp := filepath.Join(q.dir, "tmp-"+name)
	if err := os.WriteFile(tmp, data, 0o600); err != nil {
		os.Remove(tmp)
		return dropped + 1
	}
	if err := os.Rename(tmp, filepath.Join(q.dir, name)); err != nil {
		os.Remove(tmp)
		return dropped + 1
	}
	return dropped
}

// carried is the count of dropped packages a package reports: dropping it drops its report
// too, so the count goes on to the next package and no drop goes unreported.
func carried(data []byte) uint64 {
	var p struct {
		Dropped uint64 `json:"dropped"`
	}
	json.Unmarshal(data, &p)
	return p.Dropped
}

func pad(v uint64) string {
	s := strconv.FormatUint(v, 10)
	return strings.Repeat("0", 20-len(s)) + s
}

// oldest returns the oldest packages, at most n and, but for the first, only while they are
// lines (what a batch holds) and come to at most size bytes.
func (q *queue) oldest(n, size int) (names []string, datas [][]byte) {
	total := 0
	fits := func(d []byte) bool {
		if len(datas) == 0 {
			return true
		}
		return len(datas) < n && total+len(d) <= size && isLine(d) && isLine(datas[0])
	}
	if q.dir == "" {
		for _, d := range q.mem {
			if !fits(d) {
				break
			}
			names, datas = append(names, ""), append(datas, d)
			total += len(d)
		}
		return names, datas
	}
	// The listing is kept while the queue drains, so that delivering a backlog of many
	// thousand packages does not list the directory once per package.
	if len(q.listing) == 0 {
		q.listing, _ = q.files()
	}
	for i := 0; i < len(q.listing); {
		name := q.listing[i]
		d, err := os.ReadFile(filepath.Join(q.dir, name))
		if err != nil {
			// Gone: another process sharing the spool sent it.
			q.listing = append(q.listing[:i], q.listing[i+1:]...)
			continue
		}
		if !fits(d) {
			break
		}
		names, datas = append(names, name), append(datas, d)
		total += len(d)
		i++
	}
	return names, datas
}

// isLine reports whether a package is one line ending in a newline, as a batch carries it
// (what the runtime writes always is).
func isLine(d []byte) bool {
	i := bytes.IndexByte(d, '\n')
	return i > 0 && i == len(d)-1
}

func (q *queue) remove(name string) {
	if q.dir == "" {
		if len(q.mem) > 0 {
			q.mem = q.mem[1:]
		}
		return
	}
	os.Remove(filepath.Join(q.dir, name))
	if len(q.listing) > 0 && q.listing[0] == name {
		q.listing = q.listing[1:]
	}
}

func (q *queue) len() int {
	if q.dir == "" {
		return len(q.mem)
	}
	names, _ := q.files()
	return len(names)
}

// sequence numbers a site's packages of a release: the last number is kept in a file of the
// spool directory, under an exclusive lock, so that numbers stay unique across restarts and
// across processes sharing the directory. Without a directory, numbers start at the process's
// start time in microseconds, which later runs of the site pass.
type sequence struct {
	dir, name string
	mem       uint64
}

var errSeq = errors.New("sequence file")

// seqMax bounds the numbers a sequence file may hold.
const seqMax = 1 << 62

func (s *sequence) next() uint64 {
	if s.dir != "" {
		if v, err := s.file(); err == nil {
			return v
		}
	}
	if s.mem == 0 {
		s.mem = uint64(time.Now().UnixMicro())
	}
	s.mem++
	return s.mem
}

func (s *sequence) file() (uint64, error) {
	f, err := os.OpenFile(filepath.Join(s.dir, s.name), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		return 0, err
	}
	buf := make([]byte, 32)
	n, _ := f.ReadAt(buf, 0)
	last, err := strconv.ParseUint(strings.TrimSpace(string(buf[:n])), 10, 64)
	// A number beyond seqMax is a damaged file too: no site sends 2^62 packages, and numbers
	// from it would soon have no larger one to go up to.
	if err != nil && n > 0 || last >= seqMax {
		return 0, errSeq // a damaged file: numbers from the clock are safer than from 1
	}
	v := max(last, s.mem) + 1
	if _, err := f.WriteAt([]byte(pad(v)+"\n"), 0); err != nil {
		return 0, err
	}
	s.mem = v
	return v, nil
}
