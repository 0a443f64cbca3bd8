package tripedges

type B bool

// named's condition is of a named boolean type.
func named(xs []int, k int) (n int) {
	bs := make([]B, len(xs))
	for i, x := range xs {
		bs[i] = x != k
	}
	for i := 0; bs[i]; i++ {
		n++
	}
	return n
}
