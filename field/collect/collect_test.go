package collect

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/augur-perf/augur/field/plan"
	"github.com/augur-perf/augur/field/store"
	"github.com/augur-perf/augur/field/wire"
)

// testManifest is a release of units 1..units, variants of bound probes each, unit 2 a decision
// of two outcomes.
func testManifest(release string, units, variants, bound int) *plan.Manifest {
	m := &plan.Manifest{Format: plan.Format, Release: release, Strategy: plan.Pattern, Bound: bound}
	for i := 1; i <= units; i++ {
		u := plan.Unit{ID: i, Pos: fmt.Sprintf("app.go:%d:2", i), Func: "app.F", Node: i}
		if i%5 == 2 {
			u.Outcomes = 2
		}
		m.Units = append(m.Units, u)
	}
	for v := 1; v <= variants; v++ {
		var probes []int
		for k := 0; k < bound; k++ {
			probes = append(probes, ((v-1)*bound+k)%units+1)
		}
		sortInts(probes)
		m.Variants = append(m.Variants, plan.Variant{ID: v, Probes: dedup(probes)})
	}
	return m
}

func sortInts(xs []int) {
	for i := 1; i < len(xs); i++ {
		for j := i; j > 0 && xs[j] < xs[j-1]; j-- {
			xs[j], xs[j-1] = xs[j-1], xs[j]
		}
	}
}

func dedup(xs []int) []int {
	var out []int
	for i, x := range xs {
		if i == 0 || x != xs[i-1] {
			out = append(out, x)
		}
	}
	return out
}

// testPackage counts every probe of the variant, n times each (decisions split n-1 and 1).
func testPackage(m *plan.Manifest, variant int, site string, seq, n uint64) *wire.Package {
	p := &wire.Package{Format: wire.Format, Release: m.Release, Variant: variant, Site: site, Seq: seq, Uptime: float64(seq)}
	outcomes := map[int]int{}
	for _, u := range m.Units {
		outcomes[u.ID] = u.Outcomes
	}
	for _, id := range m.Variants[variant-1].Probes {
		c := wire.Count{Probe: id, N: n}
		if outcomes[id] == 2 {
			c.Out = []uint64{n - 1, 1}
		}
		p.Counts = append(p.Counts, c)
	}
	return p
}

