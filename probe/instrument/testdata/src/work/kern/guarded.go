package kern

// Walk follows next from i for at most steps steps, summing along the way; bad indexes and zero
// divisors panic in a loop condition, an else-if condition, a switch clause and a return (for
// the instrumentation tests of guarded register loops; not a benchmark kernel).
func Walk(next, vals, divs []int, i, steps int) int {
	s := 0
	for steps > 0 && next[i] >= 0 {
		steps--
		if vals[i] < 0 {
			continue
		} else if vals[next[i]] == 0 {
			return s + vals[i]/divs[i]
		}
		switch vals[i] % 3 {
		case 0:
			s += vals[i] / divs[i]
		case 1:
			s += vals[vals[next[i]]]
		}
		i = next[i]
	}
	return s
}
