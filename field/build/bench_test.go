package build

import (
	"fmt"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/augur-perf/augur/field/plan"
	"github.com/augur-perf/augur/source/frontend"
)

// benchReps makes one run of testdata/bench about half a second of CPU on this project's
// machine.
const benchReps = "60000"

// BenchmarkOverhead measures what deployed variants cost: testdata/bench, a CPU-bound workload,
// built plain and as variants of 10, 50, 100 and all probes (Random allocation, three variants
// per bound but all), each run interleaved with the plain build so that both see the same
// machine. Reported: the variants' CPU time (user + system) per run relative to the plain
// build's as slowdown-%, and the probe executions per run (the overhead proxy of Diep et al.),
// counted by the collector. The runtime is enabled (a collector on loopback, one package at
// exit), as deployed.
func BenchmarkOverhead(b *testing.B) {
	root := b.TempDir()
	dir := filepath.Join(root, "bench")
	if err := os.CopyFS(dir, os.DirFS("testdata/bench")); err != nil {
		b.Fatal(err)
	}
	plain := filepath.Join(root, "plain")
	cmd := exec.Command("go", "build", "-trimpath", "-o", plain, ".")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("%v\n%s", err, out)
	}
	prog, err := frontend.Load(dir, "example.com/bench")
	if err != nil {
		b.Fatal(err)
	}
	fns, err := prog.Select("example.com/bench")
	if err != nil {
		b.Fatal(err)
	}
	units := plan.Units(fns, nil, func(s string) string { return s })
	for _, bound := range []int{10, 50, 100, len(units)} {
		variants := 3
		if bound == len(units) {
			variants = 1
		}
		m, err := plan.Allocate("bench", units, plan.Options{Variants: variants, Bound: bound, Strategy: plan.Random, Seed: 11})
		if err != nil {
			b.Fatal(err)
		}
		c := &collector{t: b, m: m}
		srv := httptest.NewServer(c)
		bins, err := Build(m, Options{Dir: dir, Main: ".", Out: filepath.Join(root, fmt.Sprint(bound))})
		if err != nil {
			b.Fatal(err)
		}
		env := env(srv.URL, b.TempDir())
		name := fmt.Sprintf("probes=%d", bound)
		if bound == len(units) {
			name = fmt.Sprintf("probes=all(%d)", bound)
		}
		b.Run(name, func(b *testing.B) {
			var base, inst time.Duration
			c.reset(0)
			for range b.N {
				base += cpu(b, plain, nil)
				for _, bin := range bins {
					inst += cpu(b, bin.Path, env)
				}
			}
			var execs uint64
			for _, p := range c.packages() {
				for _, n := range p.Counts {
					execs += n.N
				}
			}
			runs := float64(b.N * len(bins))
			b.ReportMetric(100*(float64(inst)/runs/(float64(base)/float64(b.N))-1), "slowdown-%")
			b.ReportMetric(float64(execs)/runs, "probe-execs/run")
			b.ReportMetric(float64(inst)/runs/1e6, "cpu-ms/run")
		})
		srv.Close()
	}
}

// cpu runs bin on the workload and returns its CPU time.
func cpu(b *testing.B, bin string, env []string) time.Duration {
	cmd := exec.Command(bin, benchReps)
	cmd.Env = append(os.Environ(), env...)
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("%s: %v\n%s", bin, err, out)
	}
	return cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
}
