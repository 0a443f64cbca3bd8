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
//
// State s's equation x_s − Σ_{t∈comp} P(s,t)·x_t = step(s) + Σ_{t∉comp} P(s,t)·x_t is brought
// to integers once (times the common denominator of its coefficients and right-hand side) and
// the system is solved by solveIntRows, the constant term as the last unknown, fixed at 1.
func (e *evaluator) exactComponent(comp []int, x, step []*big.Rat) error {
	p := e.exactProbs()
	sort.Ints(comp)
	k := len(comp)
	loc := make(map[int]int, k)
	for i, s := range comp {
		loc[s] = i
	}
	rows := make([]intRow, k)
	for i, s := range comp {
		coef := map[int]*big.Rat{i: big.NewRat(1, 1)}
		rhs := new(big.Rat)
		if step != nil {
			rhs.Set(step[s])
		}
		for j := e.m.RowPtr[s]; j < e.m.RowPtr[s+1]; j++ {
			t := e.m.Col[j]
			if l, ok := loc[t]; ok {
				if c, ok := coef[l]; ok {
					c.Sub(c, p[j])
				} else {
					coef[l] = new(big.Rat).Neg(p[j])
				}
				continue
			}
			if x[t] == nil {
				return fmt.Errorf("internal error: state %d reaches state %d of infinite value", s, t)
			}
			rhs.Add(rhs, new(big.Rat).Mul(p[j], x[t]))
		}
		coef[k] = rhs.Neg(rhs)
		rows[i] = integerRow(coef)
	}
	y, err := solveIntRows(rows, k)
	if err != nil {
		return fmt.Errorf("internal error: state %d never leaves the unknown states", comp[err.(zeroPivot).row])
	}
	for i, s := range comp {
		x[s] = new(big.Rat).SetFrac(y[i], y[k])
	}
	return nil
}

// integerRow is the row of rationals coef (by column) times the common denominator of its
// entries, without zeros.
func integerRow(coef map[int]*big.Rat) intRow {
	l := big.NewInt(1)
	g := new(big.Int)
	for _, c := range coef {
		if c.Sign() != 0 && !c.IsInt() {
			den := c.Denom()
			l.Mul(l, g.Quo(den, g.GCD(nil, nil, l, den)))
		}
	}
	m := make(map[int]*big.Int, len(coef))
	for col, c := range coef {
		v := new(big.Int).Quo(l, c.Denom())
		m[col] = v.Mul(v, c.Num())
	}
	return sortedRow(m)
}

