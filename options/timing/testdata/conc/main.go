// Command conc enters its region from two goroutines at once: each waits
// inside the region until both are in it, then sleeps 5 ms, so the two
// stretches overlap by at least the sleep. Each goroutine notes its stretch
// in the region (package slept).
package main

import (
	"flag"
	"sync"
	"time"

	"example.com/timingdata/slept"
)

var p = flag.Bool("P", false, "")

func work(p bool, in *sync.WaitGroup) {
	if p {
		start := slept.Now()
		in.Done()
		in.Wait()
		time.Sleep(5 * time.Millisecond)
		slept.Note("work", start)
	}
}

func main() {
	flag.Parse()
	var wg, in sync.WaitGroup
	in.Add(2)
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			work(*p, &in)
		}()
	}
	wg.Wait()
	slept.Report()
}
