package tripedges

// recvInit's init is a receive (a cut before the loop).
func recvInit(ch chan int, xs []int) (n int) {
	for v := <-ch; v > 0; v-- {
		n += 2
		if v == 3 {
			break
		}
	}
	if n > 5 {
		n++
	}
	return n
}

func labeled(xs []int, k int) (n int) {
L:
	for i := 0; i < len(xs); i++ {
		if xs[i] == k {
			continue L
		}
		if xs[i] > 8 {
			break L
		}
		n += xs[i]
	}
	return n
}

// outerPanic: a trip loop in an outer loop, panicking on the second pass.
func outerPanic(xs []int, k int) (n int) {
	for a := 0; a < 3; a++ {
		n++
		for i := 0; i < len(xs)+a; i++ {
			if xs[i] == k {
				n += 2
			} else {
				n += 3
			}
		}
	}
	return n
}

type Idx int

// namedIdx steps a variable of a namedIdx 64-bit type.
func namedIdx(xs []int, k int) (n int) {
	for i := Idx(k); i < 10; i++ {
		n += xs[i]
		if n > 7 {
			n--
		}
	}
	return n
}

// tswPanic: the type switch shadows i, and a statement in its clause may panic.
func tswPanic(xs []int, k int) int {
	var vs []any
	for _, x := range xs {
		vs = append(vs, x)
	}
	s := 0
	for i := 0; i < len(vs); i++ {
		switch i := vs[i].(type) {
		case int:
			s += xs[i+k]
		}
	}
	return s
}

// mid: a site statement in the middle, a return and a division.
func mid(xs []int, k int) (n int) {
	for i := 0; i < len(xs); i++ {
		if xs[i] == 5 {
			n++
			continue
		}
		n += 100 / (xs[i] - k)
		if n > 50 {
			return n
		}
	}
	return n
}

// atTop is a counted loop at the top of its function (no init statement: its head is the
// function's first node), in a function too large to be inlined.
func atTop(xs []int, k int) (n int) {
	for n < len(xs) {
		if xs[n] > k {
			n += 2
			continue
		}
		n++
	}
	switch {
	case n > 10:
		n -= 10
	case n > 5:
		n -= 5
	case n > 3:
		n -= 3
	case n > 1:
		n--
	}
	for _, x := range xs {
		if x < 0 {
			n += x
		}
	}
	return n
}
