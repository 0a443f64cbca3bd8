// Command options is the running example of ConfigCrusher (Velez et al.,
// "ConfigCrusher: Towards White-Box Performance Analysis for Configurable
// Systems", ASE journal 2020) in Go: ten boolean options A–J, of which J is
// parsed but never used, and sleeps whose lengths depend on the options.
//
// It owns nothing but this example; package taint's tests analyse it and
// expect the influence sets {A}, {A,B}, {A,C}, {D,E,F} and {A}…{I}, with J
// irrelevant. Edit the decisions only together with those tests.
//
// The time unit is the -unit flag (default 1s), so tests can run the
// program with short sleeps. The unit is not one of the paper's options but
// it is declared with flag.Duration, so package sources finds it; it
// influences no decision (it only scales sleeps) and is reported irrelevant
// along with J.
package main

import (
	"flag"
	"time"
)

var (
	a = flag.Bool("A", false, "option A")
	b = flag.Bool("B", false, "option B")
	c = flag.Bool("C", false, "option C")
	d = flag.Bool("D", false, "option D")
	e = flag.Bool("E", false, "option E")
	f = flag.Bool("F", false, "option F")
	g = flag.Bool("G", false, "option G")
	h = flag.Bool("H", false, "option H")
	i = flag.Bool("I", false, "option I")
	j = flag.Bool("J", false, "option J (parsed, never used)")

	unitFlag = flag.Duration("unit", time.Second, "length of one time unit")
)

var unit time.Duration

func sleep(units float64) { time.Sleep(time.Duration(units * float64(unit))) }

func main() {
	flag.Parse()
	unit = *unitFlag
	_ = *j
	sleep(1)
	foo(*a, *b, *c, *d, *e, *f, *g, *h, *i)
}

func foo(a, b, c, d, e, f, g, h, i bool) {
	x := false
	if a {
		sleep(2)
		moo(c)
		x = true
	}
	if b && x {
		sleep(3)
	}
	if d && e && f {
		sleep(5)
	}
	if a {
		sleep(0.1)
	}
	if b {
		sleep(0.2)
	}
	if c {
		sleep(0.3)
	}
	if d {
		sleep(0.4)
	}
	if e {
		sleep(0.5)
	}
	if f {
		sleep(0.6)
	}
	if g {
		sleep(0.7)
	}
	if h {
		sleep(0.8)
	}
	if i {
		sleep(0.9)
	}
}

func moo(c bool) {
	if c {
		sleep(4)
	}
}
