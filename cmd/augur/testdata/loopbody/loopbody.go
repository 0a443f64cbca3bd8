// Package loopbody is a fixture of cmd/augur's attribution test: a loop whose body calls an
// expensive function and whose header is cheap.
package loopbody

// Sum runs expensive on every element.
func Sum(xs []uint64) uint64 {
	s := uint64(0)
	for i := 0; i < len(xs); i++ {
		s += expensive(xs[i])
	}
	return s
}

//go:noinline
func expensive(x uint64) uint64 {
	for k := 0; k < 300; k++ {
		x = x*6364136223846793005 + 1442695040888963407
	}
	return x
}