func encode(t testing.TB, p *wire.Package) []byte {
	var b bytes.Buffer
	if err := wire.Encode(&b, p); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// setup registers releases r1 and r2 in a fresh SQLite store and issues a token for each.
func setup(t testing.TB, path string) (st store.Store, tok1, tok2 string) {
	ctx := context.Background()
	st, err := store.OpenSQLite(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	var toks []string
	for _, r := range []string{"r1", "r2"} {
		if err := st.AddRelease(ctx, testManifest(r, 20, 4, 6)); err != nil {
			t.Fatal(err)
		}
		id, tok, hash, err := store.NewToken()
		if err != nil {
			t.Fatal(err)
		}
		if err := st.AddToken(ctx, id, r, hash); err != nil {
			t.Fatal(err)
		}
		toks = append(toks, tok)
	}
	return st, toks[0], toks[1]
}

func startTest(t *testing.T, st store.Store, o Options) (*Server, *httptest.Server) {
	s := New(st, o, nil)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { s.Run(ctx); close(done) }()
	hs := httptest.NewServer(s.Handler())
	t.Cleanup(func() { hs.Close(); cancel(); <-done })
	return s, hs
}

func post(t *testing.T, url, token string, body io.Reader) (int, string, http.Header) {
	t.Helper()
	req, err := http.NewRequest("POST", url+"/v1/packages", body)
	if err != nil {
		t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b), resp.Header
}

func TestProtocol(t *testing.T) {
	st, tok1, tok2 := setup(t, filepath.Join(t.TempDir(), "f.sqlite"))
	defer st.Close()
	_, hs := startTest(t, st, Options{TokenTTL: time.Nanosecond})
	m := testManifest("r1", 20, 4, 6)
	good := encode(t, testPackage(m, 2, "siteA", 1, 10))
	withProbe := func(probe int) []byte {
		p := testPackage(m, 2, "siteA", 9, 1)
		p.Counts = []wire.Count{{Probe: probe, N: 1}}
		return encode(t, p)
	}
	otherVariant := testPackage(m, 2, "siteA", 9, 1)
	otherVariant.Variant = 7
	huge := append([]byte(`{"format":"`+wire.Format+`","counts":[`), bytes.Repeat([]byte(`{"p":1,"n":1},`), wire.MaxBody/14+1)...)
	cases := []struct {
		name, token string
		body        []byte
		chunked     bool
		code        int
		want        string
	}{
		{"no token", "", good, false, 401, "no bearer token"},
		{"wrong token", tok1 + "x", good, false, 401, "unknown or revoked"},
		{"token of another release", tok2, good, false, 403, "release r2's"},
		{"accepted", tok1, good, false, 200, `"accepted"`},
		{"replayed", tok1, good, false, 200, `"duplicate"`},
		{"replayed again", tok1, good, false, 200, `"duplicate"`},
		{"probe the variant does not carry", tok1, withProbe(1), false, 400, "carries no probe 1"},
		{"probe of no unit", tok1, withProbe(999), false, 400, "carries no probe 999"},
		{"unknown variant", tok1, encode(t, otherVariant), false, 400, "has no variant 7"},
		{"malformed JSON", tok1, []byte(`{"format": "augur-field-package/1", "seq": 1,`), false, 400, "truncated"},
		{"unknown field", tok1, []byte(`{"format":"augur-field-package/1","bogus":1}`), false, 400, "unknown field"},
		{"oversized body", tok1, huge, false, 413, "larger than"},
		{"oversized body, chunked", tok1, huge, true, 413, "larger than"},
	}
	for _, c := range cases {
		var body io.Reader = bytes.NewReader(c.body)
		if c.chunked {
			body = io.MultiReader(body) // no length known: sent chunked
		}
		code, text, _ := post(t, hs.URL, c.token, body)
		if code != c.code || !strings.Contains(text, c.want) {
			t.Errorf("%s: %d %s; want %d with %q", c.name, code, strings.TrimSpace(text), c.code, c.want)
		}
	}
	var n int
	var total uint64
	st.Scan(context.Background(), "r1", func(r *store.Record) error {
		n++
		for _, c := range r.Counts {
			total += c.N
		}
		return nil
	})
	if n != 1 || total != 60 {
		t.Errorf("store holds %d packages with %d counts; want the replayed package once (1, 60)", n, total)
	}
	metrics := get(t, hs.URL+"/metrics")
	for _, want := range []string{
		"augur_field_packages_accepted_total 1", "augur_field_packages_duplicate_total 2",
		`augur_field_packages_rejected_total{reason="unauthorized"} 2`, `augur_field_packages_rejected_total{reason="forbidden"} 1`,
		`augur_field_packages_rejected_total{reason="invalid"} 3`, `augur_field_packages_rejected_total{reason="malformed"} 2`,
		`augur_field_packages_rejected_total{reason="too_large"} 2`, "augur_field_request_seconds_count 13",
	} {
		if !strings.Contains(metrics, want) {
			t.Errorf("/metrics lacks %q", want)
		}
	}
	if h := get(t, hs.URL+"/healthz"); h != "ok\n" {
		t.Errorf("/healthz = %q", h)
	}

	// A revoked token is refused once its cached lookup expires (TokenTTL here: 1 ns).
	tokens, _ := st.Tokens(context.Background(), "r1")
	if err := st.RevokeToken(context.Background(), tokens[0].ID); err != nil {
		t.Fatal(err)
	}
	if code, text, _ := post(t, hs.URL, tok1, bytes.NewReader(good)); code != 401 {
		t.Errorf("revoked token: %d %s", code, text)
	}
}

func get(t *testing.T, url string) string {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return string(b)
}

// stalled is a store whose commits wait until release is closed.
type stalled struct {
	store.Store
	entered chan struct{}
	release chan struct{}
}

func (s *stalled) Commit(ctx context.Context, pkgs []*wire.Package) ([]bool, error) {
	s.entered <- struct{}{}
	<-s.release
	return s.Store.Commit(ctx, pkgs)
}

// TestOverload fills the commit queue behind a stalled commit: the next request is turned away
// at once with 503 and Retry-After, and a request whose body exceeds the byte budget gets 429;
// once the store moves again everything queued is acknowledged.
func TestOverload(t *testing.T) {
	st, tok1, _ := setup(t, filepath.Join(t.TempDir(), "f.sqlite"))
	defer st.Close()
	sl := &stalled{Store: st, entered: make(chan struct{}, 10), release: make(chan struct{})}
	_, hs := startTest(t, sl, Options{Queue: 2, Budget: 64 << 10})
	m := testManifest("r1", 20, 4, 6)
	var wg sync.WaitGroup
	codes := make(chan int, 3)
	send := func(seq uint64) {
		defer wg.Done()
		code, _, _ := post(t, hs.URL, tok1, bytes.NewReader(encode(t, testPackage(m, 1, "s", seq, 1))))
		codes <- code
	}
	wg.Add(1)
	go send(1)
	<-sl.entered // package 1 is being committed; the queue is empty
	wg.Add(2)
	go send(2)
	go send(3)
	for deadline := time.Now().Add(10 * time.Second); len(sl.entered) == 0; {
		s := get(t, hs.URL+"/metrics")
		if strings.Contains(s, "augur_field_queue_packages 2") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the queue did not fill")
		}
		time.Sleep(5 * time.Millisecond)
	}
	code, text, h := post(t, hs.URL, tok1, bytes.NewReader(encode(t, testPackage(m, 1, "s", 4, 1))))
	if code != 503 || h.Get("Retry-After") != "1" {
		t.Errorf("queue full: %d %q Retry-After %q; want 503 with Retry-After 1", code, text, h.Get("Retry-After"))
	}
	big := encode(t, testPackage(m, 1, "s", 5, 1))
	big = append(big[:len(big)-1], bytes.Repeat([]byte(" "), 64<<10)...)
	code, _, h = post(t, hs.URL, tok1, bytes.NewReader(big))
	if code != 429 || h.Get("Retry-After") == "" {
		t.Errorf("over the byte budget: %d, Retry-After %q; want 429 with Retry-After", code, h.Get("Retry-After"))
	}
	close(sl.release)
	wg.Wait()
	close(codes)
	for c := range codes {
		if c != 200 {
			t.Errorf("a queued package got %d once the store moved, want 200", c)
		}
	}
}

func TestAnswersAreJSON(t *testing.T) {
	st, tok1, _ := setup(t, filepath.Join(t.TempDir(), "f.sqlite"))
	defer st.Close()
	_, hs := startTest(t, st, Options{})
	for _, body := range []string{"", "{", "[]", "null"} {
		_, text, _ := post(t, hs.URL, tok1, strings.NewReader(body))
		var v map[string]string
		if err := json.Unmarshal([]byte(text), &v); err != nil || v["error"] == "" {
			t.Errorf("body %q: answer %q is not a JSON error", body, text)
		}
	}
}

// TestValidateAgreesWithWire: on random packages, valid and invalid, the prepared validation
// accepts exactly what wire.Validate accepts, and refuses with wire's reason.
func TestValidateAgreesWithWire(t *testing.T) {
	m := testManifest("r1", 20, 4, 6)
	r := prepare(m)
	rng := rand.New(rand.NewPCG(1, 1))
	accepted := 0
	for range 5000 {
		p := &wire.Package{Format: wire.Format, Release: []string{"r1", "r2"}[rng.IntN(8)/7], Variant: rng.IntN(6), Site: "s", Seq: 1}
		probe := 0
		for range rng.IntN(4) {
			probe += 1 + rng.IntN(8)
			c := wire.Count{Probe: probe, N: 9}
			for range []int{0, 0, 0, 1, 2, 3}[rng.IntN(6)] {
				c.Out = append(c.Out, 1)
			}
			p.Counts = append(p.Counts, c)
		}
		got, want := r.validate(p), p.Validate(m)
		if (got == nil) != (want == nil) || got != nil && got.Error() != want.Error() {
			t.Fatalf("%+v: prepared %v, wire %v", p, got, want)
		}
		if got == nil {
			accepted++
		}
	}
	if accepted < 100 || accepted > 4900 {
		t.Errorf("%d of 5000 accepted: the test's packages should mix valid and invalid", accepted)
	}
}

func postBatch(t *testing.T, url, token string, body []byte) (int, string) {
	t.Helper()
	req, err := http.NewRequest("POST", url+"/v1/batches", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// TestBatch: a batch is answered package by package — accepted, duplicate (of an earlier
// request or of an earlier line), rejected with the status the package would have had alone —
// and only its acceptable packages are stored, once; a body that is not a batch is refused whole.
func TestBatch(t *testing.T) {
	st, tok1, _ := setup(t, filepath.Join(t.TempDir(), "f.sqlite"))
	defer st.Close()
	_, hs := startTest(t, st, Options{})
	m := testManifest("r1", 20, 4, 6)
	first := encode(t, testPackage(m, 1, "siteA", 1, 10))
	if code, text, _ := post(t, hs.URL, tok1, bytes.NewReader(first)); code != 200 {
		t.Fatalf("single package: %d %s", code, text)
	}
	badProbe := testPackage(m, 2, "siteA", 3, 1)
	badProbe.Counts = []wire.Count{{Probe: 1, N: 1}}
	lines := [][]byte{
		first, // a duplicate of the single package
		encode(t, testPackage(m, 2, "siteA", 2, 20)),
		encode(t, badProbe),
		encode(t, testPackage(testManifest("r2", 20, 4, 6), 1, "siteA", 4, 1)),
		[]byte(`{"format":"augur-field-package/1","seq":`),
		encode(t, testPackage(m, 2, "siteA", 2, 20)), // a duplicate of line 2
		encode(t, testPackage(m, 3, "siteB", 1, 30)),
	}
	var body []byte
	for _, l := range lines {
		body = append(body, bytes.TrimSuffix(l, []byte("\n"))...)
		body = append(body, '\n')
	}
	body = body[:len(body)-1] // the last newline is optional
	code, text := postBatch(t, hs.URL, tok1, body)
	if code != 200 {
		t.Fatalf("batch: %d %s", code, text)
	}
	var a wire.BatchAnswer
	if err := json.Unmarshal([]byte(text), &a); err != nil || a.Format != wire.BatchFormat {
		t.Fatalf("answer %s: %v", text, err)
	}
	want := []struct {
		status string
		code   int
		error  string
	}{
		{"duplicate", 0, ""}, {"accepted", 0, ""}, {"rejected", 400, "package 3: counts[0]: variant 2 of release r1 carries no probe 1"},
		{"rejected", 403, "package 4: the token is release r1's"}, {"rejected", 400, "package 5: "},
		{"duplicate", 0, ""}, {"accepted", 0, ""},
	}
	if len(a.Results) != len(want) {
		t.Fatalf("%d results for %d packages: %s", len(a.Results), len(want), text)
	}
	for i, w := range want {
		r := a.Results[i]
		if r.Status != w.status || r.Code != w.code || !strings.HasPrefix(r.Error, w.error) || (w.status == "rejected") != (r.Error != "") {
			t.Errorf("package %d: %+v, want %s %d %q", i+1, r, w.status, w.code, w.error)
		}
	}
	stored := map[string]uint64{}
	st.Scan(context.Background(), "r1", func(r *store.Record) error {
		stored[fmt.Sprintf("%s/%d", r.Site, r.Seq)] += r.Counts[0].N
		return nil
	})
	if len(stored) != 3 || stored["siteA/1"] != 10 || stored["siteA/2"] != 20 || stored["siteB/1"] != 30 {
		t.Errorf("stored %v; want siteA/1, siteA/2 and siteB/1 once each", stored)
	}
	metrics := get(t, hs.URL+"/metrics")
	for _, w := range []string{"augur_field_packages_accepted_total 3", "augur_field_packages_duplicate_total 2",
		`augur_field_packages_rejected_total{reason="forbidden"} 1`, `augur_field_packages_rejected_total{reason="invalid"} 1`,
		`augur_field_packages_rejected_total{reason="malformed"} 1`} {
		if !strings.Contains(metrics, w) {
			t.Errorf("/metrics lacks %q", w)
		}
	}

	tooMany := bytes.Repeat([]byte(`{}`+"\n"), wire.MaxBatch+1)
	for _, c := range []struct {
		name, token string
		body        []byte
		code        int
		want        string
	}{
		{"no token", "", first, 401, "no bearer token"},
		{"empty", tok1, nil, 400, "empty batch"},
		{"empty line", tok1, append(append([]byte{}, first...), first...), 400, "empty line"},
		{"too many packages", tok1, tooMany, 400, "more than 1024 packages"},
		{"oversized", tok1, bytes.Repeat(first, wire.MaxBody/len(first)+1), 413, "larger than"},
	} {
		if c.name == "empty line" {
			c.body = bytes.Replace(c.body, []byte("\n"), []byte("\n\n"), 1)
		}
		code, text := postBatch(t, hs.URL, c.token, c.body)
		if code != c.code || !strings.Contains(text, c.want) {
			t.Errorf("%s: %d %s; want %d with %q", c.name, code, strings.TrimSpace(text), c.code, c.want)
		}
	}
}

// TestBatchLargerThanQueue: a batch of more packages than the queue holds waits for an empty
// queue instead of being turned away for ever.
func TestBatchLargerThanQueue(t *testing.T) {
	st, tok1, _ := setup(t, filepath.Join(t.TempDir(), "f.sqlite"))
	defer st.Close()
	_, hs := startTest(t, st, Options{Queue: 2})
	m := testManifest("r1", 20, 4, 6)
	var body []byte
	for seq := uint64(1); seq <= 5; seq++ {
		body = append(body, encode(t, testPackage(m, 1, "s", seq, 1))...)
	}
	code, text := postBatch(t, hs.URL, tok1, body)
	if code != 200 || strings.Count(text, `"accepted"`) != 5 {
		t.Errorf("%d %s; want 5 accepted", code, text)
	}
}

// The committers default to one for SQLite's single writer, to four for a PostgreSQL server;
// a number given is kept.
func TestCommittersDefault(t *testing.T) {
	var o Options
	o.defaults(&store.SQLite{})
	if o.Committers != 1 {
		t.Errorf("SQLite: %d committers", o.Committers)
	}
	o = Options{}
	o.defaults(&store.Postgres{})
	if o.Committers != 4 {
		t.Errorf("PostgreSQL: %d committers", o.Committers)
	}
	o = Options{Committers: 2}
	o.defaults(&store.Postgres{})
	if o.Committers != 2 {
		t.Errorf("given 2: %d committers", o.Committers)
	}
}
