// Package corpus holds one function per construct the front end must represent, for the golden
// and property tests of package frontend. Nothing here is meant to be run.
package corpus

import "fmt"

// Simple has one statement of each simple kind.
func Simple(ch chan int) int {
	x := 1
	x += 2
	var y, z int
	const c = 3
	type local struct{ a int }
	x++
	y--
	ch <- x
	fmt.Println(x, y, z, c, local{})
	return x
}

// Empty has an empty body.
func Empty() {}

// Blocks has nested blocks, one of them empty.
func Blocks() int {
	x := 0
	{
		x++
		{
			x *= 2
		}
	}
	{
	}
	return x
}

// LabelAtEnd ends its body with a label on an empty statement.
func LabelAtEnd(n int) {
	if n > 0 {
		goto out
	}
	n++
out:
}

// Closure has statements inside a function literal, which are expressions of Closure.
func Closure(xs []int) func() int {
	sum := 0
	f := func() int {
		for _, x := range xs {
			sum += x
		}
		return sum
	}
	return f
}

// Fib is recursive.
func Fib(n int) int {
	if n < 2 {
		return n
	}
	return Fib(n-1) + Fib(n-2)
}

// Unreachable has statements after a return.
func Unreachable(x int) int {
	return x
	x++
	return x + 1
}

// GoStmt starts goroutines.
func GoStmt(ch chan int) {
	go func() {
		ch <- 1
	}()
	go fmt.Println("x")
	<-ch
}

// T is a type with methods.
type T struct{ n int }

// Inc has a pointer receiver.
func (t *T) Inc() { t.n++ }

// Get has a value receiver.
func (t T) Get() int { return t.n }

// List is generic.
type List[E any] struct{ items []E }

// Push is a method of a generic type.
func (l *List[E]) Push(e E) { l.items = append(l.items, e) }

// Map is a generic function.
func Map[A, B any](xs []A, f func(A) B) []B {
	out := make([]B, 0, len(xs))
	for _, x := range xs {
		out = append(out, f(x))
	}
	return out
}
