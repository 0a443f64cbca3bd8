// Command gotoin jumps back into a region from after its end: the region
// starts at a labelled statement, and the goto skips the entry probe placed
// before the label. Each sleep is noted under its region (package slept).
package main

import (
	"flag"
	"time"

	"example.com/timingdata/slept"
)

var p = flag.Bool("P", false, "")

// ms sleeps n tens of milliseconds.
func ms(region string, n int) { slept.Sleep(region, time.Duration(n)*10*time.Millisecond) }

func back(p bool) {
	n := 0
again:
	if p {
		ms("back", 2)
	}
	n++
	ms("base", 1)
	if n < 3 {
		goto again
	}
}

func main() {
	flag.Parse()
	back(*p)
	slept.Report()
}
