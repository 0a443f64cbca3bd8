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

func BenchmarkInsertionSort(b *testing.B) {
	src := make([]int, 256)
	for i := range src {
		src[i] = (i * 7919) % 1009
	}
	xs := make([]int, len(src))
	for b.Loop() {
		copy(xs, src)
		InsertionSort(xs)
	}
}

func BenchmarkFNV1a(b *testing.B) {
	data := make([]byte, 4096)
	for i := range data {
		data[i] = byte(i * 31)
	}
	for b.Loop() {
		sink += int(FNV1a(data))
	}
}

func BenchmarkTokens(b *testing.B) {
	s := ""
	for i := 0; i < 64; i++ {
		s += "x1 = foo_bar + 42*(baz - 7) / qux_99;\n"
	}
	for b.Loop() {
		i, n, o := Tokens(s)
		sink += i + n + o
	}
}

func BenchmarkSearch(b *testing.B) {
	xs := make([]int, 1024)
	for i := range xs {
		xs[i] = 2 * i
	}
	for b.Loop() {
		for x := 0; x < 2048; x += 7 {
			sink += Search(xs, x)
		}
	}
}

func BenchmarkEditDistance(b *testing.B) {
	x := "the quick brown fox jumps over the lazy dog; pack my box with five dozen liquor jugs"
	y := "the quack brown fix jumped over a lazy dog: pack my bag with five dozen liquid jugs!"
	for b.Loop() {
		sink += EditDistance(x, y)
	}
}

// TestKernels runs every kernel, some of them into panics, for the instrumentation tests.
func TestKernels(t *testing.T) {
	xs := []int{5, 2, 9, 1, 7}
	InsertionSort(xs)
	sink += Sum(xs) + Fib(8) + Collatz(30) + Search(xs, 7) + Search(xs, 0) + EditDistance("kitten", "sitting")
	sink += int(FNV1a([]byte("hello")))
	i, n, o := Tokens("a1 = b + 42*(c_d - 7);")
	sink += i + n + o
	a := []float64{1, 2, 3, 4}
	MatMul(a, a, make([]float64, 4), 2)
	sink += Walk([]int{1, 2, 3, -1}, []int{3, 4, 2, 1}, []int{1, 1, 1, 1}, 0, 9)
	sink += Walk([]int{1, 2, 3, -1}, []int{-1, 4, 2, 1}, []int{1, 1, 1, 1}, 0, 3)
	runReal()
	for _, f := range []func(){
		func() { jsonNumber(nil, 0) },                                                   // index out of range
		func() { partition([]int{1}) },                                                  // index out of range
		func() { (*BTree)(nil).Has(1) },                                                 // nil dereference
		func() { (*parser)(nil).expr() },                                                // in peek, under unary, term and expr
		func() { MatMul(a, a, make([]float64, 3), 2) },                                  // panics storing c[3]
		func() { MatMul(a[:3], a, make([]float64, 4), 2) },                              // panics reading a[3]
		func() { MatMul(a, a, make([]float64, 4), 3) },                                  // panics in the inner loop
		func() { Walk([]int{1, 2, 3, -1}, []int{3, 4, 2, 1}, []int{0, 1, 1, 1}, 0, 9) }, // divides by zero
		func() { Walk([]int{1, 2, 7, -1}, []int{3, 4, 2, 1}, []int{1, 1, 1, 1}, 0, 9) }, // else-if condition
		func() { Walk([]int{1, 2, 3, -1}, []int{3, 4, 9, 1}, []int{1, 1, 1, 1}, 0, 9) }, // switch clause
		func() { Walk([]int{1, 2, 3, 4}, []int{3, 4, 2, 1}, []int{1, 1, 1, 1}, 0, 9) },  // loop condition
		func() { Walk([]int{1, 2, 3, -1}, []int{3, 0, 2, 1}, []int{0, 1, 1, 1}, 0, 9) }, // return
	} {
		func() {
			defer func() { recover() }()
			f()
		}()
	}
}

// runReal runs the real-shaped kernels once on small inputs, errors included.
func runReal() {
	for _, d := range []string{`{"a": [1, -2.5, "x\"y", true, null], "b": {}}`, "[1,", `{"a" 1}`, "tru"} {
		n, _ := JSONValid([]byte(d))
		sink += n
	}
	toks, bad := Lex(`x1 >= 42 "s t" + y # z`, nil)
	sink += len(toks) + bad
	for _, e := range []string{"1 + 2 * (3 - -4) % 5", "1 / 0", "(1"} {
		v, _ := Eval(e)
		sink += v
	}
	var bt BTree
	for i := 0; i < 40; i++ {
		bt.Insert(i * 7 % 41)
	}
	if bt.Has(7) && !bt.Has(100) && !bt.Insert(7) {
		sink++
	}
	sink += Markdown("# h\n- *a* b\n```\nx\n```\npara _b_ *c\n\n  ## h2\nend").Emph
	_, n, all := WordFreq("the fox and The dog", map[string]int{})
	sink += n + all
	xs := make([]int, 40)
	for i := range xs {
		xs[i] = (i * 17) % 41
	}
	QuickSort(xs)
	for _, re := range []string{"^ab*c", "b.*d$", "x$", "a*"} {
		if Match(re, "abbcd") {
			sink++
		}
	}
}
