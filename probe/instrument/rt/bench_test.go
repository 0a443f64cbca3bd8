package rt

import (
	"sync"
	"sync/atomic"
	"testing"
)

// The choice of probe (see package instrument's probe): a function with two probes per call,
// called from 64 goroutines, counting with plain adds to one block (inexact: increments race),
// adds pinned to the P's block (what probes do), sync/atomic adds to one block, and plain adds
// to a block an entry takes and gives back (what twins do), or that a side slot holds (what twins
// called from another package's twins do).

var (
	sharedBlock [64]uint64
	benchC      = Open("AUGUR_RT_BENCH_UNSET", "", "", "", 64, 1, 1)
	benchCs     = *(*[]*[64 + 1 + 2]uint64)(benchC.BlockSlice())
)

//go:noinline
func plainWork(x int) int {
	sharedBlock[1]++
	if x&1 == 0 {
		sharedBlock[2]++
		return x + 1
	}
	return x - 1
}

//go:noinline
func pinnedWork(x int) int {
	{
		p := Pin()
		if p < len(benchCs) {
			benchCs[p][1]++
		} else {
			benchC.Over(1, 1)
		}
		Unpin()
	}
	if x&1 == 0 {
		p := Pin()
		if p < len(benchCs) {
			benchCs[p][2]++
		} else {
			benchC.Over(2, 1)
		}
		Unpin()
		return x + 1
	}
	return x - 1
}

//go:noinline
func atomicWork(x int) int {
	atomic.AddUint64(&sharedBlock[1], 1)
	if x&1 == 0 {
		atomic.AddUint64(&sharedBlock[2], 1)
		return x + 1
	}
	return x - 1
}

//go:noinline
func bareWork(x int) int {
	if x&1 == 0 {
		return x + 1
	}
	return x - 1
}

func benchGoroutines(b *testing.B, f func(int) int) {
	var wg sync.WaitGroup
	n := b.N/64 + 1
	for range 64 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := 0
			for i := range n {
				s += f(i)
			}
			_ = s
		}()
	}
	wg.Wait()
}

func BenchmarkProbeNone(b *testing.B)   { benchGoroutines(b, bareWork) }
func BenchmarkProbePlain(b *testing.B)  { benchGoroutines(b, plainWork) }
func BenchmarkProbePinned(b *testing.B) { benchGoroutines(b, pinnedWork) }
func BenchmarkProbeAtomic(b *testing.B) { benchGoroutines(b, atomicWork) }

// entryWork is pinnedWork through an entry: a block taken and given back (deferred), two plain
// adds into it, as an entry and its twin do (to counters past the spill and mirror words 0 to 8,
// which Put reads).
//
//go:noinline
func entryWork(x int) int {
	bb := Get[[64 + 1 + 2]uint64](benchC)
	defer Put(benchC, bb)
	bb[11]++
	if x&1 == 0 {
		bb[12]++
		return x + 1
	}
	return x - 1
}

func BenchmarkProbeEntry(b *testing.B) { benchGoroutines(b, entryWork) }

// sideWork is entryWork through a side entry (see Side): the caller holds a block of another
// package's counters (w its spill word), whose side slot holds one of benchC's.
//
//go:noinline
func sideWork(w *uint64, x int) int {
	const b = 64 + 1 + 2 // benchC's and benchCaller's blocks: 64 counters and a journal of 1
	bb := Side[[b]uint64](benchC, w, b+1)
	bb[11]++
	r := x - 1
	if x&1 == 0 {
		bb[12]++
		r = x + 1
	}
	SideDone(benchC, bb, b, w)
	return r
}

var benchCaller = Open("AUGUR_RT_BENCH_UNSET", "", "", "", 64, 1, 1, benchC.Unwound)

func BenchmarkProbeSide(b *testing.B) {
	var wg sync.WaitGroup
	n := b.N/64 + 1
	for range 64 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cb := Get[[64 + 1 + 2]uint64](benchCaller)
			defer Put(benchCaller, cb)
			s := 0
			for i := range n {
				s += sideWork(&cb[0], i)
			}
			_ = s
		}()
	}
	wg.Wait()
}
