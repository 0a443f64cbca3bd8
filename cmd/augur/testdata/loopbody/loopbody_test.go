package loopbody

import "testing"

var sink uint64

// TestWorkload spends about half a second of CPU in Sum.
func TestWorkload(t *testing.T) {
	xs := make([]uint64, 1000)
	for i := range xs {
		xs[i] = uint64(i)
	}
	for range 600 {
		sink += Sum(xs)
	}
}
