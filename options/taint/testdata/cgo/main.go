// Command taintcgo takes option A in main.go and in c.go, which imports "C": the go command
// compiles that file from cgo's output, so its decisions are left out (and cgo's own).
package main

import "flag"

var a = flag.Bool("A", false, "option A")

func main() {
	flag.Parse()
	if *a {
		println("A")
	}
	println(work(*a))
}
