// Package distance is the running example of the PROPER paper (Stefanakos, Calinescu, Gerasimou,
// "Probabilistic Program Performance Analysis", SEAA 2021) ported to Go: the L1 distance of two
// vectors, which fails when their lengths differ. The annotations say what each part costs: the
// failure costs 7 (say, the price of logging and reporting it) and one step of the loop 2.5 time
// units (say, microseconds on the reference machine).
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
