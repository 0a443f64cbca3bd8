package side

import (
	"sync"
	"testing"

	"example.com/work/side/b"
)

// TestAll runs the package from 8 goroutines, with panics in b's functions recovered here.
func TestAll(t *testing.T) {
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 500 {
				Scan("ab1 Zc9-x")
				Dot("x")
				try(func() { Late([]int{1, 2, 3}, i%4) })
				try(func() { Pick([]int{1, 50, 90}, []int{0, 1, 2, i % 4}) })
				try(func() { Total(&b.Acc{}, []int{1, 2, g - i%3}) })
			}
		}()
	}
	wg.Wait()
}

func try(f func()) {
	defer func() { _ = recover() }()
	f()
}
