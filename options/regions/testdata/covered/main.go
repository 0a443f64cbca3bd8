// Command covered has a helper called only inside a region of main whose
// options contain the helper's, from a compound statement (so callee
// lifting does not apply), and a helper that is also deferred.
package main

import (
	"flag"
	"fmt"
)

var (
	a = flag.Bool("A", false, "")
	b = flag.Bool("B", false, "")
)

func step(i int, a bool) int {
	if a {
		return i
	}
	return 0
}

func kept(a bool) int {
	if a {
		fmt.Println("a")
	}
	return 0
}

func main() {
	flag.Parse()
	defer kept(*a)
	n := 0
	if *a || *b {
		for i := 0; i < 10; i++ {
			if v := step(i, *a); v > 0 {
				n += v
			}
		}
	}
	fmt.Println(n)
}
