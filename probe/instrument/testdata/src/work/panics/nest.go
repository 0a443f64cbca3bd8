package panics

// Loops two deep whose guards end in the panic they foresee (see instrument's reeval): each
// function panics at outer iteration K, on the line marked "panics: <name>".

// NestIndex panics in a statement of the inner loop.
func NestIndex(xs []int, k int) (s int) {
	for i := 0; i < 10; i++ {
		s += i
		for j := 0; j < 2; j++ {
			s += xs[i*2+j] // panics: NestIndex
		}
	}
	return s
}

// NestSecond panics at the second of the statement's two indexes (the guard's second block).
func NestSecond(ys, xs []int, k int) (s int) {
	for i := 0; i < 10; i++ {
		s += i
		for j := 0; j < 2; j++ {
			ys[i*2+j] = xs[i*2+j] // panics: NestSecond
		}
	}
	return s
}

// NestCond panics in the inner loop's condition, checked again after the body.
func NestCond(xs []int, k int) (s int) {
	for i := 0; i < 10; i++ {
		s += i
		j := 0
		for j <= i && xs[j] >= 0 { // panics: NestCond
			s += j
			j++
		}
	}
	return s
}

// NestContinue panics in the inner loop's condition, checked again after a continue.
func NestContinue(xs []int, k int) (s int) {
	for i := 0; i < 10; i++ {
		s += i
		j := 0
		for j <= i && xs[j] >= 0 { // panics: NestContinue
			j++
			if j > 0 {
				continue
			}
			s += j
		}
	}
	return s
}

// NestIf panics in the condition of an if statement in the inner loop.
func NestIf(xs []int, k int) (s int) {
	for i := 0; i < 10; i++ {
		s += i
		for j := 0; j < 2; j++ {
			if xs[i*2+j] > 0 { // panics: NestIf
				s++
			}
		}
	}
	return s
}

// NestDefine panics in a definition in the inner loop.
func NestDefine(xs []int, k int) (s int) {
	for i := 0; i < 10; i++ {
		s += i
		for j := 0; j < 2; j++ {
			c := xs[i*2+j] // panics: NestDefine
			s += c
		}
	}
	return s
}
