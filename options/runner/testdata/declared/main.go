// Command declared loads its options with a parser of its own, which augur cannot recognise:
// the options are declared as struct fields, with how a run sets each (@flag:-fast, @env:...).
package main

import (
	"os"
	"strings"
	"time"
)

type config struct{ fast, big bool }

func load() config {
	var c config
	for _, a := range os.Args[1:] {
		c.fast = c.fast || a == "-fast=true"
	}
	c.big = strings.EqualFold(os.Getenv("DECLARED_BIG"+""), "true")
	return c
}

func main() {
	c := load()
	if c.fast {
		time.Sleep(5 * time.Millisecond)
	} else {
		time.Sleep(10 * time.Millisecond)
	}
	if c.big {
		time.Sleep(20 * time.Millisecond)
	}
}
