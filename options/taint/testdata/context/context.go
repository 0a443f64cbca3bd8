// Package context: calls under tainted branches give the callee a calling
// context whose options influence every decision in it, transitively.
package context

import "flag"

var a = flag.Bool("A", false, "")
var b = flag.Bool("B", false, "")

func work(c bool) {
	if c { // want {A, B}
		sink()
	}
	deeper()
}

func deeper() {
	for i := 0; i < 3; i++ { // want {A}
		sink()
	}
}

func free(c bool) {
	if c { // want {B}
		sink()
	}
}

func Main() {
	if *a { // want {A}
		sink()
		work(*b)
	}
	free(*b)
}

func sink() {}
