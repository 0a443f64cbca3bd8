package tripedges

// bsearch's lo and hi are parameters: x[m] is marked safe by the binary-search rule.
func bsearch(x []int, k int, lo, hi int) int {
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if x[m] < k {
			lo = m + 1
		} else {
			hi = m
		}
	}
	r := lo
	lo, a := 0, 1
	hi, b := len(x), 2
	return r + lo + hi + a + b
}

// control is bsearch without the redeclarations (x[m] not marked safe).
func control(x []int, k int, lo, hi int) int {
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if x[m] < k {
			lo = m + 1
		} else {
			hi = m
		}
	}
	r := lo
	a := 1
	b := 2
	return r + a + b
}
