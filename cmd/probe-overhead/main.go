// Command probe-overhead measures what augur's counting probes cost on a real module's own
// benchmarks, against go test -cover -covermode=count, both as slowdowns of a plain build, with the
// method of BenchmarkProbeOverhead in package instrument: three test binaries (plain; augur, every
// function of the instrumented packages through the overlay; cover over the same packages), each
// benchmark run for a fixed number of iterations (about -target of the plain build's CPU time), the
// CPU time (user and system) of the process less that of a one-iteration run, the best of three
// rounds in which the binaries take turns.
//
//	go run ./cmd/probe-overhead -dir path/to/module -instr .,./parser -bench . -o results.json
//
// It prints a line per benchmark and the geometric means, and writes the rows as JSON with -o.
// With -keep DIR the test binaries stay in DIR (bin0/augur, ...) for go test's -cpuprofile.
// It needs the module's source (for example a copy of its directory in the module cache made
// writable) and the go command; CI runs it only on testdata/mod, since modules come from the
// network.
// It owns nothing the rest of augur uses and must not be imported.
package main

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/augur-perf/augur/probe/instrument"
	"github.com/augur-perf/augur/source/frontend"
)

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "probe-overhead:", err)
		os.Exit(1)
	}
}

// row is one benchmark's measurement: CPU seconds, start-up taken off, and the slowdowns.
type row struct {
	Pkg, Name           string
	Iters               int
	Plain, Augur, Cover float64
	AugurX, CoverX      float64
	Load                string // /proc/loadavg's first three fields when it ran
}

