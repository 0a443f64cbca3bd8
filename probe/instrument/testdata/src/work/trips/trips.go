// Package trips holds loops that twins count without a path register (package instrument's
// tripLoop): loops stepping a variable by one or not, whose cycles have outcomes or statements
// of their own, left by their condition, breaks, returns and jumps to outer loops, panicking at
// every node that may panic, in the loop and where it is left; and loops that cannot be counted
// so, for comparison.
package trips

// Run calls loop w; it is an entry, the loops are its twins'.
func Run(w int, xs []int, s string, k int) int {
	switch w {
	case 0:
		return scan(xs, k)
	case 1:
		return classify(s)
	case 2:
		return find(xs, k)
	case 3:
		return nested(xs, k)
	case 4:
		return down(xs, k)
	case 5:
		return forever(xs, k)
	case 6:
		return pairs(xs, k)
	case 7:
		return divide(xs, k)
	case 8:
		return outside(xs, k)
	}
	return leave(xs, k)
}

// Loops is the number of loops Run calls.
const Loops = 10

// scan is partition's scans: their conditions may panic (indexes no loop bounds).
func scan(xs []int, p int) int {
	i, j := -1, len(xs)
	for {
		for i++; xs[i] < p; i++ {
		}
		for j--; j >= 0 && xs[j] > p; j-- {
		}
		if i >= j {
			return i
		}
		xs[i], xs[j] = xs[j], xs[i]
	}
}

// classify has four cycles (a continue, three clauses), a break, a return, and a statement that
// may panic two ways.
func classify(s string) (n int) {
	var open byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == ' ' {
			continue
		}
		if c == '#' {
			break
		}
		if c == '!' {
			return n + 100
		}
		switch open {
		case 0:
			open = c
		case c:
			n++
			open = 0
		default:
			n += int(c) % int(s[i+1]-'a')
		}
	}
	return n
}

// find steps no variable: each of its two cycles counts in a register (it is too large to be
// inlined, so its loop is counted so).
func find(xs []int, k int) int {
	lo, hi := 0, len(xs)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if xs[m] < k {
			lo = m + 1
		} else {
			hi = m
		}
	}
	switch {
	case lo == len(xs):
		return -1
	case xs[lo] == k:
		return lo
	case lo > 0 && xs[lo-1] > k:
		return -2
	case lo > 1 && xs[lo-2] > k:
		return -3
	case lo > 2 && xs[lo-3] > k:
		return -4
	}
	return -5
}

// nested's inner loop jumps to the outer one, breaks after a statement and divides.
func nested(xs []int, k int) (n int) {
outer:
	for a := 0; a < 3; a++ {
		for i := a; i < len(xs); i++ {
			if xs[i] == k {
				continue outer
			}
			if xs[i] < 0 {
				n -= xs[i]
				break
			}
			n += xs[i] / (k - a)
		}
		n++
	}
	return n
}

// down steps down, by -= 1, and indexes past its slice.
func down(xs []int, k int) int {
	for j := len(xs) - 1; j >= 0; j -= 1 {
		if xs[j] > k {
			return j
		}
		if xs[j+k] == 0 {
			return -j
		}
	}
	return -1
}

// forever has no condition: it ends by a break or a panic (a modulo by zero).
func forever(xs []int, k int) (n int) {
	for i := k; ; i++ {
		n += xs[i%len(xs)]
		if i > 20 {
			break
		}
	}
	return n
}

// pairs has four cycles no outcome tells apart (two decisions in a row): it keeps the path
// register.
func pairs(xs []int, k int) (n int) {
	for i := 0; i < len(xs); i++ {
		if xs[i] > k {
			n++
		}
		if xs[i]%2 == 0 {
			n += 2
		}
	}
	return n
}

// divide divides in place (x /= y).
func divide(xs []int, k int) (n int) {
	ys := append([]int(nil), xs...)
	for i := 0; i < len(ys); i++ {
		ys[i] /= k
	}
	for _, y := range ys {
		n += y
	}
	return n
}

// outside steps a variable declared before the loop, from no init and from an assignment.
func outside(xs []int, k int) (n int) {
	i := 0
	for ; i < len(xs) && xs[i] != k; i += 1 {
		n++
	}
	for i = 1; i < k; i++ {
		n += xs[i]
	}
	return n + i
}

// leave panics after leaving its loop, on the way to a return.
func leave(xs []int, k int) int {
	for i := 0; i < len(xs); i++ {
		if xs[i] == k {
			x := xs[i+k]
			return x
		}
	}
	return 0
}
