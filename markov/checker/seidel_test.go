package checker

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
)

// bigComponent returns the system of R[F goal] on a random chain whose largest component spans
// several segments, the first size states of that component (all of it for size 0) with their
// positions, and values for the states outside it. The equations of any set of states are well
// defined, component or not, so a prefix serves to try sizes the chain does not produce.
func bigComponent(t *testing.T, size int) (*system, []int, []int32, []float64) {
	t.Helper()
	bigChain.once.Do(func() {
		rng := rand.New(rand.NewPCG(11, 12))
		m := randomChain(rng, 5*segment+1234, 3, 0.1, false)
		g, err := newGraph(m)
		if err != nil {
			panic(err)
		}
		all, target := make([]bool, m.N), make([]bool, m.N)
		for s := range all {
			all[s] = true
		}
		for _, s := range m.Labels["goal"] {
			target[s] = true
		}
		yes := g.prob1(all, target, g.prob0(all, target))
		bigChain.sys = &system{g: g, unknown: make([]bool, m.N), b: make([]float64, m.N)}
		bigChain.x = make([]float64, m.N)
		for s := range bigChain.sys.unknown {
			bigChain.sys.unknown[s] = yes[s] && !target[s]
			bigChain.sys.b[s] = float64(1 + rng.IntN(5))
			bigChain.x[s] = 10 * rng.Float64() // values of components solved before, where the big one leaks
		}
		states, bounds := g.sccs(bigChain.sys.unknown)
		for c := 0; c+1 < len(bounds); c++ {
			if bounds[c+1]-bounds[c] > len(bigChain.comp) {
				bigChain.comp = states[bounds[c]:bounds[c+1]]
			}
		}
	})
	comp := bigChain.comp
	// More than lag+1 segments, so that the helper waits for the sweep.
	if len(comp) <= (lag+1)*segment {
		t.Fatalf("largest component has %d states, want more than %d segments", len(comp), lag+1)
	}
	if size > 0 {
		comp = comp[:size]
	}
	loc := make([]int32, bigChain.sys.g.m.N)
	for s := range loc {
		loc[s] = -1
	}
	for i, s := range comp {
		loc[s] = int32(i)
	}
	return bigChain.sys, comp, loc, bigChain.x
}

// bigChain is bigComponent's chain, built once: the tests only read it.
var bigChain struct {
	once sync.Once
	sys  *system
	comp []int
	x    []float64
}

// TestBlockedSweepIsPointGaussSeidel: the cache-blocked sweep, with its helper goroutine, computes
// what a textbook Gauss–Seidel sweep over the model's rows computes, including the lazily applied
// coarse correction, the residual sum and the largest relative change: on one segment, on exactly
// two, on two with a short last one, and on all of the component (four or more, so that the
// helper waits for the sweep).
func TestBlockedSweepIsPointGaussSeidel(t *testing.T) {
	for _, size := range []int{5000, 2 * segment, segment + 1000, 0} {
		t.Run(fmt.Sprint(size), func(t *testing.T) { testBlockedSweep(t, size) })
	}
}

func testBlockedSweep(t *testing.T, size int) {
	sys, comp, loc, x := bigComponent(t, size)
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
		delta, sumR, _ := z.sweep(v, r, up, alpha)
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
	sys, comp, loc, x := bigComponent(t, 0)
	var first []float64
	for run := 0; run < 3; run++ {
		out := slices.Clone(x)
		st := Stats{Converged: true}
		if err := sys.gaussSeidel(out, comp, loc, &Options{}, &st); err != nil {
			t.Fatal(err)
		}
		if run == 0 {
			first = out
			if !st.Converged || !(st.LastChange < 1e-12) || !(st.Iterations > 2) {
				t.Fatalf("stats %+v: expected convergence", st)
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
