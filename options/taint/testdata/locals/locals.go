// Package locals: taint through SSA values.
package locals

import "flag"

var a = flag.Bool("A", false, "")

func Main() {
	x := *a
	y := !x
	if y { // want {A}
		sink()
	}
	z := 3
	if z > len("ab") { // want {}
		sink()
	}
}

func sink() {}
