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
	"strings"
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

// errUsage marks errors already explained by a usage message.
var errUsage = errors.New("usage")

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" && len(args) == 1 {
		mainUsage(stdout)
		return 0
	}
	name := args[0]
	if name == "help" {
		name, args = args[1], []string{args[1], "--help"}
	}
	for _, c := range commands {
		if c.name == name {
			err := c.run(args[1:], stdout, stderr)
			switch {
			case err == nil:
				return 0
			case errors.Is(err, flag.ErrHelp):
				return 0
			case errors.Is(err, errUsage):
				return 2
			default:
				fmt.Fprintf(stderr, "augur %s: %v\n", name, err)
				return 1
			}
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
	fmt.Fprint(w, "\nRun 'augur <command> --help' for a command's options and examples.\n")
}

// flags makes a FlagSet whose usage message shows the command's synopsis, help and defaults.
func (c *command) flags(stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("augur "+c.name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		out := fs.Output()
		fmt.Fprintf(out, "Usage: augur %s %s\n\n%s\n\nOptions:\n", c.name, c.usage, strings.TrimSpace(c.help))
		fs.PrintDefaults()
	}
	return fs
}

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
			fs.Usage()
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
