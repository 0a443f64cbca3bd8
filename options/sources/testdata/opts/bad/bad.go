package bad

import (
	"flag"
	"os"
)

func Load(name string) {
	flag.Bool(name, false, "")
	os.Getenv("X_" + name)
}
