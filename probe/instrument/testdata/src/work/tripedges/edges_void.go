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

// mapWrite writes into m, nil when k < 0: a write panics where a read does not.
func mapWrite(xs []int, k int) (n int) {
	var m map[int]int
	if k >= 0 {
		m = map[int]int{}
	}
	for i := 0; i < len(xs); i++ {
		m[i] = xs[i]
		n++
	}
	return n + len(m)
}
