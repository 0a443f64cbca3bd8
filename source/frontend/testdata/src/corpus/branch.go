package corpus

// If has no else.
func If(x int) int {
	if x > 0 {
		x--
	}
	return x
}

// IfElse has an else.
func IfElse(x int) int {
	if x > 0 {
		x--
	} else {
		x++
	}
	return x
}

// IfChain has init statements and an else-if chain.
func IfChain(m map[string]int) string {
	if v, ok := m["a"]; ok && v > 0 {
		return "a"
	} else if w := m["b"]; w > 0 {
		return "b"
	} else if m == nil {
		return "nil"
	} else {
		_ = v
	}
	return ""
}

// IfEmpty has empty branches.
func IfEmpty(x int) {
	if x > 0 {
	} else {
	}
}

// Switch has a tag and several expressions per case.
func Switch(x int) string {
	s := ""
	switch x {
	case 1, 2:
		s = "small"
	case 3:
	case 4:
		s = "four"
	}
	return s
}

// SwitchInit has an init statement, no tag, and a default in the middle.
func SwitchInit(x int) int {
	switch y := x * 2; {
	case y > 10:
		x = 10
	default:
		x = 0
	case y < 0:
		x = -1
	}
	return x
}

// SwitchFallthrough has default first and fallthrough into it and from it.
func SwitchFallthrough(x int) (n int) {
	switch x {
	default:
		n += 1
		fallthrough
	case 1:
		n += 2
	case 2:
		n += 3
		fallthrough
	case 3:
		n += 4
		fallthrough
	case 4:
	}
	return n
}

// SwitchSingle has only a default clause, and an empty switch: neither is a decision.
func SwitchSingle(x int) int {
	switch {
	default:
		x++
	}
	switch x {
	}
	return x
}

// SwitchBreak breaks out of a switch inside a loop and of the loop by label.
func SwitchBreak(xs []int) int {
	n := 0
loop:
	for _, x := range xs {
		switch {
		case x < 0:
			break loop
		case x == 0:
			break
		case x > 100:
			continue
		}
		n += x
	}
	return n
}

// TypeSwitch binds the value in each clause.
func TypeSwitch(v any) string {
	switch t := v.(type) {
	case int, int64:
		return "int"
	case string:
		return t
	case nil:
		return "nil"
	}
	return "other"
}

// TypeSwitchInit has an init statement, no binding, and a default.
func TypeSwitchInit(f func() any) int {
	switch v := f(); v.(type) {
	case error:
		return 1
	default:
		return 0
	}
}
