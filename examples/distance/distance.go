// Package distance is the running example of the PROPER paper (Stefanakos, Calinescu, Gerasimou,
// SEAA 2021) in Go: the L1 distance of two vectors, which fails when their lengths differ. The
// annotations say what each part costs: the failure 7, one step of the loop 2.5 time units. It
// owns nothing but this example; the README, usage.json and cmd/augur's tests name its lines, so
// it changes only together with them.
package distance

import "errors"

// ErrLength reports vectors of unequal length.
var ErrLength = errors.New("distance: vectors of unequal length")

// L1 returns Σ|a[i]-b[i]|.
func L1(a, b []int) (int, error) {
	if len(a) != len(b) {
		return 0, ErrLength // @cost=7
	}
	d := 0
	for i := 0; i < len(a); i++ {
		// @time=2.5
		d += abs(a[i] - b[i])
	}
	return d, nil
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
