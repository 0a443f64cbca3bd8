// Package pairs sums the products of all pairs of a slice: n iterations of the outer loop and
// n(n+1)/2 of the inner one, so a call costs 1.5·n(n+1) + 3n + 1 + 2·(n>0) by its annotations.
package pairs

// Pairs sums xs[i]·xs[j] over i ≤ j.
func Pairs(xs []int) int {
	s := 0
	for i := range xs { // @cost=1
		for j := i; j < len(xs); j++ { // @cost=2
			s += xs[i] * xs[j] // @cost=1
		}
	}
	if len(xs) > 0 {
		s-- // @cost=2
	}
	return s
}
