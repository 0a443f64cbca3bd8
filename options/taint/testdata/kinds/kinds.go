// Package kinds: every kind of decision is reported once, && and || chains
// and switch cases grouped.
package kinds

import "flag"

var a = flag.Bool("A", false, "")
var n = flag.Int("N", 1, "")

func Main(xs []int, m map[int]int, ch chan int, v any) {
	k := *n
	for i := 0; i < k; i++ { // want {N}
		sink()
	}
	for range k { // want {N}
		sink()
	}
	for _, x := range xs { // want {}
		sink()
		_ = x
	}
	switch k { // want {N}
	case 1, 2:
		sink()
	case 3:
		sink()
	default:
		sink()
	}
	switch { // want {A, N}
	case *a || k > 3:
		sink()
	case k < 0:
		sink()
	}
	switch v.(type) { // want {}
	case int:
		sink()
	case string:
		sink()
	}
	select { // want {}
	case <-ch:
		sink()
	default:
		sink()
	}
	if *a && (k > 1 || k < -1) { // want {A, N}
		sink()
	}
	y := *a && k > 2
	_ = y
	for j := range 3 { // want {}
		sink()
		_ = j
	}
	for range m { // want {}
		sink()
	}
}

func sink() {}
