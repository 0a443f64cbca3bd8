// Package kern holds CPU-bound kernels for BenchmarkProbeOverhead.
package kern

// Sum is a tight summing loop.
func Sum(xs []int) int {
	s := 0
	for i := 0; i < len(xs); i++ {
		s += xs[i]
	}
	return s
}

// MatMul multiplies n×n matrices with nested loops.
func MatMul(a, b, c []float64, n int) {
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			s := 0.0
			for k := 0; k < n; k++ {
				s += a[i*n+k] * b[k*n+j]
			}
			c[i*n+j] = s
		}
	}
}

// Fib is recursive.
func Fib(n int) int {
	if n < 2 {
		return n
	}
	return Fib(n-1) + Fib(n-2)
}

// Collatz is a branchy loop.
func Collatz(limit int) int {
	total := 0
	for x := 1; x < limit; x++ {
		n := x
		for n != 1 {
			if n%2 == 0 {
				n /= 2
			} else {
				n = 3*n + 1
			}
			total++
		}
	}
	return total
}

// InsertionSort sorts xs in place.
func InsertionSort(xs []int) {
	for i := 1; i < len(xs); i++ {
		x := xs[i]
		j := i - 1
		for j >= 0 && xs[j] > x {
			xs[j+1] = xs[j]
			j--
		}
		xs[j+1] = x
	}
}

// FNV1a hashes bytes.
func FNV1a(data []byte) uint64 {
	h := uint64(14695981039346656037)
	for _, c := range data {
		h ^= uint64(c)
		h *= 1099511628211
	}
	return h
}

// Tokens counts identifiers, numbers and operators in s, skipping spaces.
func Tokens(s string) (idents, numbers, ops int) {
	i := 0
	for i < len(s) {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n':
			i++
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_':
			for i < len(s) && (s[i] >= 'a' && s[i] <= 'z' || s[i] >= 'A' && s[i] <= 'Z' || s[i] == '_' || s[i] >= '0' && s[i] <= '9') {
				i++
			}
			idents++
		case c >= '0' && c <= '9':
			for i < len(s) && s[i] >= '0' && s[i] <= '9' {
				i++
			}
			numbers++
		default:
			i++
			ops++
		}
	}
	return idents, numbers, ops
}

// Search is a binary search for x in the sorted xs: the index of the first element ≥ x.
func Search(xs []int, x int) int {
	lo, hi := 0, len(xs)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if xs[m] < x {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// EditDistance is the Levenshtein distance of a and b (dynamic programming over two rows).
func EditDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
