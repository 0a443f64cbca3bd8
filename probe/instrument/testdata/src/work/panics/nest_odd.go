package panics

// Guards at odd places (not gofmt'd): a statement right after a brace or a colon, a labelled
// statement, a labelled loop, a continue to an outer loop, a condition on two lines.

// OddBrace's statement follows the brace of its block: an outcome's counter goes there.
func OddBrace(xs []int, k int) (s int) {
	for i := 0; i < 10; i++ {
		for j := 0; j < 2; j++ {
			if j >= 0 {xs[i*2+j] = i} // panics: OddBrace
			s += j
		}
	}
	return s
}

// OddColon's statement follows the colon of its case clause.
func OddColon(xs []int, k int) (s int) {
	for i := 0; i < 10; i++ {
		for j := 0; j < 2; j++ {
			switch j {
			case 0:xs[i*2] = i // panics: OddColon
			default:s++
			}
		}
	}
	return s
}

// OddLabel's statement carries a label a goto jumps to.
func OddLabel(xs []int, k int) (s int) {
	for i := 0; i < 10; i++ {
		j := 0
	again:
		xs[i*2+j] = i // panics: OddLabel
		s++
		if j++; j < 2 {
			goto again
		}
	}
	return s
}

// OddOuter's inner loop is labelled and continues its outer loop from inside.
func OddOuter(xs []int, k int) (s int) {
outer:
	for i := 0; i < 10; i++ {
		s += i
		j := 0
	inner:
		for j <= i && xs[j] >= 0 { // panics: OddOuter
			j++
			if j == 3 {
				continue outer
			}
			if j == 5 {
				break inner
			}
			s += j
		}
	}
	return s
}

// OddLines's condition spans two lines: it is not evaluated again, the guard joins the loop.
func OddLines(xs []int, k int) (s int) {
	for i := 0; i < 10; i++ {
		j := 0
		for j <= i &&
			xs[j] >= 0 { // panics: OddLines
			s += j
			j++
		}
	}
	return s
}

// OddFor's statement follows the brace of a loop's body.
func OddFor(xs []int, k int) (s int) {
	for i := 0; i < 10; i++ {
		for j := 0; j < 2; j++ {xs[i*2+j] = i} // panics: OddFor
		s++
	}
	return s
}