// exactLongRun is the long-run average of w in rationals: the stationary distribution of each
// bottom component, then reachability.
func (e *evaluator) exactLongRun(w []*big.Rat) (*values, error) {
	p := e.exactProbs()
	inBottom := make([]bool, e.m.N)
	value := make([]*big.Rat, e.m.N)
	for _, b := range e.g.bsccs() {
		pi, err := exactStationary(e.m, p, b)
		if err != nil {
			return nil, err
		}
		total := new(big.Rat)
		for _, x := range pi {
			total.Add(total, x)
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

// exactStationary returns a stationary distribution of the bottom component b up to a positive
// factor, in rationals: pi[i] belongs to state b[i].
//
// Rationals as big.Rat reduce every sum and product to lowest terms, a gcd of ever larger
// numbers per operation; on decimal probabilities (denominators of 10^17, rows that do not sum
// to 1 exactly) that gcd is most of the work. Instead, each row i of P is brought once to
// integers over its common denominator d_i, p_ij = a_ij/d_i, and the balance equations are
// written for y_i = π_i/d_i: Σ_i a_ij·y_i − d_j·y_j = 0, integer coefficients throughout. One
// equation is redundant (they sum to zero) and one unknown is fixed; the rest are eliminated on
// the diagonal (every proper principal submatrix of the irreducible balance matrix is
// non-singular, so no pivot is zero) by solveIntRows.
func exactStationary(m *dtmc.Model, p []*big.Rat, b []int) ([]*big.Rat, error) {
	n := len(b)
	if n == 1 {
		return []*big.Rat{big.NewRat(1, 1)}, nil
	}
	loc := make(map[int]int, n)
	for i, s := range b {
		loc[s] = i
	}
	// eqs[j] is balance equation j as a map from unknown to coefficient, then sorted rows.
	eqs := make([]map[int]*big.Int, n)
	for j := range eqs {
		eqs[j] = map[int]*big.Int{}
	}
	d := make([]*big.Int, n)
	for i, s := range b {
		l := big.NewInt(1)
		for k := m.RowPtr[s]; k < m.RowPtr[s+1]; k++ {
			if p[k].Sign() != 0 {
				den := p[k].Denom()
				l.Mul(l, new(big.Int).Quo(den, new(big.Int).GCD(nil, nil, l, den)))
			}
		}
		d[i] = l
		for k := m.RowPtr[s]; k < m.RowPtr[s+1]; k++ {
			if p[k].Sign() == 0 {
				continue
			}
			a := new(big.Int).Quo(l, p[k].Denom())
			a.Mul(a, p[k].Num())
			j := loc[m.Col[k]]
			if c, ok := eqs[j][i]; ok {
				c.Add(c, a)
			} else {
				eqs[j][i] = a
			}
		}
	}
	for j := range eqs {
		if c, ok := eqs[j][j]; ok {
			c.Sub(c, d[j])
		} else {
			eqs[j][j] = new(big.Int).Neg(d[j])
		}
	}
	// Equation and unknown n-1 drop out: y_{n-1} = 1.
	fixed := n - 1
	rows := make([]intRow, fixed)
	for j := range rows {
		rows[j] = sortedRow(eqs[j])
	}
	y, err := solveIntRows(rows, fixed)
	if err != nil {
		return nil, fmt.Errorf("internal error: the balance equations of a bottom component of %d states are singular", n)
	}
	pi := make([]*big.Rat, n)
	for i := range y {
		pi[i] = new(big.Rat).SetInt(y[i].Mul(y[i], d[i]))
	}
	return pi, nil
}

// zeroPivot says that the system solveIntRows was given is singular: row's pivot vanished.
type zeroPivot struct{ row int }

func (z zeroPivot) Error() string { return fmt.Sprintf("zero pivot in row %d", z.row) }

// solveIntRows solves the k integer equations rows (row i in unknowns 0..k, nothing else) with
// unknown k fixed: it returns integers y_0..y_k, y_k ≠ 0, with Σ_j rows[i][j]·y_j = 0 for every
// i, so that y_i/y_k is the solution. Unknown i is eliminated with equation i (the pivots are on
// the diagonal: the systems here are diagonally dominant, whose principal submatrices are all
// non-singular, so the order is free). Each row update is done in integers, and the row divided
// by the gcd of its entries, which keeps it the smallest integer vector of its direction — no
// larger than fraction-free (Bareiss) elimination's, and without the gcd per operation that
// big.Rat pays. The next pivot is the unknown whose elimination fills in least (Markowitz's
// count), then the one with the shortest numbers. Back substitution stays in integers too, up to
// a common factor.
func solveIntRows(rows []intRow, k int) ([]*big.Int, error) {
	colCount := make([]int, k+1)
	for _, r := range rows {
		for _, e := range r {
			colCount[e.col]++
		}
	}
	done := make([]bool, k)
	order := make([]int, 0, k)
	for range k {
		v, best, bestBits := -1, 0, 0
		for u := range rows {
			if done[u] {
				continue
			}
			cost := (len(rows[u]) - 1) * (colCount[u] - 1)
			bits := rows[u].bits()
			if v < 0 || cost < best || cost == best && bits < bestBits {
				v, best, bestBits = u, cost, bits
			}
		}
		pivot := rows[v].at(v)
		if pivot == nil {
			return nil, zeroPivot{v}
		}
		done[v] = true
		order = append(order, v)
		for _, e := range rows[v] {
			colCount[e.col]--
		}
		for u := range rows {
			if done[u] {
				continue
			}
			a := rows[u].at(v)
			if a == nil {
				continue
			}
			for _, e := range rows[u] {
				colCount[e.col]--
			}
			rows[u] = rows[u].eliminate(pivot, a, rows[v], v)
			for _, e := range rows[u] {
				colCount[e.col]++
			}
		}
	}
	// y is held as an integer vector up to a common factor: every known entry is scaled when a
	// new one needs a denominator, and the vector divided by its gcd.
	y := make([]*big.Int, k+1)
	y[k] = big.NewInt(1)
	known := []int{k}
	g := new(big.Int)
	for i := len(order) - 1; i >= 0; i-- {
		v := order[i]
		sum, pivot := new(big.Int), new(big.Int)
		for _, e := range rows[v] {
			if e.col == v {
				pivot.Set(e.v)
				continue
			}
			sum.Sub(sum, new(big.Int).Mul(e.v, y[e.col]))
		}
		// y_v = sum/pivot: scale the others by pivot/gcd so that y_v is an integer.
		if pivot.Sign() < 0 {
			pivot.Neg(pivot)
			sum.Neg(sum)
		}
		g.GCD(nil, nil, sum, pivot)
		sum.Quo(sum, g)
		pivot.Quo(pivot, g)
		if !(pivot.IsInt64() && pivot.Int64() == 1) {
			for _, w := range known {
				y[w].Mul(y[w], pivot)
			}
		}
		y[v] = sum
		known = append(known, v)
		g.SetInt64(0)
		for _, w := range known {
			if g.GCD(nil, nil, g, y[w]); g.IsInt64() && g.Int64() == 1 {
				break
			}
		}
		if !(g.IsInt64() && g.Int64() == 1) {
			for _, w := range known {
				y[w].Quo(y[w], g)
			}
		}
	}
	return y, nil
}

// intRow is a row of integer coefficients, by increasing column, without zeros.
type intRow []intEntry

type intEntry struct {
	col int
	v   *big.Int
}

func sortedRow(m map[int]*big.Int) intRow {
	r := make(intRow, 0, len(m))
	for c, v := range m {
		if v.Sign() != 0 {
			r = append(r, intEntry{c, v})
		}
	}
	sort.Slice(r, func(i, j int) bool { return r[i].col < r[j].col })
	return r
}

// at returns the coefficient of column c, nil if it is zero.
func (r intRow) at(c int) *big.Int {
	i := sort.Search(len(r), func(i int) bool { return r[i].col >= c })
	if i < len(r) && r[i].col == c {
		return r[i].v
	}
	return nil
}

// bits is the size of the row's numbers.
func (r intRow) bits() int {
	n := 0
	for _, e := range r {
		n += e.v.BitLen()
	}
	return n
}

// eliminate returns pivot·r − a·pr without column c (where it cancels), divided by the gcd of
// its entries: the same equation, with column c eliminated by pivot row pr, in lowest terms.
func (r intRow) eliminate(pivot, a *big.Int, pr intRow, c int) intRow {
	out := make(intRow, 0, len(r)+len(pr))
	i, j := 0, 0
	for i < len(r) || j < len(pr) {
		var e intEntry
		switch {
		case j == len(pr) || i < len(r) && r[i].col < pr[j].col:
			e = intEntry{r[i].col, new(big.Int).Mul(pivot, r[i].v)}
			i++
		case i == len(r) || pr[j].col < r[i].col:
			e = intEntry{pr[j].col, new(big.Int).Mul(a, pr[j].v)}
			e.v.Neg(e.v)
			j++
		default:
			e = intEntry{r[i].col, new(big.Int).Mul(pivot, r[i].v)}
			e.v.Sub(e.v, new(big.Int).Mul(a, pr[j].v))
			i++
			j++
		}
		if e.col != c && e.v.Sign() != 0 {
			out = append(out, e)
		}
	}
	g := new(big.Int)
	for _, e := range out {
		g.GCD(nil, nil, g, e.v)
		if g.IsInt64() && g.Int64() == 1 {
			return out
		}
	}
	if g.Sign() != 0 {
		for _, e := range out {
			e.v.Quo(e.v, g)
		}
	}
	return out
}
