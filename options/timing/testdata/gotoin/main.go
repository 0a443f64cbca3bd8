// Command gotoin jumps back into a region from after its end: the region
// starts at a labelled statement, and the goto skips the entry probe placed
// before the label.
package main

import (
	"flag"
	"time"
)

var p = flag.Bool("P", false, "")

// ms sleeps n tens of milliseconds: shorter sleeps overshoot by as much as they last on a
// busy machine.
func ms(n int) { time.Sleep(time.Duration(n) * 10 * time.Millisecond) }

func back(p bool) {
	n := 0
again:
	if p {
		ms(2)
	}
	n++
	ms(1)
	if n < 3 {
		goto again
	}
}

func main() {
	flag.Parse()
	back(*p)
}
