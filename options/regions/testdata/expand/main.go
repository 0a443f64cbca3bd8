// Command expand has consecutive regions separated by uninfluenced
// statements whose unions are already interactions.
package main

import (
	"flag"
	"fmt"
)

var a, b = flag.Bool("A", false, ""), flag.Bool("B", false, "")

func main() {
	flag.Parse()
	x := 1
	if *a {
		x++
	}
	y := x * 2
	if *b {
		y++
	}
	if *a && *b {
		y++
	}
	fmt.Println(y)
}
