package checker

import (
	"fmt"
	"math/big"
	"math/rand/v2"
	"slices"
	"sort"
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
			pi, err := exactStationary(m, p, b)
			if err != nil {
				t.Fatal(err)
			}
			got, want := normalised(pi), normalised(gthRat(m, p, b))
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

// ratComponent solves one strongly connected component comp of the unknown states in big.Rat,
// as the exact method did before exactComponent used integer rows: the oracle it must agree
// with exactly. It solves
// (comp is sorted in place), reading the values of the states it leaves to from x and writing
// its own there. step holds the rewards of one step (nil: none).
func ratComponent(e *evaluator, comp []int, x, step []*big.Rat) error {
	p := e.exactProbs()
	sort.Ints(comp)
	in := make(map[int]bool, len(comp))
	for _, s := range comp {
		in[s] = true
	}
	rows := make(map[int]map[int]*big.Rat, len(comp))
	rhs := make(map[int]*big.Rat, len(comp))
	for _, s := range comp {
		row := map[int]*big.Rat{}
		c := new(big.Rat)
		if step != nil {
			c.Set(step[s])
		}
		for k := e.m.RowPtr[s]; k < e.m.RowPtr[s+1]; k++ {
			t := e.m.Col[k]
			if in[t] {
				row[t] = new(big.Rat).Set(p[k])
				continue
			}
			if x[t] == nil {
				return fmt.Errorf("internal error: state %d reaches state %d of infinite value", s, t)
			}
			c.Add(c, new(big.Rat).Mul(p[k], x[t]))
		}
		rows[s], rhs[s] = row, c
	}
	one := big.NewRat(1, 1)
	for _, v := range comp {
		pivot := new(big.Rat).Sub(one, orZero(rows[v][v]))
		if pivot.Sign() == 0 {
			return fmt.Errorf("internal error: state %d never leaves the unknown states", v)
		}
		delete(rows[v], v)
		for w, a := range rows[v] {
			rows[v][w] = a.Quo(a, pivot)
		}
		rhs[v].Quo(rhs[v], pivot)
		for _, u := range comp {
			a, ok := rows[u][v]
			if !ok || u == v {
				continue
			}
			delete(rows[u], v)
			for w, b := range rows[v] {
				add := new(big.Rat).Mul(a, b)
				if cur, ok := rows[u][w]; ok {
					cur.Add(cur, add)
				} else {
					rows[u][w] = add
				}
			}
			rhs[u].Add(rhs[u], new(big.Rat).Mul(a, rhs[v]))
		}
	}
	for i := len(comp) - 1; i >= 0; i-- {
		v := comp[i]
		val := new(big.Rat).Set(rhs[v])
		for w, a := range rows[v] {
			val.Add(val, new(big.Rat).Mul(a, x[w]))
		}
		x[v] = val
	}
	return nil
}

func orZero(r *big.Rat) *big.Rat {
	if r == nil {
		return new(big.Rat)
	}
	return r
}

// TestExactComponentIsRational: component by component, sinks first, the integer-row solution of
// reachability probabilities and rewards equals the big.Rat elimination's exactly.
func TestExactComponentIsRational(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	components := 0
	for i := 0; i < 200; i++ {
		m := randomChain(r, 3+r.IntN(30), 1+r.IntN(3), 0.15, true)
		g, err := newGraph(m)
		if err != nil {
			t.Fatal(err)
		}
		e := &evaluator{m: m, g: g}
		goal := labelSet(m, "goal")
		all := make([]bool, m.N)
		for s := range all {
			all[s] = true
		}
		no := g.prob0(all, goal)
		yes := g.prob1(all, goal, no)
		unknown := make([]bool, m.N)
		x, y := make([]*big.Rat, m.N), make([]*big.Rat, m.N)
		var step []*big.Rat
		if i%2 == 0 {
			step = e.exactStepRewards(m.Rewards[0])
		}
		for s := range x {
			switch {
			case step == nil && yes[s]:
				x[s], y[s] = big.NewRat(1, 1), big.NewRat(1, 1)
			case step == nil && no[s], step != nil && goal[s]:
				x[s], y[s] = new(big.Rat), new(big.Rat)
			case step != nil && !yes[s]:
			default:
				unknown[s] = true
			}
		}
		states, bounds := g.sccs(unknown)
		for c := 0; c+1 < len(bounds); c++ {
			comp := states[bounds[c]:bounds[c+1]]
			components++
			if err := e.exactComponent(slices.Clone(comp), x, step); err != nil {
				t.Fatal(err)
			}
			if err := ratComponent(e, slices.Clone(comp), y, step); err != nil {
				t.Fatal(err)
			}
			for _, s := range comp {
				if x[s].Cmp(y[s]) != 0 {
					t.Fatalf("chain %d state %d: %v, big.Rat elimination %v", i, s, x[s], y[s])
				}
			}
		}
	}
	if components < 300 {
		t.Fatalf("only %d components", components)
	}
}
