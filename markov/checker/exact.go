package checker

import (
	"fmt"
	"math"
	"math/big"
	"sort"

	"github.com/augur-perf/augur/markov/dtmc"
)

// The exact method computes every number as a rational: probabilities as the model recorded them
// exactly, or as the shortest decimal of their float64 (so 0.1 is 1/10), and rewards likewise.
// A row whose rationals do not sum to exactly 1 (1/3 written as 0.3333333333333333, say) is
// divided by its sum, and the result says so.

// exactProbs returns the exact transition probabilities, normalised row by row.
func (e *evaluator) exactProbs() []*big.Rat {
	if e.exactP != nil {
		return e.exactP
	}
	p := make([]*big.Rat, len(e.m.Prob))
	one := big.NewRat(1, 1)
	renormalised := 0
	for s := 0; s < e.m.N; s++ {
		sum := new(big.Rat)
		for k := e.m.RowPtr[s]; k < e.m.RowPtr[s+1]; k++ {
			p[k] = e.m.ExactProb(k)
			sum.Add(sum, p[k])
		}
		if sum.Cmp(one) != 0 {
			renormalised++
			for k := e.m.RowPtr[s]; k < e.m.RowPtr[s+1]; k++ {
				p[k] = new(big.Rat).Quo(p[k], sum)
			}
		}
	}
	if renormalised > 0 {
		e.stats.Notes = append(e.stats.Notes, fmt.Sprintf("exact: %d rows whose decimal probabilities do not sum to exactly 1 were divided by their sums", renormalised))
	}
	e.exactP = p
	return p
}

func ratOrZero(v []float64, i int) *big.Rat {
	if v == nil {
		return new(big.Rat)
	}
	return dtmc.Decimal(v[i])
}

// exactValues completes rationals (nil meaning +Inf) with their float64 images.
func exactValues(r []*big.Rat) *values {
	v := &values{x: make([]float64, len(r)), exact: r}
	for i, q := range r {
		if q == nil {
			v.x[i] = math.Inf(1)
		} else {
			v.x[i], _ = q.Float64()
		}
	}
	return v
}

// exactIterate runs x⁰ = start, xⁱ(s) = add(s) + Σ_t P(s,t)·xⁱ⁻¹(t) for the states where step
// is true (others keep add(s)), k times.
func (e *evaluator) exactIterate(k int, start []*big.Rat, add func(int) *big.Rat, step func(int) bool) []*big.Rat {
	p := e.exactProbs()
	x := start
	for i := 0; i < k; i++ {
		y := make([]*big.Rat, e.m.N)
		for s := range y {
			v := new(big.Rat).Set(add(s))
			if step(s) {
				tmp := new(big.Rat)
				for j := e.m.RowPtr[s]; j < e.m.RowPtr[s+1]; j++ {
					v.Add(v, tmp.Mul(p[j], x[e.m.Col[j]]))
				}
			}
			y[s] = v
		}
		x = y
	}
	return x
}

func indicator(b []bool) []*big.Rat {
	x := make([]*big.Rat, len(b))
	for i, in := range b {
		x[i] = new(big.Rat)
		if in {
			x[i].SetInt64(1)
		}
	}
	return x
}

func (e *evaluator) exactNext(phi []bool) *values {
	zero := new(big.Rat)
	return exactValues(e.exactIterate(1, indicator(phi), func(int) *big.Rat { return zero }, func(int) bool { return true }))
}

func (e *evaluator) exactBoundedUntil(l, r []bool, k int) *values {
	ind := indicator(r)
	return exactValues(e.exactIterate(k, ind, func(s int) *big.Rat { return ind[s] }, func(s int) bool { return l[s] && !r[s] }))
}

func (e *evaluator) exactStepRewards(rew *dtmc.Reward) []*big.Rat {
	p := e.exactProbs()
	out := make([]*big.Rat, e.m.N)
	for s := range out {
		out[s] = ratOrZero(rew.State, s)
		if rew.Trans != nil {
			for k := e.m.RowPtr[s]; k < e.m.RowPtr[s+1]; k++ {
				out[s].Add(out[s], new(big.Rat).Mul(p[k], dtmc.Decimal(rew.Trans[k])))
			}
		}
	}
	return out
}

