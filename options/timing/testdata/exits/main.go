// Command exits leaves its regions by every way out: return, break, goto,
// panic (recovered) and, with -X, os.Exit. Each sleep is noted under the
// region it is in (package slept).
package main

import (
	"flag"
	"os"
	"time"

	"example.com/timingdata/slept"
)

var (
	p = flag.Bool("P", false, "")
	x = flag.Bool("X", false, "exit through os.Exit inside a region")
)

func ms(region string, n int) { slept.Sleep(region, time.Duration(n)*time.Millisecond) }

func ret(p bool) int {
	if p {
		ms("ret", 10)
		return 1
	}
	return 0
}

func brk(p bool) {
	for i := 0; i < 3; i++ {
		if p {
			ms("brk", 6)
			break
		}
		ms("brk", 1) // in the if's region, which ends at the loop body's end
	}
}

func gt(p bool) {
	if p {
		ms("gt", 7)
		goto done
	}
	ms("gt", 1) // in the if's region, which ends at the label
done:
	ms("base", 2)
}

func pan(p bool) {
	defer func() { recover() }()
	if p {
		ms("pan", 8)
		panic("unwind")
	}
}

func main() {
	flag.Parse()
	ms("base", 3)
	ret(*p)
	brk(*p)
	gt(*p)
	pan(*p)
	if *x {
		ms("exit", 4)
		slept.Report()
		os.Exit(0)
	}
	slept.Report()
}
