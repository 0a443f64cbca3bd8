package router

import (
	"crypto/sha256"
	"encoding/binary"
	"syscall"
	"testing"
)

func TestRoute(t *testing.T) {
	if got := Route(&Request{Kind: Lookup, Key: 1025}); got != table[1] {
		t.Errorf("lookup 1025 = %d, want table[1] = %d", got, table[1])
	}
	if got := Route(&Request{Kind: Loop, Key: 2, Steps: 3}); got != ((2*31+0)*31+1)*31+2 {
		t.Errorf("loop of 3 steps = %d", got)
	}
	body := []byte("augur")
	sum := sha256.Sum256(body)
	if got := Route(&Request{Kind: Hash, Body: body}); got != binary.LittleEndian.Uint64(sum[:8]) {
		t.Errorf("hash = %x", got)
	}
}

// The workloads: each mix as a test (a fixed 20000 calls, for 'augur profile') and as a
// benchmark (one call per op, for timing). The requests are made beforehand, so that the
// benchmarks time Route and nothing else.
var (
	requestsA = MixA.Requests(1<<12, 1)
	requestsB = MixB.Requests(1<<12, 2)
	sink      uint64
)

func serve(reqs []Request, n int) {
	s := uint64(0)
	for i := 0; i < n; i++ {
		s += Route(&reqs[i&(len(reqs)-1)])
	}
	sink = s
}

func TestMixA(t *testing.T) { serve(requestsA, 20000) }
func TestMixB(t *testing.T) { serve(requestsB, 20000) }

func BenchmarkMixA(b *testing.B) { benchServe(b, requestsA) }
func BenchmarkMixB(b *testing.B) { benchServe(b, requestsB) }

// BenchmarkOnlyLookups times lookups alone: a usage that never loops or hashes.
func BenchmarkOnlyLookups(b *testing.B) { benchServe(b, lookups) }

var lookups = Mix{Lookups: 1}.Requests(1<<12, 3)

// benchServe reports, besides the wall time per op, the process's CPU time per op: on a machine
// shared with other work the wall time also counts the time the benchmark waited for a CPU, and
// augur's measured time is CPU time.
func benchServe(b *testing.B, reqs []Request) {
	var r0, r1 syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &r0)
	serve(reqs, b.N)
	syscall.Getrusage(syscall.RUSAGE_SELF, &r1)
	cpu := r1.Utime.Nano() - r0.Utime.Nano() + r1.Stime.Nano() - r0.Stime.Nano()
	b.ReportMetric(float64(cpu)/float64(b.N), "cpu-ns/op")
}
