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
