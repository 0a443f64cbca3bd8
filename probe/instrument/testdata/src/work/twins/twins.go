// Package twins has entries and twins of every shape (see package instrument's twins.go):
// methods, unnamed, blank and variadic parameters, named results, panics through entries,
// recovered by callers, goroutines and function values in twins, and functions that get no twin.
package twins

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

// Max is generic: no twin.
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
