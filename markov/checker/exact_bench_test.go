package checker

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/augur-perf/augur/markov/pctl"
)

// BenchmarkExactSteady is --method exact on long-run properties of chains with decimal
// probabilities (weights k/Σ written as 16-digit decimals, so each row's rationals have
// denominators of 10^17 and do not sum to 1 exactly): the random chains of TestRandomAgreement,
// at growing sizes: one bottom component holding almost every state, or (traps) some absorbing
// states besides, so that the long-run value of the transient states is a reachability problem.
func BenchmarkExactSteady(b *testing.B) {
	for _, n := range []int{10, 20, 40, 80, 160} {
		for _, trap := range []bool{false, true} {
			m := randomChain(rand.New(rand.NewPCG(5, uint64(n))), n, 3, 0.15, trap)
			for _, prop := range []string{`S=? [ "goal" ]`, `R{"cost"}=? [ S ]`} {
				b.Run(fmt.Sprintf("n=%d/traps=%v/%s", n, trap, prop[:1]), func(b *testing.B) {
					f, err := pctl.Parse(prop)
					if err != nil {
						b.Fatal(err)
					}
					b.ReportAllocs()
					for i := 0; i < b.N; i++ {
						if _, err := Check(m, f, Options{Method: Exact}); err != nil {
							b.Fatal(err)
						}
					}
				})
			}
		}
	}
}
