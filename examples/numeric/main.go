// Command numeric is a configurable program with a numeric option, for augur options: -size
// steers a linear region (a copy whose time grows with size) and a logarithmic one (a descent
// through a balanced tree, one step per level); -cache, a boolean, halves the cost of each step.
// Work is simulated with sleeps of a -unit, so times are exact multiples of it on any machine.
package main

import (
	"flag"
	"time"
)

func main() {
	size := flag.Int("size", 64, "the number of elements")
	cache := flag.Bool("cache", false, "cache the tree's inner nodes")
	unit := flag.Duration("unit", time.Millisecond, "the time one unit of work takes")
	flag.Parse()

	// Copying costs one unit per 256 elements.
	if *size > 0 {
		time.Sleep(time.Duration(*size) * *unit / 256)
	}
	// The descent costs one unit per level, half with the cache.
	for n := *size; n > 1; n /= 2 {
		if *cache {
			time.Sleep(*unit / 2)
		} else {
			time.Sleep(*unit)
		}
	}
}
