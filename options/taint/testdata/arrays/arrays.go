// Package arrays: element-based taint for arrays.
package arrays

import "flag"

var a = flag.Bool("A", false, "")

func Main() {
	var arr [2]bool
	arr[0] = *a
	var other [2]bool
	other[0] = true
	i := len("x")
	if arr[i] { // want {A}
		sink()
	}
	if other[i] { // want {}
		sink()
	}
}

func sink() {}
