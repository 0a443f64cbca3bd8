// Package collect is the field collector's HTTP endpoint: deployed variants POST their packages
// (augur-field-package/1) to /v1/packages with a per-release bearer token, and the collector
// authenticates, decodes strictly, validates against the release's manifest, and acknowledges a
// package only once it is committed to the store. It owns the protocol, the batching of commits
// and the overload policy; storage is field/store's, the format field/wire's. It must not
// estimate anything.
//
// # Protocol
//
//	POST /v1/packages   Authorization: Bearer TOKEN, body one package
//	  200 {"status":"accepted"}   committed now
//	  200 {"status":"duplicate"}  a package of the same (site, release, seq) was committed
//	                              before: acknowledged again, never counted twice
//	  400 {"error":…}             malformed JSON, or a package that does not fit its release
//	                              (unknown variant, a probe the variant does not carry, …)
//	  401                         no token, or a token that is unknown or revoked
//	  403                         the token is another release's
//	  413                         the body is larger than wire.MaxBody
//	  429 Retry-After             too many request bytes in flight
//	  503 Retry-After             the commit queue is full, or the store failed
//	POST /v1/batches    Authorization: Bearer TOKEN, body a batch (wire.BatchFormat: up to
//	                    wire.MaxBatch packages, one per line, wire.MaxBody bytes in all)
//	  200 {"format":"augur-field-batch/1","results":[{"status":"accepted"},
//	      {"status":"duplicate"},{"status":"rejected","code":400,"error":…},…]}
//	                              one result per line, in order; a rejected package carries
//	                              the status it would have had alone (400 or 403)
//	  400, 401, 413, 429, 503     the batch as a whole, as for one package (400: not a batch —
//	                              empty, an empty line, too many packages); after 429 or 503
//	                              nothing of it is acknowledged, and what was committed
//	                              meanwhile comes back as duplicates when it is sent again
//	GET /healthz, GET /metrics (Prometheus)
//
// # Group commit and bounded memory
//
// Handlers put decoded, validated packages on one bounded queue; committers take everything
// queued (up to MaxBatch) and commit it in one transaction, so while one transaction syncs the
// next batch gathers: the sync is paid once per batch, not per package. Request bodies reserve
// their size from a byte budget until their package is committed, and the queue holds at most
// Queue packages: past either limit a request is turned away at once with Retry-After, so memory
// stays bounded however many clients send.
package collect

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/augur-perf/augur/field/plan"
	"github.com/augur-perf/augur/field/store"
	"github.com/augur-perf/augur/field/wire"
)

// Options tune a Server; zero fields take the defaults.
type Options struct {
	// Queue is the most packages waiting for a commit (default 16384).
	Queue int
	// MaxBatch is the most packages committed in one transaction (default 2048); a request's
	// packages are never split between transactions, so one may exceed it by a batch request.
	MaxBatch int
	// Committers is the number of transactions under way at once (default 1 for SQLite, which
	// has one writer; 4 for a PostgreSQL server, which more help).
	Committers int
	// Budget is the most request-body bytes held at once (default 64 MiB).
	Budget int64
	// TokenTTL is how long a token lookup is cached: a revoked token is refused within it
	// (default 2 s).
	TokenTTL time.Duration
	// RetryAfter is what overloaded responses ask clients to wait (default 1 s).
	RetryAfter time.Duration
}

func (o *Options) defaults(st store.Store) {
	if o.Queue <= 0 {
		o.Queue = 16384
	}
	if o.MaxBatch <= 0 {
		o.MaxBatch = 2048
	}
	if _, pg := st.(*store.Postgres); o.Committers == 0 && pg {
		o.Committers = 4
	} else if o.Committers <= 0 {
		o.Committers = 1
	}
	if o.Budget <= 0 {
		o.Budget = 64 << 20
	}
	if o.TokenTTL <= 0 {
		o.TokenTTL = 2 * time.Second
	}
	if o.RetryAfter <= 0 {
		o.RetryAfter = time.Second
	}
}

