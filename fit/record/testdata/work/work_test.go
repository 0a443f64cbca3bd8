package work

import (
	"strings"
	"sync"
	"testing"
)

// TestWorkload calls Work at many sizes, from several goroutines.
func TestWorkload(t *testing.T) {
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for size := 1; size <= 12; size++ {
				// Name lengths independent of the sizes, so that each law has one parameter.
				Work(make([]int, size*10+g), size, strings.Repeat("x", 1<<((size*7+g*5)%12+1)))
			}
		}(g)
	}
	wg.Wait()
}

// TestServe serves requests of 1..9 items, every third without a page.
func TestServe(t *testing.T) {
	for k := 1; k <= 9; k++ {
		r := &Req{Items: make([]int, k)}
		if k%3 != 0 {
			r.Page = &Page{Limit: 2 * k}
		}
		Serve(r)
	}
}
