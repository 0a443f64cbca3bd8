// Command augur predicts how Go code performs from probabilistic models of it. This file is the
// thin dispatcher: each subcommand lives in its own file and only parses flags, calls the
// library packages and prints.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/augur-perf/augur/probe/instrument"
)

// command is one subcommand.
type command struct {
	name    string
	summary string
	usage   string // the argument synopsis
	help    string // what it does, with examples
	run     func(args []string, stdout, stderr io.Writer) error
}

var commands []*command

func register(c *command) { commands = append(commands, c) }

// Exit statuses, the same for every subcommand (README.md, "Exit status").
const (
	exitOK       = 0
	exitFailed   = 1 // the analysis failed: a bad model, an unsupported construct, an inconsistent profile
	exitUsage    = 2 // how augur was called: bad flags, an unknown function or option source
	exitWorkload = 3 // the workload itself failed: no numbers are given from a failed run
)

// errUsage marks errors already explained by a usage message.
var errUsage = errors.New("usage")

// usageError is an error in how augur was called, explained by its message (exit 2).
type usageError struct{ error }

func (e usageError) Unwrap() error { return e.error }

func usagef(format string, a ...any) error { return usageError{fmt.Errorf(format, a...)} }

// exitCode maps an error to augur's exit status.
func exitCode(err error) int {
	var ue usageError
	// Library errors that are the caller's mistake (a declaration that matches nothing, say)
	// say so with this method.
	var caller interface{ UsageError() bool }
	var we *instrument.WorkloadError
	var ie *instrument.InterruptedError
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
		return exitOK
	case errors.Is(err, errUsage), errors.As(err, &ue), errors.As(err, &caller) && caller.UsageError():
		return exitUsage
	case errors.As(err, &we):
		return exitWorkload
	case errors.As(err, &ie):
		return 128 + int(ie.Signal)
	}
	return exitFailed
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
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" && len(args) == 1 {
		mainUsage(stdout)
		return 0
	}
	name := args[0]
	if name == "--version" || name == "-version" || name == "version" {
		fmt.Fprintln(stdout, version())
		return exitOK
	}
	if name == "help" {
		name, args = args[1], []string{args[1], "--help"}
	}
	for _, c := range commands {
		if c.name == name {
			err := c.run(args[1:], stdout, stderr)
			code := exitCode(err)
			if code != exitOK && !errors.Is(err, errUsage) {
				fmt.Fprintf(stderr, "augur %s: %v\n", name, err)
			}
			return code
		}
	}
	fmt.Fprintf(stderr, "augur: unknown command %q\n\n", name)
	mainUsage(stderr)
	return 2
}

func mainUsage(w io.Writer) {
	fmt.Fprint(w, `augur predicts how Go code performs — expected time, cost, energy or any additive
measure — from probabilistic models of its source and of measured usage.

Usage: augur <command> [arguments]

Commands:
`)
	for _, c := range commands {
		fmt.Fprintf(w, "  %-10s %s\n", c.name, c.summary)
	}
	fmt.Fprint(w, "\nRun 'augur <command> --help' for a command's options and examples; 'augur --version' for this build.\n")
}

// flags makes a FlagSet whose usage message shows the command's synopsis, help and defaults.
func (c *command) flags(stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("augur "+c.name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	// A mistake gets a pointer to the help, not all of it; --help prints it all (parse).
	fs.Usage = func() { fmt.Fprintf(fs.Output(), "Run 'augur %s --help' for its usage and examples.\n", c.name) }
	fullUsage[fs] = func() {
		out := fs.Output()
		fmt.Fprintf(out, "Usage: augur %s %s\n\n%s\n\nOptions:\n", c.name, c.usage, strings.TrimSpace(c.help))
		fs.PrintDefaults()
	}
	return fs
}

// fullUsage prints a flag set's whole usage message, for --help.
var fullUsage = map[*flag.FlagSet]func(){}

// parse parses flags anywhere among the positional arguments (augur check model.json --prop ...),
// which the standard flag package alone does not allow. "--" ends flag parsing. --help prints the
// command's usage to stdout, as asked for rather than as an error.
func parse(fs *flag.FlagSet, args []string, stdout io.Writer) ([]string, error) {
	for _, a := range args {
		if a == "--" {
			break
		}
		if a == "-h" || a == "--help" || a == "-help" {
			out := fs.Output()
			fs.SetOutput(stdout)
			if full, ok := fullUsage[fs]; ok {
				full()
			} else {
				fs.Usage()
			}
			fs.SetOutput(out)
			return nil, flag.ErrHelp
		}
	}
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, errUsage
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		if len(args) > 0 && len(rest) < len(args) && args[len(args)-len(rest)-1] == "--" {
			return append(pos, rest...), nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// splitWorkload separates a command's own arguments from the workload after the first "--".
func splitWorkload(args []string) (own, workload []string) {
	for i, a := range args {
		if a == "--" {
			return args[:i], args[i+1:]
		}
	}
	return args, nil
}

// multi is a repeatable string flag.
type multi []string

func (m *multi) String() string     { return strings.Join(*m, ", ") }
func (m *multi) Set(v string) error { *m = append(*m, v); return nil }

// version describes this build from the information the go command stamps into it: the module
// version (or the commit, when built from a checkout) and the Go toolchain.
func version() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "augur (no build information)"
	}
	v := bi.Main.Version
	var rev, when, dirty string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			when = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				dirty = ", modified"
			}
		}
	}
	if rev != "" && (v == "" || v == "(devel)") {
		v = fmt.Sprintf("commit %.12s (%s%s)", rev, when, dirty)
	}
	if v == "" {
		v = "(devel)"
	}
	return fmt.Sprintf("augur %s, %s %s/%s", v, bi.GoVersion, runtime.GOOS, runtime.GOARCH)
}

func commandNamed(name string) *command {
	for _, c := range commands {
		if c.name == name {
			return c
		}
	}
	panic("no command " + name)
}
