// Command envconfig is a configurable program of the usual shape for `augur options`: options
// read from the environment into a config struct through one shared helper, with no
// declarations. Five distinct influence sets ({COMPRESS}, {COMPRESS, ENCRYPT}, {CACHE},
// {VERIFY, LOG}, {TRACE}), one option that influences nothing (APP_UNUSED), so four
// configurations suffice to measure a model of all 64 configurations of the six relevant ones.
// Its cost, in units of -unit (default 20ms), is
//
//	T = 1 + 2·COMPRESS + 3·COMPRESS·ENCRYPT + 1.5·CACHE + 2.5·VERIFY·LOG + 0.5·TRACE
package main

import (
	"flag"
	"os"
	"strconv"
	"time"
)

type config struct {
	compress, encrypt, cache, verify, log, trace, unused bool
}

// parse is the helper every option passes through.
func parse(s string) bool {
	v, _ := strconv.ParseBool(s)
	return v
}

func load() config {
	return config{
		compress: parse(os.Getenv("APP_COMPRESS")),
		encrypt:  parse(os.Getenv("APP_ENCRYPT")),
		cache:    parse(os.Getenv("APP_CACHE")),
		verify:   parse(os.Getenv("APP_VERIFY")),
		log:      parse(os.Getenv("APP_LOG")),
		trace:    parse(os.Getenv("APP_TRACE")),
		unused:   parse(os.Getenv("APP_UNUSED")),
	}
}

var unit = flag.Duration("unit", 20*time.Millisecond, "the time unit of the work")

func work(units float64) { time.Sleep(time.Duration(units * float64(*unit))) }

func main() {
	flag.Parse()
	c := load()
	work(1)
	if c.compress {
		work(2)
	}
	if c.encrypt && c.compress {
		work(3)
	}
	if c.cache {
		work(1.5)
	}
	if c.verify && c.log {
		work(2.5)
	}
	if c.trace {
		work(0.5)
	}
	_ = c.unused
}
