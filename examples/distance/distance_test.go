package distance

import (
	"math/rand/v2"
	"testing"
)

func TestL1(t *testing.T) {
	if d, err := L1([]int{1, -2, 3}, []int{0, 2, 3}); err != nil || d != 5 {
		t.Errorf("L1 = %d, %v; want 5, nil", d, err)
	}
	if _, err := L1([]int{1}, nil); err != ErrLength {
		t.Errorf("unequal lengths: err = %v, want ErrLength", err)
	}
}

// TestWorkload is the usage profile of the example: 1000 calls with vector lengths between 0
// and 20, one in ten with vectors of unequal length. `augur profile` runs it to measure how L1
// is used.
func TestWorkload(t *testing.T) {
	r := rand.New(rand.NewPCG(2021, 1))
	total := 0
	for i := 0; i < 1000; i++ {
		n := r.IntN(21)
		m := n
		if i%10 == 9 {
			m = n + 1
		}
		a, b := make([]int, n), make([]int, m)
		for j := range a {
			a[j] = r.IntN(100)
		}
		for j := range b {
			b[j] = r.IntN(100)
		}
		d, err := L1(a, b)
		if (err != nil) != (n != m) {
			t.Fatalf("call %d: err = %v with lengths %d and %d", i, err, n, m)
		}
		total += d
	}
	if total <= 0 {
		t.Fatal("the workload computed no distance")
	}
}

// BenchmarkL1 spends its time in L1 itself (the vectors are made beforehand), so a CPU profile of
// it says what L1's statements cost: `augur analyze --time` turns that into a "time" reward.
func BenchmarkL1(b *testing.B) {
	r := rand.New(rand.NewPCG(2021, 2))
	var as, bs [][]int
	for i := 0; i < 100; i++ {
		n := r.IntN(200)
		m := n
		if i%10 == 9 {
			m++
		}
		a, c := make([]int, n), make([]int, m)
		for j := range a {
			a[j] = r.IntN(100)
		}
		for j := range c {
			c[j] = r.IntN(100)
		}
		as, bs = append(as, a), append(bs, c)
	}
	b.ResetTimer()
	sum := 0
	for i := 0; i < b.N; i++ {
		d, _ := L1(as[i%100], bs[i%100])
		sum += d
	}
	// Used, so that the compiler cannot drop L1's loop body as dead code (it did, inlining L1:
	// the profile then had the loop's counter alone, on the for line).
	sink = sum
}

var sink int
