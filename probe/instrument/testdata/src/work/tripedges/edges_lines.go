package tripedges

// oneLine: the site of a cycle and a guard at the same offset (not gofmt'd).
func oneLine(xs []int, k int) (n int) {
	for i := 0; i < len(xs); i++ {
		if xs[i] == k {xs[i+k] = 1}
		n++
	}
	return n
}

func withPanic(xs []int, k int) (n int) {
	for i := 0; i < len(xs); i++ {
		if xs[i] == k {
			panic("found")
		}
		n += xs[i]
	}
	return n
}

// multiLine: the index that panics is on the line after the statement's start.
func multiLine(xs []int, k int) (n int) {
	var a int
	for i := 0; i < len(xs)+1; i++ {
		n, a = n+1,
			xs[i+k]
		n += a
	}
	return n
}
