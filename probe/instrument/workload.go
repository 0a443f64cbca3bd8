package instrument

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"

	"github.com/augur-perf/augur/probe/profile"
	"github.com/augur-perf/augur/source/frontend"
)

// A Workload is a go command that builds and runs instrumented code: go test ... or go run ....
type Workload struct {
	// Args is the command, starting with "go" (CheckWorkload says what is accepted).
	Args []string
	// Dir is where it runs ("" = the current directory); go test -C DIR in Args works too.
	Dir string
	// Keep keeps the work directory (rewritten files, overlay, counters) and names it on Stderr.
	Keep bool
	// Stdin, Stdout and Stderr are the workload's; nil discards output and gives no input.
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	// Interrupt, when it delivers a signal, forwards it to the workload's process group, as a
	// terminal would; the counts gathered until the workload ends are kept, marked partial.
	Interrupt <-chan os.Signal
	// cpuFile, when set, is where a go test workload writes its CPU profile (Time sets it).
	cpuFile string
}

// A Measurement is what a workload's run gives.
type Measurement struct {
	// Profile adds up the counters of every instrumented process that ran. It is nil only when
	// none could be read.
	Profile *profile.Profile
	// Processes is how many instrumented processes wrote counters.
	Processes int
	// ExitCode is the workload's exit status (0: success).
	ExitCode int
	// Signal is the signal forwarded to the workload, if one was; the profile is then partial.
	Signal os.Signal
	// StderrTail holds the last lines the workload wrote to its standard error.
	StderrTail []string
	// Warnings are problems that did not stop the measurement (counter files of other builds, a
	// CPU profile that could not be read).
	Warnings []error
}

// CheckWorkload checks that args is a go command that builds and runs what it is given, without
// flags that would defeat the overlay.
func CheckWorkload(args []string) error {
	if len(args) == 0 {
		return errors.New("no workload: give a go test or go run command after \"--\"")
	}
	if base := filepath.Base(args[0]); base != "go" && base != "go.exe" {
		return fmt.Errorf("the workload must be a go command (go test ... or go run ...), not %q: augur instruments through go's -overlay flag", args[0])
	}
	if len(args) < 2 || args[1] != "test" && args[1] != "run" {
		sub := ""
		if len(args) > 1 {
			sub = args[1]
		}
		return fmt.Errorf("the workload must be go test or go run, not go %s: augur needs a go command that builds and runs the program", sub)
	}
	for _, a := range args[2:] {
		if a == "--" || a == "-args" || a == "--args" {
			break
		}
		if hasFlag([]string{a}, "tags") {
			return fmt.Errorf("the workload must not choose files with %s: augur loads (and instruments) the packages without it, so the files it adds would run uncounted; give the tags to both as GOFLAGS=-tags=...", a)
		}
		if strings.HasPrefix(a, "-overlay") || strings.HasPrefix(a, "--overlay") {
			return errors.New("the workload must not have its own -overlay: augur supplies it")
		}
		if hasFlag([]string{a}, "vet") && strings.TrimLeft(a, "-") != "vet=off" {
			return errors.New("the workload must not turn vet on: augur turns it off (the runtime package it adds through the overlay has no directory vet could run in)")
		}
		if a == "-cover" || strings.HasPrefix(a, "-cover=") || strings.HasPrefix(a, "-covermode") || strings.HasPrefix(a, "-coverprofile") || strings.HasPrefix(a, "-coverpkg") {
			return fmt.Errorf("the workload must not use %s: the go command ignores overlays under coverage", a)
		}
	}
	return nil
}

// Measure instruments fns (in a temporary directory: the user's files are never touched), runs
// the workload on the instrumented build and collects the counts. A workload that fails, or is
// interrupted, still yields the counts of what ran; the caller decides what to do with them.
func Measure(prog *frontend.Program, fns []*frontend.Func, w Workload) (*Measurement, error) {
	if err := CheckWorkload(w.Args); err != nil {
		return nil, err
	}
	work, err := os.MkdirTemp("", "augur-profile-")
	if err != nil {
		return nil, err
	}
	if w.Keep {
		fmt.Fprintf(orDiscard(w.Stderr), "augur: work directory %s\n", work)
	} else {
		defer os.RemoveAll(work)
	}
	build, err := Instrument(prog, fns, filepath.Join(work, "src"))
	if err != nil {
		return nil, err
	}
	noteCgo(w.Stderr, build.Cgo, "counted")
	counters := filepath.Join(work, "counters")
	if err := os.Mkdir(counters, 0o755); err != nil {
		return nil, err
	}
	m, err := runGo(w, []string{"-overlay=" + build.Overlay}, []string{EnvDir + "=" + counters})
	if err != nil {
		return nil, err
	}
	p, files, err := build.Collect(counters)
	if err != nil && p == nil {
		return m, err
	}
	if err != nil {
		m.Warnings = append(m.Warnings, err)
	}
	m.Profile, m.Processes = p, files
	p.Runs = 1
	p.Workload = w.Args
	p.Partial = m.Signal != nil
	return m, nil
}

