// Package inlined is package helpers with parse, wrap and the closure inlined: the decisions of
// Main must carry the same influence sets in both.
package inlined

import (
	"os"
	"strconv"
	"strings"
)

type config struct {
	compress, encrypt, cache bool
	level                    int
}

func Main() {
	var c config
	c.compress, _ = strconv.ParseBool(os.Getenv("COMPRESS"))
	c.encrypt, _ = strconv.ParseBool(strings.TrimSpace(os.Getenv("ENCRYPT")))
	c.cache, _ = strconv.ParseBool(os.Getenv("CACHE"))
	n, err := strconv.Atoi(os.Getenv("LEVEL"))
	if err != nil { // want {LEVEL}
		n = 1
	}
	c.level = n
	quiet, _ := strconv.ParseBool(os.Getenv("QUIET"))
	if c.compress { // want {COMPRESS}
		sink()
	}
	if c.encrypt && c.compress { // want {COMPRESS, ENCRYPT}
		sink()
	}
	if c.cache { // want {CACHE}
		sink()
	}
	if c.level > 3 { // want {LEVEL}
		sink()
	}
	if quiet { // want {QUIET}
		sink()
	}
}

func sink() {}
