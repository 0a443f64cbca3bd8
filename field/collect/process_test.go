package collect

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime/pprof"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/augur-perf/augur/field/store"
	"github.com/augur-perf/augur/internal/pgtest"
)

// TestMain doubles as a collector process: with AUGUR_COLLECT_CHILD set the test binary serves
// the store named in its environment, so that tests can kill it with SIGKILL and measure it
// apart from its clients.
func TestMain(m *testing.M) {
	if os.Getenv("AUGUR_COLLECT_CHILD") != "" {
		if err := child(); err != nil {
			fmt.Fprintln(os.Stderr, "collector:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func child() error {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer stop()
	pg := os.Getenv("AUGUR_COLLECT_PG")
	st, err := store.Open(ctx, os.Getenv("AUGUR_COLLECT_DB"), pg)
	if err != nil {
		return err
	}
	defer st.Close()
	if path := os.Getenv("AUGUR_COLLECT_CPUPROFILE"); path != "" {
		f, err := os.Create(path)
		if err != nil {
			return err
		}
		pprof.StartCPUProfile(f)
		defer pprof.StopCPUProfile()
	}
	var o Options
	if pg != "" {
		o.Committers = 4
	}
	addrFile := os.Getenv("AUGUR_COLLECT_ADDRFILE")
	return Serve(ctx, os.Getenv("AUGUR_COLLECT_ADDR"), "", "", New(st, o, nil), func(a net.Addr) {
		os.WriteFile(addrFile+".tmp", []byte(a.String()), 0o644)
		os.Rename(addrFile+".tmp", addrFile)
	})
}

type collector struct {
	cmd  *exec.Cmd
	addr string
}

// startCollector starts a collector process on addr (":0" for any port) over the SQLite file db
// or, when pg is set, the PostgreSQL server pg.
func startCollector(t testing.TB, db, pg, addr string) *collector {
	t.Helper()
	addrFile := filepath.Join(t.TempDir(), "addr")
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "AUGUR_COLLECT_CHILD=1", "AUGUR_COLLECT_DB="+db, "AUGUR_COLLECT_PG="+pg,
		"AUGUR_COLLECT_ADDR="+addr, "AUGUR_COLLECT_ADDRFILE="+addrFile)
	cmd.Stderr = os.Stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(20 * time.Second); ; {
		if b, err := os.ReadFile(addrFile); err == nil {
			return &collector{cmd: cmd, addr: string(b)}
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatal("the collector did not start within 20 s")
		}
		time.Sleep(2 * time.Millisecond)
	}
}

func (c *collector) kill() {
	c.cmd.Process.Signal(syscall.SIGKILL)
	c.cmd.Wait()
}

func (c *collector) stop() {
	c.cmd.Process.Signal(syscall.SIGTERM)
	c.cmd.Wait()
}

// cpu is the CPU time the collector process has used so far (user and system).
func (c *collector) cpu() time.Duration {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", c.cmd.Process.Pid))
	if err != nil {
		return 0
	}
	// The fields after the command name (which may hold spaces) start at state, field 3.
	f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+2:]))
	utime, _ := strconv.ParseInt(f[11], 10, 64)
	stime, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(utime+stime) * 10 * time.Millisecond // USER_HZ is 100 on Linux
}

// peakRSS is the collector process's peak resident set, in bytes.
func (c *collector) peakRSS() int64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", c.cmd.Process.Pid))
	if err != nil {
		return -1
	}
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "VmHWM:" {
			kb, _ := strconv.ParseInt(f[1], 10, 64)
			return kb << 10
		}
	}
	return -1
}

func send(client *http.Client, addr, token string, body []byte) (int, error) {
	code, _, err := sendTo(client, "http://"+addr+"/v1/packages", token, body)
	return code, err
}

// sendTo posts body to url and returns the status and the answer.
func sendTo(client *http.Client, url, token string, body []byte) (int, []byte, error) {
	req, err := http.NewRequest("POST", url, bytes.NewReader(body))
	if err != nil {
		return 0, nil, err
	}
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := client.Do(req)
	if err != nil {
		return 0, nil, err
	}
	answer, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	return resp.StatusCode, answer, err
}

