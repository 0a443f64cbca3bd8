package leaves

import (
	"runtime"
	"testing"
	"time"
)

const text = "ab1 22 x_y9 Z"

func TestLeaves(t *testing.T) {
	// Parallel's goroutines call wg.Done before their counts are committed, when they return
	// (see "An invocation is committed when it returns" in the README): wait until they have
	// returned, here where nothing is counted.
	before := runtime.NumGoroutine()
	Parallel(text, 8)
	for end := time.Now().Add(time.Second); runtime.NumGoroutine() > before && time.Now().Before(end); {
		runtime.Gosched()
	}
	func() {
		defer func() { recover() }()
		Scale([]int{1, 2, 3}, make([]int, 2), 3)
	}()
	func() {
		defer func() { recover() }()
		Total([]int{1, 2, 3, 4}, 6)
	}()
	func() {
		defer func() { recover() }()
		Asserted([]any{1, 2, "x", 4})
	}()
	Inexact([]int{1, 2}, 5, false)
	func() {
		defer func() { recover() }()
		Inexact([]int{1, 2}, 5, true)
	}()
	var n int
	Deferred(text, &n)
	Valued(text)
	Picks([]int{1, 2}, text)
	s := &span{1, 2}
	for w := range 6 {
		s.Lo()
		s.Wide(w)
	}
	for _, f := range []func(){func() { (*span)(nil).Lo() }, func() { (*span)(nil).Wide(1) }, func() { (*span)(nil).Wide(5) }} {
		func() {
			defer func() { recover() }()
			f()
		}()
	}
}
