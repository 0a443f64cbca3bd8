// Command augur predicts how Go code performs from probabilistic models of it. This file is the
// thin dispatcher: each subcommand lives in its own file and only declares its flags, calls the
// library packages and prints.
package main

import (
	"cmp"
	"embed"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/augur-perf/augur/analyze/pipeline"
	"github.com/augur-perf/augur/probe/instrument"
	"github.com/augur-perf/augur/probe/profile"
)

// command is one subcommand, or a group of them (augur options, field, fit).
type command struct {
	name    string
	summary string
	// help is the synopsis, what it does and examples (help/NAME.txt); empty for a subcommand
	// that shares its group's.
	help string
	// flags declares the command's flags on fs and returns what runs once they are parsed.
	flags func(fs *flag.FlagSet) func(x *call) error
	// workload: the arguments after the first "--" are a workload to run, not positional.
	workload bool
	// route picks another form of the command when its arguments ask for one (analyze PKGS,
	// analyze --fit); nil keeps this one.
	route func(args []string) *command
	// A group's subcommands, and what it says when none (missing) or an unknown one is named;
	// helpWord: "augur GROUP help" shows the group's help.
	subs             []*command
	missing, unknown string
	helpWord         bool
}

// commands are augur's commands, in the order its usage lists them.
var commands = []*command{
	{name: "analyze", summary: "predict a Go function's expected time, cost, energy… from its Markov model and a usage profile",
		help: helpText("analyze"), flags: analyzeFlags, workload: true, route: routeAnalyze},
	{name: "cfg", summary: "show a function's decisions (positions, outcomes, counts) or its control-flow graph as DOT",
		help: helpText("cfg"), flags: cfgFlags, workload: true},
	{name: "check", summary: "check PCTL and LTL properties of a Markov chain (PRISM models, augur JSON, PRISM or Storm explicit files)",
		help: helpText("check"), flags: checkFlags},
	fieldCommand,
	fitCommand,
	optionsCommand,
	{name: "param", summary: "a property as a rational function of the model's branch probabilities, its value anywhere and its sensitivities",
		help: helpText("param"), flags: paramFlags},
	{name: "profile", summary: "measure a usage profile: run a go workload with counting probes in chosen functions",
		help: helpText("profile"), flags: profileFlags, workload: true},
	{name: "validate", summary: "check a time prediction against reality: predict a workload's time per call from a saved time, then measure it",
		help: helpText("validate"), flags: validateFlags, workload: true},
}

// call is one run of a command: its parsed positional arguments, workload and output.
type call struct {
	name           string // the top-level command, prefixed to its messages
	fs             *flag.FlagSet
	args, workload []string
	stdout, stderr io.Writer
}

// Exit statuses, the same for every subcommand (README.md, "Exit status").
const (
	exitOK       = 0
	exitFailed   = 1 // the analysis failed: a bad model, an unsupported construct, an inconsistent profile
	exitUsage    = 2 // how augur was called: bad flags, an unknown function or option source
	exitWorkload = 3 // the workload itself failed: no numbers are given from a failed run
)

// usageError is an error in how augur was called, explained by its message (exit 2), as the
// libraries' errors that are the caller's mistake say with the same method.
type usageError struct{ error }

func (usageError) UsageError() bool { return true }

func usagef(format string, a ...any) error { return usageError{fmt.Errorf(format, a...)} }

// errUsage marks errors already explained by a usage message.
var errUsage error = usageError{errors.New("usage")}

// exitCode maps an error to augur's exit status.
func exitCode(err error) int {
	var caller interface{ UsageError() bool }
	var we *instrument.WorkloadError
	var ie *instrument.InterruptedError
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
		return exitOK
	case errors.As(err, &caller) && caller.UsageError():
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
			err := c.exec(c, name, args[1:], stdout, stderr)
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

// exec runs c (or the subcommand of the group c its arguments name); h is the command whose
// synopsis and help its --help shows, top the top-level command's name.
func (c *command) exec(h *command, top string, args []string, stdout, stderr io.Writer) error {
	if c.route != nil && c.route(args) != nil {
		c = c.route(args)
	}
	if len(c.subs) > 0 && len(args) > 0 {
		for _, s := range c.subs {
			if s.name == args[0] {
				if s.help != "" {
					h = &command{name: c.name + " " + s.name, help: s.help}
				}
				return s.exec(h, top, args[1:], stdout, stderr)
			}
		}
	}
	fs := flag.NewFlagSet("augur "+h.name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	// Mistakes get a pointer to the help, not all of it (--help prints it all: parse).
	fs.Usage = func() { fmt.Fprintf(fs.Output(), "Run 'augur %s --help' for its usage and examples.\n", h.name) }
	if c.flags == nil { // a group named with no subcommand, or an unknown one
		switch {
		case len(args) == 0:
			return usagef("%s", c.missing)
		case isHelp(args[0]) || args[0] == "help" && c.helpWord:
			_, err := h.parse(fs, []string{"--help"}, stdout)
			return err
		}
		return usagef(c.unknown, args[0])
	}
	run := c.flags(fs)
	own, workload := args, []string(nil)
	if i := slices.Index(args, "--"); c.workload && i >= 0 {
		own, workload = args[:i], args[i+1:]
	}
	pos, err := h.parse(fs, own, stdout)
	if err != nil {
		return err
	}
	return run(&call{name: top, fs: fs, args: pos, workload: workload, stdout: stdout, stderr: stderr})
}

// usage reports a mistake in how the command was called, with a pointer to its help.
func (x *call) usage(format string, a ...any) error {
	fmt.Fprintf(x.stderr, "augur %s: %s\n", x.name, fmt.Sprintf(format, a...))
	x.fs.Usage()
	return errUsage
}

// job makes j the call's workload as the pipelines run it: its output to stdout (or to stderr,
// when stdout is the analysis), SIGINT and SIGTERM forwarded to it.
func (x *call) job(j *pipeline.Job, stdout io.Writer) {
	j.Args, j.Stdin, j.Stdout, j.Stderr, j.Signals = x.workload, os.Stdin, stdout, x.stderr, true
}

// given reports whether the flag name was set on the command line (not left at its default).
func (x *call) given(name string) bool {
	set := false
	x.fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

func isHelp(arg string) bool { return arg == "-h" || arg == "--help" || arg == "-help" }

// parse parses flags anywhere among the positional arguments (augur check model.json --prop ...),
// which the standard flag package alone does not allow. "--" ends flag parsing. --help prints
// c's help and flags to stdout, as asked for rather than as an error.
func (c *command) parse(fs *flag.FlagSet, args []string, stdout io.Writer) ([]string, error) {
	for _, a := range args {
		if a == "--" {
			break
		}
		if isHelp(a) {
			fmt.Fprintf(stdout, "%s\n\nOptions:\n", strings.TrimSpace(c.help))
			fs.SetOutput(stdout)
			fs.PrintDefaults()
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
	vcs := map[string]string{}
	for _, s := range bi.Settings {
		vcs[s.Key] = s.Value
	}
	v := cmp.Or(bi.Main.Version, "(devel)")
	if rev := vcs["vcs.revision"]; rev != "" && v == "(devel)" {
		dirty := ""
		if vcs["vcs.modified"] == "true" {
			dirty = ", modified"
		}
		v = fmt.Sprintf("commit %.12s (%s%s)", rev, vcs["vcs.time"], dirty)
	}
	return fmt.Sprintf("augur %s, %s %s/%s", v, bi.GoVersion, runtime.GOOS, runtime.GOARCH)
}
