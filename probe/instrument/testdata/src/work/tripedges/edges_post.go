package tripedges

type node struct {
	next *node
	v    int
}

// post's post statement may panic (p.next with p possibly nil after the body).
func post(xs []int, k int) (n int) {
	var l *node
	for _, x := range xs {
		l = &node{l, x}
	}
	if k > 100 {
		l = nil
	}
	for p := l; p.v != k; p = p.next {
		n++
		if n > 1000 {
			return -1
		}
	}
	switch {
	case n == 1:
		return 1
	case n == 2:
		return 2
	case n == 3:
		return 3
	case n == 4:
		return 4
	case n == 5:
		return 5
	}
	return n
}