// Server collects packages into a store.
type Server struct {
	st    store.Store
	o     Options
	queue chan *job
	// queued counts the packages of the jobs in queue, which Options.Queue bounds.
	queued atomic.Int64
	inUse  atomic.Int64 // body bytes reserved
	m      metrics

	loadMu   sync.Mutex // held while a release is loaded
	mu       sync.Mutex
	tokens   map[string]tokenEntry
	releases map[string]*release
}

type tokenEntry struct {
	release string // "" for a token that is unknown or revoked
	expires time.Time
}

// release is a manifest prepared for validation: for each variant the outcomes of the units it
// carries, so that validating a package costs a lookup per count, not maps over the release's
// units built per package.
type release struct {
	full     *plan.Manifest
	variants map[int]map[int]int // variant → carried probe → its number of outcomes
}

// job is one request's packages on their way to a commit; done is closed once fresh or err is
// set.
type job struct {
	pkgs  []*wire.Package
	fresh []bool
	err   error
	done  chan struct{}
}

// New makes a server on st; reg receives its metrics (nil: a registry of its own, served on
// /metrics either way).
func New(st store.Store, o Options, reg *prometheus.Registry) *Server {
	o.defaults(st)
	if reg == nil {
		reg = prometheus.NewRegistry()
	}
	// A job holds at least one package and queued counts packages, so a queue of o.Queue jobs
	// never blocks a handler that reserved its packages.
	s := &Server{st: st, o: o, queue: make(chan *job, o.Queue), tokens: map[string]tokenEntry{}, releases: map[string]*release{}}
	s.m = newMetrics(reg, func() float64 { return float64(s.queued.Load()) })
	return s
}

// Run commits queued packages until ctx ends; call it once, before serving.
func (s *Server) Run(ctx context.Context) {
	var wg sync.WaitGroup
	for range s.o.Committers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.commit(ctx)
		}()
	}
	wg.Wait()
}

func (s *Server) commit(ctx context.Context) {
	var batch []*job
	pkgs := make([]*wire.Package, 0, s.o.MaxBatch)
	for {
		batch, pkgs = batch[:0], pkgs[:0]
		select {
		case <-ctx.Done():
			return
		case j := <-s.queue:
			batch = append(batch, j)
			pkgs = append(pkgs, j.pkgs...)
		}
	gather:
		for len(pkgs) < s.o.MaxBatch {
			select {
			case j := <-s.queue:
				batch = append(batch, j)
				pkgs = append(pkgs, j.pkgs...)
			default:
				break gather
			}
		}
		s.queued.Add(-int64(len(pkgs)))
		s.m.batch.Observe(float64(len(pkgs)))
		// The commit does not follow ctx: a batch begun is finished, so that what a client
		// was told is what the store holds.
		fresh, err := s.st.Commit(context.WithoutCancel(ctx), pkgs)
		for _, j := range batch {
			if err != nil {
				j.err = err
			} else {
				j.fresh, fresh = fresh[:len(j.pkgs)], fresh[len(j.pkgs):]
			}
			close(j.done)
		}
	}
}

// Handler serves the protocol.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/packages", func(w http.ResponseWriter, r *http.Request) { s.post(w, r, false) })
	mux.HandleFunc("POST /v1/batches", func(w http.ResponseWriter, r *http.Request) { s.post(w, r, true) })
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		fmt.Fprintln(w, "ok")
	})
	mux.Handle("GET /metrics", promhttp.HandlerFor(s.m.reg, promhttp.HandlerOpts{}))
	return mux
}

