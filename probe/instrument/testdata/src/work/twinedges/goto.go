package twinedges

// Goto loops in twins: a backward goto into a case clause (gjson's validobject), a goto loop whose
// head is a condition, one whose head has an init that may panic, and a goto to a for statement
// (no region: such a goto enters the loop by an edge no cut is placed on).

func colon(data []byte, i int) (int, bool) {
	for ; i < len(data); i++ {
		switch data[i] {
		default:
			return i, false
		case ' ':
			continue
		case ':':
			return i + 1, true
		}
	}
	return i, false
}

func object(data []byte, i int) (outi int, ok bool) {
	for ; i < len(data); i++ {
		switch data[i] {
		default:
			return i, false
		case ' ', '\n':
			continue
		case '}':
			return i + 1, true
		case '"':
		key:
			if i, ok = colon(data, i+1); !ok {
				return i, false
			}
			if data[i] == '}' {
				return i + 1, true
			}
			i++
			for ; i < len(data); i++ {
				switch data[i] {
				default:
					return i, false
				case ' ':
					continue
				case '"':
					goto key
				}
			}
			return i, false
		}
	}
	return i, false
}

func gotoCount(n int) (steps int) {
	for i := n; ; steps++ {
	loop:
		if i > 1 {
			i /= 2
			goto loop
		}
		return steps + i
	}
}

func gotoSum(xs []int) (s int) {
	i := 0
again:
	if v := xs[i]; v > 0 {
		s += v
		i++
		goto again
	}
	return s
}

func gotoFor(xs []int) (s int) {
	restarted := false
top:
	for i := 0; i < len(xs); i++ {
		s += xs[i]
		if s > 10 && !restarted {
			restarted = true
			s = 0
			goto top
		}
	}
	return s
}

// gotos calls them all from one twin.
func gotos(data []byte, xs []int) int {
	n := 0
	if i, ok := object(data, 0); ok {
		n += i
	}
	n += gotoCount(len(xs))
	n += gotoFor(xs)
	return n + gotoSum(xs)
}
