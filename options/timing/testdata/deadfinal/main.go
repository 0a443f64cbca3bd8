// Command deadfinal has a function that registers a finalizer, which
// nothing calls, and one that registers none but is only a callback: the
// region timing keeps its single-goroutine fast path.
package main

import (
	"flag"
	"runtime"
	"sort"
	"time"
)

var p = flag.Bool("P", false, "")

func work(p bool) {
	if p {
		time.Sleep(5 * time.Millisecond)
	}
}

// Unused would run instrumented code on the finalizer goroutine, if called.
func Unused() {
	x := new([64]byte)
	runtime.SetFinalizer(x, func(*[64]byte) { work(true) })
}

func main() {
	flag.Parse()
	xs := []int{3, 1, 2}
	sort.Slice(xs, func(i, j int) bool { return xs[i] < xs[j] })
	work(*p)
}
