// Package work is the recorder's test subject: one loop linear in a slice's length, one
// quadratic in an integer, one that halves.
package work

// Work sums xs and counts pairs below n.
func Work(xs []int, n int, name string) int {
	s := 0
	for _, x := range xs {
		s += x
	}
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			s++
		}
	}
	for k := len(name); k > 1; k /= 2 {
		s--
	}
	return s
}
