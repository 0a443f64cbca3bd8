// Package named: environment variables named by a helper's callers with constants are options of
// their own, one per call chain.
package named

import (
	"fmt"
	"os"
	"strconv"
)

func flag(name string) bool {
	v, _ := strconv.ParseBool(os.Getenv("APP_" + name))
	return v
}

func level(name string) int {
	n, _ := strconv.Atoi(os.Getenv(fmt.Sprintf("APP_%s_LEVEL", name)))
	return n
}

// feature names through two helpers.
func feature(name string) bool { return flag("FEATURE_" + name) }

func Main() {
	if flag("COMPRESS") { // want {APP_COMPRESS}
		sink()
	}
	if flag("ENCRYPT") && feature("X") { // want {APP_ENCRYPT, APP_FEATURE_X}
		sink()
	}
	if level("ZSTD") > 3 { // want {APP_ZSTD_LEVEL}
		sink()
	}
	if flag(os.Args[0]) { // want {}
		sink()
	}
}

func sink() {}
