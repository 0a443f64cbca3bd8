package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/augur-perf/augur/probe/instrument"
	"github.com/augur-perf/augur/probe/profile"
	"github.com/augur-perf/augur/source/frontend"
)

func init() {
	register(&command{
		name:    "profile",
		summary: "measure a usage profile: run a go workload with counting probes in chosen functions",
		usage:   "PKGS... [--func SPEC]... [-o FILE] [--merge] -- go test|run ARGS...",
		help: `Measures how often each statement of the chosen functions runs and each decision outcome is
taken, by running a go workload on an instrumented copy of their packages.

PKGS are package patterns (as the go command takes them, relative to the current directory)
whose functions may be chosen; --func narrows the choice (repeatable): import/path (every
function of the package), import/path.Func, import/path.T.Method or import/path.(*T).Method.
Without --func every function of PKGS is instrumented.

The workload follows "--" and must be a go command that builds and runs: go test ... or go run ....
augur adds -overlay=FILE after the subcommand (and -count=1 to go test, so results are not taken
from the test cache), sets ` + instrument.EnvDir + ` to a fresh directory and runs it with your stdin,
stdout and stderr. The instrumented code writes its counters to memory-mapped files there, so
counts survive os.Exit and crashes. Your files and go.mod are never modified: rewritten copies
live in a temporary directory and reach the compiler through the overlay. Do not add -cover to
the workload (the go command ignores overlays under -cover).

Afterwards augur adds the counters of every process up (a go test of several packages runs one
process per package), derives the counts of every node and outcome, writes the profile (format
` + profile.Format + `) and prints a summary on stderr. With --merge, the new counts are added to
the existing -o file (same source required). The exit status is the workload's; a workload that
fails still yields its profile, with a warning.

Examples:
  augur profile ./internal/parse -- go test ./internal/parse -run TestParse
  augur profile ./... --func example.com/app/internal/parse.Parse -o parse.json -- go test ./...
  augur profile ./cmd/app -- go run ./cmd/app -n 1000 < input.txt
  augur profile ./kern --merge -- go test -bench . -run '^$' ./kern`,
		run: runProfile,
	})
}

// profileExit ends the process with the workload's exit status; tests replace it.
var profileExit = os.Exit

func runProfile(args []string, stdout, stderr io.Writer) error {
	c := commandNamed("profile")
	fs := c.flags(stderr)
	var specs multi
	fs.Var(&specs, "func", "a function or package to instrument (repeatable; default: every function of PKGS)")
	out := fs.String("o", "augur.profile.json", "the profile to write")
	merge := fs.Bool("merge", false, "add the counts into the existing -o profile instead of replacing it")
	keep := fs.Bool("keep", false, "keep the work directory (rewritten files, overlay, counter files) and print its path")
	cpu := fs.Bool("time", false, "also record a CPU profile (go test workloads) and keep the sampled time of every line, from which analyze makes a measured \"time\" reward")
	flagArgs, workload := splitWorkload(args)
	pkgs, err := parse(fs, flagArgs, stdout)
	if err != nil {
		return err
	}
	if len(pkgs) == 0 || len(workload) == 0 {
		fmt.Fprintln(stderr, "augur profile: expected PKGS... -- WORKLOAD (a go test or go run command)")
		fs.Usage()
		return errUsage
	}
	cmdArgs, err := workloadArgs(workload)
	if err != nil {
		return err
	}

	prog, err := frontend.Load(".", pkgs...)
	if err != nil {
		return err
	}
	if len(specs) == 0 {
		for _, p := range prog.Packages {
			specs = append(specs, p.PkgPath)
		}
	}
	var fns []*frontend.Func
	for _, s := range specs {
		sel, err := prog.Select(s)
		if err != nil {
			return err
		}
		fns = append(fns, sel...)
	}
	p, code, err := measure(prog, fns, cmdArgs, measureOptions{keep: *keep, cpu: *cpu, stdout: stdout, stderr: stderr})
	if err != nil {
		return err
	}
	if *merge {
		if old, rerr := profile.Read(*out); rerr == nil {
			if err := old.Merge(p); err != nil {
				return fmt.Errorf("--merge %s: %v", *out, err)
			}
			old.Workload = workload
			p = old
		} else if !errors.Is(rerr, os.ErrNotExist) {
			return fmt.Errorf("--merge: %v", rerr)
		}
	}
	if err := p.Write(*out); err != nil {
		return err
	}
	invoked, total := 0, uint64(0)
	for _, f := range p.Funcs {
		if f.Invocations > 0 {
			invoked++
		}
		total += f.Invocations
	}
	fmt.Fprintf(stderr, "augur profile: %d functions, %d invoked, %d invocations; wrote %s (%d runs)\n",
		len(p.Funcs), invoked, total, *out, p.Runs)
	if code != 0 {
		fmt.Fprintf(stderr, "augur profile: warning: the workload exited with status %d; the profile covers what ran\n", code)
		profileExit(code)
	}
	return nil
}

