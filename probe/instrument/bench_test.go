package instrument

import (
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"testing"

	"github.com/augur-perf/augur/source/frontend"
)

// BenchmarkProbeOverhead times seventeen CPU-bound kernels (testdata/src/work/kern: nine small
// ones — tight loops, nested loops, recursion, branchy loops, sorting, hashing, tokenizing,
// binary search, dynamic programming — and eight shaped like real code: a JSON scanner with
// early returns, a lexer, a recursive-descent parser, a B-tree, a Markdown line parser, word
// counts in a map, a quicksort, a regular-expression matcher) uninstrumented,
// instrumented by augur (every function of the package, through the overlay) and under go test
// -cover -covermode=count, all three test binaries built and run here (each in three code
// layouts), and reports the
// geometric-mean slowdowns "augur-x" and "cover-x" (and per kernel, as "<kernel>-augur-x"), as
// ratios of the CPU time the kernels' processes spend. One b.N iteration is the whole
// comparison; run it with -benchtime=1x.
func BenchmarkProbeOverhead(b *testing.B) {
	if testing.Short() {
		b.Skip("builds and runs nine test binaries")
	}
	tmp := b.TempDir()
	// The same instructions at other addresses run at other speeds: the kernels' functions moved
	// by 352 bytes when the runtime's code grew, and Tokens ran 1.00x then 1.29x, Search 1.59x
	// then 1.78x; the plain build's Search runs 26% slower moved by 416 bytes; InsertionSort's
	// inner loop, the same instructions at other addresses (its prologue changed), 35% slower.
	// So each binary is built in three layouts, from copies of the package with padding
	// functions of three sizes in a file first in it (kernCopy), the second and third with
	// functions aligned to 16 bytes instead of 32 (so that loops move within the 32-byte windows
	// the decoder fetches), and a kernel's time is the median of its layouts'.
	pads := []int{0, 12, 40}
	align := []string{"", "-ldflags=-funcalign=16", "-ldflags=-funcalign=16"}
	var bins []string // name<layout>
	var dir string    // the first copy's package directory, where the binaries run
	for li, pad := range pads {
		mod := filepath.Join(tmp, "work"+strconv.Itoa(li))
		pkgDir := kernCopy(b, mod, pad)
		if li == 0 {
			dir = pkgDir
		}
		prog, err := frontend.Load(mod, "./kern")
		if err != nil {
			b.Fatal(err)
		}
		fns, err := prog.Select("example.com/work/kern")
		if err != nil {
			b.Fatal(err)
		}
		var kept []*frontend.Func // the padding stays as it is
		for _, fn := range fns {
			if filepath.Base(prog.Fset.Position(fn.Decl.Pos()).Filename) != padFile {
				kept = append(kept, fn)
			}
		}
		build, err := Instrument(prog, kept, filepath.Join(tmp, "src"+strconv.Itoa(li)))
		if err != nil {
			b.Fatal(err)
		}
		for name, flags := range map[string][]string{
			"plain": nil,
			"augur": {"-overlay=" + build.Overlay, "-vet=off"},
			"cover": {"-cover", "-covermode=count"},
		} {
			bin := name + strconv.Itoa(li)
			args := append([]string{"test", "-c", "-o", filepath.Join(tmp, bin)}, flags...)
			if align[li] != "" {
				args = append(args, align[li])
			}
			if out, err := goCmd(pkgDir, append(args, ".")...).CombinedOutput(); err != nil {
				b.Fatalf("%s: %v\n%s", bin, err, out)
			}
			bins = append(bins, bin)
		}
	}
	line := regexp.MustCompile(`(?m)^Benchmark(\w+?)(?:-\d+)?\s+\d+\s+([\d.]+) ns/op`)
	env := append(os.Environ(), "GOCOVERDIR="+tmp)
	// The machine is shared: wall time per op moves with the load of others (a kernel's ratio
	// by half at a load average of 10), the CPU time the kernel's process spends far less. Each
	// binary runs each kernel for a fixed number of iterations (about 0.2 s of the plain
	// build's time), its user and system time taken from the process (less that of a run of
	// one iteration: start-up), the best of two rounds in which the binaries take turns.
	cmd := exec.Command(filepath.Join(tmp, "plain0"), "-test.run=^$", "-test.bench=.", "-test.benchtime=100ms", "-test.count=1", "-test.cpu=1")
	cmd.Dir, cmd.Env = dir, env
	out, err := cmd.CombinedOutput()
	if err != nil {
		b.Fatalf("plain: %v\n%s", err, out)
	}
	iters := map[string]int{}
	for _, m := range line.FindAllStringSubmatch(string(out), -1) {
		ns, _ := strconv.ParseFloat(m[2], 64)
		iters[m[1]] = max(1, int(0.2e9/max(ns, 1)))
	}
	cpu := func(name, kernel string, n int) float64 {
		cmd := exec.Command(filepath.Join(tmp, name), "-test.run=^$", "-test.bench=^Benchmark"+kernel+"$", "-test.benchtime="+strconv.Itoa(n)+"x", "-test.count=1", "-test.cpu=1")
		cmd.Dir, cmd.Env = dir, env
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("%s %s: %v\n%s", name, kernel, err, out)
		}
		return (cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()).Seconds()
	}
	for i := 0; i < b.N; i++ {
		plain, augur, cover := map[string]float64{}, map[string]float64{}, map[string]float64{}
		for k, n := range iters {
			best := map[string]float64{} // by binary: the least of two rounds
			for round := 0; round < 2; round++ {
				for _, bin := range bins {
					start := cpu(bin, k, 1)
					t := cpu(bin, k, n)
					if v, ok := best[bin]; !ok || t-start < v {
						best[bin] = t - start
					}
				}
			}
			median := func(name string) float64 {
				var ts []float64
				for li := range pads {
					t := best[name+strconv.Itoa(li)]
					if t <= 0 {
						b.Fatalf("kernel %s: no CPU time measured for the %s binary", k, name+strconv.Itoa(li))
					}
					ts = append(ts, t)
				}
				sort.Float64s(ts)
				return ts[len(ts)/2]
			}
			plain[k], augur[k], cover[k] = median("plain"), median("augur"), median("cover")
		}
		la, lc := 0.0, 0.0
		for k, p := range plain {
			ra, rc := augur[k]/p, cover[k]/p
			b.ReportMetric(ra, k+"-augur-x")
			b.ReportMetric(rc, k+"-cover-x")
			la += math.Log(ra)
			lc += math.Log(rc)
		}
		b.ReportMetric(math.Exp(la/float64(len(plain))), "augur-x")
		b.ReportMetric(math.Exp(lc/float64(len(plain))), "cover-x")
	}
}

