// Package good loads options in every form the built-in recognisers know.
package good

import (
	"flag"
	"os"
	"time"
)

type Config struct {
	Compress bool
	Level    int
}

func LoadConfig() *Config { return &Config{} }

func Level() int { return 3 }

var (
	a  = flag.Bool("a", false, "")
	n  = flag.Int("n", 1, "")
	n6 = flag.Int64("n64", 1, "")
	u  = flag.Uint("u", 1, "")
	u6 = flag.Uint64("u64", 1, "")
	s  = flag.String("s", "", "")
	f  = flag.Float64("f", 1, "")
	d  = flag.Duration("d", time.Second, "")
	bv bool
)

const nameB = "b"

func init() {
	flag.BoolVar(&bv, nameB, false, "")
	var iv int
	flag.IntVar(&iv, "iv", 0, "")
	flag.Func("fn", "", func(string) error { return nil })
	flag.BoolFunc("bf", "", func(string) error { return nil })
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	fs.Bool("fsb", false, "")
	var sv string
	fs.StringVar(&sv, "fss", "", "")
	_ = os.Getenv("HOME_DIR")
	_, _ = os.LookupEnv("HOME_DIR")
	_ = LoadConfig()
	_ = Level()
}
