// Command lifted lifts work's region to its call site inside a region of
// main's list merged from the decisions around it (examples/lz4's main).
// The region of the last decision, growing backwards, must stop at the end
// of the enclosing region, not just at the end of the lifted one. Each sleep
// is noted under the optimised region it is in (package slept), for
// options/timing's TestLiftedCrossing.
package main

import (
	"flag"
	"time"

	"example.com/regionsdata/slept"
)

var (
	p = flag.Bool("P", false, "")
	q = flag.Bool("Q", false, "")
	v = flag.Bool("V", false, "")
)

func ms(region string, n int) { slept.Sleep(region, time.Duration(n)*time.Millisecond) }

func work(p, q bool) int {
	if p && q {
		ms("merged", 3)
		return 1
	}
	return 0
}

func main() {
	flag.Parse()
	ms("merged", 1)
	if *p {
		ms("merged", 2)
	}
	n := work(*p, *q)
	ms("merged", 1)
	if n > 0 {
		ms("merged", 4)
	}
	if *v {
		ms("last", 5)
	}
	slept.Report()
}
