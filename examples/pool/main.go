// Command pool is a worker pool whose regions run on several goroutines:
// 12 jobs on 4 workers, each job compressed (2 units) and checked (1 unit)
// when those options are on, and a report (3 units) written by main. The
// work is sleeps, so its costs are known in closed form: in wall time, 3
// rounds of 4 jobs, compress costs 6 units, check 3 and the report 3; the
// goroutines' wall time summed over them is 24, 12 and 3 units, but their
// CPU time next to nothing: they wait.
package main

import (
	"flag"
	"sync"
	"time"
)

var (
	compress = flag.Bool("compress", false, "compress every job (2 units each)")
	check    = flag.Bool("check", false, "check every job (1 unit each)")
	report   = flag.Bool("report", false, "write a report (3 units, on main)")
	unit     = flag.Duration("unit", 10*time.Millisecond, "the time unit")
)

const (
	jobs    = 12
	workers = 4
)

func job(u time.Duration) {
	if *compress {
		time.Sleep(2 * u)
	}
	if *check {
		time.Sleep(u)
	}
}

func main() {
	flag.Parse()
	u := *unit
	if *report {
		time.Sleep(3 * u)
	}
	queue := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range queue {
				job(u)
			}
		}()
	}
	for j := 0; j < jobs; j++ {
		queue <- j
	}
	close(queue)
	wg.Wait()
}
