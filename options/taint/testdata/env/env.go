// Package env: os.Getenv and os.LookupEnv are option sources.
package env

import "os"

func Main() {
	if os.Getenv("MODE") == "fast" { // want {MODE}
		sink()
	}
	if v, ok := os.LookupEnv("LEVEL"); ok && v != "" { // want {LEVEL}
		sink()
	}
	if len(os.Args) > 1 { // want {}
		sink()
	}
}

func sink() {}