func (s *Server) post(w http.ResponseWriter, r *http.Request, batch bool) {
	start := time.Now()
	var code int
	var reason string
	var body any
	if batch {
		code, reason, body = s.handleBatch(w, r)
	} else {
		code, reason, body = s.handle(w, r)
	}
	if code != http.StatusOK {
		s.m.rejected.WithLabelValues(reason).Inc()
	}
	if code == http.StatusTooManyRequests || code == http.StatusServiceUnavailable {
		w.Header().Set("Retry-After", strconv.Itoa(int((s.o.RetryAfter+time.Second-1)/time.Second)))
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	json.NewEncoder(w).Encode(body)
	s.m.latency.Observe(time.Since(start).Seconds())
}

type answer map[string]string

func fail(msg string) answer { return answer{"error": msg} }

// refusal is why a request, or a package of a batch, is not accepted: the status it answers, the
// reason label of the rejected metric, and the message.
type refusal struct {
	code   int
	reason string
	msg    string
}

// receive does what both endpoints do before decoding: it authenticates, reserves the body's
// size from the byte budget (release gives it back) and reads the body.
func (s *Server) receive(w http.ResponseWriter, r *http.Request) (rel *release, data []byte, release func(), ref *refusal) {
	release = func() {}
	auth, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	if !ok || auth == "" {
		return nil, nil, release, &refusal{http.StatusUnauthorized, "unauthorized", "no bearer token"}
	}
	name, err := s.tokenRelease(r.Context(), strings.TrimSpace(auth))
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil, release, &refusal{http.StatusUnauthorized, "unauthorized", "unknown or revoked token"}
	}
	if err != nil {
		return nil, nil, release, &refusal{http.StatusServiceUnavailable, "store", "store: " + err.Error()}
	}
	tooLarge := &refusal{http.StatusRequestEntityTooLarge, "too_large", fmt.Sprintf("body larger than %d bytes", wire.MaxBody)}
	if r.ContentLength > wire.MaxBody {
		return nil, nil, release, tooLarge
	}
	size := r.ContentLength
	if size < 0 {
		size = wire.MaxBody
	}
	if s.inUse.Add(size) > s.o.Budget {
		s.inUse.Add(-size)
		return nil, nil, release, &refusal{http.StatusTooManyRequests, "overload", "too many bytes in flight: retry later"}
	}
	release = func() { s.inUse.Add(-size) }
	data, err = readBody(w, r)
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		return nil, nil, release, tooLarge
	}
	if err != nil {
		return nil, nil, release, &refusal{http.StatusBadRequest, "malformed", err.Error()}
	}
	rel, err = s.release(r.Context(), name)
	if err != nil {
		return nil, nil, release, &refusal{http.StatusServiceUnavailable, "store", "store: " + err.Error()}
	}
	return rel, data, release, nil
}

// readBody reads a body of at most wire.MaxBody bytes; one of known length into a buffer of
// that size at once (io.ReadAll grows its buffer from 512 bytes, copying a batch of 50 KB
// seven times).
func readBody(w http.ResponseWriter, r *http.Request) ([]byte, error) {
	body := http.MaxBytesReader(w, r.Body, wire.MaxBody)
	if r.ContentLength <= 0 {
		return io.ReadAll(body)
	}
	data := make([]byte, r.ContentLength)
	if _, err := io.ReadFull(body, data); err != nil {
		return nil, err
	}
	return data, nil
}

// check decodes and validates one package for the release rel of the request's token.
func check(rel *release, data []byte) (*wire.Package, *refusal) {
	p, err := decode(data)
	if err != nil {
		return nil, &refusal{http.StatusBadRequest, "malformed", err.Error()}
	}
	if p.Release != rel.full.Release {
		return nil, &refusal{http.StatusForbidden, "forbidden", fmt.Sprintf("the token is release %s's, the package release %s's", rel.full.Release, p.Release)}
	}
	if err := rel.validate(p); err != nil {
		return nil, &refusal{http.StatusBadRequest, "invalid", err.Error()}
	}
	if p.Seq > store.MaxSeq {
		return nil, &refusal{http.StatusBadRequest, "invalid", fmt.Sprintf("seq %d: the collector keeps sequence numbers up to %d", p.Seq, uint64(store.MaxSeq))}
	}
	return p, nil
}

