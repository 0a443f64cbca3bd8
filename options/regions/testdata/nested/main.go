// Command nested has regions nested in others, and a labeled region that
// expansion must not grow backwards.
package main

import (
	"flag"
	"fmt"
)

var a, b, c = flag.Bool("A", false, ""), flag.Bool("B", false, ""), flag.Bool("C", false, "")

func main() {
	flag.Parse()
	n := 0
	if *a {
		n++
		if *b {
			n++
		}
	}
	fmt.Println(n)
	m := 0
L:
	if *c {
		m++
		if *b {
			m++
		}
	}
	if m < 0 {
		goto L
	}
	fmt.Println(m)
}