// noteCgo says which functions (names) are not what (counted, timed) because they are declared in
// files that import "C".
func noteCgo(w io.Writer, names []string, what string) {
	if len(names) == 0 {
		return
	}
	fmt.Fprintf(orDiscard(w), "augur: %d function(s) in files that import \"C\" are not %s (the go command compiles such a file from cgo's output, which augur cannot rewrite): %s\n", len(names), what, strings.Join(names, ", "))
}

// runGo runs the workload with extra flags after the go subcommand (-overlay=...) and more
// environment variables, forwarding w.Interrupt, and gives its exit status and stderr's tail.
func runGo(w Workload, pre, env []string) (*Measurement, error) {
	args := w.Args
	// The go command wants -C first: the overlay goes after it.
	at := 2
	if len(args) > 2 && (args[2] == "-C" || args[2] == "--C") {
		at = 4
	} else if len(args) > 2 && (strings.HasPrefix(args[2], "-C=") || strings.HasPrefix(args[2], "--C=")) {
		at = 3
	}
	at = min(at, len(args))
	extra := append([]string{}, pre...)
	if args[1] == "test" {
		if !hasFlag(args[2:], "count") {
			extra = append(extra, "-count=1") // not from the test cache: the probes must run
		}
		// go vet runs in each package's directory, and the runtime package the overlay adds
		// (package rt) has none on disk.
		extra = append(extra, "-vet=off")
	}
	if w.cpuFile != "" {
		// -cpuprofile keeps the test binary, by default in the current directory: keep it
		// beside the profile instead.
		extra = append(extra, "-cpuprofile="+w.cpuFile)
		if !hasFlag(args[2:], "o") {
			extra = append(extra, "-o="+filepath.Join(filepath.Dir(w.cpuFile), "workload.test"))
		}
	}
	full := append(append(append([]string{}, args[:at]...), extra...), args[at:]...)
	cmd := exec.Command(full[0], full[1:]...)
	cmd.Dir = w.Dir
	cmd.Stdin = w.Stdin
	tail := &tailWriter{max: 20}
	cmd.Stdout = orDiscard(w.Stdout)
	cmd.Stderr = io.MultiWriter(orDiscard(w.Stderr), tail)
	cmd.Env = append(os.Environ(), env...)
	// Its own process group, so that a forwarded signal reaches the go command and the program
	// it runs alike, as Ctrl-C in a terminal does.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("running %s: %v", strings.Join(args, " "), err)
	}
	m := &Measurement{}
	done := make(chan struct{})
	var mu sync.Mutex
	go func() {
		for {
			select {
			case sig := <-w.Interrupt:
				mu.Lock()
				m.Signal = sig
				mu.Unlock()
				if s, ok := sig.(syscall.Signal); ok {
					syscall.Kill(-cmd.Process.Pid, s)
				}
			case <-done:
				return
			}
		}
	}()
	runErr := cmd.Wait()
	close(done)
	mu.Lock()
	defer mu.Unlock()
	if runErr != nil {
		var ee *exec.ExitError
		if !errors.As(runErr, &ee) {
			return nil, fmt.Errorf("running %s: %v", strings.Join(args, " "), runErr)
		}
		m.ExitCode = ee.ExitCode()
		if m.ExitCode < 0 {
			m.ExitCode = 1 // killed by a signal
		}
	}
	m.StderrTail = tail.lines()

	return m, nil
}

func hasFlag(args []string, name string) bool {
	for _, a := range args {
		if a == "--" {
			break
		}
		a = strings.TrimLeft(a, "-")
		if a == name || strings.HasPrefix(a, name+"=") {
			return true
		}
	}
	return false
}

func orDiscard(w io.Writer) io.Writer {
	if w == nil {
		return io.Discard
	}
	return w
}

// tailWriter keeps the last max lines written to it.
type tailWriter struct {
	max  int
	buf  []string
	part bytes.Buffer
}

func (t *tailWriter) Write(p []byte) (int, error) {
	t.part.Write(p)
	for {
		line, err := t.part.ReadString('\n')
		if err != nil {
			t.part.WriteString(line) // an unfinished line waits for its end
			return len(p), nil
		}
		t.buf = append(t.buf, strings.TrimRight(line, "\r\n"))
		if len(t.buf) > t.max {
			t.buf = t.buf[1:]
		}
	}
}

func (t *tailWriter) lines() []string {
	out := append([]string(nil), t.buf...)
	if t.part.Len() > 0 {
		out = append(out, t.part.String())
	}
	if len(out) > t.max {
		out = out[len(out)-t.max:]
	}
	return out
}

// Run runs the workload with another tool's overlay and environment variables (fit's recorder,
// say), with the flags, signals and output handled as Measure handles them.
func Run(w Workload, overlay string, env []string) (*Measurement, error) {
	return runGo(w, []string{"-overlay=" + overlay}, env)
}
