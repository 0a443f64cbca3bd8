package leaves

import "testing"

const text = "ab1 22 x_y9 Z"

func TestLeaves(t *testing.T) {
	Parallel(text, 8)
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
}
