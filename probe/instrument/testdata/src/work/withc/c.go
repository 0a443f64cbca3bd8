// Package withc has a file that imports "C" (this one): the go command compiles it from cgo's
// output, which augur cannot rewrite, so its functions are left uncounted, and those of the
// package's other files that call them still build and count.
package withc

// static int twice(int x) { return 2 * x; }
import "C"

// Box holds a number.
type Box struct{ n int }

// Get is a tiny method (a split leaf, were it elsewhere).
func (b Box) Get() int { return b.n }

// Twice is a tiny function.
func Twice(x int) int { return 2 * x }

// CTwice calls C.
func CTwice(x int) int { return int(C.twice(C.int(x))) }
