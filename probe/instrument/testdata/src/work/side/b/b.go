// Package b is called by package side's twins through side entries (see rt.Side): a leaf with
// branches, one that may panic, a method whose twin calls b's own functions, a generic function.
package b

// Class is a leaf of two decisions.
func Class(c byte) int {
	if c >= 'a' && c <= 'z' {
		return 1
	}
	if c >= '0' && c <= '9' {
		return 2
	}
	return 0
}

// At panics where i is out of range.
func At(xs []int, i int) int {
	return xs[i] * 2
}

// Acc accumulates squares.
type Acc struct{ N int }

// Add adds the squares of xs, and panics at a negative one after adding those before it.
func (a *Acc) Add(xs []int) {
	for _, x := range xs {
		a.N += Sq(x)
	}
}

// Sq squares x, and panics if x is negative.
func Sq(x int) int {
	if x < 0 {
		panic("negative")
	}
	return x * x
}

// Max is the larger of x and y.
func Max[T int | float64](x, y T) T {
	if x > y {
		return x
	}
	return y
}

// Twice is called by side's twins through its entry: its package has an AugurSide_Twice already.
func Twice(x int) int {
	if x < 0 {
		return -2 * x
	}
	return 2 * x
}

// AugurSide_Twice is named as Twice's side entry would be.
func AugurSide_Twice(x int) int { return Twice(x) }
