package main

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
	"time"

	"github.com/augur-perf/augur/internal/testmodels"

	"github.com/augur-perf/augur/markov/dtmc"
	"github.com/augur-perf/augur/markov/modelio"
)

var checkLoadBin = flag.String("checkload.bin", "", "BenchmarkCheckLoad: time this augur binary instead of building one (to compare builds in the same conditions)")

// codeShapedChain is a chain of about n states shaped like a long function: sequences, branches
// and loops nested up to three deep, every statement also able to return an error or panic, so
// that most states have three successors. Cycles come only from loops, as in code. "end" is the
// exit; every state but it costs 1 "time".
func codeShapedChain(n int) *dtmc.Model {
	r := rand.New(rand.NewPCG(13, uint64(n)))
	succ := make([][]int, 0, n)
	prob := make([][]float64, 0, n)
	newState := func() int {
		succ = append(succ, nil)
		prob = append(prob, nil)
		return len(succ) - 1
	}
	edge := func(from, to int, p float64) {
		succ[from] = append(succ[from], to)
		prob[from] = append(prob[from], p)
	}
	var block func(entry, depth, budget int) int
	block = func(entry, depth, budget int) int {
		cur := entry
		for budget > 0 {
			switch k := r.IntN(10); {
			case k < 6 || depth >= 3 || budget < 8:
				s := newState()
				edge(cur, s, 1)
				cur = s
				budget--
			case k < 8:
				c := newState()
				edge(cur, c, 1)
				t, f := newState(), newState()
				p := 0.1 + 0.8*r.Float64()
				edge(c, t, p)
				edge(c, f, 1-p)
				size := 1 + r.IntN(budget/2)
				endT := block(t, depth+1, size/2)
				endF := block(f, depth+1, size-size/2)
				j := newState()
				edge(endT, j, 1)
				edge(endF, j, 1)
				cur = j
				budget -= size + 4
			default:
				h := newState()
				edge(cur, h, 1)
				body, exit := newState(), newState()
				p := 0.5 + 0.45*r.Float64()
				edge(h, body, p)
				edge(h, exit, 1-p)
				size := 1 + r.IntN(budget/2)
				last := block(body, depth+1, size)
				edge(last, h, 1)
				cur = exit
				budget -= size + 3
			}
		}
		return cur
	}
	start := newState()
	last := block(start, 0, n-2)
	ret, end := newState(), newState()
	edge(last, end, 1)
	edge(ret, end, 1)
	edge(end, end, 1)
	b := dtmc.NewBuilder(len(succ))
	for s := range succ {
		// Every statement may also return an error early or panic (both leave the function:
		// an error return through ret, a panic straight to end), up to three successors.
		for _, t := range []int{ret, end} {
			if s < ret && len(succ[s]) < 3 && !slices.Contains(succ[s], t) {
				w := 0.001 + 0.01*r.Float64()
				for i := range prob[s] {
					prob[s][i] *= 1 - w
				}
				edge(s, t, w)
			}
		}
		sum := 0.0
		for i, t := range succ[s] {
			p := prob[s][i]
			if i == len(succ[s])-1 {
				p = 1 - sum // the row sums to 1 to the last bit
			}
			sum += p
			b.Add(s, t, p)
		}
		if s != end {
			b.AddStateReward("time", s, 1)
		}
	}
	b.Label("end", end)
	b.SetInit(start)
	m, err := b.Build()
	if err != nil {
		panic(err)
	}
	return m
}

// checkLoadModels are the models of BenchmarkCheckLoad, by name.
var checkLoadModels = map[string]func(int) *dtmc.Model{"code": codeShapedChain, "random": testmodels.RandomChain}

// TestCheckLoadWriteModel is not a test but BenchmarkCheckLoad's helper process (the pattern of
// os/exec's own tests): with AUGUR_CHECKLOAD_MODEL=name and AUGUR_CHECKLOAD_BASE=path set it
// writes that model's PRISM files and prints its size; otherwise it does nothing. Building the
// model in another process keeps the benchmark's own peak memory small: Linux counts the
// parent's peak in the maxrss of a child it starts (the child shares the parent's memory
// between fork and exec), which would hide the checked process's own peak.
func TestCheckLoadWriteModel(t *testing.T) {
	name, base := os.Getenv("AUGUR_CHECKLOAD_MODEL"), os.Getenv("AUGUR_CHECKLOAD_BASE")
	if name == "" {
		return
	}
	m := checkLoadModels[name](1e6)
	if _, err := modelio.WritePRISMFiles(base, m, modelio.PRISMWriteOptions{}); err != nil {
		t.Fatal(err)
	}
	fmt.Printf("model %d %d\n", m.N, m.NumTransitions())
}

// BenchmarkCheckLoad runs the whole `augur check model.tra --prop ...` process on PRISM explicit
// files of 10^6 states and 3·10^6 transitions (.tra, .lab, .srew, .trew), as a user would: the
// process's wall time (s/check), its processor time (CPU-s/check, user and system: on a machine
// shared with other work, the part of the wall time that is the process's own) and its peak
// resident memory (MB-peak-RSS, the kernel's maxrss of the child). The goal of issue 13 item 3
// is under 1 s and under 400 MB.
func BenchmarkCheckLoad(b *testing.B) {
	bin := *checkLoadBin
	if bin == "" {
		bin = filepath.Join(b.TempDir(), "augur")
		if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
			b.Fatalf("go build: %v\n%s", err, out)
		}
	}
	for _, c := range []struct{ name, prop string }{
		{"code", `R{"time"}=? [ F "end" ]`},
		{"random", `R{"cost"}=? [ F "goal" ]`},
	} {
		base := filepath.Join(b.TempDir(), "m")
		gen := exec.Command(os.Args[0], "-test.run=^TestCheckLoadWriteModel$")
		gen.Env = append(os.Environ(), "AUGUR_CHECKLOAD_MODEL="+c.name, "AUGUR_CHECKLOAD_BASE="+base)
		out, err := gen.CombinedOutput()
		var states, transitions int
		if err == nil {
			_, err = fmt.Sscanf(string(out), "model %d %d", &states, &transitions)
		}
		if err != nil {
			b.Fatalf("writing the model: %v\n%s", err, out)
		}
		b.Run(c.name, func(b *testing.B) {
			b.ReportMetric(float64(states), "states")
			b.ReportMetric(float64(transitions), "transitions")
			var wall, cpu time.Duration
			var rss int64
			for i := 0; i < b.N; i++ {
				cmd := exec.Command(bin, "check", base+".tra", "--prop", c.prop)
				cmd.Stderr = os.Stderr
				t0 := time.Now()
				if err := cmd.Run(); err != nil {
					b.Fatalf("augur check: %v", err)
				}
				wall += time.Since(t0)
				cpu += cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
				rss = max(rss, cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss) // KiB on Linux
			}
			b.ReportMetric(wall.Seconds()/float64(b.N), "s/check")
			b.ReportMetric(cpu.Seconds()/float64(b.N), "CPU-s/check")
			b.ReportMetric(float64(rss)/1024, "MB-peak-RSS")
		})
	}
}
