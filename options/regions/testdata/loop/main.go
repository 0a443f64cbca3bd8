// Command loop has a region covering a whole loop body.
package main

import (
	"flag"
	"fmt"
)

var a = flag.Bool("A", false, "")

func main() {
	flag.Parse()
	n := 0
	for i := 0; i < 3; i++ {
		if *a {
			n++
		}
	}
	fmt.Println(n)
}
