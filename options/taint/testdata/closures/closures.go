// Package closures: free variables and variables captured by reference.
package closures

import "flag"

var a = flag.Bool("A", false, "")
var b = flag.Bool("B", false, "")

func Main() {
	x := *a
	f := func() {
		if x { // want {A}
			sink()
		}
	}
	f()
	v := false
	set := func() { v = *b }
	set()
	if v { // want {B}
		sink()
	}
	y := false
	g := func() {
		if y { // want {}
			sink()
		}
	}
	g()
}

func sink() {}
