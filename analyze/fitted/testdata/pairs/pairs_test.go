package pairs

import "testing"

func TestSizes(t *testing.T) {
	for n := 1; n <= 20; n++ {
		xs := make([]int, n)
		for i := range xs {
			xs[i] = i
		}
		Pairs(xs)
	}
}
