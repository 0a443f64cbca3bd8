// Command exits leaves its regions by every way out: return, break, goto,
// panic (recovered) and, with -X, os.Exit.
package main

import (
	"flag"
	"os"
	"time"
)

var (
	p = flag.Bool("P", false, "")
	x = flag.Bool("X", false, "exit through os.Exit inside a region")
)

func ms(n int) { time.Sleep(time.Duration(n) * time.Millisecond) }

func ret(p bool) int {
	if p {
		ms(10)
		return 1
	}
	return 0
}

func brk(p bool) {
	for i := 0; i < 3; i++ {
		if p {
			ms(6)
			break
		}
		ms(1)
	}
}

func gt(p bool) {
	if p {
		ms(7)
		goto done
	}
	ms(1)
done:
	ms(2)
}

func pan(p bool) {
	defer func() { recover() }()
	if p {
		ms(8)
		panic("unwind")
	}
}

func main() {
	flag.Parse()
	ms(3)
	ret(*p)
	brk(*p)
	gt(*p)
	pan(*p)
	if *x {
		ms(4)
		os.Exit(0)
	}
}
