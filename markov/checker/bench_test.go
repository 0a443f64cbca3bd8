package checker

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/augur-perf/augur/markov/dtmc"
	"github.com/augur-perf/augur/markov/pctl"
)

// The goal: R=? [F φ] at 10^6 states in under 1 s and under 500 MB. B/op (all memory the
// check allocates) bounds the checker's own peak heap; the model itself is built before timing.

func benchCheck(b *testing.B, m *dtmc.Model, prop string, opt Options) {
	f, err := pctl.Parse(prop)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	var r *Result
	for i := 0; i < b.N; i++ {
		if r, err = Check(m, f, opt); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(m.N), "states")
	b.ReportMetric(float64(r.Stats.IterSCCs), "iterative-sccs")
	b.ReportMetric(float64(r.Stats.Iterations), "iterations")
	if !r.Stats.Converged {
		b.Fatalf("%s (%v) did not converge: %v", prop, opt.Method, r.Stats.Notes)
	}
	if r.Lo != nil {
		// The bound on the relative error over all states, in units of 1e-12: what the interval
		// method's time buys.
		b.ReportMetric(r.Stats.ErrEstimate*1e12, "err-bound/1e-12")
	}
}

func BenchmarkReachRewardCode(b *testing.B) {
	for _, n := range []int{1e3, 1e5, 1e6} {
		m := codeChain(rand.New(rand.NewPCG(7, uint64(n))), n)
		for _, meth := range []Method{Direct, Interval} {
			b.Run(fmt.Sprintf("n=%d/%v", n, meth), func(b *testing.B) {
				benchCheck(b, m, `R{"time"}=? [ F "end" ]`, Options{Method: meth})
			})
		}
	}
}

func BenchmarkReachRewardRandom(b *testing.B) {
	for _, n := range []int{1e3, 1e5, 1e6} {
		m := randomChain(rand.New(rand.NewPCG(8, uint64(n))), n, 3, 0.1, false)
		for _, meth := range []Method{Direct, Interval, PRISM} {
			b.Run(fmt.Sprintf("n=%d/%v", n, meth), func(b *testing.B) {
				benchCheck(b, m, `R{"cost"}=? [ F "goal" ]`, Options{Method: meth})
			})
		}
	}
}
