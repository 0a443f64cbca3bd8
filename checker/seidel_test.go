package checker

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// bigComponent returns a random chain whose largest component spans several segments, the system
// of R[F goal] on it, and that component.
func bigComponent(t *testing.T) (*system, []int, []int32, []float64) {
	t.Helper()
	rng := rand.New(rand.NewPCG(11, 12))
	m := randomChain(rng, 3*segment+1234, 3, 0.1, false)
	g, err := newGraph(m)
	if err != nil {
		t.Fatal(err)
	}
	all, target := make([]bool, m.N), make([]bool, m.N)
	for s := range all {
		all[s] = true
	}
	for _, s := range m.Labels["goal"] {
		target[s] = true
	}
	yes := g.prob1(all, target, g.prob0(all, target))
	sys := &system{g: g, unknown: make([]bool, m.N), b: make([]float64, m.N)}
	x := make([]float64, m.N)
	for s := range sys.unknown {
		sys.unknown[s] = yes[s] && !target[s]
		sys.b[s] = float64(1 + rng.IntN(5))
		x[s] = 10 * rng.Float64() // values of components solved before, where the big one leaks
	}
	states, bounds := g.sccs(sys.unknown)
	var comp []int
	for c := 0; c+1 < len(bounds); c++ {
		if bounds[c+1]-bounds[c] > len(comp) {
			comp = states[bounds[c]:bounds[c+1]]
		}
	}
	if len(comp) <= 2*segment {
		t.Fatalf("largest component has %d states, want more than two segments", len(comp))
	}
	loc := make([]int32, m.N)
	for s := range loc {
		loc[s] = -1
	}
	for i, s := range comp {
		loc[s] = int32(i)
	}
	return sys, comp, loc, x
}

// TestBlockedSweepIsPointGaussSeidel: the cache-blocked sweep, with its helper goroutine, computes
// what a textbook Gauss–Seidel sweep over the model's rows computes, including the lazily applied
// coarse correction, the residual sum and the largest relative change.
func TestBlockedSweepIsPointGaussSeidel(t *testing.T) {
	sys, comp, loc, x := bigComponent(t)
	m := sys.g.m
	z, err := newSeidel(sys, comp, loc, x)
	if err != nil {
		t.Fatal(err)
	}
	n := len(comp)
	v, r, up := make([]float64, n), make([]float64, segment), make([]float64, n)
	ref := make([]float64, n)
	alpha := 0.0
	for sweep := 0; sweep < 4; sweep++ {
		refDelta := 0.0
		for i, s := range comp {
			sum, rate := sys.b[s], 0.0
			for k := m.RowPtr[s]; k < m.RowPtr[s+1]; k++ {
				t, p := m.Col[k], m.Prob[k]
				switch j := int(loc[t]); {
				case t == s:
				case j < 0:
					rate += p
					if sys.unknown[t] {
						sum += p * x[t]
					}
				default:
					rate += p
					val := ref[j]
					if j > i {
						val += alpha
					}
					sum += p * val
				}
			}
			old := ref[i] + alpha
			ref[i] = sum / rate
			refDelta = math.Max(refDelta, math.Abs(ref[i]-old)/math.Abs(ref[i]))
		}
		// The residuals of the new iterate, summed directly.
		refSum := 0.0
		for i, s := range comp {
			res := sys.b[s]
			for k := m.RowPtr[s]; k < m.RowPtr[s+1]; k++ {
				t, p := m.Col[k], m.Prob[k]
				switch j := int(loc[t]); {
				case t == s:
				case j < 0:
					res -= p * ref[i]
					if sys.unknown[t] {
						res += p * x[t]
					}
				default:
					res += p * (ref[j] - ref[i])
				}
			}
			refSum += res
		}
		delta, sumR := z.sweep(v, r, up, alpha)
		for i := range v {
			if !near(v[i], ref[i], 1e-12) {
				t.Fatalf("sweep %d, row %d: blocked %v, point Gauss-Seidel %v", sweep, i, v[i], ref[i])
			}
		}
		if !near(delta, refDelta, 1e-9) {
			t.Errorf("sweep %d: largest relative change %v, want %v", sweep, delta, refDelta)
		}
		if math.Abs(sumR-refSum) > 1e-9*z.sumB {
			t.Errorf("sweep %d: residual sum %v, want %v", sweep, sumR, refSum)
		}
		alpha = sumR / z.sumLeak
	}
}

// TestGaussSeidelDeterministic: who forms which partial sums depends on goroutine timing; the
// answer must not.
func TestGaussSeidelDeterministic(t *testing.T) {
	sys, comp, loc, x := bigComponent(t)
	var first []float64
	for run := 0; run < 3; run++ {
		out := slices.Clone(x)
		var st Stats
		if err := sys.gaussSeidel(out, comp, loc, &Options{}, &st); err != nil {
			t.Fatal(err)
		}
		if run == 0 {
			first = out
			if st.ErrEstimate > 1e-10 || !(st.Iterations > 2) {
				t.Fatalf("stats %+v: expected convergence with a small error estimate", st)
			}
			continue
		}
		for s := range out {
			if math.Float64bits(out[s]) != math.Float64bits(first[s]) {
				t.Fatalf("run %d, state %d: %v, first run %v", run, s, out[s], first[s])
			}
		}
	}
}
