// Command lined takes option A in main.go and steers a decision in gen.go, generated code whose
// //line directive names its source, spec.rl: regions are located in gen.go.
package main

import "flag"

var a = flag.Bool("A", false, "option A")

func main() {
	flag.Parse()
	work(*a)
}
