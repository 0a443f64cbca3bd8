package lib

import "iter"

// Sum is a plain counted loop.
func Sum(n int) int {
	s := 0
	for i := 0; i < n; i++ {
		s += i
	}
	return s
}

// While is a loop with only a condition, and a continue.
func While(n int) int {
	c := 0
	for n > 1 {
		c++
		if n%2 == 0 {
			n /= 2
			continue
		}
		n = 3*n + 1
	}
	return c
}

// Forever loops without condition and leaves with break.
func Forever(n int) int {
	i := 0
	for {
		i++
		if i >= n {
			break
		}
	}
	return i
}

// Ranges ranges over a slice, a map, a string, a channel, an int and a function.
func Ranges(xs []int, m map[string]int, s string, n int) int {
	t := 0
	for _, x := range xs {
		t += x
	}
	for _, v := range m {
		t += v
	}
	for i := range s {
		t += i
	}
	ch := make(chan int, n)
	for i := range n {
		ch <- i
	}
	close(ch)
	for v := range ch {
		t += v
	}
	for v := range count(n) {
		if v > 2 {
			break
		}
		t += v
	}
	for range 3 {
		t++
	}
	return t
}

func count(n int) iter.Seq[int] {
	return func(yield func(int) bool) {
		for i := 0; i < n; i++ {
			if !yield(i) {
				return
			}
		}
	}
}

// Labels uses labelled break and continue.
func Labels(n int) int {
	found := 0
outer:
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			if j > i {
				continue outer
			}
			if i*j > 20 {
				break outer
			}
			found++
		}
	}
	return found
}

// Goto loops with goto.
func Goto(n int) int {
	i := 0
loop:
	if i < n {
		i++
		goto loop
	}
	return i
}

// GotoForever is a goto loop left only by return.
func GotoForever(n int) int {
	i := 0
again:
	i++
	if i == n {
		return i
	}
	goto again
}

// PostPanic dereferences in the post statement of a loop.
type node struct{ next *node }

// Walk follows a list; a nil next panics in the post statement when bad is set.
func Walk(n int, bad bool) int {
	var head *node
	for i := 0; i < n; i++ {
		head = &node{next: head}
	}
	c := 0
	for p := head; p != nil; p = p.next {
		c++
		if bad && c == n {
			p = nil
			continue
		}
	}
	return c
}

// Fib is recursive.
func Fib(n int) int {
	if n < 2 {
		return n
	}
	return Fib(n-1) + Fib(n-2)
}

// Spin loops forever until a panic in a callee.
func Spin(xs []int) {
	i := 0
	for {
		xs[i]++
		i++
	}
}
