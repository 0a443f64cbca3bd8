package shapes

import "testing"

func TestSizes(t *testing.T) {
	for n := 4; n <= 40; n += 2 {
		xs := make([]int, n)
		for i := range xs {
			xs[i] = i
		}
		Classify(xs)
		Under(xs)
		Find(xs, n/2)
	}
}
