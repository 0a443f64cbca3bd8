package trips

import (
	"sync"
	"testing"
)

var sink int

// TestTrips runs every loop from four goroutines on inputs that end every loop every way, panics
// included (recovered here).
func TestTrips(t *testing.T) {
	inputs := []struct {
		xs []int
		s  string
	}{
		{[]int{1, 5, 2, 8, 3, 9, 4}, "ab ab*#x"},
		{[]int{0, 1, 2, 3, 4, 5, 6, 7}, "aab b! c"},
		{[]int{9, 8, 7, 6, 5, 4, 3, 2, 1}, "xyzxb"},
		{[]int{3, -1, 4, 1, -5, 9, 2, 6}, "  a a bb cc"},
		{[]int{2}, "abcab"},
		{nil, ""},
		{[]int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, "q qaqa"},
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			n := 0
			for r := 0; r < 50; r++ {
				for _, in := range inputs {
					for k := -1; k < 12; k++ {
						for w := 0; w < Loops; w++ {
							func() {
								defer func() { recover() }()
								n += Run(w, append([]int(nil), in.xs...), in.s, k)
							}()
						}
					}
				}
			}
			mu.Lock()
			sink += n
			mu.Unlock()
		}()
	}
	wg.Wait()
}
