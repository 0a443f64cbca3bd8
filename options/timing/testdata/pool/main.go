// Command pool hands 12 jobs to 4 workers; with -P each job sleeps 4 ms in
// its region, with -Q main sleeps 10 ms in one of its own.
package main

import (
	"flag"
	"sync"
	"time"
)

var (
	p = flag.Bool("P", false, "")
	q = flag.Bool("Q", false, "")
)

func job(p bool) {
	if p {
		time.Sleep(4 * time.Millisecond)
	}
}

func main() {
	flag.Parse()
	if *q {
		time.Sleep(10 * time.Millisecond)
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
}
