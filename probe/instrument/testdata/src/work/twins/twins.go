// Package twins has entries and twins of every shape (see package instrument's twins.go):
// methods, unnamed, blank and variadic parameters, named results, panics through entries,
// recovered by callers, goroutines and function values in twins, and functions that get no twin.
package twins

import "unicode/utf8"

// T has methods that call functions of the package: entries.
type T struct{ n int }

// Add has unnamed parameters.
func (T) Add(int, int) int { return add1(2) }

// Sum has a blank parameter, a variadic one and a named result.
func (t *T) Sum(_ int, xs ...int) (s int) {
	for _, x := range xs {
		s += add1(x)
	}
	t.n += s
	return
}

// add1 is called from twins and from outside them (through a function value, a goroutine).
func add1(x int) int {
	if x > 10 {
		return x
	}
	return x + 1
}

// mustPos panics on negative numbers, through the entry when called from outside.
func mustPos(x int) int {
	if x < 0 {
		panic("negative")
	}
	return add1(x)
}

// catch recovers: it is deferred, so it has no twin (recover stops a panic only when called by
// the deferred function itself).
func catch(p *int) {
	if recover() != nil {
		*p = -1
	}
}

// Caught recovers mustPos's panics with catch.
func Caught(x int) (r int) {
	defer catch(&r)
	return mustPos(x)
}

// Spawn calls add1 on another goroutine, through a value and through Twice.
func Spawn(n int) int {
	ch := make(chan int)
	f := add1
	go func() { ch <- add1(n) }()
	return <-ch + f(n) + Twice(n)
}

// Twice calls add1 twice.
func Twice(n int) int { return add1(add1(n)) }

// Max is generic: its twin too (UsesGeneric calls it with inferred type arguments).
func Max[N int | float64](a, b N) N {
	if a > b {
		return a
	}
	return b
}

// UsesGeneric calls Max and add1.
func UsesGeneric(x int) int { return Max(x, add1(x)) }

// Deep recurses through entries and twins: even depths call through a function value.
func Deep(n int) int {
	if n == 0 {
		return 0
	}
	if n%2 == 0 {
		f := Deep
		return f(n-1) + 1
	}
	return Deep(n-1) + add1(n)
}

// At sums xs[:i] and adds xs[i]: it panics in the loop when i > len(xs) (a spill before the
// index, its path cut at the loop's back edge), at the return when i == len(xs) (the return
// counted, then undone).
func At(xs []int, i int) int {
	s := 0
	for j := 0; j < i; j++ {
		s += xs[j]
	}
	return s + xs[i]
}

// Assert panics on a value that is not an int, before calling add1.
func Assert(v any) int {
	if v == nil {
		return add1(0)
	}
	return v.(int) + add1(1)
}

// Late indexes after calling add1, in which nothing may panic: add1's twin never stores the
// spill word, so Late's twin calls it.
func Late(xs []int, i int) int { return add1(i) + xs[i] }

// evens counts the even numbers below n: a loop, and nothing that may panic.
func evens(n int) int {
	c := 0
	for i := 0; i < n; i++ {
		if i%2 == 0 {
			c++
		}
	}
	return c
}

// LateEvens indexes after calling evens, whose twin, like add1's, never stores the spill word.
func LateEvens(xs []int, i int) int { return evens(i) + xs[i] }

// LatePick indexes after calling pick, which may panic: a panic after a twin's return would
// find the twin's spill word, so pick's twin clears it where it returns, and the node starts a
// path of its own.
func LatePick(xs []int, i int) int { return pick(xs, 0) + xs[i] }

// SumAt calls At, Assert, Late and LatePick: an entry, the four twins.
func SumAt(xs []int, vs []any, is ...int) (s int) {
	for _, i := range is {
		s += At(xs, i) + Late(xs, i%3) + LatePick(xs, i%3)
	}
	for _, v := range vs {
		s += Assert(v)
	}
	return s
}

func isVowel(c byte) bool { return c == 'a' || c == 'e' || c == 'i' || c == 'o' || c == 'u' }

func isUp(c byte) bool { return c >= 'A' && c <= 'Z' }

// Words counts vowels and runs, calling derived leaves in a loop condition (after an &&, in an
// ||), in switch cases, in an if and an else if.
func Words(s string) (n, v int) {
	for i := 0; i < len(s); i++ {
		for i < len(s) && (isVowel(s[i]) || isUp(s[i])) {
			v++
			i++
		}
		if i >= len(s) {
			return n, v
		}
		c := s[i]
		switch {
		case isUp(c):
			n++
		case isVowel(c) && isUp(c):
			n--
		default:
			n += add1(0)
		}
		if isVowel(c) {
			v++
		} else if isUp(c) {
			n++
		}
	}
	return n, v
}

// Headers calls and may panic in headers with init and post statements: the cuts and spills go
// inside the conditions.
func Headers(xs []int, k int) (s int) {
	if n := len(xs); add1(n) > 3 {
		s++
	}
	for i := 0; add1(i) < k; i++ {
		s += xs[i]
	}
	for i := k; xs[i] > 0; i-- {
		s--
	}
	switch y := s % 3; {
	case add1(y) == 2:
		s += 2
	case y == 0:
		s--
	}
	return s
}

// pick may panic and is no tiny leaf: calling it cuts paths.
func pick(xs []int, i int) int {
	for xs[i] > 100 {
		i--
	}
	return xs[i]
}

// Cuts calls pick in headers with init and post statements: the paths end inside their
// conditions.
func Cuts(xs []int, k int) (s int) {
	if n := len(xs); pick(xs, n-k) > 1 {
		s++
	}
	for i := 0; pick(xs, i) < k; i++ {
		s += xs[i]
	}
	switch y := s % 3; {
	case pick(xs, y) == 2:
		s += 2
	case y == 0:
		s--
	}
	return s
}

// SafeSum indexes where nothing can panic (its loops bound their indexes) and divides where it
// may.
func SafeSum(xs []int, d int) (s int) {
	for i := 0; i < len(xs); i++ {
		s += add1(xs[i])
	}
	for i := range xs {
		if xs[i] > 2 {
			s += xs[i] / d
		}
	}
	return s
}

// Tupled calls sum2 with DecodeRuneInString's results, through sum2's entry (no room for the
// block), after idxOf's twin returned with its spill set: sum2's panic must not count as idxOf's.
func Tupled(s string, i int) int {
	return idxOf(i, 1) + sum2(utf8.DecodeRuneInString(s))
}

func sum2(r rune, n int) int {
	if n == 0 {
		panic("empty")
	}
	return idxOf(int(r), 1) + n
}

func idxOf(i, d int) int {
	if i > 2 {
		return i/d + 1
	}
	return i
}

// half is a derived leaf: its calls count at their sites (see package instrument's derive.go).
func half(xs []int) int { return len(xs) / 2 }

func sum4(n int) int {
	if n == 0 {
		panic("empty")
	}
	return idxOf(n, 1)
}

// Halved, Halved2 and Halved3 pass half's result to a call that then panics: half returned, and
// its call counts (with twins, without, and in a function that calls a function value).
func Halved(xs []int) int {
	return sum4(half(xs))
}

func Halved2(xs []int) int {
	k := idxOf(len(xs), 1)
	return sum4(half(xs)) + k
}

func Halved3(xs []int, f func(int) int) int {
	return f(half(xs))
}
