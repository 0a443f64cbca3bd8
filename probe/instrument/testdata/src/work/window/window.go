// Package window runs its functions from several goroutines at once only after many calls from
// one: the overlaps are seen only if the functions' look windows, shut by then, reopen (see
// Shut in package github.com/augur-perf/augur/probe/instrument/rt).
package window

// Steps is a body region: its loop calls nothing, and it commits where it returns.
func Steps(x int) int {
	s := 0
	for i := 0; i < x%8; i++ {
		s += i
	}
	return s
}

// Drain ranges over a channel, which keeps it out of register regions: it counts its invocation
// at entry, pinned.
func Drain(ch <-chan int) int {
	n := 0
	for v := range ch {
		n += v
	}
	return n
}

// Deferred defers a call: it counts in a frame, whose exit hook commits its invocation.
func Deferred(x int) (r int) {
	defer func() { r++ }()
	for i := 0; i < x%4; i++ {
		r += i
	}
	return r
}
