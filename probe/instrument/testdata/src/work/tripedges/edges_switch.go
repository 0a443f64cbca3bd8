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