// TestKillNine kills the collector with SIGKILL at random moments, at least 20 times, while
// clients send packages, alone or in batches, and retry whatever was not acknowledged: in the
// end every package acknowledged is in the store exactly once, with the counts that were sent.
func TestKillNine(t *testing.T) {
	if testing.Short() {
		t.Skip("starts and kills a collector process 20 times")
	}
	db := filepath.Join(t.TempDir(), "f.sqlite")
	st, tok, _ := setup(t, db)
	st.Close()
	killNine(t, tok, db, "", 1)
}

// TestKillNinePostgres does the same with two collectors in front of one PostgreSQL server,
// killing one or the other; clients alternate between them, so a retry often reaches the other
// collector.
func TestKillNinePostgres(t *testing.T) {
	if testing.Short() {
		t.Skip("starts and kills collector processes 20 times")
	}
	srv := pgtest.Start(t)
	st, err := store.OpenPostgres(context.Background(), srv.DSN)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := st.AddRelease(ctx, testManifest("r1", 20, 4, 6)); err != nil {
		t.Fatal(err)
	}
	id, tok, hash, err := store.NewToken()
	if err != nil {
		t.Fatal(err)
	}
	if err := st.AddToken(ctx, id, "r1", hash); err != nil {
		t.Fatal(err)
	}
	st.Close()
	killNine(t, tok, "", srv.DSN, 2)
}

