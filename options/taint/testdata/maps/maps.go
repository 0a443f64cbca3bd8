// Package maps: keys and values of a map share its taint.
package maps

import "flag"

var a = flag.Bool("A", false, "")

func Main() {
	m := map[string]bool{}
	m["k"] = *a
	n := map[string]bool{"k": true}
	if m["other"] { // want {A}
		sink()
	}
	for k := range m { // want {A}
		sink()
		_ = k
	}
	if n["k"] { // want {}
		sink()
	}
}

func sink() {}
