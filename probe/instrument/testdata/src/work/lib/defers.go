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
