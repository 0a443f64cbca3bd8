// Package phis: a value assigned under a tainted branch takes the branch's
// options at the join (implicit flow through phi nodes).
package phis

import "flag"

var a = flag.Bool("A", false, "")
var b = flag.Bool("B", false, "")

func Main(n int) {
	x := false
	if *a { // want {A}
		sink()
		x = true
	}
	if x { // want {A}
		sink()
	}
	y := 0
	if n > 0 { // want {}
		sink()
		y = 1
	}
	if y == 1 { // want {}
		sink()
	}
	z := *b
	if n > 2 { // want {}
		sink()
		z = true
	}
	if z { // want {B}
		sink()
	}
}

func sink() {}
