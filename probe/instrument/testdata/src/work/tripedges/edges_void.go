package tripedges

func clr(xs []int, k int) (n int) {
	for i := 0; i < 3; i++ {
		clear(xs[i+k:])
		n++
	}
	return n
}

func del(xs []int, k int) (n int) {
	m := map[int]int{1: 1, 2: 2}
	for i := 0; i < 3; i++ {
		delete(m, xs[i+k])
		n++
	}
	return n + len(m)
}
