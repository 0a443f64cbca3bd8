// Command lifted lifts work's region to its call site inside a region of
// main's list merged from the decisions around it (examples/lz4's main).
// The region of the last decision, growing backwards, must stop at the end
// of the enclosing region, not just at the end of the lifted one.
package main

import (
	"flag"
	"time"
)

var (
	p = flag.Bool("P", false, "")
	q = flag.Bool("Q", false, "")
	v = flag.Bool("V", false, "")
)

func ms(n int) { time.Sleep(time.Duration(n) * time.Millisecond) }

func work(p, q bool) int {
	if p && q {
		ms(3)
		return 1
	}
	return 0
}

func main() {
	flag.Parse()
	ms(1)
	if *p {
		ms(2)
	}
	n := work(*p, *q)
	ms(1)
	if n > 0 {
		ms(4)
	}
	if *v {
		ms(5)
	}
}
