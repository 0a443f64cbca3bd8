package corpus

import "iter"

// ForThree is a three-clause loop.
func ForThree(n int) int {
	s := 0
	for i := 0; i < n; i++ {
		s += i
	}
	return s
}

// ForCond has only a condition.
func ForCond(n int) int {
	for n > 1 {
		n /= 2
	}
	return n
}

// ForEver has no condition and leaves by break.
func ForEver(n int) int {
	for {
		n--
		if n < 0 {
			break
		}
	}
	return n
}

// ForNoCond has init and post but no condition, and a continue.
func ForNoCond(n int) int {
	for i := 0; ; i++ {
		if i%2 == 0 {
			continue
		}
		if i > n {
			return i
		}
	}
}

// ForEmpty has an empty body.
func ForEmpty(n int) int {
	i := 0
	for ; i < n; i++ {
	}
	return i
}

// ForInfinite never ends: the statements after it are unreachable.
func ForInfinite() {
	for {
	}
	println("never")
}

// RangeSlice ranges over a slice with index and value.
func RangeSlice(xs []int) int {
	s := 0
	for i, x := range xs {
		s += i * x
	}
	return s
}

// RangeArray ranges over an array and a pointer to an array.
func RangeArray(a [4]int, p *[3]int) int {
	s := 0
	for _, x := range a {
		s += x
	}
	for i := range p {
		s += p[i]
	}
	return s
}

// RangeString ranges over the runes of a string.
func RangeString(s string) (n int) {
	for _, r := range s {
		if r == ' ' {
			n++
		}
	}
	return n
}

// RangeMap ranges over a map, assigning to existing variables.
func RangeMap(m map[string]int) (k string, v int) {
	for k, v = range m {
		if v > 10 {
			break
		}
	}
	return k, v
}

// RangeChan ranges over a channel.
func RangeChan(ch <-chan int) int {
	s := 0
	for x := range ch {
		s += x
	}
	return s
}

// RangeInt ranges over an integer, with and without a variable.
func RangeInt(n int) int {
	s := 0
	for i := range n {
		s += i
	}
	for range 3 {
		s++
	}
	return s
}

// RangeFunc ranges over an iterator, with break, continue and return in the body.
func RangeFunc(seq iter.Seq2[int, string]) string {
	out := ""
	for i, s := range seq {
		if i == 0 {
			continue
		}
		if s == "" {
			break
		}
		if s == "stop" {
			return out
		}
		out += s
	}
	return out
}

// Countdown is an iterator written as a function.
func Countdown(n int) iter.Seq[int] {
	return func(yield func(int) bool) {
		for i := n; i > 0; i-- {
			if !yield(i) {
				return
			}
		}
	}
}

// RangeFuncDefer has a defer in a range-over-func body: it belongs to RangeFuncDefer.
func RangeFuncDefer(n int) {
	for i := range Countdown(n) {
		defer println(i)
	}
}

// NestedContinue continues an outer loop from an inner one.
func NestedContinue(grid [][]int) int {
	n := 0
outer:
	for i := range grid {
		for j := 0; j < len(grid[i]); j++ {
			if grid[i][j] < 0 {
				continue outer
			}
			if grid[i][j] == 0 {
				break outer
			}
			n++
		}
		n *= 2
	}
	return n
}

// GotoLoop makes a loop with goto.
func GotoLoop(n int) int {
	i := 0
again:
	i++
	if i < n {
		goto again
	}
	return i
}

// GotoForward jumps forward out of nested statements.
func GotoForward(xs []int) int {
	for _, x := range xs {
		if x < 0 {
			goto fail
		}
	}
	return 0
fail:
	return -1
}

// GotoLabelledLoop jumps back to a labelled three-clause loop (to its init statement).
func GotoLabelledLoop(n int) int {
	tries := 0
retry:
	for i := 0; i < n; i++ {
		if i == 3 && tries < 2 {
			tries++
			goto retry
		}
	}
	return tries
}
