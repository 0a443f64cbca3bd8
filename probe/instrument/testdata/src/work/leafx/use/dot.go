package use

import (
	. "example.com/work/leafx"
	. "example.com/work/leafx/other"
)

// Doubled sums twice each of xs, through the dot import, and the dots and commas of text.
func Doubled(xs []int, text string) int {
	s := Periods(text)
	for _, x := range xs {
		s += Double(x)
	}
	return s
}
