package conc

import (
	"os"
	"sync"
	"testing"
	"time"
)

// Goroutines and Calls are the shape of TestConcurrent.
const Goroutines, Calls = 64, 100_000

var sink [Goroutines]int

// TestConcurrent calls Work, Framed and Pair from 64 goroutines at once, 100k times each.
func TestConcurrent(t *testing.T) {
	var wg sync.WaitGroup
	for g := range Goroutines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := 0
			for x := range Calls {
				s += Work(x)
				if x%4 == 1 {
					s += Framed(x)
				}
				if x%4 == 2 {
					s += Pair(x)
				}
			}
			sink[g] = s
		}()
	}
	wg.Wait()
}

// TestExitRunning ends the process with os.Exit while goroutines run Work, Framed and Pair.
func TestExitRunning(t *testing.T) {
	if os.Getenv("CONC_EXIT") == "" {
		t.Skip("set CONC_EXIT to run")
	}
	for g := range 8 {
		go func() {
			s := 0
			for x := g; ; x++ {
				s += Work(x) + Framed(x) + Pair(x)
				sink[g] = s
			}
		}()
	}
	time.Sleep(50 * time.Millisecond)
	os.Exit(3)
}

// TestServeBlocked ends the process with os.Exit while Serve waits for its 101st value.
func TestServeBlocked(t *testing.T) {
	if os.Getenv("CONC_SERVE") == "" {
		t.Skip("set CONC_SERVE to run")
	}
	ch := make(chan int)
	go Serve(ch)
	for x := range 100 {
		ch <- x
	}
	time.Sleep(200 * time.Millisecond)
	os.Exit(3)
}
