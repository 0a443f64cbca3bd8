// Package channels: sends taint receives of the same channel, select too.
package channels

import "flag"

var a = flag.Bool("A", false, "")

func Main() {
	ch := make(chan bool, 1)
	ch <- *a
	if <-ch { // want {A}
		sink()
	}
	other := make(chan bool, 1)
	other <- true
	if <-other { // want {}
		sink()
	}
	sel := make(chan bool, 1)
	go func() { sel <- *a }()
	select { // want {}
	case v := <-sel:
		if v { // want {A}
			sink()
		}
	case v := <-other:
		if v { // want {}
			sink()
		}
	}
}

func sink() {}
