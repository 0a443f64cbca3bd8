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
// geometric-mean slowdowns "augur-x" and "cover-x" (and per kernel, as "<kernel>-augur-x").
// One b.N iteration is the whole comparison; run it with -benchtime=1x.
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
	// The machine is shared: the three binaries take turns, round after round, and each kernel
	// keeps its best time, so that a burst of load elsewhere does not land on one of them only.
	run := func(name string, best map[string]float64) {
		cmd := exec.Command(filepath.Join(tmp, name), "-test.run=^$", "-test.bench=.", "-test.benchtime=200ms", "-test.count=1", "-test.cpu=1")
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOCOVERDIR="+tmp)
		out, err := cmd.CombinedOutput()
		if err != nil {
			b.Fatalf("%s: %v\n%s", name, err, out)
		}
		for _, m := range line.FindAllStringSubmatch(string(out), -1) {
			ns, _ := strconv.ParseFloat(m[2], 64)
			if v, ok := best[m[1]]; !ok || ns < v {
				best[m[1]] = ns
			}
		}
	}
	for i := 0; i < b.N; i++ {
		plain, augur, cover := map[string]float64{}, map[string]float64{}, map[string]float64{}
		for round := 0; round < 4; round++ {
			run("plain", plain)
			run("augur", augur)
			run("cover", cover)
		}
		for k := range plain {
			if augur[k] == 0 || cover[k] == 0 {
				b.Fatalf("kernel %s: no time from the augur or cover binary", k)
			}
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
