// Package flagvars: the ...Var forms, FlagSet methods and flag.Func.
package flagvars

import (
	"flag"
	"os"
	"strconv"
)

type Config struct{ Verbose, Quiet bool }

var cfg Config
var n int
var mode string

func Main() {
	flag.BoolVar(&cfg.Verbose, "verbose", false, "")
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	fs.IntVar(&n, "n", 1, "")
	level := fs.Int("level", 1, "")
	flag.Func("mode", "", func(s string) error {
		mode = s
		return nil
	})
	_ = fs.Parse(os.Args[1:])
	if cfg.Verbose { // want {verbose}
		sink()
	}
	if cfg.Quiet { // want {}
		sink()
	}
	if n > 2 { // want {n}
		sink()
	}
	if *level > 1 { // want {level}
		sink()
	}
	if mode == "x" { // want {mode}
		sink()
	}
	if s := strconv.Itoa(n); s == "3" { // want {n}
		sink()
	}
}

func sink() {}
