// Package fields: field-based taint: a store to T.F taints loads of T.F on
// any object, other fields stay clean.
package fields

import "flag"

var a = flag.Bool("A", false, "")

type T struct{ F, G bool }

func Main() {
	t := &T{}
	t.F = *a
	u := T{}
	if u.F { // want {A}
		sink()
	}
	if t.G { // want {}
		sink()
	}
}

func sink() {}