// padFile is the file of the padding kernCopy adds first to the kernels' package.
const padFile = "aaaa_pad.go"

// kernCopy copies the work module's go.mod and kern package to mod, adds padding of pad
// statements (a function the package's init may call, never run) in a file first in the
// package, and returns the package's directory.
func kernCopy(b *testing.B, mod string, pad int) string {
	b.Helper()
	pkgDir := filepath.Join(mod, "kern")
	if err := os.MkdirAll(pkgDir, 0o755); err != nil {
		b.Fatal(err)
	}
	files, err := filepath.Glob(filepath.Join(workDir, "kern", "*.go"))
	if err != nil {
		b.Fatal(err)
	}
	copies := map[string]string{filepath.Join(workDir, "go.mod"): filepath.Join(mod, "go.mod")}
	for _, f := range files {
		copies[f] = filepath.Join(pkgDir, filepath.Base(f))
	}
	for from, to := range copies {
		data, err := os.ReadFile(from)
		if err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(to, data, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	if pad > 0 {
		src := "package kern\n\nvar augurPadOn bool\n\nvar augurPadSink int\n\nfunc init() {\n\tif augurPadOn {\n\t\taugurPadSink = augurPad(nil)\n\t}\n}\n\nfunc augurPad(x []int) int {\n\ts := 0\n"
		for j := range pad {
			src += "\ts += x[" + strconv.Itoa(j) + "] * " + strconv.Itoa(j+3) + "\n"
		}
		if err := os.WriteFile(filepath.Join(pkgDir, padFile), []byte(src+"\treturn s\n}\n"), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	return pkgDir
}
