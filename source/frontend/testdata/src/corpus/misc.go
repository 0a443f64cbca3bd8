package corpus

// LabelledBlock jumps back to a labelled block, whose label is also where goto lands.
func LabelledBlock(n int) int {
L:
	{
		n--
		if n > 0 {
			goto L
		}
	}
	return n
}

// BreakSelect breaks out of a select only, and continues the loop from a default clause.
func BreakSelect(ch chan int) int {
	for {
		select {
		case x := <-ch:
			if x == 0 {
				break
			}
			return x
		default:
			continue
		}
		return -1
	}
}

// SwitchInSelect nests a switch with a labelled break in a select.
func SwitchInSelect(ch chan int, done chan bool) (n int) {
sel:
	select {
	case x := <-ch:
		switch {
		case x > 0:
			break sel
		case x < 0:
			n = -x
		}
		n++
	case <-done:
	}
	return n
}

// DeferInSelect defers in a clause that returns, and in a clause that does not.
func DeferInSelect(a, b chan int) int {
	select {
	case x := <-a:
		defer println("a")
		return x
	case <-b:
		defer println("b")
	}
	return 0
}

// ClauseDecls declares in clauses and in nested switch init statements.
func ClauseDecls(v any) int {
	switch x := v.(type) {
	case int:
		switch y := x + 1; y {
		case 1:
			return y
		}
	default:
		switch {
		}
	}
	return 0
}
