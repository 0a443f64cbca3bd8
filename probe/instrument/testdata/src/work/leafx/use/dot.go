package use

import . "example.com/work/leafx"

// Doubled sums twice each of xs, through the dot import.
func Doubled(xs []int) int {
	s := 0
	for _, x := range xs {
		s += Double(x)
	}
	return s
}