func (e *evaluator) exactCumulative(rew *dtmc.Reward, k int) *values {
	step := e.exactStepRewards(rew)
	return exactValues(e.exactIterate(k, indicator(make([]bool, e.m.N)), func(s int) *big.Rat { return step[s] }, func(int) bool { return true }))
}

func (e *evaluator) exactInstant(rew *dtmc.Reward, k int) *values {
	start := make([]*big.Rat, e.m.N)
	for s := range start {
		start[s] = ratOrZero(rew.State, s)
	}
	zero := new(big.Rat)
	return exactValues(e.exactIterate(k, start, func(int) *big.Rat { return zero }, func(int) bool { return true }))
}

// exactSolve solves x_s = Σ_t P(s,t)·(rew(s,t) + x_t) + rew(s) on the unknown states by rational
// Gaussian elimination, component by component, sinks first. known gives the other states'
// values (nil for +Inf, which no unknown state reaches).
func (e *evaluator) exactSolve(unknown []bool, knownF func(int) float64, rew *dtmc.Reward) (*values, error) {
	known := func(s int) *big.Rat {
		if v := knownF(s); !math.IsInf(v, 1) {
			return dtmc.Decimal(v)
		}
		return nil
	}
	return e.exactSolveRat(unknown, known, rew)
}

func (e *evaluator) exactSolveRat(unknown []bool, known func(int) *big.Rat, rew *dtmc.Reward) (*values, error) {
	var step []*big.Rat
	if rew != nil {
		step = e.exactStepRewards(rew)
	}
	x := make([]*big.Rat, e.m.N)
	for s := range x {
		if !unknown[s] {
			x[s] = known(s)
		}
	}
	states, bounds := e.g.sccs(unknown)
	for c := 0; c+1 < len(bounds); c++ {
		if err := e.exactComponent(states[bounds[c]:bounds[c+1]], x, step); err != nil {
			return nil, err
		}
	}
	e.stats.Unknowns += len(states)
	e.stats.SCCs += len(bounds) - 1
	e.stats.DirectSCCs += len(bounds) - 1
	return exactValues(x), nil
}

// exactComponent solves one strongly connected component comp of the unknown states in rationals
// (comp is sorted in place), reading the values of the states it leaves to from x and writing
// its own there. step holds the rewards of one step (nil: none).
func (e *evaluator) exactComponent(comp []int, x, step []*big.Rat) error {
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
		pivot := new(big.Rat).Sub(one, ratOrNew(rows[v][v]))
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

func ratOrNew(r *big.Rat) *big.Rat {
	if r == nil {
		return new(big.Rat)
	}
	return r
}

// exactLongRun is the long-run average of w in rationals: GTH on each bottom component, then
// reachability.
func (e *evaluator) exactLongRun(w []*big.Rat) (*values, error) {
	p := e.exactProbs()
	inBottom := make([]bool, e.m.N)
	value := make([]*big.Rat, e.m.N)
	for _, b := range e.g.bsccs() {
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
			for k := e.m.RowPtr[s]; k < e.m.RowPtr[s+1]; k++ {
				j := loc[e.m.Col[k]]
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
		total := big.NewRat(1, 1)
		for k := 1; k < n; k++ {
			pi[k] = new(big.Rat)
			for i := 0; i < k; i++ {
				pi[k].Add(pi[k], new(big.Rat).Mul(pi[i], q[i][k]))
			}
			total.Add(total, pi[k])
		}
		v := new(big.Rat)
		for i, s := range b {
			if w[s].Sign() != 0 {
				v.Add(v, new(big.Rat).Mul(pi[i], w[s]))
			}
		}
		v.Quo(v, total)
		for _, s := range b {
			inBottom[s], value[s] = true, v
		}
	}
	unknown := make([]bool, e.m.N)
	for s := range unknown {
		unknown[s] = !inBottom[s]
	}
	return e.exactSolveRat(unknown, func(s int) *big.Rat { return value[s] }, nil)
}
