package rt

import (
	"sync/atomic"
	"testing"
)

// The choice of probe: the code augur field build inserts (pinned to the P, a plain add to the
// P's block) against sync/atomic adds to one shared block and plain adds (inexact under
// concurrency: the reference of go test -cover's count mode), each on one goroutine and on
// GOMAXPROCS goroutines at once (RunParallel).

var (
	shared [3]uint64
	plainC [3]uint64
)

func pinned() {
	p := Pin()
	if p < len(testS) {
		testS[p][1]++
	} else {
		Over(1)
	}
	Unpin()
}

func BenchmarkProbe(b *testing.B) {
	for _, c := range []struct {
		name string
		f    func()
	}{
		{"pinned", pinned},
		{"atomic", func() { atomic.AddUint64(&shared[1], 1) }},
		{"plain", func() { plainC[1]++ }},
	} {
		b.Run(c.name, func(b *testing.B) {
			for range b.N {
				c.f()
			}
		})
		b.Run(c.name+"-parallel", func(b *testing.B) {
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					c.f()
				}
			})
		})
	}
}
