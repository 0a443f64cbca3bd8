// Package leafsites calls derived leaves (see package instrument's derive.go) in nodes that may
// panic after the leaf returned: a send on a closed channel, a later case of a switch, the right
// operand of an && in an if or a for condition. Each call that returned counts, with twins
// (through Sites) and without (the test's direct calls).
package leafsites

func lv19(xs []int) int { return len(xs) / 2 }
func lv31(xs []int) int { return len(xs) / 2 }
func lv45(xs []int) int { return len(xs) / 2 }
func lv63(xs []int) int { return len(xs) / 2 }
func lv64(xs []int) int { return len(xs) / 2 }

func pz(n int) int {
	if n == 0 {
		panic("zero")
	}
	return n
}

// S19 sends lv19's result on a channel closed for short xs.
func S19(xs []int) int {
	ch := make(chan int, 1)
	if len(xs) < 4 {
		close(ch)
	}
	ch <- lv19(xs)
	return <-ch
}

// S31's second case calls pz, which panics on zero, after calling lv31 in both cases.
func S31(xs []int) int {
	switch {
	case lv31(xs) > 5:
		return 5
	case pz(lv31(xs)) > 0:
		return 1
	}
	return 0
}

// S45's second case indexes xs.
func S45(xs []int) int {
	switch {
	case lv45(xs) > 5:
		return 5
	case xs[2] > 0:
		return 1
	}
	return 0
}

// S63 indexes xs in the right operand of an &&.
func S63(xs []int) int {
	if lv63(xs) >= 0 && xs[3] > 0 {
		return 1
	}
	return 0
}

// S64 does so in a for condition.
func S64(xs []int) int {
	s := 0
	for i := 0; lv64(xs)+1 > i && xs[i+2] >= 0; i++ {
		s++
	}
	return s
}

// Sites calls shape k: the shapes are twins.
func Sites(xs []int, k int) int {
	switch k {
	case 0:
		return S19(xs)
	case 1:
		return S31(xs)
	case 2:
		return S45(xs)
	case 3:
		return S63(xs)
	}
	return S64(xs)
}
