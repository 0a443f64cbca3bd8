package kern

import "testing"

var sink int

func BenchmarkSum(b *testing.B) {
	xs := make([]int, 4096)
	for i := range xs {
		xs[i] = i
	}
	for b.Loop() {
		sink += Sum(xs)
	}
}

func BenchmarkMatMul(b *testing.B) {
	const n = 48
	a, m, c := make([]float64, n*n), make([]float64, n*n), make([]float64, n*n)
	for i := range a {
		a[i], m[i] = float64(i%7), float64(i%5)
	}
	for b.Loop() {
		MatMul(a, m, c, n)
	}
}

func BenchmarkFib(b *testing.B) {
	for b.Loop() {
		sink += Fib(20)
	}
}

func BenchmarkCollatz(b *testing.B) {
	for b.Loop() {
		sink += Collatz(300)
	}
}
