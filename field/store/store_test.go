package store

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"sync"
	"testing"

	"github.com/augur-perf/augur/field/plan"
	"github.com/augur-perf/augur/field/wire"
	"github.com/augur-perf/augur/internal/pgtest"
)

func manifest(release string) *plan.Manifest {
	return &plan.Manifest{Format: plan.Format, Release: release, Strategy: plan.RandomBalanced, Bound: 2,
		Units:    []plan.Unit{{ID: 1, Pos: "a.go:1:1"}, {ID: 2, Pos: "a.go:2:1", Outcomes: 2}, {ID: 3, Pos: "a.go:3:1"}},
		Variants: []plan.Variant{{ID: 1, Probes: []int{1, 2}}, {ID: 2, Probes: []int{3}}}}
}

func pkg(site string, seq uint64, n uint64) *wire.Package {
	return &wire.Package{Format: wire.Format, Release: "r1", Variant: 1, Site: site, Seq: seq, Uptime: float64(seq),
		Counts: []wire.Count{{Probe: 1, N: n}, {Probe: 2, N: n, Out: []uint64{n - 1, 1}}}}
}

func openSQLite(t *testing.T) Store {
	s, err := OpenSQLite(context.Background(), filepath.Join(t.TempDir(), "field.sqlite"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func openPostgres(t *testing.T, dsn string) Store {
	s, err := OpenPostgres(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestSQLite(t *testing.T) { testStore(t, openSQLite(t)) }

func TestPostgres(t *testing.T) {
	srv := pgtest.Start(t, "fsync=off")
	testStore(t, openPostgres(t, srv.DSN))
}

func testStore(t *testing.T, s Store) {
	ctx := context.Background()
	if _, err := s.Release(ctx, "r1"); !errors.Is(err, ErrNotFound) {
		t.Errorf("unregistered release: %v, want ErrNotFound", err)
	}
	if err := s.AddToken(ctx, "x", "r1", "h"); err == nil {
		t.Error("a token for an unregistered release was accepted")
	}
	m := manifest("r1")
	if err := s.AddRelease(ctx, m); err != nil {
		t.Fatal(err)
	}
	if err := s.AddRelease(ctx, m); err != nil {
		t.Errorf("registering the same manifest again: %v", err)
	}
	other := manifest("r1")
	other.Bound = 3
	if err := s.AddRelease(ctx, other); err == nil {
		t.Error("another manifest under a registered name was accepted")
	}
	got, err := s.Release(ctx, "r1")
	if err != nil || !reflect.DeepEqual(got, m) {
		t.Errorf("Release = %+v, %v; want %+v", got, err, m)
	}

	id, token, hash, err := NewToken()
	if err != nil {
		t.Fatal(err)
	}
	if HashToken(token) != hash || len(token) < 40 {
		t.Fatalf("token %q hash %q", token, hash)
	}
	if err := s.AddToken(ctx, id, "r1", hash); err != nil {
		t.Fatal(err)
	}
	if r, err := s.TokenRelease(ctx, hash); err != nil || r != "r1" {
		t.Errorf("TokenRelease = %q, %v", r, err)
	}
	if _, err := s.TokenRelease(ctx, HashToken(token+"x")); !errors.Is(err, ErrNotFound) {
		t.Errorf("unknown token: %v", err)
	}
	if err := s.RevokeToken(ctx, id); err != nil {
		t.Fatal(err)
	}
	if _, err := s.TokenRelease(ctx, hash); !errors.Is(err, ErrNotFound) {
		t.Errorf("revoked token: %v", err)
	}
	if err := s.RevokeToken(ctx, "nope"); !errors.Is(err, ErrNotFound) {
		t.Errorf("revoking an unknown token: %v", err)
	}
	if ts, err := s.Tokens(ctx, "r1"); err != nil || len(ts) != 1 || !ts[0].Revoked || ts[0].ID != id {
		t.Errorf("Tokens = %+v, %v", ts, err)
	}

	fresh, err := s.Commit(ctx, []*wire.Package{pkg("b", 1, 5), pkg("a", 2, 7), pkg("b", 1, 9)})
	if err != nil {
		t.Fatal(err)
	}
	if want := []bool{true, true, false}; !reflect.DeepEqual(fresh, want) {
		t.Errorf("fresh = %v, want %v (a duplicate inside the batch)", fresh, want)
	}
	fresh, err = s.Commit(ctx, []*wire.Package{pkg("a", 2, 1), pkg("a", 1, 3)})
	if err != nil {
		t.Fatal(err)
	}
	if want := []bool{false, true}; !reflect.DeepEqual(fresh, want) {
		t.Errorf("fresh = %v, want %v (a replay of an earlier batch)", fresh, want)
	}
	big := pkg("a", MaxSeq+1, 1)
	if _, err := s.Commit(ctx, []*wire.Package{big}); err == nil {
		t.Error("a seq above MaxSeq was stored")
	}
	var keys []string
	err = s.Scan(ctx, "r1", func(r *Record) error {
		keys = append(keys, fmt.Sprintf("%s/%d/%d", r.Site, r.Seq, r.Counts[0].N))
		if r.Variant != 1 || r.Uptime != float64(r.Seq) || len(r.Counts) != 2 || len(r.Counts[1].Out) != 2 {
			t.Errorf("record %+v", r)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"a/1/3", "a/2/7", "b/1/5"}; !reflect.DeepEqual(keys, want) {
		t.Errorf("Scan = %v, want %v: the first of each key, in site and seq order", keys, want)
	}
}

// TestPostgresCollectorsExactlyOnce commits overlapping batches from several stores (as several
// collectors would, each with its own pool) at once: every key is new for exactly one of them.
func TestPostgresCollectorsExactlyOnce(t *testing.T) {
	srv := pgtest.Start(t, "fsync=off")
	ctx := context.Background()
	stores := []Store{openPostgres(t, srv.DSN), openPostgres(t, srv.DSN), openPostgres(t, srv.DSN)}
	if err := stores[0].AddRelease(ctx, manifest("r1")); err != nil {
		t.Fatal(err)
	}
	const keys, writers = 400, 6
	var mu sync.Mutex
	freshCount := map[uint64]int{}
	var wg sync.WaitGroup
	for w := 0; w < writers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			s := stores[w%len(stores)]
			for start := 0; start < keys; start += 50 {
				var batch []*wire.Package
				for k := start; k < start+50; k++ {
					// Writers walk the keys in different orders, so batches overlap both ways.
					seq := uint64(k + 1)
					if w%2 == 1 {
						seq = uint64(keys - k)
					}
					batch = append(batch, pkg("s", seq, uint64(w+1)))
				}
				fresh, err := s.Commit(ctx, batch)
				if err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				for i, f := range fresh {
					if f {
						freshCount[batch[i].Seq]++
					}
				}
				mu.Unlock()
			}
		}(w)
	}
	wg.Wait()
	for k := uint64(1); k <= keys; k++ {
		if freshCount[k] != 1 {
			t.Errorf("seq %d was new for %d commits, want exactly 1", k, freshCount[k])
		}
	}
	n := 0
	stores[1].Scan(ctx, "r1", func(*Record) error { n++; return nil })
	if n != keys {
		t.Errorf("%d packages stored, want %d", n, keys)
	}
}

func TestCountsRoundTrip(t *testing.T) {
	for _, cs := range [][]wire.Count{
		nil,
		{{Probe: 1, N: 0}},
		{{Probe: 3, N: 1 << 63, Out: []uint64{1<<64 - 1, 0}}, {Probe: 4, N: 7}, {Probe: 1000000, N: 2, Out: []uint64{1, 1, 0}}},
	} {
		got, err := decodeCounts(encodeCounts(cs))
		if err != nil || !reflect.DeepEqual(got, cs) {
			t.Errorf("round trip of %v: %v, %v", cs, got, err)
		}
	}
}

// FuzzDecodeCounts: stored counts that are not what encodeCounts wrote are an error, never a
// panic or a huge allocation, and whatever decodes encodes back to the same bytes.
func FuzzDecodeCounts(f *testing.F) {
	f.Add(encodeCounts([]wire.Count{{Probe: 2, N: 5, Out: []uint64{3, 2}}, {Probe: 9, N: 1}}))
	f.Add([]byte{0x01, 0xff})
	f.Add([]byte{0x01, 0x01, 0xff, 0xff, 0xff, 0x0f})
	f.Fuzz(func(t *testing.T, b []byte) {
		cs, err := decodeCounts(b)
		if err != nil {
			return
		}
		if again := encodeCounts(cs); !reflect.DeepEqual(again, b) && len(b) > 0 {
			// Varints have several encodings of one value (padded with 0x80 bytes): decode the
			// re-encoding and compare values instead.
			cs2, err := decodeCounts(again)
			if err != nil || !reflect.DeepEqual(cs2, cs) {
				t.Fatalf("%x decodes to %v, which encodes to %x, which decodes to %v, %v", b, cs, again, cs2, err)
			}
		}
	})
}

// BenchmarkCommitSQLite commits batches of 2048 packages of 10 counts (the collector's group
// commit under load); ns/op is per package.
func BenchmarkCommitSQLite(b *testing.B) {
	s, err := OpenSQLite(context.Background(), filepath.Join(b.TempDir(), "field.sqlite"))
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	const batch = 2048
	pkgs := make([]*wire.Package, 0, batch)
	seq := uint64(0)
	b.ResetTimer()
	for i := 0; i < b.N; i += batch {
		pkgs = pkgs[:0]
		for k := 0; k < batch && i+k < b.N; k++ {
			seq++
			p := pkg(fmt.Sprintf("site%d", seq%256), seq, 5)
			for c := 3; len(p.Counts) < 10; c++ {
				p.Counts = append(p.Counts, wire.Count{Probe: c, N: 9})
			}
			pkgs = append(pkgs, p)
		}
		if _, err := s.Commit(context.Background(), pkgs); err != nil {
			b.Fatal(err)
		}
	}
}

// IssueToken keeps only the hash of the token it returns, under the id it returns.
func TestIssueToken(t *testing.T) {
	ctx := context.Background()
	s := openSQLite(t)
	if _, _, err := IssueToken(ctx, s, "r1"); err == nil {
		t.Error("a token for an unregistered release")
	}
	if err := s.AddRelease(ctx, manifest("r1")); err != nil {
		t.Fatal(err)
	}
	id, token, err := IssueToken(ctx, s, "r1")
	if err != nil {
		t.Fatal(err)
	}
	if r, err := s.TokenRelease(ctx, HashToken(token)); err != nil || r != "r1" {
		t.Errorf("TokenRelease = %q, %v", r, err)
	}
	if err := s.RevokeToken(ctx, id); err != nil {
		t.Errorf("revoke %s: %v", id, err)
	}
}
