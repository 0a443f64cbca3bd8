package main

import (
	"embed"
	"strings"

	"github.com/augur-perf/augur/probe/instrument"
	"github.com/augur-perf/augur/probe/profile"
)

// The help of each subcommand, its synopsis first, help/NAME.txt ("options-influence" for a
// subcommand of options), kept out of the Go code; {EnvDir} and {profile.Format} name the
// constants they stand for, so that the text cannot drift from them.
//
//go:embed help/*.txt
var helpFiles embed.FS

func helpText(name string) string {
	b, err := helpFiles.ReadFile("help/" + name + ".txt")
	if err != nil {
		panic("no help text for " + name) // a build without its help files is a bug
	}
	return strings.NewReplacer("{EnvDir}", instrument.EnvDir, "{profile.Format}", profile.Format).Replace(string(b))
}
