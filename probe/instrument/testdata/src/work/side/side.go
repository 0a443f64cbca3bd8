// Package side's twins call package b's functions through their side entries.
package side

import "example.com/work/side/b"

// Scan weighs the classes of s's bytes.
func Scan(s string) (n int) {
	for i := 0; i < len(s); i++ {
		n += weight(b.Class(s[i]))
	}
	return n
}

func weight(c int) int {
	switch c {
	case 1:
		return 3
	case 2:
		return 5
	}
	return 1
}

// Pick adds xs at is, capped; it panics where b.At does.
func Pick(xs, is []int) (sum int) {
	for _, i := range is {
		sum = add(sum, b.At(xs, i))
	}
	return sum
}

func add(x, y int) int {
	if y > 100 {
		return x + 100
	}
	return x + y
}

// Total adds xs' squares to a and caps the total; it panics where a.Add does.
func Total(a *b.Acc, xs []int) int {
	a.Add(xs)
	return clamp(a.N) + b.Max(1, 2) + int(b.Max(0.5, 0.25))
}

func clamp(n int) int {
	if n > 1000 {
		return 1000
	}
	return b.Twice(n) / 2
}

// Late indexes xs through b.At at idx(i, 1): idx's twin, which may panic, returns with the spill word clear (At may
// panic after it in the same node), so At's side entry finds Late's clear.
func Late(xs []int, i int) int {
	return b.At(xs, idx(i, 1))
}

func idx(i, d int) int {
	if i > 2 {
		return i/d + 1
	}
	return i
}
