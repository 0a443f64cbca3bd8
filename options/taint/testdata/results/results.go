// Package results: taint through results.
package results

import "flag"

var a = flag.Bool("A", false, "")

func get() bool   { return *a }
func other() bool { return len("x") > 0 }

func Main() {
	if get() { // want {A}
		sink()
	}
	if other() { // want {}
		sink()
	}
}

func sink() {}
