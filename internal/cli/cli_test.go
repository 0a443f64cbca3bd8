package cli

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"go/build"
	"strings"
	"testing"
)

// coded is an error that says its own exit status, as instrument's workload errors do.
type coded int

func (c coded) Error() string { return fmt.Sprintf("coded %d", int(c)) }
func (c coded) ExitCode() int { return int(c) }

func testCommands(got *[]string) []*Command {
	echo := func(fs *flag.FlagSet) func(*Call) error {
		n := fs.Int("n", 1, "how many")
		var m Multi
		fs.Var(&m, "m", "repeatable")
		return func(x *Call) error {
			*got = append(*got, fmt.Sprintf("n=%d m=%v args=%v workload=%v given(n)=%v", *n, m, x.Args, x.Workload, x.Given("n")))
			switch {
			case len(x.Args) > 0 && x.Args[0] == "usage":
				return x.Usage("bad %s", "thing")
			case len(x.Args) > 0 && x.Args[0] == "fail":
				return errors.New("it failed")
			case len(x.Args) > 0 && x.Args[0] == "coded":
				return fmt.Errorf("wrapped: %w", coded(3))
			}
			return nil
		}
	}
	other := &Command{Flags: echo}
	return []*Command{
		{Name: "echo", Summary: "echo its flags", Help: "Usage: prog echo [-n N] ARGS", Flags: echo, Workload: true,
			Route: func(args []string) *Command {
				if len(args) > 0 && args[0] == "other" {
					return other
				}
				return nil
			}},
		{Name: "group", Summary: "a group", Help: "Usage: prog group SUB", Missing: "expected a subcommand", Unknown: "unknown subcommand %q", HelpWord: true,
			Subs: []*Command{{Name: "sub", Help: "Usage: prog group sub", Flags: echo}}},
	}
}

func run(t *testing.T, args ...string) (int, string, string, []string) {
	t.Helper()
	var got []string
	var out, errb bytes.Buffer
	code := Run("prog", "prog does things.\n", testCommands(&got), args, &out, &errb)
	return code, out.String(), errb.String(), got
}

func TestRun(t *testing.T) {
	for _, c := range []struct {
		args           []string
		code           int
		stdout, stderr string // substrings
		ran            string
	}{
		{nil, ExitOK, "prog does things.\n\nUsage: prog <command> [arguments]\n\nCommands:\n  echo       echo its flags\n", "", ""},
		{[]string{"echo", "a", "-n", "2", "b", "-m", "x", "-m", "y"}, ExitOK, "", "", "n=2 m=[x y] args=[a b] workload=[] given(n)=true"},
		{[]string{"echo", "a", "--", "-n", "3"}, ExitOK, "", "", "n=1 m=[] args=[a] workload=[-n 3] given(n)=false"},
		{[]string{"echo", "--help"}, ExitOK, "Usage: prog echo [-n N] ARGS\n\nOptions:\n  -m value", "", ""},
		{[]string{"help", "echo"}, ExitOK, "Usage: prog echo", "", ""},
		{[]string{"echo", "-x"}, ExitUsage, "", "flag provided but not defined: -x\nRun 'prog echo --help' for its usage and examples.\n", ""},
		{[]string{"echo", "usage"}, ExitUsage, "", "prog echo: bad thing\nRun 'prog echo --help'", "n=1 m=[] args=[usage] workload=[] given(n)=false"},
		{[]string{"echo", "fail"}, ExitFailed, "", "prog echo: it failed\n", "n=1 m=[] args=[fail] workload=[] given(n)=false"},
		{[]string{"echo", "coded"}, 3, "", "prog echo: wrapped: coded 3\n", "n=1 m=[] args=[coded] workload=[] given(n)=false"},
		{[]string{"echo", "other", "-n", "4"}, ExitOK, "", "", "n=4 m=[] args=[other] workload=[] given(n)=true"},
		{[]string{"group"}, ExitUsage, "", "prog group: expected a subcommand\n", ""},
		{[]string{"group", "nope"}, ExitUsage, "", "prog group: unknown subcommand \"nope\"\n", ""},
		{[]string{"group", "help"}, ExitOK, "Usage: prog group SUB", "", ""},
		{[]string{"group", "sub", "--help"}, ExitOK, "Usage: prog group sub\n", "", ""},
		{[]string{"group", "sub", "z"}, ExitOK, "", "", "n=1 m=[] args=[z] workload=[] given(n)=false"},
		{[]string{"nope"}, ExitUsage, "", "prog: unknown command \"nope\"\n\nprog does things.", ""},
		{[]string{"--version"}, ExitOK, "prog ", "", ""},
	} {
		code, stdout, stderr, got := run(t, c.args...)
		if code != c.code || !strings.Contains(stdout, c.stdout) || !strings.Contains(stderr, c.stderr) || strings.Join(got, ";") != c.ran {
			t.Errorf("%q: exit %d, stdout %q, stderr %q, ran %q; want %d, %q, %q, %q", c.args, code, stdout, stderr, got, c.code, c.stdout, c.stderr, c.ran)
		}
	}
}

func TestExitCode(t *testing.T) {
	for err, want := range map[error]int{
		nil:                              ExitOK,
		flag.ErrHelp:                     ExitOK,
		errors.New("x"):                  ExitFailed,
		Usagef("x %d", 1):                ExitUsage,
		fmt.Errorf("w: %w", Usagef("x")): ExitUsage,
		ErrUsage:                         ExitUsage,
		fmt.Errorf("w: %w", coded(130)):  130,
		fmt.Errorf("w: %w", coded(3)):    3,
	} {
		if got := ExitCode(err); got != want {
			t.Errorf("ExitCode(%v) = %d, want %d", err, got, want)
		}
	}
}

// TestStandardLibraryOnly: the dispatcher imports nothing of augur (its doc comment's promise).
func TestStandardLibraryOnly(t *testing.T) {
	p, err := build.ImportDir(".", 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, imp := range p.Imports {
		if strings.Contains(imp, ".") {
			t.Errorf("imports %s", imp)
		}
	}
}