// submit queues pkgs for a commit and waits for it: whether each was new, or why none can be
// acknowledged (the queue is full, or the store failed; a client sends them all again, and
// what was committed meanwhile comes back as duplicates).
func (s *Server) submit(pkgs []*wire.Package) ([]bool, *refusal) {
	n := int64(len(pkgs))
	// A batch larger than the whole queue still goes when the queue is empty, or it never
	// would.
	if q := s.queued.Add(n); q > int64(s.o.Queue) && q != n {
		s.queued.Add(-n)
		return nil, &refusal{http.StatusServiceUnavailable, "overload", "commit queue full: retry later"}
	}
	j := &job{pkgs: pkgs, done: make(chan struct{})}
	s.queue <- j
	<-j.done
	if j.err != nil {
		return nil, &refusal{http.StatusServiceUnavailable, "store", "store: " + j.err.Error()}
	}
	return j.fresh, nil
}

func (s *Server) handle(w http.ResponseWriter, r *http.Request) (int, string, answer) {
	rel, data, release, ref := s.receive(w, r)
	defer release()
	if ref != nil {
		return ref.code, ref.reason, fail(ref.msg)
	}
	p, ref := check(rel, data)
	if ref != nil {
		return ref.code, ref.reason, fail(ref.msg)
	}
	fresh, ref := s.submit([]*wire.Package{p})
	if ref != nil {
		return ref.code, ref.reason, fail(ref.msg)
	}
	if !fresh[0] {
		s.m.duplicate.Inc()
		return http.StatusOK, "", answer{"status": "duplicate"}
	}
	s.m.accepted.Inc()
	return http.StatusOK, "", answer{"status": "accepted"}
}

// handleBatch answers a batch (wire.BatchFormat): a body that is not a batch, a request without
// a live token, over the budget or that cannot be committed is refused as a whole, like a
// package alone; otherwise each package is checked on its own, the acceptable ones are
// committed together, and the answer says for each what became of it.
func (s *Server) handleBatch(w http.ResponseWriter, r *http.Request) (int, string, any) {
	rel, data, release, ref := s.receive(w, r)
	defer release()
	if ref != nil {
		return ref.code, ref.reason, fail(ref.msg)
	}
	lines, err := wire.SplitBatch(data)
	if err != nil {
		return http.StatusBadRequest, "malformed", fail(err.Error())
	}
	results := make([]wire.Result, len(lines))
	pkgs := make([]*wire.Package, 0, len(lines))
	for i, l := range lines {
		p, ref := check(rel, l)
		if ref != nil {
			s.m.rejected.WithLabelValues(ref.reason).Inc()
			results[i] = wire.Result{Status: "rejected", Code: ref.code, Error: fmt.Sprintf("package %d: %s", i+1, ref.msg)}
			continue
		}
		pkgs = append(pkgs, p)
	}
	if len(pkgs) > 0 {
		fresh, ref := s.submit(pkgs)
		if ref != nil {
			return ref.code, ref.reason, fail(ref.msg)
		}
		for i := range results {
			if results[i].Status != "" {
				continue
			}
			if fresh[0] {
				s.m.accepted.Inc()
				results[i].Status = "accepted"
			} else {
				s.m.duplicate.Inc()
				results[i].Status = "duplicate"
			}
			fresh = fresh[1:]
		}
	}
	return http.StatusOK, "", wire.BatchAnswer{Format: wire.BatchFormat, Results: results}
}

func (s *Server) tokenRelease(ctx context.Context, token string) (string, error) {
	hash := store.HashToken(token)
	now := time.Now()
	s.mu.Lock()
	e, ok := s.tokens[hash]
	s.mu.Unlock()
	if !ok || now.After(e.expires) {
		rel, err := s.st.TokenRelease(ctx, hash)
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			return "", err
		}
		e = tokenEntry{release: rel, expires: now.Add(s.o.TokenTTL)}
		s.mu.Lock()
		// Guessed tokens must not grow the cache without bound: forget everything instead.
		if len(s.tokens) >= 4096 {
			clear(s.tokens)
		}
		s.tokens[hash] = e
		s.mu.Unlock()
	}
	if e.release == "" {
		return "", store.ErrNotFound
	}
	return e.release, nil
}

