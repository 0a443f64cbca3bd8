package taint

import (
	"bufio"
	"bytes"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/augur-perf/augur/options/sources"
	"golang.org/x/tools/go/packages"
)

// countLines counts the lines of every file of the packages analysed with
// bodies (those loaded with syntax).
func countLines(pkgs []*packages.Package) int {
	n := 0
	for _, p := range pkgs {
		for _, f := range p.CompiledGoFiles {
			data, err := os.ReadFile(f)
			if err == nil {
				n += bytes.Count(data, []byte("\n"))
			}
		}
	}
	return n
}

// vmHWM is the peak resident set size of this process in bytes, from
// /proc/self/status (0 where unavailable).
func vmHWM() float64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "VmHWM:"); ok {
			kb, _ := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")))
			return float64(kb) * 1024
		}
	}
	return 0
}

// BenchmarkAnalyzeLarge analyses x/tools commands with all their
// non-standard-library dependencies from source, their flags (and the
// environment variables x/tools reads) being the options: stringer (20
// packages, about 38k lines, 17k of them the internal/stdlib table) and
// callgraph (35 packages, about 60k lines: go/packages, go/ssa, the call
// graph algorithms). It reports lines, load and analysis times, and peak
// memory (Go heap from the runtime, resident set from the kernel; the
// latter is the peak of the whole test process).
//
// The third case is issue 16's scaling goal, a module of at least 100k lines
// with its dependencies in under 60 s and 2 GB: augur's own options/study
// (58 packages, about 134k lines: augur's options group, x/tools' go/packages,
// go/ssa and call graphs, gonum's matrices and LAPACK), whose 87 options are the
// environment variables x/tools reads and the keys of the JSON decoded into
// structs (go list's output, augur's model files; go list's Module reaches
// itself through Replace, which once made the finder recurse without end).
// Every module it needs is one go.mod
// requires, so the benchmark fetches nothing. Run it alone (-run '^$' -bench
// 'AnalyzeLarge/study' -benchtime 1x): vmhwm-MB is the process's peak, so a
// case run after another reports the larger of the two.
func BenchmarkAnalyzeLarge(b *testing.B) {
	if testing.Short() {
		b.Skip("loads and analyses 38k-134k lines")
	}
	for _, cmd := range []string{"stringer", "callgraph"} {
		b.Run(cmd, func(b *testing.B) { benchAnalyze(b, "golang.org/x/tools/cmd/"+cmd) })
	}
	b.Run("study", func(b *testing.B) { benchAnalyze(b, "github.com/augur-perf/augur/options/study") })
}

func benchAnalyze(b *testing.B, pattern string) {
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		pkgs, err := Load(Config{Deps: true}, pattern)
		if err != nil {
			b.Fatal(err)
		}
		load := time.Since(t0)
		t1 := time.Now()
		r, err := Analyze(pkgs, sources.Decls{})
		if err != nil {
			b.Fatal(err)
		}
		analyse := time.Since(t1)
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		influenced := 0
		for _, d := range r.Decisions {
			if d.Influenced() {
				influenced++
			}
		}
		b.ReportMetric(float64(countLines(pkgs)), "lines")
		b.ReportMetric(float64(len(pkgs)), "pkgs")
		b.ReportMetric(load.Seconds(), "load-s")
		b.ReportMetric(analyse.Seconds(), "analyze-s")
		b.ReportMetric(float64(ms.HeapSys)/(1<<20), "heapsys-MB")
		b.ReportMetric(vmHWM()/(1<<20), "vmhwm-MB")
		b.ReportMetric(float64(len(r.Decisions)), "decisions")
		b.ReportMetric(float64(influenced), "influenced")
		b.ReportMetric(float64(len(r.Options.Options)), "options")
		b.Logf("%s: options %v irrelevant %v", pattern, r.Options.Names(), r.Irrelevant)
	}
}
