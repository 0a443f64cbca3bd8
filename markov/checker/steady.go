package checker

import (
	"fmt"
	"math"
)

// steady is S[φ]: the long-run probability of being in φ, the long-run average of φ's indicator.
func (e *evaluator) steady(phi []bool) (*values, error) {
	if e.opt.Method == Exact {
		return e.exactLongRun(indicator(phi))
	}
	return e.longRun(indicatorF(phi), true)
}

// longRun is the long-run average of w per step. Each bottom component B has a stationary
// distribution π_B (a Cesàro limit, so periodic components are fine); a state's value is the sum
// over components of the probability of reaching B times π_B·w, which is one reachability system
// on the transient states. isProb says that w is an indicator, so values are probabilities.
func (e *evaluator) longRun(w []float64, isProb bool) (*values, error) {
	inBottom := make([]bool, e.m.N)
	bottomValue := make([]float64, e.m.N)
	// approximate is set when a bottom component's value is a floating-point approximation
	// (of several states), not 0 or 1.
	approximate := false
	for _, b := range e.g.bsccs() {
		approximate = approximate || len(b) > 1
		pi, err := e.stationary(b)
		if err != nil {
			return nil, err
		}
		v := 0.0
		for i, s := range b {
			if w[s] != 0 {
				v += pi[i] * w[s]
			}
		}
		for _, s := range b {
			inBottom[s], bottomValue[s] = true, v
		}
	}
	unknown := make([]bool, e.m.N)
	for s := range unknown {
		unknown[s] = !inBottom[s]
	}
	v, err := e.solve(unknown, func(s int) float64 { return bottomValue[s] }, nil, isProb)
	if err != nil || v.lo == nil || !approximate {
		return v, err
	}
	// Bounds computed from approximate bottom values would claim what nobody showed.
	e.stats.Notes = append(e.stats.Notes, "interval: no sound bounds for long-run averages of bottom components of several states; the values are computed as by the direct method")
	e.stats.ErrEstimate = 0
	return &values{x: v.x}, nil
}

// stationary computes the stationary distribution of a bottom component: by the GTH algorithm
// (Gaussian elimination with pivots formed by addition, exact to rounding) up to DenseMax states,
// and by power iteration on the lazy chain (I+P)/2, which converges for periodic components too,
// beyond.
func (e *evaluator) stationary(b []int) ([]float64, error) {
	n := len(b)
	if n == 1 {
		return []float64{1}, nil
	}
	loc := make(map[int]int, n)
	for i, s := range b {
		loc[s] = i
	}
	if n <= e.opt.denseMax() {
		p := make([][]float64, n)
		for i, s := range b {
			p[i] = make([]float64, n)
			cols, probs := e.m.Row(s)
			for k, t := range cols {
				p[i][loc[t]] += probs[k]
			}
		}
		return gth(p), nil
	}
	pi := make([]float64, n)
	next := make([]float64, n)
	for i := range pi {
		pi[i] = 1 / float64(n)
	}
	eps, maxIter := e.opt.epsilon(), e.opt.maxIter()
	for it := 1; it <= maxIter; it++ {
		for i := range next {
			next[i] = pi[i] / 2
		}
		for i, s := range b {
			cols, probs := e.m.Row(s)
			for k, t := range cols {
				next[loc[t]] += pi[i] * probs[k] / 2
			}
		}
		delta := 0.0
		for i := range pi {
			delta = math.Max(delta, relChange(pi[i], next[i]))
		}
		pi, next = next, pi
		if delta < eps {
			e.stats.Iterations += it
			e.stats.Notes = append(e.stats.Notes, fmt.Sprintf("stationary distribution of a bottom component of %d states by power iteration: %d iterations, relative change below %g", n, it, eps))
			return pi, nil
		}
	}
	return nil, fmt.Errorf("power iteration for the stationary distribution of a bottom component of %d states did not converge in %d iterations", n, maxIter)
}

// gth returns the stationary distribution of the irreducible stochastic matrix p (overwritten),
// by Grassmann, Taksar and Heyman's state reduction.
func gth(p [][]float64) []float64 {
	n := len(p)
	for k := n - 1; k > 0; k-- {
		s := 0.0
		for j := 0; j < k; j++ {
			s += p[k][j]
		}
		for i := 0; i < k; i++ {
			p[i][k] /= s
		}
		for i := 0; i < k; i++ {
			if p[i][k] == 0 {
				continue
			}
			for j := 0; j < k; j++ {
				p[i][j] += p[i][k] * p[k][j]
			}
		}
	}
	pi := make([]float64, n)
	pi[0] = 1
	total := 1.0
	for k := 1; k < n; k++ {
		for i := 0; i < k; i++ {
			pi[k] += pi[i] * p[i][k]
		}
		total += pi[k]
	}
	for i := range pi {
		pi[i] /= total
	}
	return pi
}
