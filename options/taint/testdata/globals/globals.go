// Package globals: taint through package variables.
package globals

import "flag"

var a = flag.Bool("A", false, "")

var g, h bool

func set() { g = *a; h = false }

func Main() {
	set()
	if g { // want {A}
		sink()
	}
	if h { // want {}
		sink()
	}
}

func sink() {}
