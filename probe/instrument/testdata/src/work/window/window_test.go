package window

import (
	"sync"
	"testing"
)

var sink int

// drain is Drain of a channel that holds x and 1.
func drain(x int) int {
	ch := make(chan int, 2)
	ch <- x
	ch <- 1
	close(ch)
	return Drain(ch)
}

// TestLate calls Steps, Drain and Deferred 40 000 times from one goroutine, which shuts their
// first windows with nothing else in them, then 200 000 times from each of eight goroutines at
// once.
func TestLate(t *testing.T) {
	s := 0
	for x := range 40_000 {
		s += Steps(x) + drain(x) + Deferred(x)
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := 0
			for x := range 200_000 {
				s += Steps(x) + drain(x) + Deferred(x)
			}
			mu.Lock()
			sink += s
			mu.Unlock()
		}()
	}
	wg.Wait()
	sink += s
}
