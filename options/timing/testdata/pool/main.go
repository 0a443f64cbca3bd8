// Command pool hands 12 jobs to 4 workers; with -P each job sleeps 20 ms in
// its region, with -Q main sleeps 30 ms in one of its own. Each sleep is
// noted under its region (package slept).
package main

import (
	"flag"
	"sync"
	"time"

	"example.com/timingdata/slept"
)

var (
	p = flag.Bool("P", false, "")
	q = flag.Bool("Q", false, "")
)

func job(p bool) {
	if p {
		slept.Sleep("job", 20*time.Millisecond)
	}
}

func main() {
	flag.Parse()
	if *q {
		slept.Sleep("main", 30*time.Millisecond)
	}
	jobs := make(chan int)
	var wg sync.WaitGroup
	for i := 0; i < 4; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range jobs {
				job(*p)
			}
		}()
	}
	for i := 0; i < 12; i++ {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	slept.Report()
}
