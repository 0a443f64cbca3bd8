// Command final enters its region from a finalizer, which runs on a runtime
// goroutine that runtime.NumGoroutine does not count.
package main

import (
	"flag"
	"runtime"
	"time"
)

var p = flag.Bool("P", false, "")

func work(p bool) {
	if p {
		time.Sleep(5 * time.Millisecond)
	}
}

func main() {
	flag.Parse()
	done := make(chan bool)
	x := new([64]byte)
	runtime.SetFinalizer(x, func(*[64]byte) {
		work(*p)
		done <- true
	})
	x = nil
	for i := 0; i < 100; i++ {
		runtime.GC()
		select {
		case <-done:
			return
		case <-time.After(10 * time.Millisecond):
		}
	}
}
