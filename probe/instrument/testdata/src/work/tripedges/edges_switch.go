package tripedges

func tsws(vs []any, k int) int {
	for i := 0; i < len(vs); i++ {
		switch i := vs[i].(type) {
		case string:
			if len(i) == k {
				return 100
			}
		}
	}
	return -1
}

// kinds weighs the ints and strings among vs: a type switch without a default in a counted loop.
func kinds(vs []any, k int) (n int) {
	for i := 0; i < len(vs); i++ {
		switch vs[i].(type) {
		case int:
			n++
		case string:
			n += k
		}
	}
	return n
}