func killNine(t *testing.T, tok, db, pg string, collectors int) {
	m := testManifest("r1", 20, 4, 6)
	addrs := make([]string, collectors)
	cur := make([]*collector, collectors)
	for i := range addrs {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		addrs[i] = ln.Addr().String()
		ln.Close()
		cur[i] = startCollector(t, db, pg, addrs[i])
	}

	// Clients send at least perClient packages each, and go on until the last kill.
	const clients, perClient, kills = 8, 300, 20
	var mu sync.Mutex
	acked := map[string]uint64{} // site/seq → the count sent
	var killing atomic.Bool
	killing.Store(true)
	sent := make([]uint64, clients)
	var failed atomic.Int64 // attempts a kill cut off (connection refused or reset)
	var wg sync.WaitGroup
	deadline := time.Now().Add(120 * time.Second)
	for c := 0; c < clients; c++ {
		wg.Add(1)
		go func(c int) {
			defer wg.Done()
			client := &http.Client{Timeout: 2 * time.Second}
			site := fmt.Sprintf("site%d", c)
			try := c
			// Odd clients send batches of 1 to 8 packages, as a runtime with a backlog does:
			// a batch is acknowledged when every package of it is accepted or a duplicate.
			for seq := uint64(1); seq <= perClient || killing.Load(); {
				k := uint64(1)
				path := "/v1/packages"
				if c%2 == 1 {
					k, path = 1+rand.Uint64N(8), "/v1/batches"
				}
				var body []byte
				for i := range k {
					body = append(body, encode(t, testPackage(m, c%4+1, site, seq+i, (seq+i)*10+uint64(c)))...)
				}
				for {
					if time.Now().After(deadline) {
						t.Errorf("%s: seq %d not acknowledged before the deadline", site, seq)
						return
					}
					try++
					code, answer, err := sendTo(client, "http://"+addrs[try%collectors]+path, tok, body)
					if err == nil && code == 200 && path == "/v1/batches" {
						if acks := bytes.Count(answer, []byte(`"accepted"`)) + bytes.Count(answer, []byte(`"duplicate"`)); acks != int(k) {
							t.Errorf("%s seq %d: a batch of %d answered %s", site, seq, k, answer)
							return
						}
					}
					if err == nil && code == 200 {
						break
					}
					if err == nil && code != 503 && code != 429 {
						t.Errorf("%s seq %d: status %d", site, seq, code)
						return
					}
					if err != nil {
						failed.Add(1)
					}
					time.Sleep(time.Duration(2+rand.IntN(10)) * time.Millisecond)
				}
				mu.Lock()
				for i := range k {
					acked[fmt.Sprintf("%s/%d", site, seq+i)] = (seq+i)*10 + uint64(c)
				}
				mu.Unlock()
				seq += k
				sent[c] = seq - 1
			}
		}(c)
	}
	killed := 0
	for ; killed < kills && time.Now().Before(deadline); killed++ {
		time.Sleep(time.Duration(20+rand.IntN(100)) * time.Millisecond)
		i := rand.IntN(collectors)
		cur[i].kill()
		cur[i] = startCollector(t, db, pg, addrs[i])
	}
	killing.Store(false)
	wg.Wait()
	for _, c := range cur {
		c.stop()
	}
	if killed < kills {
		t.Errorf("%d kills before the deadline, want %d", killed, kills)
	}
	st, err := store.Open(context.Background(), db, pg)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	stored := map[string]uint64{}
	err = st.Scan(context.Background(), "r1", func(r *store.Record) error {
		key := fmt.Sprintf("%s/%d", r.Site, r.Seq)
		if _, twice := stored[key]; twice {
			t.Errorf("%s stored twice", key)
		}
		stored[key] = r.Counts[0].N
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for key, n := range acked {
		if got, ok := stored[key]; !ok || got != n {
			t.Errorf("acknowledged %s (count %d) is stored as %d, %v", key, n, got, ok)
		}
	}
	total := 0
	for _, n := range sent {
		total += int(n)
	}
	if len(acked) != total || total < clients*perClient || len(stored) != len(acked) {
		t.Errorf("%d acknowledged, %d stored; want %d each (at least %d)", len(acked), len(stored), total, clients*perClient)
	}
	if failed.Load() == 0 {
		t.Error("no request failed: the kills did not interrupt the load")
	}
	t.Logf("%d kills of %d collectors cut off %d requests; %d packages acknowledged, each stored once", killed, collectors, failed.Load(), len(acked))
}

// benchCollect sends b.N packages from 256 clients to the collectors at addrs (round robin),
// batch packages per request (one alone to /v1/packages, more as a batch to /v1/batches), and
// reports packages acknowledged per second, client-side p50 and p99 latency of a request, and
// the peak resident set of the largest collector.
func benchCollect(b *testing.B, tok string, cols []*collector, bound, batch int) {
	m := testManifest("r1", 1000, 12, bound)
	const clients = 256
	// Client c sends packages c, c+clients, c+2·clients, … in requests of batch packages.
	var bodies [][]byte
	var sizes []int
	mine := make([][]int, clients) // each client's requests, indices into bodies and sizes
	for c := 0; c < clients; c++ {
		for i := c; i < b.N; i += clients * batch {
			var body []byte
			n := 0
			for k := i; k < b.N && k < i+clients*batch; k += clients {
				body = append(body, encode(b, testPackage(m, c%12+1, fmt.Sprintf("bench%d", c), uint64(k/clients+1), uint64(k+2)))...)
				n++
			}
			mine[c] = append(mine[c], len(bodies))
			bodies, sizes = append(bodies, body), append(sizes, n)
		}
	}
	path := "/v1/packages"
	if batch > 1 {
		path = "/v1/batches"
	}
	lat := make([][]time.Duration, clients)
	var next atomic.Int64
	var wg sync.WaitGroup
	var cpu0 time.Duration
	for _, c := range cols {
		cpu0 += c.cpu()
	}
	b.ResetTimer()
	start := time.Now()
	for c := 0; c < clients; c++ {
		wg.Add(1)
		go func(c int) {
			defer wg.Done()
			client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 4}}
			url := "http://" + cols[c%len(cols)].addr + path
			for _, i := range mine[c] {
				t0 := time.Now()
				for {
					code, answer, err := sendTo(client, url, tok, bodies[i])
					if err != nil {
						b.Error(err)
						return
					}
					if code == 200 && batch > 1 && bytes.Count(answer, []byte(`"accepted"`)) != sizes[i] {
						b.Errorf("a batch of %d answered %s", sizes[i], answer)
						return
					}
					if code == 200 {
						break
					}
					if code != 503 && code != 429 {
						b.Errorf("status %d", code)
						return
					}
					time.Sleep(time.Millisecond)
				}
				lat[c] = append(lat[c], time.Since(t0))
				next.Add(int64(sizes[i]))
			}
		}(c)
	}
	wg.Wait()
	elapsed := time.Since(start)
	b.StopTimer()
	var all []time.Duration
	for _, l := range lat {
		all = append(all, l...)
	}
	sort.Slice(all, func(i, j int) bool { return all[i] < all[j] })
	var rss int64
	var batches, batched float64
	cpu := -cpu0
	for _, c := range cols {
		cpu += c.cpu()
		rss = max(rss, c.peakRSS())
		resp, err := http.Get("http://" + c.addr + "/metrics")
		if err != nil {
			b.Fatal(err)
		}
		text, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		for _, line := range strings.Split(string(text), "\n") {
			if v, ok := strings.CutPrefix(line, "augur_field_commit_batch_packages_count "); ok {
				n, _ := strconv.ParseFloat(v, 64)
				batches += n
			}
			if v, ok := strings.CutPrefix(line, "augur_field_commit_batch_packages_sum "); ok {
				n, _ := strconv.ParseFloat(v, 64)
				batched += n
			}
		}
	}
	if len(all) > 0 {
		b.ReportMetric(float64(next.Load())/elapsed.Seconds(), "pkgs/s")
		b.ReportMetric(float64(all[len(all)/2].Microseconds())/1000, "p50-ms")
		b.ReportMetric(float64(all[len(all)*99/100].Microseconds())/1000, "p99-ms")
		b.ReportMetric(float64(rss)/(1<<20), "peak-RSS-MB")
		b.ReportMetric(batched/max(batches, 1), "pkgs/commit")
		// The collectors' CPU time per package bounds what they can take on an idle machine
		// (cores / this), whatever else competed for the processors during the run.
		b.ReportMetric(float64(cpu.Microseconds())/float64(next.Load()), "collector-CPU-µs/pkg")
	}
}

