// Package slices: element-based taint per allocation class.
package slices

import "flag"

var a = flag.Bool("A", false, "")

func Main() {
	s := []bool{false, false}
	s[1] = *a
	t := append([]bool(nil), s...)
	u := []bool{false}
	if t[0] { // want {A}
		sink()
	}
	if u[0] { // want {}
		sink()
	}
}

func sink() {}
