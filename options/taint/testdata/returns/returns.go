// Package returns: which return executes depends on a tainted branch.
package returns

import "flag"

var a = flag.Bool("A", false, "")

func enabled() bool {
	if *a { // want {A}
		sink()
		return true
	}
	return false
}

func constant(n int) bool {
	if n > 3 { // want {}
		sink()
		return true
	}
	return false
}

func Main() {
	if enabled() { // want {A}
		sink()
	}
	if constant(1) { // want {}
		sink()
	}
}

func sink() {}