// release returns the prepared manifest of a release; manifests never change once registered.
// One request loads a release at a time (under loadMu), so that the many clients of a collector
// just started do not each read and decode the same manifest.
func (s *Server) release(ctx context.Context, name string) (*release, error) {
	s.mu.Lock()
	r := s.releases[name]
	s.mu.Unlock()
	if r != nil {
		return r, nil
	}
	s.loadMu.Lock()
	defer s.loadMu.Unlock()
	s.mu.Lock()
	r = s.releases[name]
	s.mu.Unlock()
	if r != nil {
		return r, nil
	}
	m, err := s.st.Release(ctx, name)
	if err != nil {
		return nil, err
	}
	r = prepare(m)
	s.mu.Lock()
	s.releases[name] = r
	s.mu.Unlock()
	return r, nil
}

func prepare(m *plan.Manifest) *release {
	outcomes := make(map[int]int, len(m.Units))
	for _, u := range m.Units {
		outcomes[u.ID] = u.Outcomes
	}
	r := &release{full: m, variants: map[int]map[int]int{}}
	for _, v := range m.Variants {
		carried := make(map[int]int, len(v.Probes))
		for _, id := range v.Probes {
			carried[id] = outcomes[id]
		}
		r.variants[v.ID] = carried
	}
	return r
}

// validate accepts exactly what wire's Validate accepts (the release, a variant of it, probes
// the variant carries, outcome counts of the unit's length); for a package it refuses, it asks
// Validate itself, for wire's reason.
func (r *release) validate(p *wire.Package) error {
	carried, ok := r.variants[p.Variant]
	ok = ok && p.Release == r.full.Release
	for i := 0; ok && i < len(p.Counts); i++ {
		c := &p.Counts[i]
		n, has := carried[c.Probe]
		ok = has && (len(c.Out) == 0 || len(c.Out) == n)
	}
	if ok {
		return nil
	}
	if err := p.Validate(r.full); err != nil {
		return err
	}
	return fmt.Errorf("collector: the package fails a check wire.Validate passes (a bug)")
}

type metrics struct {
	reg                 *prometheus.Registry
	accepted, duplicate prometheus.Counter
	rejected            *prometheus.CounterVec
	latency, batch      prometheus.Histogram
}

func newMetrics(reg *prometheus.Registry, queued func() float64) metrics {
	m := metrics{
		reg:       reg,
		accepted:  prometheus.NewCounter(prometheus.CounterOpts{Name: "augur_field_packages_accepted_total", Help: "Packages committed for the first time."}),
		duplicate: prometheus.NewCounter(prometheus.CounterOpts{Name: "augur_field_packages_duplicate_total", Help: "Packages acknowledged again (same site, release and seq), not counted twice."}),
		rejected:  prometheus.NewCounterVec(prometheus.CounterOpts{Name: "augur_field_packages_rejected_total", Help: "Requests, and packages of batches, refused, by reason."}, []string{"reason"}),
		latency: prometheus.NewHistogram(prometheus.HistogramOpts{Name: "augur_field_request_seconds", Help: "Time to answer POST /v1/packages or /v1/batches.",
			Buckets: prometheus.ExponentialBuckets(50e-6, 2, 18)}),
		batch: prometheus.NewHistogram(prometheus.HistogramOpts{Name: "augur_field_commit_batch_packages", Help: "Packages per committed transaction.",
			Buckets: prometheus.ExponentialBuckets(1, 2, 13)}),
	}
	reg.MustRegister(m.accepted, m.duplicate, m.rejected, m.latency, m.batch,
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "augur_field_queue_packages", Help: "Packages waiting for a commit."}, queued))
	for _, r := range []string{"unauthorized", "forbidden", "too_large", "malformed", "invalid", "overload", "store"} {
		m.rejected.WithLabelValues(r)
	}
	return m
}
