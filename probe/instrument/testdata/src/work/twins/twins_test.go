package twins

import "testing"

var sink int

// TestTwins runs every shape once or many times; package instrument's TestTwins checks the counts.
func TestTwins(t *testing.T) {
	var v T
	for i := 0; i < 1000; i++ {
		sink += v.Add(i, i)
		sink += v.Sum(i, i%20, 3, 30)
		sink += Spawn(i % 12)
		sink += UsesGeneric(i % 15)
	}
	for i := 0; i < 100_000; i++ {
		// Half of them panic through mustPos's entry, recovered here by Caught's deferred
		// call.
		if Caught(i%2*2-1) != -1 && i%2 == 0 {
			t.Fatal("Caught did not recover")
		}
	}
	sink += Deep(10)
	for _, s := range []string{"ab", "", "c"} {
		func() {
			defer func() { recover() }()
			sink += Tupled(s, 5)
		}()
		func() {
			defer func() { recover() }()
			sink += Halved(make([]int, len(s)))
		}()
		func() {
			defer func() { recover() }()
			sink += Halved2(make([]int, len(s)))
		}()
		func() {
			defer func() { recover() }()
			sink += Halved3(make([]int, len(s)), sum4)
		}()
	}
	for k := 0; k < 7; k++ {
		func() {
			defer func() { recover() }()
			sink += Headers([]int{3, 2, 1, 0, 5}, k)
		}()
		func() {
			defer func() { recover() }()
			sink += Cuts([]int{3, 2, 1, 0, 5}, k)
		}()
		func() {
			defer func() { recover() }()
			sink += SafeSum([]int{3, 2, 1, 0, 5}, k%3)
		}()
	}
	for _, w := range []string{"", "a", "Hello World", "aeiou AEIOU xyz", "QQ qq Qa aQ"} {
		n, v := Words(w)
		sink += n + v
	}
	xs := []int{1, 2, 3, 4}
	for i := 0; i < 30; i++ {
		func() {
			defer func() { recover() }()
			var vs []any
			if i%5 == 0 {
				vs = []any{nil, i, "x"}
			}
			sink += SumAt(xs, vs, i%3, i%6)
		}()
	}
	// Late, LatePick and LateEvens panic indexing after their calls.
	for _, f := range []func(){func() { sink += Late(xs, 9) }, func() { sink += LatePick(xs, 9) },
		func() { sink += LateEvens(xs, 3) }, func() { sink += LateEvens(xs, 9) }} {
		func() {
			defer func() { recover() }()
			f()
		}()
	}
	if v.n == 0 || sink == 0 {
		t.Fatal("nothing ran")
	}
}
