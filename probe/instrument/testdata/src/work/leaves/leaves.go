// Package leaves calls tiny leaf functions (one return of an expression that cannot panic) in
// every position whose calls augur counts at the call site instead of in the leaf: behind && and
// ||, in switch cases, in a node that panics after the call, in a function with a defer, from
// several goroutines; and one leaf that is also used as a value, which is counted in itself.
package leaves

import "sync"

func isDigit(c byte) bool  { return c >= '0' && c <= '9' }
func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func twice(x int) int      { return 2 * x }
func isSpace(c byte) bool  { return c == ' ' }

// Classify counts digits, letters and others of s; a letter or digit run counts once.
func Classify(s string) (digits, letters, runs, other int) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case isDigit(c):
			digits++
		case isLetter(c):
			letters++
		default:
			other++
		}
		if i+1 < len(s) && (isLetter(s[i+1]) || isDigit(s[i+1])) {
			continue
		}
		runs++
	}
	return
}

// Scale doubles xs[i] into ys[i] for i < n: with n beyond len(ys) it panics in the node that
// made the call, after the call (an assignment indexes its left side after evaluating the
// right).
func Scale(xs, ys []int, n int) {
	for i := 0; i < n; i++ {
		ys[i] = twice(xs[i])
	}
}

// Total sums twice xs[i] for i < n: with n beyond len(xs) it panics before the call.
func Total(xs []int, n int) int {
	s := 0
	for i := 0; i < n; i++ {
		s += twice(xs[i])
	}
	return s
}

// Deferred counts spaces with a defer in the function (it keeps a frame).
func Deferred(s string, out *int) {
	defer func() { *out++ }()
	for i := 0; i < len(s); i++ {
		if isSpace(s[i]) {
			*out++
		}
	}
}

// Valued uses isSpace as a value as well.
func Valued(s string) int {
	f := isSpace
	n := 0
	for i := 0; i < len(s); i++ {
		if f(s[i]) || isSpace(s[i]) {
			n++
		}
	}
	return n
}

// Parallel runs Classify on s from g goroutines.
func Parallel(s string, g int) {
	var wg sync.WaitGroup
	for range g {
		wg.Add(1)
		go func() {
			defer wg.Done()
			Classify(s)
		}()
	}
	wg.Wait()
}

// Asserted adds twice i and vs[i] for each i until vs[i] is not an int, and one for each vs[i]
// equal to vs[0]: comparing interfaces has no guard (whether it panics depends on the dynamic
// types), so the locals of Asserted's loop are mirrored for a deferred flush.
func Asserted(vs []any) int {
	s := 0
	for i := range vs {
		s += twice(i)
		if vs[i] == vs[0] {
			s++
		}
		s += vs[i].(int)
	}
	return s
}

// Inexact counts the positive xs[i] for i < n while ok. The guard of its if cannot repeat "ok"
// (a comment in it), so it is true for every i beyond xs whether or not ok is: with ok false
// the guard counts a panic that does not happen, again and again, and Inexact returns.
func Inexact(xs []int, n int, ok bool) int {
	c := 0
	for i := 0; i < n; i++ {
		if (ok /* a comment */) && xs[i] > 0 {
			c++
		}
	}
	return c
}

// pick is a leaf, not a tiny one: it counts its own invocations.
func pick(c byte) int {
	if c == 'a' {
		return 1
	}
	return 0
}

// Picks sums xs[pick(c)] over the bytes c of s: the guard of the index must not call pick again
// (it would count once more).
func Picks(xs []int, s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		n += xs[pick(s[i])]
	}
	return n
}

// span's methods return twice a bound after dereferencing the span, which may be nil: the
// return evaluates its results before it commits, and the call's count is committed with the
// rest.
type span struct{ lo, hi int }

func (s *span) Lo() int { return twice(s.lo) }

// Wide holds its counts in locals (a branch) and commits at each return what it has counted.
func (s *span) Wide(w int) int {
	if w > 3 {
		return twice(s.hi)
	}
	return twice(s.lo) + w
}
