// Command callee has a function whose whole body is one region, called
// from two statements.
package main

import (
	"flag"
	"fmt"
)

var c = flag.Bool("C", false, "")

func work(c bool) int {
	n := 0
	if c {
		n++
	}
	return n
}

func main() {
	flag.Parse()
	fmt.Println(work(*c))
	v := work(!*c)
	fmt.Println(v)
}
