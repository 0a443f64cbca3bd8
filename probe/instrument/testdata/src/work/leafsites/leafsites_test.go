package leafsites

import "testing"

var sink int

// TestAll calls every shape on xs of lengths 0 to 6, directly and through Sites, recovering
// their panics; package instrument's TestLeafSites checks the leaves' counts.
func TestAll(t *testing.T) {
	shapes := []func([]int) int{S19, S31, S45, S63, S64}
	for n := range 7 {
		xs := make([]int, n)
		for i := range xs {
			xs[i] = i
		}
		for k, f := range shapes {
			try(func() { sink += f(xs) })
			try(func() { sink += Sites(xs, k) })
		}
	}
}

func try(f func()) {
	defer func() { _ = recover() }()
	f()
}