// workloadArgs checks the workload is a go command that runs what it builds.
func workloadArgs(w []string) ([]string, error) {
	if base := filepath.Base(w[0]); base != "go" && base != "go.exe" {
		return nil, fmt.Errorf("the workload must be a go command (go test ... or go run ...), not %q: augur instruments through go's -overlay flag", w[0])
	}
	if len(w) < 2 || w[1] != "test" && w[1] != "run" {
		sub := ""
		if len(w) > 1 {
			sub = w[1]
		}
		return nil, fmt.Errorf("the workload must be go test or go run, not go %s: augur needs a go command that builds and runs the program", sub)
	}
	for _, a := range w[2:] {
		if a == "--" {
			break
		}
		if strings.HasPrefix(a, "-overlay") || strings.HasPrefix(a, "--overlay") {
			return nil, errors.New("the workload must not have its own -overlay: augur supplies it")
		}
		if a == "-cover" || strings.HasPrefix(a, "-cover=") || strings.HasPrefix(a, "-covermode") || strings.HasPrefix(a, "-coverprofile") || strings.HasPrefix(a, "-coverpkg") {
			return nil, fmt.Errorf("the workload must not use %s: the go command ignores overlays under coverage", a)
		}
	}
	return w, nil
}

func hasFlag(args []string, name string) bool {
	for _, a := range args {
		a = strings.TrimLeft(a, "-")
		if a == name || strings.HasPrefix(a, name+"=") {
			return true
		}
	}
	return false
}

type measureOptions struct {
	keep, cpu      bool
	stdout, stderr io.Writer
}

// measure runs a go workload (go test or go run, checked by workloadArgs) on an instrumented copy
// of the packages of fns and returns the profile and the workload's exit status. A workload that
// fails still yields the profile of what ran.
func measure(prog *frontend.Program, fns []*frontend.Func, cmdArgs []string, o measureOptions) (*profile.Profile, int, error) {
	work, err := os.MkdirTemp("", "augur-profile-")
	if err != nil {
		return nil, 0, err
	}
	if o.keep {
		fmt.Fprintf(o.stderr, "augur: work directory %s\n", work)
	} else {
		defer os.RemoveAll(work)
	}
	build, err := instrument.Instrument(prog, fns, filepath.Join(work, "src"))
	if err != nil {
		return nil, 0, err
	}
	counters := filepath.Join(work, "counters")
	if err := os.Mkdir(counters, 0o755); err != nil {
		return nil, 0, err
	}

	// Insert -overlay (and -count=1 for go test) right after the subcommand.
	extra := []string{"-overlay=" + build.Overlay}
	if cmdArgs[1] == "test" && !hasFlag(cmdArgs[2:], "count") {
		extra = append(extra, "-count=1")
	}
	cpuFile := filepath.Join(work, "cpu.pprof")
	if o.cpu {
		if cmdArgs[1] != "test" {
			return nil, 0, fmt.Errorf("--time needs a go test workload (it records the CPU profile with go test -cpuprofile); for a program, wrap the run in a test or benchmark")
		}
		if hasFlag(cmdArgs[2:], "cpuprofile") {
			return nil, 0, fmt.Errorf("--time adds -cpuprofile itself: remove it from the workload")
		}
		extra = append(extra, "-cpuprofile="+cpuFile)
	}
	full := append(append(append([]string{}, cmdArgs[:2]...), extra...), cmdArgs[2:]...)
	cmd := exec.Command(full[0], full[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, o.stdout, o.stderr
	cmd.Env = append(os.Environ(), instrument.EnvDir+"="+counters)
	runErr := cmd.Run()
	code := 0
	if runErr != nil {
		var ee *exec.ExitError
		if !errors.As(runErr, &ee) {
			return nil, 0, fmt.Errorf("running %s: %v", strings.Join(cmdArgs, " "), runErr)
		}
		code = ee.ExitCode()
		if code < 0 {
			code = 1
		}
	}

	p, files, err := build.Collect(counters)
	if err != nil && p == nil {
		return nil, code, err
	}
	if err != nil {
		fmt.Fprintf(o.stderr, "augur: warning: %v\n", err)
	}
	if files == 0 {
		fmt.Fprintf(o.stderr, "augur: warning: no instrumented process ran (does the workload import the packages?)\n")
	}
	p.Runs = 1
	p.Workload = cmdArgs
	if o.cpu {
		// The counts are worth keeping even when the CPU profile is not.
		if f, err := os.Open(cpuFile); err != nil {
			fmt.Fprintf(o.stderr, "augur: warning: --time: the workload wrote no CPU profile (%v); go test writes one only when it tests a single package\n", err)
		} else {
			defer f.Close()
			if p.CPU, err = profile.CPUByLine(f); err != nil {
				fmt.Fprintf(o.stderr, "augur: warning: --time: %v\n", err)
			}
		}
	}
	return p, code, nil
}
