// Package withc's file imports "C": the go command compiles it from cgo's output, which augur
// cannot rewrite.
package withc

// static int twice(int x) { return 2 * x; }
import "C"

// Scale calls C n times.
func Scale(n int) int {
	s := 0
	for i := 0; i < n; i++ {
		s += int(C.twice(C.int(i)))
	}
	return s
}
