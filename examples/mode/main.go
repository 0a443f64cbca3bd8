// Command mode is a configurable program with a categorical option, for augur options: -mode
// selects one of three code paths, fast, balanced or best, whose costs are steps in no order a
// quantity would give them (1, 4 and 2 units of work); -verify, a boolean, checks the result,
// which costs a unit, three with the best mode's larger output. Work is simulated with sleeps of
// a -unit, so times are exact multiples of it on any machine:
//
//	T = 1 + 3·[mode=balanced] + 1·[mode=best] + 1·verify + 2·verify·[mode=best]  units.
package main

import (
	"flag"
	"fmt"
	"os"
	"time"
)

func main() {
	mode := flag.String("mode", "fast", "the algorithm: fast, balanced or best")
	verify := flag.Bool("verify", false, "check the result")
	unit := flag.Duration("unit", time.Millisecond, "the time one unit of work takes")
	flag.Parse()

	switch *mode {
	case "fast":
		time.Sleep(*unit)
	case "balanced":
		time.Sleep(4 * *unit)
	case "best":
		time.Sleep(2 * *unit)
	default:
		fmt.Fprintf(os.Stderr, "mode: unknown -mode %q (want fast, balanced or best)\n", *mode)
		os.Exit(2)
	}
	if *verify {
		checks := 1
		if *mode == "best" {
			checks = 3
		}
		time.Sleep(time.Duration(checks) * *unit)
	}
}
