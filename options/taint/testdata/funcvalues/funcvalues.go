// Package funcvalues: calling a function chosen by an option is a tainted
// calling context for the callee.
package funcvalues

import "flag"

var a = flag.Bool("A", false, "")

func fast(n int) {
	if n > 1 { // want {A}
		sink()
	}
}

func slow(n int) {
	if n > 1 { // want {A}
		sink()
	}
}

func plain(n int) {
	if n > 1 { // want {}
		sink()
	}
}

func Main() {
	f := slow
	if *a { // want {A}
		sink()
		f = fast
	}
	f(2)
	g := plain
	g(2)
}

func sink() {}
