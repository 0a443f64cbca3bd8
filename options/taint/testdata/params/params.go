// Package params: taint through parameters.
package params

import "flag"

var a = flag.Bool("A", false, "")

func Main() {
	f(*a)
	g(true)
}

func f(p bool) {
	if p { // want {A}
		sink()
	}
}

func g(p bool) {
	if p { // want {}
		sink()
	}
}

func sink() {}
