// Package memimplicit: a store made under a tainted branch carries the
// branch's options (implicit flow through memory).
package memimplicit

import "flag"

var a = flag.Bool("A", false, "")

var level, other int

func Main() {
	if *a { // want {A}
		sink()
		level = 2
	}
	other = 2
	if level == 2 { // want {A}
		sink()
	}
	if other == 2 { // want {}
		sink()
	}
}

func sink() {}
