// Package shapes has the shapes a parametric model must get right beyond Pairs' nested loops: a
// switch whose cases' frequencies depend on the input's size, and a loop under an if inside a
// loop.
package shapes

// Classify, over xs = 0..n-1 with n even and at least 4, takes case 1 four times and case 2 and
// the default (n-4)/2 times each: probabilities 4/n, (n-4)/2n and (n-4)/2n. A call costs
// (n+1) + n + 5·4 + 2·(n-4)/2 + 1·(n-4)/2 = 3.5n + 15 by its annotations.
func Classify(xs []int) int {
	s := 0
	for _, x := range xs { // @cost=1
		switch { // @cost=1
		case x < 4:
			s += 3 // @cost=5
		case x%2 == 0:
			s++ // @cost=2
		default:
			s-- // @cost=1
		}
	}
	return s
}

// Under runs its inner loop only for even elements: over xs = 0..n-1, the if holds for half of
// the outer loop's iterations, and the inner loop iterates i times for each even i.
func Under(xs []int) int {
	s := 0
	for i := range xs { // @cost=1
		if xs[i]%2 == 0 { // @cost=1
			for j := 0; j < i; j++ { // @cost=1
				s += xs[j] // @cost=1
			}
		}
	}
	return s
}

// Find returns the index of the first element at least limit: a loop left early by a return, so
// that not every iteration comes back to its head.
func Find(xs []int, limit int) int {
	for i, x := range xs { // @cost=1
		if x >= limit { // @cost=1
			return i // @cost=3
		}
	}
	return -1
}
