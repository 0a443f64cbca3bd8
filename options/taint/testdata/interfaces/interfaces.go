// Package interfaces: values through interface conversions and dynamic
// method calls resolved by VTA.
package interfaces

import "flag"

var a = flag.Bool("A", false, "")

type Checker interface{ Check(bool) }

type impl struct{}

func (impl) Check(p bool) {
	if p { // want {A}
		sink()
	}
}

type quiet struct{}

func (quiet) Check(p bool) {
	if p { // want {}
		sink()
	}
}

func Main() {
	var c Checker = impl{}
	c.Check(*a)
	var q Checker = quiet{}
	q.Check(false)
	var i any = *a
	if i.(bool) { // want {A}
		sink()
	}
	var j any = true
	if j.(bool) { // want {}
		sink()
	}
}

func sink() {}
