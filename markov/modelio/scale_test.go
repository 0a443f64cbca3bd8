package modelio

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/augur-perf/augur/markov/checker"
	"github.com/augur-perf/augur/markov/dtmc"
	"github.com/augur-perf/augur/markov/pctl"
)

// scaleChain is a random chain of n states with three successors each, a "goal" label on a tenth
// of them and a "cost" reward of 1..5 per state: the shape of the 10^6-state load-and-check goal
// (10^6 states, 3·10^6 transitions).
func scaleChain(n int) *dtmc.Model {
	r := rand.New(rand.NewPCG(8, uint64(n)))
	b := dtmc.NewBuilder(n)
	for s := 0; s < n; s++ {
		if r.IntN(10) == 0 {
			b.Label("goal", s)
		}
		var t [3]int
		for i := range t {
			t[i] = r.IntN(n)
			for j := 0; j < i; j++ {
				if t[j] == t[i] {
					t[i] = r.IntN(n)
					j = -1
				}
			}
		}
		for _, u := range t {
			b.Add(s, u, 1.0/3)
		}
		b.AddStateReward("cost", s, float64(1+r.IntN(5)))
	}
	b.DeclareLabel("goal")
	b.SetInit(0)
	m, err := b.Build()
	if err != nil {
		panic(err)
	}
	return m
}

// BenchmarkLoadCheck is the whole of `augur check` on PRISM explicit files but the process start:
// reading the .tra, .lab and .srew files and checking R=? [F "goal"]. The goal is under 1 s and
// under 400 MB for the whole process at 10^6 states; B/op counts everything allocated, the
// model included.
func BenchmarkLoadCheck(b *testing.B) {
	for _, n := range []int{1e5, 1e6} {
		dir := b.TempDir()
		base := filepath.Join(dir, "m")
		if _, err := WritePRISMFiles(base, scaleChain(n), PRISMWriteOptions{}); err != nil {
			b.Fatal(err)
		}
		runtime.GC()
		f, err := pctl.Parse(`R{"cost"}=? [ F "goal" ]`)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				m, err := Load(base + ".tra")
				if err != nil {
					b.Fatal(err)
				}
				if _, err := checker.Check(m, f, checker.Options{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
