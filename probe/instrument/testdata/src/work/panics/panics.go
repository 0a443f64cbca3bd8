// Package panics has one loop per kind of operation that can panic; each panics at iteration k
// (the instrumentation's table test checks the counts of every loop against the truth).
package panics

import "errors"

// Index panics indexing xs (len k) at i == k.
func Index(xs []int, k int) (s int) {
	for i := 0; i < 10; i++ {
		s += i
		s += xs[i]
	}
	return s
}

// Slice panics slicing xs (cap k) at i == k.
func Slice(xs []int, k int) (s int) {
	for i := 0; i < 10; i++ {
		s += i
		s += len(xs[:i+1])
	}
	return s
}

// Convert panics converting xs[i:] (len k+1) to an array pointer at i == k.
func Convert(xs []int, k int) (s int) {
	for i := 0; i < 10; i++ {
		s += i
		s += (*[2]int)(xs[i:])[0]
	}
	return s
}

// Deref panics dereferencing ps[k], nil.
func Deref(ps []*int, k int) (s int) {
	for i := 0; i < 10; i++ {
		s += i
		s += *ps[i]
	}
	return s
}

type pair struct{ a, b int }

// header's fields are named like builtins the guards call: they shadow nothing, and the
// package's loops still get guards.
type header struct{ len, cap int }

// Field panics reading a field through ps[k], nil.
func Field(ps []*pair, k int) (s int) {
	for i := 0; i < 10; i++ {
		s += i
		s += ps[i].b
	}
	return s
}

// Addr panics taking the address of a field through ps[k], nil.
func Addr(ps []*pair, k int) (s int) {
	for i := 0; i < 10; i++ {
		s += i
		s += *(&ps[i].b)
	}
	return s
}

// NilMap panics writing to a nil map at i == k.
func NilMap(k int) (s int) {
	m := map[int]int{}
	for i := 0; i < 10; i++ {
		s += i
		if i == k {
			m = nil
		}
		m[i] = s
	}
	return s
}

// Assert panics asserting vs[k], a string, to int.
func Assert(vs []any, k int) (s int) {
	for i := 0; i < 10; i++ {
		s += i
		s += vs[i].(int)
	}
	return s
}

// Div panics dividing by k-i at i == k.
func Div(k int) (s int) {
	for i := 0; i < 10; i++ {
		s += i
		s += 100 / (k - i)
	}
	return s
}

// Mod panics taking 100 modulo k-i at i == k.
func Mod(k int) (s int) {
	for i := 0; i < 10; i++ {
		s += i
		s += 100 % (k - i)
	}
	return s
}

// DivAssign panics at s /= k-i at i == k.
func DivAssign(k int) (s int) {
	for i := 0; i < 10; i++ {
		s += i + 1000
		s /= k - i
	}
	return s
}

// DivCond panics in an if condition at i == k.
func DivCond(k int) (s int) {
	for i := 0; i < 10; i++ {
		s += i
		if 100/(k-i) > 30 {
			s++
		}
	}
	return s
}

// ModSwitch panics in a switch tag at i == k.
func ModSwitch(k int) (s int) {
	for i := 0; i < 10; i++ {
		s += i
		switch 100 % (k - i) {
		case 0:
			s++
		}
	}
	return s
}

// Shift panics shifting by a negative count at i == k.
func Shift(k int) (s int) {
	for i := 0; i < 10; i++ {
		s += i
		s += 1 << (k - i - 1)
	}
	return s
}

// ShiftAssign panics at s <<= k-i-1 at i == k.
func ShiftAssign(k int) (s int) {
	for i := 0; i < 10; i++ {
		s += i
		s <<= k - i - 1
	}
	return s
}

// Compare panics comparing vs[k], a slice, in an interface.
func Compare(vs []any, k int) (s int) {
	for i := 0; i < 10; i++ {
		s += i
		if vs[i] == vs[k] {
			s++
		}
	}
	return s
}

// Send panics sending on ch, closed at i == k.
func Send(ch chan int, k int) (s int) {
	for i := 0; i < 10; i++ {
		s += i
		if i == k {
			close(ch)
		}
		ch <- i
	}
	return s
}

// Call panics in f at i == k.
func Call(f func(int) int, k int) (s int) {
	for i := 0; i < 10; i++ {
		s += i
		s += f(i)
	}
	return s
}

// IndexCond panics in the loop condition reading xs[k].
func IndexCond(xs []int, k int) (s int) {
	i := 0
	for xs[i] >= 0 {
		s += i
		i++
	}
	return s
}

// ErrPanic is what Call's function panics with.
var ErrPanic = errors.New("k")
