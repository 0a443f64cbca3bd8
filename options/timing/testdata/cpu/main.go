// Command cpu runs two workers whose region either computes (-C: 60 M
// rounds of an xorshift each, no allocation, no waiting) or mostly waits
// (-W: 2 M rounds, then 30 ms asleep and 30 ms blocked on a channel main
// closes after 60 ms), while main waits for them.
package main

import (
	"flag"
	"sync"
	"time"
)

var (
	c = flag.Bool("C", false, "")
	w = flag.Bool("W", false, "")
)

var sink [2]uint64

func spin(k int, n int) {
	x := uint64(k + 1)
	for i := 0; i < n; i++ {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
	}
	sink[k] = x
}

func worker(k int, gate chan struct{}) {
	if *c {
		spin(k, 60_000_000)
	}
	if *w {
		spin(k, 2_000_000)
		time.Sleep(30 * time.Millisecond)
		<-gate
	}
}

func main() {
	flag.Parse()
	gate := make(chan struct{})
	var wg sync.WaitGroup
	for k := 0; k < 2; k++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			worker(k, gate)
		}()
	}
	time.Sleep(60 * time.Millisecond)
	close(gate)
	wg.Wait()
}
