// Command conc enters its region from two goroutines at once.
package main

import (
	"flag"
	"sync"
	"time"
)

var p = flag.Bool("P", false, "")

func work(p bool) {
	if p {
		time.Sleep(5 * time.Millisecond)
	}
}

func main() {
	flag.Parse()
	var wg sync.WaitGroup
	for i := 0; i < 2; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			work(*p)
		}()
	}
	wg.Wait()
}
