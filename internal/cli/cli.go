// Package cli is augur's command-line dispatcher: commands and groups of subcommands declared as
// data, each declaring its flags with the standard flag package and returning what runs once they
// are parsed; flags parsed anywhere among the positional arguments; --help from each command's
// text; one mapping from errors to exit statuses for every subcommand. cmd/augur declares the
// commands on it, as the go command declares its own on cmd/go/internal/base.
//
// It owns no subcommand and imports nothing of augur: an error says its exit status through
// methods (UsageError() bool, ExitCode() int), so that the libraries decide what their errors
// mean and this package only carries it out.
package cli

import (
	"cmp"
	"errors"
	"flag"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
)

// Command is one subcommand, or a group of them (augur options, field, fit).
type Command struct {
	Name    string
	Summary string
	// Help is the synopsis, what it does and examples; empty for a subcommand that shares its
	// group's.
	Help string
	// Flags declares the command's flags on fs and returns what runs once they are parsed.
	Flags func(fs *flag.FlagSet) func(x *Call) error
	// Workload: the arguments after the first "--" are a workload to run, not positional.
	Workload bool
	// Route picks another form of the command when its arguments ask for one (analyze PKGS,
	// analyze --fit); nil keeps this one.
	Route func(args []string) *Command
	// A group's subcommands, and what it says when none (Missing) or an unknown one is named
	// (Unknown, with the name for %q); HelpWord: "augur GROUP help" shows the group's help.
	Subs             []*Command
	Missing, Unknown string
	HelpWord         bool
}

// Call is one run of a command: its parsed positional arguments, workload and output.
type Call struct {
	Name           string // the top-level command, prefixed to its messages
	prog           string
	FS             *flag.FlagSet
	Args, Workload []string
	Stdout, Stderr io.Writer
}

// Exit statuses, the same for every subcommand (README.md, "Exit status"); an error whose
// ExitCode method says otherwise exits with that (a failed workload, an interrupted run).
const (
	ExitOK     = 0
	ExitFailed = 1 // the analysis failed: a bad model, an unsupported construct, an inconsistent profile
	ExitUsage  = 2 // how the command was called: bad flags, an unknown function or option source
)

// usageError is an error in how the command was called, explained by its message (exit 2), as
// the libraries' errors that are the caller's mistake say with the same method.
type usageError struct{ error }

func (usageError) UsageError() bool { return true }

// Usagef is a usage error (exit 2) with this message.
func Usagef(format string, a ...any) error { return usageError{fmt.Errorf(format, a...)} }

// ErrUsage marks errors already explained by a usage message: Run prints nothing more.
var ErrUsage error = usageError{errors.New("usage")}

// ExitCode maps an error to its exit status.
func ExitCode(err error) int {
	var caller interface{ UsageError() bool }
	var coded interface{ ExitCode() int }
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
		return ExitOK
	case errors.As(err, &caller) && caller.UsageError():
		return ExitUsage
	case errors.As(err, &coded):
		return coded.ExitCode()
	}
	return ExitFailed
}

// Run runs the command args name (args[0]) among commands and returns the exit status; intro
// opens the usage that no command, -h or help prints. An error is printed once, after "prog
// name: ".
func Run(prog, intro string, commands []*Command, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || isHelp(args[0]) || args[0] == "help" && len(args) == 1 {
		usage(stdout, prog, intro, commands)
		return ExitOK
	}
	name := args[0]
	if name == "--version" || name == "-version" || name == "version" {
		fmt.Fprintln(stdout, Version(prog))
		return ExitOK
	}
	if name == "help" {
		name, args = args[1], []string{args[1], "--help"}
	}
	for _, c := range commands {
		if c.Name == name {
			err := c.exec(c, prog, name, args[1:], stdout, stderr)
			code := ExitCode(err)
			if code != ExitOK && !errors.Is(err, ErrUsage) {
				fmt.Fprintf(stderr, "%s %s: %v\n", prog, name, err)
			}
			return code
		}
	}
	fmt.Fprintf(stderr, "%s: unknown command %q\n\n", prog, name)
	usage(stderr, prog, intro, commands)
	return ExitUsage
}

