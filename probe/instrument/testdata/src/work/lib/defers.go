package lib

import (
	"fmt"
	"os"
	"sync"
)

var mu sync.Mutex

// Locked defers a named method.
func Locked(x int) int {
	mu.Lock()
	defer mu.Unlock()
	return x + 1
}

// Safe recovers from a panic in a deferred literal.
func Safe(f func()) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("recovered: %v", r)
		}
	}()
	f()
	return nil
}

// Explicit panics explicitly when x is negative; the caller may recover.
func Explicit(x int) int {
	defer func() {}()
	if x < 0 {
		panic("negative")
	}
	return x
}

// DeferLoop defers in a loop (dynamic order).
func DeferLoop(n int, out *[]int) {
	for i := 0; i < n; i++ {
		defer func() { *out = append(*out, i) }()
	}
	if n > 2 {
		defer func() { *out = append(*out, -1) }()
	}
}

// RecoverLoop recovers in a dynamic-order function.
func RecoverLoop(n int) (r int) {
	defer func() {
		if recover() != nil {
			r = -1
		}
	}()
	for i := 0; i < n; i++ {
		defer func() { r += i }()
	}
	if n == 3 {
		panic("three")
	}
	var m map[string]int
	if n == 4 {
		m["x"] = 1
	}
	return n
}

// DeferPanics has a deferred call that panics on the return chain.
func DeferPanics(x int) int {
	defer func() {
		if x == 7 {
			panic("seven")
		}
	}()
	return x
}

// ExitNow ends the process.
func ExitNow(code int) {
	fmt.Println("exiting", code)
	os.Exit(code)
}

// Select receives in a loop with a select.
func Select(n int) int {
	a, b := make(chan int), make(chan int)
	done := make(chan bool)
	go func() {
		for i := 0; i < n; i++ {
			if i%3 == 0 {
				a <- i
			} else {
				b <- i
			}
		}
		close(done)
	}()
	sa, sb := 0, 0
	for {
		select {
		case v := <-a:
			sa += v
		case v := <-b:
			sb += v
		case <-done:
			return sa*1000 + sb
		}
	}
}

// Nested recursion with defers.
func Depth(n int) (d int) {
	defer func() { d++ }()
	if n == 0 {
		return 0
	}
	return Depth(n - 1)
}

type catcher struct{ err *error }

// catch recovers as a deferred method: the CFG does not show it recovering.
func (c catcher) catch() {
	if r := recover(); r != nil {
		*c.err = fmt.Errorf("caught: %v", r)
	}
}

// NamedRecover recovers with a deferred method from an explicit panic (x < 0) and from an
// implicit one (x == 0).
func NamedRecover(x int) (err error) {
	defer catcher{&err}.catch()
	if x < 0 {
		panic("negative")
	}
	_ = 10 / x
	return nil
}

var three = []int{1, 2, 3}

// Repanic recovers from a callee's implicit panic, but panics again when x > 5.
func Repanic(x int) (n int) {
	defer func() {
		if r := recover(); r != nil {
			if x > 5 {
				panic(r)
			}
			n = -1
		}
	}()
	return at(three, x)
}

func at(xs []int, i int) int { return xs[i] }

// LaterPanic recovers from a nil-map write; an earlier deferred call panics after the recovery
// when x == 9.
func LaterPanic(x int) int {
	defer func() {
		if x == 9 {
			panic("nine")
		}
	}()
	defer func() { recover() }()
	var m map[int]int
	m[x] = 1
	return x
}
