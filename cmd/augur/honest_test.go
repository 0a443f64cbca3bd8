package main

import (
	"bufio"
	"bytes"
	"fmt"
	"github.com/augur-perf/augur/internal/cli"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/augur-perf/augur/probe/profile"
)

// scratch writes a small module of its own: F is invoked 100 times by TestWork, G never;
// TestFail fails after calling F; TestLong prints "ready" after its calls and then waits to be
// interrupted.

// exitWorkload is the status of a failed workload (README, "Exit status"; instrument.WorkloadError).
const exitWorkload = 3

func scratch(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"go.mod": "module scratch\n\ngo 1.26\n",
		"p/p.go": `package p

// F adds 1..n, with a branch on the parity.
func F(n int) int {
	s := 0
	for i := 1; i <= n; i++ {
		if i%2 == 0 {
			s += i
		} else {
			s -= i
		}
	}
	return s
}

// G is never called.
func G() int { return 1 }
`,
		"p/p_test.go": `package p

import (
	"fmt"
	"testing"
	"time"
)

func TestWork(t *testing.T) {
	for i := 0; i < 100; i++ {
		F(10)
	}
}

func TestFail(t *testing.T) {
	F(3)
	t.Fatal("boom: the workload's own failure")
}

func TestLong(t *testing.T) {
	for i := 0; i < 100; i++ {
		F(10)
	}
	fmt.Println("ready")
	time.Sleep(time.Minute)
}

func BenchmarkF(b *testing.B) {
	for i := 0; i < b.N; i++ {
		F(100)
	}
}
`,
		// opt is a configurable program: one option, read from the environment, steers a loop.
		"opt/main.go": `package main

import (
	"fmt"
	"os"
	"strconv"
)

func main() {
	fast, _ := strconv.ParseBool(os.Getenv("SCRATCH_FAST"))
	n := 3000000
	if fast {
		n = 1000
	}
	s := 0
	for i := 0; i < n; i++ {
		s += i % 7
	}
	fmt.Println(s)
}
`,
	}
	for name, text := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// snapshot lists every file under dir with its size and modification time.
