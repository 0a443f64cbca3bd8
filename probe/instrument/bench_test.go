package instrument

import (
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
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
// -cover -covermode=count, all three test binaries built and run here, and reports the
// geometric-mean slowdowns "augur-x" and "cover-x" (and per kernel, as "<kernel>-augur-x"), as
// ratios of the CPU time the kernels' processes spend. One b.N iteration is the whole
// comparison; run it with -benchtime=1x.
func BenchmarkProbeOverhead(b *testing.B) {
	if testing.Short() {
		b.Skip("builds and runs three test binaries")
	}
	dir := filepath.Join(workDir, "kern")
	prog, err := frontend.Load(workDir, "./kern")
	if err != nil {
		b.Fatal(err)
	}
	fns, err := prog.Select("example.com/work/kern")
	if err != nil {
		b.Fatal(err)
	}
	tmp := b.TempDir()
	build, err := Instrument(prog, fns, filepath.Join(tmp, "src"))
	if err != nil {
		b.Fatal(err)
	}
	bins := map[string][]string{
		"plain": nil,
		"augur": {"-overlay=" + build.Overlay, "-vet=off"},
		"cover": {"-cover", "-covermode=count"},
	}
	for name, flags := range bins {
		args := append([]string{"test", "-c", "-o", filepath.Join(tmp, name)}, flags...)
		if out, err := goCmd(dir, append(args, ".")...).CombinedOutput(); err != nil {
			b.Fatalf("%s: %v\n%s", name, err, out)
		}
	}
	line := regexp.MustCompile(`(?m)^Benchmark(\w+?)(?:-\d+)?\s+\d+\s+([\d.]+) ns/op`)
	env := append(os.Environ(), "GOCOVERDIR="+tmp)
	// The machine is shared: wall time per op moves with the load of others (a kernel's ratio
	// by half at a load average of 10), the CPU time the kernel's process spends far less. Each
	// binary runs each kernel for a fixed number of iterations (about 0.2 s of the plain
	// build's time), its user and system time taken from the process (less that of a run of
	// one iteration: start-up), the best of three rounds in which the binaries take turns.
	cmd := exec.Command(filepath.Join(tmp, "plain"), "-test.run=^$", "-test.bench=.", "-test.benchtime=100ms", "-test.count=1", "-test.cpu=1")
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
	names := []string{"plain", "augur", "cover"}
	for i := 0; i < b.N; i++ {
		plain, augur, cover := map[string]float64{}, map[string]float64{}, map[string]float64{}
		for k, n := range iters {
			best := map[string]float64{}
			for round := 0; round < 3; round++ {
				for _, name := range names {
					start := cpu(name, k, 1)
					t := cpu(name, k, n)
					if v, ok := best[name]; !ok || t-start < v {
						best[name] = t - start
					}
				}
			}
			for _, name := range names {
				if best[name] <= 0 {
					b.Fatalf("kernel %s: no CPU time measured for the %s binary", k, name)
				}
			}
			plain[k], augur[k], cover[k] = best["plain"], best["augur"], best["cover"]
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
