package conc

import (
	"os"
	"runtime"
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

// TestPanics calls At 4000 times, one goroutine at a time, half of the calls panicking: each
// call runs on a new goroutine that locks its thread and ends locked, which ends the thread, so
// that the calls run on ever other threads. At must not be seen running on several goroutines at
// once.
func TestPanics(t *testing.T) {
	xs := []int{1, 2, 3, 4}
	for k := range 4000 {
		done := make(chan int)
		go func() {
			runtime.LockOSThread()
			defer func() {
				recover()
				close(done)
			}()
			sink[0] += At(xs, k%8)
		}()
		<-done
	}
}
