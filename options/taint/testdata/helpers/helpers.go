// Package helpers: options read through shared helpers keep their own influence sets at each call
// site (context-sensitive return summaries). Every want below is what the same program gives with
// the helpers inlined (package inlined).
package helpers

import (
	"os"
	"strconv"
	"strings"
)

type config struct {
	compress, encrypt, cache, verbose bool
	level                             int
}

// parse is the shared helper of the usual shape.
func parse(s string) bool {
	v, _ := strconv.ParseBool(s)
	return v
}

// wrap composes helpers: summaries apply through any depth.
func wrap(s string) bool { return parse(strings.TrimSpace(s)) }

// level has a decision of its own: it is influenced by every caller's option, as the helper's
// code runs for each of them.
func level(s string) int {
	n, err := strconv.Atoi(s)
	if err != nil { // want {LEVEL, VERBOSE}
		return 1
	}
	return n
}

type parser struct{ prefix string }

func (p parser) get(name string) bool { return parse(os.Getenv(p.prefix + name)) }

var global bool

// remember stores its argument: what goes through memory stays shared by all callers.
func remember(s string) bool {
	global = parse(s)
	return global
}

// fact is recursive: its result keeps the taint of every call site.
func fact(n int) int {
	if n <= 1 { // want {DEPTH, LEVEL}
		return 1
	}
	return n * fact(n-1)
}

func Main() {
	var c config
	c.compress = parse(os.Getenv("COMPRESS"))
	c.encrypt = wrap(os.Getenv("ENCRYPT"))
	c.cache = parse(os.Getenv("CACHE"))
	c.level = level(os.Getenv("LEVEL"))
	c.verbose = level(os.Getenv("VERBOSE")) > 0
	closure := func(s string) bool { return parse(s) }
	quiet := closure(os.Getenv("QUIET"))
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
	if (parser{"APP_"}).get("X") { // want {}
		sink()
	}
	if remember(os.Getenv("SHARED_A")) { // want {SHARED_A, SHARED_B}
		sink()
	}
	if remember(os.Getenv("SHARED_B")) { // want {SHARED_A, SHARED_B}
		sink()
	}
	d, _ := strconv.Atoi(os.Getenv("DEPTH"))
	if fact(d) > 10 { // want {DEPTH, LEVEL}
		sink()
	}
	if fact(c.level) > 2 && c.verbose { // want {DEPTH, LEVEL, VERBOSE}
		sink()
	}
}

func sink() {}