func snapshot(t *testing.T, dir string) string {
	t.Helper()
	var lines []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		lines = append(lines, fmt.Sprintf("%s %d %v", p, info.Size(), info.ModTime().UnixNano()))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

// runAt runs augur in-process with dir as the working directory.
func runAt(t *testing.T, dir string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	wd, _ := os.Getwd()
	if err := os.Chdir(dir); err != nil {
		t.Fatal(err)
	}
	defer os.Chdir(wd)
	var out, errb bytes.Buffer
	code = run(args, &out, &errb)
	return code, out.String(), errb.String()
}

// TestExitCodes: every subcommand and every exit status augur documents, each from a real run in
// a scratch module that must be left as it was, as must the working directory, with no temporary
// directory left behind.
func TestExitCodes(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs workloads")
	}
	dir := scratch(t)
	tmp := t.TempDir()
	out := filepath.Join(tmp, "prof.json")
	model := filepath.Join(tmp, "model.json")
	die, err := filepath.Abs("../../examples/die/die.json")
	if err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, dir)
	// augur's temporary directories go to a directory of this test's own, which must be empty
	// afterwards (other processes on the machine may be using the shared one).
	private := t.TempDir()
	t.Setenv("TMPDIR", private)
	cases := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"profile succeeds", []string{"profile", "./p", "-o", out, "--", "go", "test", "./p", "-run", "TestWork"}, 0, "wrote " + out},
		{"analyze succeeds", []string{"analyze", "scratch/p.F", "--profile", out}, 0, ""},
		{"--time leaves no test binary", []string{"analyze", "scratch/p.F", "--time", "--", "go", "test", "./p", "-run", "^$", "-bench", "F", "-benchtime", "2000x"}, 0, ""},
		{"cfg succeeds", []string{"cfg", "scratch/p.F", "--", "go", "test", "./p", "-run", "TestWork"}, 0, "(reached 1100 times)"},
		{"cfg --dot succeeds", []string{"cfg", "scratch/p.F", "--profile", out, "--dot"}, 0, "digraph"},
		{"check succeeds", []string{"check", die, "--prop", `P=? [ F "six" ]`}, 0, ""},
		{"options influence succeeds", []string{"options", "influence", "./opt"}, 0, "SCRATCH_FAST"},
		{"options regions succeeds", []string{"options", "regions", "./opt"}, 0, ""},
		{"options configs succeeds", []string{"options", "configs", "./opt"}, 0, ""},
		{"options measure succeeds", []string{"options", "measure", "./opt", "--run", "./opt", "--reps", "1", "-o", model}, 0, "SCRATCH_FAST"},
		{"options predict succeeds", []string{"options", "predict", model, "SCRATCH_FAST=1"}, 0, ""},
		{"options evaluate succeeds", []string{"options", "evaluate", "./opt", "--run", "./opt", "--model", model, "--held-out", "1", "--reps", "1"}, 0, ""},
		{"bad flag", []string{"analyze", "scratch/p.F", "--bogus"}, cli.ExitUsage, "flag provided but not defined"},
		{"-o without --emit", []string{"analyze", "scratch/p.F", "--profile", out, "-o", "m"}, cli.ExitUsage, "give --emit"},
		{"unknown function", []string{"analyze", "scratch/p.Nope", "--profile", out}, cli.ExitUsage, "Nope"},
		{"unknown function (cfg)", []string{"cfg", "scratch/p.Nope"}, cli.ExitUsage, "Nope"},
		{"unknown package", []string{"profile", "./nope", "--", "go", "test", "./p"}, cli.ExitUsage, "nope"},
		{"unknown option", []string{"options", "predict", model, "NOPE=1"}, cli.ExitUsage, "NOPE"},
		{"not a go workload", []string{"analyze", "scratch/p.F", "--", "make"}, cli.ExitUsage, "must be a go command"},
		{"never invoked (analyze)", []string{"analyze", "scratch/p.G", "--", "go", "test", "./p", "-run", "TestWork"}, cli.ExitFailed, "never invoked scratch/p.G"},
		{"never invoked (profile)", []string{"profile", "./p", "--func", "scratch/p.G", "-o", out + ".g", "--", "go", "test", "./p", "-run", "TestWork"}, cli.ExitFailed, "never invoked scratch/p.G"},
		{"never invoked, allowed", []string{"analyze", "scratch/p.G", "--allow-uninvoked", "--", "go", "test", "./p", "-run", "TestWork"}, 0, ""},
		{"workload fails (analyze)", []string{"analyze", "scratch/p.F", "--", "go", "test", "./p", "-run", "TestFail"}, exitWorkload, "boom: the workload's own failure"},
		{"workload fails (profile)", []string{"profile", "./p", "-o", out + ".fail", "--", "go", "test", "./p", "-run", "TestFail"}, exitWorkload, "exit status 1"},
		{"workload fails (cfg)", []string{"cfg", "scratch/p.F", "--", "go", "test", "./p", "-run", "TestFail"}, exitWorkload, "exit status 1"},
		{"analysis fails", []string{"check", die, "--prop", `P=? [ F "nolabel" ]`}, cli.ExitFailed, "unknown label"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			args := c.args
			code, stdout, stderr := runAt(t, dir, args...)
			if code != c.code || !strings.Contains(stderr+stdout, c.want) {
				t.Errorf("augur %s: exit %d, want %d with %q\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), code, c.code, c.want, stdout, stderr)
			}
			if c.code == exitWorkload && strings.Contains(stdout, "R{") {
				t.Errorf("numbers printed from a failed workload:\n%s", stdout)
			}
			if n := strings.Count(stderr, "augur "+c.args[0]+":"); c.code != 0 && n > 1 {
				t.Errorf("the error is printed more than once:\n%s", stderr)
			}
		})
	}
	for _, f := range []string{out + ".g", out + ".fail"} {
		if _, err := os.Stat(f); err == nil {
			t.Errorf("%s was written by a run that failed", f)
		}
	}
	if after := snapshot(t, dir); after != before {
		t.Errorf("the scratch module changed:\nbefore:\n%s\nafter:\n%s", before, after)
	}
	if left, _ := os.ReadDir(private); len(left) > 0 {
		for _, e := range left {
			t.Errorf("temporary file or directory %s left behind", e.Name())
		}
	}
}

// TestDirAndDashC: --dir applies to the workload too, and go test -C works.
func TestDirAndDashC(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs workloads")
	}
	dir := scratch(t)
	elsewhere := t.TempDir()
	out := filepath.Join(t.TempDir(), "prof.json")
	if code, _, stderr := runAt(t, elsewhere, "profile", "./p", "--dir", dir, "-o", out, "--", "go", "test", "./p", "-run", "TestWork"); code != 0 {
		t.Fatalf("--dir: exit %d\n%s", code, stderr)
	}
	p, err := profile.Read(out)
	if err != nil || p.Funcs["scratch/p.F"].Invocations != 100 {
		t.Fatalf("--dir: %v %+v", err, p)
	}
	if code, stdout, stderr := runAt(t, elsewhere, "analyze", "scratch/p.F", "--dir", dir, "--", "go", "test", "-C", dir, "./p", "-run", "TestWork"); code != 0 || !strings.Contains(stdout, "(100 invocations)") {
		t.Fatalf("go test -C: exit %d\n%s\n%s", code, stdout, stderr)
	}
	if entries, _ := os.ReadDir(elsewhere); len(entries) != 0 {
		t.Errorf("the working directory gained %d files", len(entries))
	}
}