func run(args []string, out io.Writer) error {
	fs := flag.NewFlagSet("probe-overhead", flag.ContinueOnError)
	dir := fs.String("dir", "", "the module's directory (required)")
	instr := fs.String("instr", ".", "comma-separated package patterns to instrument, relative to -dir")
	bench := fs.String("bench", ".", "comma-separated package directories whose benchmarks run")
	match := fs.String("run", ".", "regexp of the benchmarks to run (-test.bench)")
	target := fs.Duration("target", 200*time.Millisecond, "the plain build's CPU time per measured run")
	budget := fs.Duration("budget", 6*time.Minute, "stop starting benchmarks after this long")
	perRun := fs.Duration("timeout", time.Minute, "the longest one run of a binary may take")
	jsonOut := fs.String("o", "", "write the rows as JSON to this file")
	keep := fs.String("keep", "", "build the instrumented sources and the test binaries (bin<i>/plain, augur, cover) in this new `directory` and keep them, to profile a benchmark")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *dir == "" {
		return errors.New("-dir is required")
	}
	abs, err := filepath.Abs(*dir)
	if err != nil {
		return err
	}
	tmp := *keep
	if tmp == "" {
		if tmp, err = os.MkdirTemp("", "augur-overhead-"); err != nil {
			return err
		}
		defer os.RemoveAll(tmp)
	} else if err := os.Mkdir(tmp, 0o755); err != nil {
		return err // a new directory: the instrumented sources of another run must not mix in
	}
	prog, err := frontend.Load(abs, strings.Split(*instr, ",")...)
	if err != nil {
		return err
	}
	fns, _, err := prog.SelectAll(nil)
	if err != nil {
		return err
	}
	var pkgs []string
	for _, p := range prog.Packages {
		pkgs = append(pkgs, p.PkgPath)
	}
	build, err := instrument.Instrument(prog, fns, filepath.Join(tmp, "src"))
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "%d functions of %s instrumented\n", len(fns), strings.Join(pkgs, " "))
	flags := map[string][]string{
		"plain": nil,
		"augur": {"-overlay=" + build.Overlay, "-vet=off"},
		"cover": {"-cover", "-covermode=count", "-coverpkg=" + strings.Join(pkgs, ",")},
	}
	names := []string{"plain", "augur", "cover"}
	deadline := time.Now().Add(*budget)
	var rows []row
	for i, bp := range strings.Split(*bench, ",") {
		bdir := filepath.Join(abs, bp)
		bin := filepath.Join(tmp, "bin"+strconv.Itoa(i))
		for _, name := range names {
			args := append(append([]string{"test", "-c", "-o", filepath.Join(bin, name)}, flags[name]...), ".")
			cmd := exec.Command("go", args...)
			cmd.Dir = bdir
			if b, err := cmd.CombinedOutput(); err != nil {
				return fmt.Errorf("%s: go %s: %v\n%s", bdir, strings.Join(args, " "), err, b)
			}
		}
		runBin := func(name string, args ...string) (float64, []byte, error) {
			prof := filepath.Join(tmp, "prof")
			if err := os.RemoveAll(prof); err != nil {
				return 0, nil, err
			}
			if err := os.MkdirAll(prof, 0o755); err != nil {
				return 0, nil, err
			}
			ctx, cancel := context.WithTimeout(context.Background(), *perRun)
			defer cancel()
			cmd := exec.CommandContext(ctx, filepath.Join(bin, name), args...)
			cmd.Dir = bdir
			cmd.Env = append(os.Environ(), "GOCOVERDIR="+prof, instrument.EnvDir+"="+prof)
			var b bytes.Buffer
			cmd.Stdout, cmd.Stderr = &b, &b
			err := cmd.Run()
			if cmd.ProcessState == nil {
				return 0, b.Bytes(), err
			}
			return (cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()).Seconds(), b.Bytes(), err
		}
		// The benchmarks and their speed, from the plain build.
		_, listing, err := runBin("plain", "-test.run=^$", "-test.bench="+*match, "-test.benchtime=100ms", "-test.count=1", "-test.cpu=1")
		if err != nil {
			fmt.Fprintf(out, "%s: the plain run failed (%v): measuring the benchmarks it reported\n", bp, err)
		}
		line := regexp.MustCompile(`(?m)^(Benchmark\S+?)(?:-\d+)?\s+\d+\s+([\d.]+) ns/op`)
		for _, m := range line.FindAllStringSubmatch(string(listing), -1) {
			if time.Now().After(deadline) {
				fmt.Fprintf(out, "the budget is spent: %s and the benchmarks after it not measured\n", m[1])
				break
			}
			ns, _ := strconv.ParseFloat(m[2], 64)
			n := max(1, int(target.Seconds()*1e9/max(ns, 1)))
			var parts []string
			for _, p := range strings.Split(m[1], "/") {
				parts = append(parts, "^"+regexp.QuoteMeta(p)+"$")
			}
			sel := strings.Join(parts, "/")
			argsN := func(k int) []string {
				return []string{"-test.run=^$", "-test.bench=" + sel, "-test.benchtime=" + strconv.Itoa(k) + "x", "-test.count=1", "-test.cpu=1"}
			}
			best := map[string]float64{}
			var failed error
			for round := 0; round < 3 && failed == nil; round++ {
				for _, name := range names {
					start, _, err1 := runBin(name, argsN(1)...)
					total, o, err2 := runBin(name, argsN(n)...)
					if err := errors.Join(err1, err2); err != nil {
						failed = fmt.Errorf("%s: %w\n%s", name, err, tail(o))
						break
					}
					if v, ok := best[name]; !ok || total-start < v {
						best[name] = total - start
					}
				}
			}
			switch {
			case failed != nil:
				fmt.Fprintf(out, "%s %s not measured: %v\n", bp, m[1], failed)
				continue
			case min(best["plain"], best["augur"], best["cover"]) < 0.01:
				// Start-up, taken off, varies by more than that: a ratio of it means nothing
				// (fastjson's ParseRawNumber of "" came out at -0.03x).
				fmt.Fprintf(out, "%s %s not measured: %.4f, %.4f and %.4f CPU-s (plain, augur, cover) are too little to time\n", bp, m[1], best["plain"], best["augur"], best["cover"])
				continue
			}
			r := row{Pkg: bp, Name: m[1], Iters: n, Plain: best["plain"], Augur: best["augur"], Cover: best["cover"], Load: loadavg()}
			r.AugurX, r.CoverX = r.Augur/r.Plain, r.Cover/r.Plain
			rows = append(rows, r)
			fmt.Fprintf(out, "%s %s: plain %.3f CPU-s, augur %.2fx, cover %.2fx (load %s)\n", bp, m[1], r.Plain, r.AugurX, r.CoverX, r.Load)
		}
	}
	if len(rows) == 0 {
		return errors.New("no benchmark measured")
	}
	var la, lc float64
	for _, r := range rows {
		la += math.Log(r.AugurX)
		lc += math.Log(r.CoverX)
	}
	k := float64(len(rows))
	fmt.Fprintf(out, "%d benchmarks: geometric means augur %.3fx, cover %.3fx\n", len(rows), math.Exp(la/k), math.Exp(lc/k))
	slices.SortFunc(rows, func(a, b row) int { return cmp.Compare(b.AugurX, a.AugurX) })
	for _, r := range rows[:min(3, len(rows))] {
		fmt.Fprintf(out, "  dearest: %s %s augur %.2fx, cover %.2fx\n", r.Pkg, r.Name, r.AugurX, r.CoverX)
	}
	if *jsonOut != "" {
		b, err := json.MarshalIndent(rows, "", " ")
		if err != nil {
			return err
		}
		return os.WriteFile(*jsonOut, append(b, '\n'), 0o644)
	}
	return nil
}

func loadavg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if f := strings.Fields(string(b)); err == nil && len(f) >= 3 {
		return strings.Join(f[:3], " ")
	}
	return "unknown"
}

func tail(b []byte) string {
	if len(b) > 1500 {
		b = b[len(b)-1500:]
	}
	return string(b)
}