func benchSetup(b *testing.B, st store.Store, bound int) string {
	ctx := context.Background()
	if err := st.AddRelease(ctx, testManifest("r1", 1000, 12, bound)); err != nil {
		b.Fatal(err)
	}
	id, tok, hash, err := store.NewToken()
	if err != nil {
		b.Fatal(err)
	}
	if err := st.AddToken(ctx, id, "r1", hash); err != nil {
		b.Fatal(err)
	}
	return tok
}

// benchBounds are the probes per variant of the benchmarks' releases: each package counts every
// probe of its variant, so they are also the counts per package (about 16 bytes of JSON each).
// benchBatches are the packages per request: one alone, and batches of a runtime that found
// several packages in its spool.
var (
	benchBounds  = []int{10, 100}
	benchBatches = []int{1, 32}
)

func benchEach(b *testing.B, run func(b *testing.B, bound, batch int)) {
	for _, bound := range benchBounds {
		for _, batch := range benchBatches {
			b.Run(fmt.Sprintf("counts=%d/batch=%d", bound, batch), func(b *testing.B) { run(b, bound, batch) })
		}
	}
}

// BenchmarkCollectSQLite: one collector process, SQLite, loopback. Bounded by -benchtime
// (for example -benchtime=50000x).
func BenchmarkCollectSQLite(b *testing.B) { benchEach(b, benchSQLite) }

func benchSQLite(b *testing.B, bound, batch int) {
	db := filepath.Join(b.TempDir(), "f.sqlite")
	st, err := store.OpenSQLite(context.Background(), db)
	if err != nil {
		b.Fatal(err)
	}
	tok := benchSetup(b, st, bound)
	st.Close()
	col := startCollector(b, db, "", "127.0.0.1:0")
	defer col.stop()
	benchCollect(b, tok, []*collector{col}, bound, batch)
}

// BenchmarkCollectPostgres: two collector processes in front of one PostgreSQL server (a
// throw-away cluster with its default durability), loopback.
func BenchmarkCollectPostgres(b *testing.B) { benchEach(b, benchPostgres) }

func benchPostgres(b *testing.B, bound, batch int) {
	srv := pgtest.Start(b)
	st, err := store.OpenPostgres(context.Background(), srv.DSN)
	if err != nil {
		b.Fatal(err)
	}
	tok := benchSetup(b, st, bound)
	st.Close()
	cols := []*collector{startCollector(b, "", srv.DSN, "127.0.0.1:0"), startCollector(b, "", srv.DSN, "127.0.0.1:0")}
	defer func() {
		for _, c := range cols {
			c.stop()
		}
	}()
	benchCollect(b, tok, cols, bound, batch)
}
