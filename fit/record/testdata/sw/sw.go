// Package sw has a switch with a fallthrough, a type switch without a default and a select, whose
// clauses augur fit record counts per invocation.
package sw

// Classify counts, over xs = 0..n-1 with n even and at least 4: case 1 four times, case 2 and
// the default (n-4)/2 times each (the fallthrough into the default is not its outcome); the type
// switch's implicit default once; the select's default once when ch is nil.
func Classify(xs []int, ch chan int) int {
	s := 0
	for _, x := range xs {
		switch {
		case x < 4:
			s += 3
		case x%2 == 0:
			s++
			fallthrough
		default:
			s--
		}
	}
	var v any = s
	switch v.(type) {
	case string:
		s = 0
	case bool:
		s = 1
	}
	select {
	case ch <- s:
	default:
	}
	return s
}