func usage(w io.Writer, prog, intro string, commands []*Command) {
	fmt.Fprintf(w, "%s\nUsage: %s <command> [arguments]\n\nCommands:\n", intro, prog)
	for _, c := range commands {
		fmt.Fprintf(w, "  %-10s %s\n", c.Name, c.Summary)
	}
	fmt.Fprintf(w, "\nRun '%s <command> --help' for a command's options and examples; '%s --version' for this build.\n", prog, prog)
}

// exec runs c (or the subcommand of the group c its arguments name); h is the command whose
// synopsis and help its --help shows, top the top-level command's name.
func (c *Command) exec(h *Command, prog, top string, args []string, stdout, stderr io.Writer) error {
	if c.Route != nil && c.Route(args) != nil {
		c = c.Route(args)
	}
	if len(c.Subs) > 0 && len(args) > 0 {
		for _, s := range c.Subs {
			if s.Name == args[0] {
				if s.Help != "" {
					h = &Command{Name: c.Name + " " + s.Name, Help: s.Help}
				}
				return s.exec(h, prog, top, args[1:], stdout, stderr)
			}
		}
	}
	fs := flag.NewFlagSet(prog+" "+h.Name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	// Mistakes get a pointer to the help, not all of it (--help prints it all: parse).
	fs.Usage = func() { fmt.Fprintf(fs.Output(), "Run '%s %s --help' for its usage and examples.\n", prog, h.Name) }
	if c.Flags == nil { // a group named with no subcommand, or an unknown one
		switch {
		case len(args) == 0:
			return Usagef("%s", c.Missing)
		case isHelp(args[0]) || args[0] == "help" && c.HelpWord:
			_, err := h.parse(fs, []string{"--help"}, stdout)
			return err
		}
		return Usagef(c.Unknown, args[0])
	}
	run := c.Flags(fs)
	own, workload := args, []string(nil)
	if i := slices.Index(args, "--"); c.Workload && i >= 0 {
		own, workload = args[:i], args[i+1:]
	}
	pos, err := h.parse(fs, own, stdout)
	if err != nil {
		return err
	}
	return run(&Call{Name: top, prog: prog, FS: fs, Args: pos, Workload: workload, Stdout: stdout, Stderr: stderr})
}

// Usage reports a mistake in how the command was called, with a pointer to its help.
func (x *Call) Usage(format string, a ...any) error {
	fmt.Fprintf(x.Stderr, "%s %s: %s\n", x.prog, x.Name, fmt.Sprintf(format, a...))
	x.FS.Usage()
	return ErrUsage
}

// Given reports whether the flag name was set on the command line (not left at its default).
func (x *Call) Given(name string) bool {
	set := false
	x.FS.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

func isHelp(arg string) bool { return arg == "-h" || arg == "--help" || arg == "-help" }

// parse parses flags anywhere among the positional arguments (augur check model.json --prop ...),
// which the standard flag package alone does not allow. "--" ends flag parsing. --help prints
// c's help and flags to stdout, as asked for rather than as an error.
func (c *Command) parse(fs *flag.FlagSet, args []string, stdout io.Writer) ([]string, error) {
	for _, a := range args {
		if a == "--" {
			break
		}
		if isHelp(a) {
			fmt.Fprintf(stdout, "%s\n\nOptions:\n", strings.TrimSpace(c.Help))
			fs.SetOutput(stdout)
			fs.PrintDefaults()
			return nil, flag.ErrHelp
		}
	}
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, ErrUsage
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

// Multi is a repeatable string flag.
type Multi []string

func (m *Multi) String() string     { return strings.Join(*m, ", ") }
func (m *Multi) Set(v string) error { *m = append(*m, v); return nil }

// Version describes this build from the information the go command stamps into it: the module
// version (or the commit, when built from a checkout) and the Go toolchain.
func Version(prog string) string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return prog + " (no build information)"
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
	return fmt.Sprintf("%s %s, %s %s/%s", prog, v, bi.GoVersion, runtime.GOOS, runtime.GOARCH)
}