// TestInterrupted: SIGINT and SIGTERM during a workload are forwarded to it; the counts gathered
// until then are written, marked partial; augur's temporary directories are removed; the exit
// status is 128+signal; the module is left as it was.
func TestInterrupted(t *testing.T) {
	if testing.Short() {
		t.Skip("builds augur and runs workloads")
	}
	bin := filepath.Join(t.TempDir(), "augur")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	dir := scratch(t)
	before := snapshot(t, dir)
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			// augur's temporary directories go to a directory of this run's own, which must be
			// empty afterwards (other processes on the machine may be using the shared one).
			private := t.TempDir()
			out := filepath.Join(t.TempDir(), "prof.json")
			cmd := exec.Command(bin, "profile", "./p", "-o", out, "--", "go", "test", "./p", "-run", "TestLong", "-v")
			cmd.Env = append(os.Environ(), "TMPDIR="+private)
			cmd.Dir = dir
			pipe, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			ready := make(chan bool)
			go func() {
				sc := bufio.NewScanner(pipe)
				for sc.Scan() {
					if sc.Text() == "ready" {
						ready <- true
					}
				}
				close(ready)
			}()
			select {
			case ok := <-ready:
				if !ok {
					t.Fatalf("the workload ended before it was ready\n%s", stderr.String())
				}
			case <-time.After(2 * time.Minute):
				cmd.Process.Kill()
				t.Fatal("the workload never got ready")
			}
			cmd.Process.Signal(sig)
			err = cmd.Wait()
			code := cmd.ProcessState.ExitCode()
			if code != 128+int(sig) {
				t.Fatalf("exit %d (%v), want %d\n%s", code, err, 128+int(sig), stderr.String())
			}
			p, err := profile.Read(out)
			if err != nil {
				t.Fatalf("no profile: %v\n%s", err, stderr.String())
			}
			if !p.Partial || p.Funcs["scratch/p.F"].Invocations != 100 {
				t.Errorf("partial %v, F invoked %d times, want partial and 100", p.Partial, p.Funcs["scratch/p.F"].Invocations)
			}
			if !strings.Contains(stderr.String(), "marked partial") {
				t.Errorf("stderr does not say the profile is partial:\n%s", stderr.String())
			}
			// The go command's own build directories (go-build*) may stay when it is killed
			// mid-build; augur's must not.
			left, _ := os.ReadDir(private)
			for _, e := range left {
				if strings.HasPrefix(e.Name(), "augur-") {
					t.Errorf("temporary directory %s left behind", e.Name())
				}
			}
		})
	}
	if after := snapshot(t, dir); after != before {
		t.Errorf("the scratch module changed:\nbefore:\n%s\nafter:\n%s", before, after)
	}
}

func TestVersion(t *testing.T) {
	code, out, _ := runCLI(t, "--version")
	if code != 0 || !strings.HasPrefix(out, "augur ") || !strings.Contains(out, runtime.Version()) {
		t.Errorf("exit %d: %q", code, out)
	}
}

// TestOldGoLine: a module whose go.mod says go 1.16 — the language version of every file in it,
// including those augur adds — is profiled, timed, recorded, measured and built for the field
// as any other (the added files carry their own language version).
func TestOldGoLine(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs workloads")
	}
	dir := scratch(t)
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module scratch\n\ngo 1.16\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	prof, rel := filepath.Join(tmp, "prof.json"), filepath.Join(tmp, "release.json")
	for _, args := range [][]string{
		{"profile", "./p", "-o", prof, "--", "go", "test", "./p", "-run", "TestWork"},
		{"analyze", "scratch/p.F", "--time", "--profile", prof, "--", "go", "test", "./p", "-run", "^$", "-bench", "F", "-benchtime", "2000x"},
		{"fit", "record", "scratch/p.F", "-o", filepath.Join(tmp, "f.trace.jsonl"), "--", "go", "test", "./p", "-run", "TestWork"},
		{"options", "measure", "./opt", "--run", "./opt", "--reps", "1", "-o", filepath.Join(tmp, "model.json")},
		{"field", "plan", "./p", "./opt", "--variants", "2", "--probes", "3", "-o", rel},
		{"field", "build", rel, "-o", filepath.Join(tmp, "dist"), "./opt"},
	} {
		if code, stdout, stderr := runAt(t, dir, args...); code != 0 {
			t.Errorf("augur %s in a go 1.16 module: exit %d\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), code, stdout, stderr)
		}
	}
}
