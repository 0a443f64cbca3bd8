package checker

import (
	"math/big"
	"math/rand/v2"
	"slices"

	"github.com/augur-perf/augur/markov/dtmc"
)

// Model generators shared by the tests and benchmarks.

// geometricLoop: 0 is the loop head (continue with p), 1 the body (reward "iter" 1), 2 the end.
func geometricLoop(p float64) *dtmc.Model {
	b := dtmc.NewBuilder(3)
	b.Add(0, 1, p)
	b.Add(0, 2, 1-p)
	b.Add(1, 0, 1)
	b.Add(2, 2, 1)
	b.SetInit(0)
	b.Label("end", 2)
	b.AddStateReward("iter", 1, 1)
	return must(b.Build())
}

// knuthDie is Knuth and Yao's die from fair coin flips: states 0-6 flip, 7-12 are the faces 1-6.
func knuthDie() *dtmc.Model {
	b := dtmc.NewBuilder(13)
	half := big.NewRat(1, 2)
	flip := [][2]int{{1, 2}, {3, 4}, {5, 6}, {1, 7}, {8, 9}, {10, 11}, {2, 12}}
	for s, next := range flip {
		b.AddExact(s, next[0], half)
		b.AddExact(s, next[1], half)
		b.AddStateReward("flips", s, 1)
	}
	for f := 7; f <= 12; f++ {
		b.Add(f, f, 1)
		b.Label("done", f)
	}
	names := []string{"one", "two", "three", "four", "five", "six"}
	for i, n := range names {
		b.Label(n, 7+i)
	}
	b.SetInit(0)
	return must(b.Build())
}

// birthDeath is the walk on 0..n that moves up with probability p and down (or stays, at 0) with
// 1-p; n is absorbing and labelled "top", every other state costs 1 "steps".
func birthDeath(n int, p *big.Rat) *dtmc.Model {
	b := dtmc.NewBuilder(n + 1)
	q := new(big.Rat).Sub(big.NewRat(1, 1), p)
	for s := 0; s < n; s++ {
		b.AddExact(s, s+1, p)
		if s == 0 {
			b.AddExact(0, 0, q)
		} else {
			b.AddExact(s, s-1, q)
		}
		b.AddStateReward("steps", s, 1)
	}
	b.Add(n, n, 1)
	b.Label("top", n)
	b.SetInit(0)
	return must(b.Build())
}

// birthDeathTime is the exact expected time from 0 to n: T_0 = 1/p, T_k = 1/p + (q/p)·T_{k-1}.
func birthDeathTime(n int, p *big.Rat) *big.Rat {
	q := new(big.Rat).Sub(big.NewRat(1, 1), p)
	inv := new(big.Rat).Inv(p)
	ratio := new(big.Rat).Quo(q, p)
	total, t := new(big.Rat), new(big.Rat)
	for k := 0; k < n; k++ {
		t = new(big.Rat).Add(inv, new(big.Rat).Mul(ratio, t))
		total.Add(total, t)
	}
	return total
}

// randomChain has n states with up to deg random successors each and random probabilities; a
// fraction of states are labelled "goal", and with trap set some states are absorbing without
// the goal, so that rewards to the goal are infinite from some states.
func randomChain(r *rand.Rand, n, deg int, goal float64, trap bool) *dtmc.Model {
	b := dtmc.NewBuilder(n)
	for s := 0; s < n; s++ {
		if r.Float64() < goal {
			b.Label("goal", s)
		}
		if trap && r.Float64() < 0.05 {
			b.Add(s, s, 1)
			continue
		}
		targets := make([]int, 0, deg)
		for len(targets) < deg {
			t := r.IntN(n)
			if !slices.Contains(targets, t) {
				targets = append(targets, t)
			}
		}
		slices.Sort(targets)
		w := make([]float64, deg)
		sum := 0.0
		for i := range w {
			w[i] = float64(1 + r.IntN(9))
			sum += w[i]
		}
		for i, t := range targets {
			b.Add(s, t, w[i]/sum)
		}
		b.AddStateReward("cost", s, float64(1+r.IntN(5)))
	}
	b.DeclareLabel("goal")
	b.SetInit(0)
	return must(b.Build())
}

// codeChain builds a chain shaped like the flow graph of structured code: sequences of plain
// statements, two-way branches and loops nested up to depth 3, as synthesis from a function
// produces them, with about n states, ending in an absorbing "end" state. Every state costs 1.
func codeChain(r *rand.Rand, n int) *dtmc.Model {
	type edge struct {
		from, to int
		p        float64
	}
	var edges []edge
	next := 0
	newState := func() int { next++; return next - 1 }
	// block emits statements starting at state entry and returns the state control reaches after.
	var block func(entry, depth, budget int) int
	block = func(entry, depth, budget int) int {
		cur := entry
		for budget > 0 {
			switch k := r.IntN(10); {
			case k < 6 || depth >= 3 || budget < 8:
				s := newState()
				edges = append(edges, edge{cur, s, 1})
				cur = s
				budget--
			case k < 8:
				c := newState()
				edges = append(edges, edge{cur, c, 1})
				t, f := newState(), newState()
				p := 0.1 + 0.8*r.Float64()
				edges = append(edges, edge{c, t, p}, edge{c, f, 1 - p})
				size := 1 + r.IntN(budget/2)
				endT := block(t, depth+1, size/2)
				endF := block(f, depth+1, size-size/2)
				j := newState()
				edges = append(edges, edge{endT, j, 1}, edge{endF, j, 1})
				cur = j
				budget -= size + 4
			default:
				h := newState()
				edges = append(edges, edge{cur, h, 1})
				body := newState()
				exit := newState()
				p := 0.5 + 0.45*r.Float64()
				edges = append(edges, edge{h, body, p}, edge{h, exit, 1 - p})
				size := 1 + r.IntN(budget/2)
				last := block(body, depth+1, size)
				edges = append(edges, edge{last, h, 1})
				cur = exit
				budget -= size + 3
			}
		}
		return cur
	}
	start := newState()
	last := block(start, 0, n)
	end := newState()
	edges = append(edges, edge{last, end, 1}, edge{end, end, 1})
	b := dtmc.NewBuilder(next)
	for _, e := range edges {
		b.Add(e.from, e.to, e.p)
	}
	for s := 0; s < next-1; s++ {
		b.AddStateReward("time", s, 1)
	}
	b.Label("end", end)
	b.SetInit(start)
	return must(b.Build())
}

func must(m *dtmc.Model, err error) *dtmc.Model {
	if err != nil {
		panic(err)
	}
	return m
}
