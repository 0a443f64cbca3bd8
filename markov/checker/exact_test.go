package checker

import (
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/augur-perf/augur/markov/dtmc"
)

// gthRat is the stationary distribution of bottom component b by Grassmann, Taksar and Heyman's
// state reduction in big.Rat, as the exact method computed it before exactStationary: the
// oracle that exactStationary must agree with exactly.
func gthRat(m *dtmc.Model, p []*big.Rat, b []int) []*big.Rat {
	n := len(b)
	loc := make(map[int]int, n)
	for i, s := range b {
		loc[s] = i
	}
	q := make([][]*big.Rat, n)
	for i, s := range b {
		q[i] = make([]*big.Rat, n)
		for j := range q[i] {
			q[i][j] = new(big.Rat)
		}
		for k := m.RowPtr[s]; k < m.RowPtr[s+1]; k++ {
			j := loc[m.Col[k]]
			q[i][j].Add(q[i][j], p[k])
		}
	}
	for k := n - 1; k > 0; k-- {
		sum := new(big.Rat)
		for j := 0; j < k; j++ {
			sum.Add(sum, q[k][j])
		}
		for i := 0; i < k; i++ {
			q[i][k].Quo(q[i][k], sum)
		}
		for i := 0; i < k; i++ {
			if q[i][k].Sign() == 0 {
				continue
			}
			for j := 0; j < k; j++ {
				q[i][j].Add(q[i][j], new(big.Rat).Mul(q[i][k], q[k][j]))
			}
		}
	}
	pi := make([]*big.Rat, n)
	pi[0] = big.NewRat(1, 1)
	for k := 1; k < n; k++ {
		pi[k] = new(big.Rat)
		for i := 0; i < k; i++ {
			pi[k].Add(pi[k], new(big.Rat).Mul(pi[i], q[i][k]))
		}
	}
	return pi
}

func normalised(pi []*big.Rat) []*big.Rat {
	total := new(big.Rat)
	for _, x := range pi {
		total.Add(total, x)
	}
	out := make([]*big.Rat, len(pi))
	for i, x := range pi {
		out[i] = new(big.Rat).Quo(x, total)
	}
	return out
}

// TestExactStationaryIsGTH: on every bottom component of random chains — decimal probabilities
// that do not sum to 1, exact fractions, zero probabilities, periodic components — the
// stationary distribution in integer rows equals GTH's in rationals exactly, and balances.
func TestExactStationaryIsGTH(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	components := 0
	for i := 0; i < 300; i++ {
		n := 3 + r.IntN(25) // randomChain needs at least as many states as successors
		var m *dtmc.Model
		switch i % 3 {
		case 0:
			m = randomChain(r, n, 1+r.IntN(3), 0.2, i%2 == 0)
		case 1:
			// Fractions, some zero, and a cycle through every state so that the chain is one
			// periodic or aperiodic component.
			b := dtmc.NewBuilder(n)
			for s := 0; s < n; s++ {
				q := big.NewRat(int64(r.IntN(3)), int64(1+r.IntN(5)))
				if q.Cmp(big.NewRat(1, 1)) >= 0 || n == 1 {
					q.SetInt64(0)
				}
				b.AddExact(s, (s+1)%n, new(big.Rat).Sub(big.NewRat(1, 1), q))
				if q.Sign() != 0 || r.IntN(2) == 0 {
					if t := r.IntN(n); t != (s+1)%n {
						b.AddExact(s, t, q)
					} else {
						b.AddExact(s, (s+1)%n, big.NewRat(1, 1))
						continue
					}
				}
			}
			b.SetInit(0)
			var err error
			if m, err = b.Build(); err != nil {
				continue
			}
		default:
			m = randomChain(r, n, 3, 0.2, false)
		}
		e := &evaluator{m: m}
		g, err := newGraph(m)
		if err != nil {
			t.Fatal(err)
		}
		e.g = g
		p := e.exactProbs()
		for _, b := range g.bsccs() {
			components++
			got, want := normalised(exactStationary(m, p, b)), normalised(gthRat(m, p, b))
			for k := range got {
				if got[k].Cmp(want[k]) != 0 {
					t.Fatalf("chain %d, component %v, state %d: %v, GTH %v", i, b, b[k], got[k], want[k])
				}
			}
		}
	}
	if components < 300 {
		t.Fatalf("only %d components", components)
	}
}
