// Command augur predicts how Go code performs from probabilistic models of it. This file declares
// its commands on the dispatcher (internal/cli); each subcommand lives in its own file and only
// declares its flags, calls the library packages and prints.
package main

import (
	"embed"
	"io"
	"os"
	"strings"

	"github.com/augur-perf/augur/analyze/pipeline"
	"github.com/augur-perf/augur/internal/cli"
	"github.com/augur-perf/augur/probe/instrument"
	"github.com/augur-perf/augur/probe/profile"
)

// commands are augur's commands, in the order its usage lists them.
var commands = []*cli.Command{
	{Name: "analyze", Summary: "predict a Go function's expected time, cost, energy… from its Markov model and a usage profile",
		Help: helpText("analyze"), Flags: analyzeFlags, Workload: true, Route: routeAnalyze},
	{Name: "cfg", Summary: "show a function's decisions (positions, outcomes, counts) or its control-flow graph as DOT",
		Help: helpText("cfg"), Flags: cfgFlags, Workload: true},
	{Name: "check", Summary: "check PCTL and LTL properties of a Markov chain (PRISM models, augur JSON, PRISM or Storm explicit files)",
		Help: helpText("check"), Flags: checkFlags},
	fieldCommand,
	fitCommand,
	optionsCommand,
	{Name: "param", Summary: "a property as a rational function of the model's branch probabilities, its value anywhere and its sensitivities",
		Help: helpText("param"), Flags: paramFlags},
	{Name: "profile", Summary: "measure a usage profile: run a go workload with counting probes in chosen functions",
		Help: helpText("profile"), Flags: profileFlags, Workload: true},
	{Name: "validate", Summary: "check a time prediction against reality: predict a workload's time per call from a saved time, then measure it",
		Help: helpText("validate"), Flags: validateFlags, Workload: true},
}

// init runs the test binary of a timed workload when augur is started as go test's -exec
// program (instrument.Time starts it so). It is done here, not in main, so that a test binary
// of this package, which runs the commands in its own process and so is the program started,
// does it too.
func init() {
	if len(os.Args) > 1 && os.Args[1] == instrument.ExecCommand {
		os.Exit(instrument.RunExec(os.Args[2:]))
	}
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	return cli.Run("augur", `augur predicts how Go code performs — expected time, cost, energy or any additive
measure — from probabilistic models of its source and of measured usage.
`, commands, args, stdout, stderr)
}

// job makes j the call's workload as the pipelines run it: its output to stdout (or to stderr,
// when stdout is the analysis), SIGINT and SIGTERM forwarded to it.
func job(x *cli.Call, j *pipeline.Job, stdout io.Writer) {
	j.Args, j.Stdin, j.Stdout, j.Stderr, j.Signals = x.Workload, os.Stdin, stdout, x.Stderr, true
}

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
