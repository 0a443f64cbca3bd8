package checker

import (
	"errors"
	"math"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/augur-perf/augur/markov/dtmc"
	"github.com/augur-perf/augur/markov/pctl"
)

var allMethods = []Method{Direct, GaussSeidel, Interval, PRISM, Exact}

func check(t *testing.T, m *dtmc.Model, prop string, opt Options) *Result {
	t.Helper()
	f, err := pctl.Parse(prop)
	if err != nil {
		t.Fatalf("parse %q: %v", prop, err)
	}
	r, err := Check(m, f, opt)
	if err != nil {
		t.Fatalf("check %q (%v): %v", prop, opt.Method, err)
	}
	return r
}

func near(a, b, rel float64) bool {
	if a == b {
		return true
	}
	return math.Abs(a-b) <= rel*math.Max(math.Abs(a), math.Abs(b))
}

// tolerance is what each method promises on well-conditioned models.
func tolerance(m Method) float64 {
	switch m {
	case PRISM:
		// Relative change below 1e-6 between Jacobi iterates is no accuracy guarantee; PRISM's
		// own answers are this far off on slowly mixing chains.
		return 1e-4
	case Interval:
		return 1e-5
	case GaussSeidel:
		return 1e-9
	}
	return 1e-12
}

func TestGeometricLoop(t *testing.T) {
	for _, p := range []float64{0, 0.5, 0.9, 0.999} {
		m := geometricLoop(p)
		for _, meth := range allMethods {
			if meth == PRISM && p == 0.999 {
				// PRISM's Jacobi needs more than its 10000 iterations here, and says so.
				f, _ := pctl.Parse(`R{"iter"}=? [ F "end" ]`)
				if _, err := Check(m, f, Options{Method: PRISM}); err == nil || !strings.Contains(err.Error(), "did not converge within 10000") {
					t.Errorf("PRISM mode on p=0.999: err = %v, want non-convergence", err)
				}
				continue
			}
			r := check(t, m, `R{"iter"}=? [ F "end" ]`, Options{Method: meth})
			want := p / (1 - p)
			if !near(r.Initial, want, tolerance(meth)) && math.Abs(r.Initial-want) > 1e-14 {
				t.Errorf("p=%v %v: expected iterations %v, want %v", p, meth, r.Initial, want)
			}
			if meth == Interval && (r.InitialLo > want || r.InitialHi < want || !r.Stats.Converged) {
				t.Errorf("p=%v interval: bounds [%v, %v] (converged %v), want around %v", p, r.InitialLo, r.InitialHi, r.Stats.Converged, want)
			}
		}
	}
}

func TestNestedLoops(t *testing.T) {
	// 0 outer head: p to 1 (inner head), 1-p to 3 (end); 1 inner head: q to 2 (body), 1-q back to 0.
	p, q := 0.8, 0.75
	b := dtmc.NewBuilder(4)
	b.Add(0, 1, p)
	b.Add(0, 3, 1-p)
	b.Add(1, 2, q)
	b.Add(1, 0, 1-q)
	b.Add(2, 1, 1)
	b.Add(3, 3, 1)
	b.AddStateReward("inner", 2, 1)
	b.Label("end", 3)
	b.SetInit(0)
	m := must(b.Build())
	want := p / (1 - p) * q / (1 - q)
	for _, meth := range allMethods {
		r := check(t, m, `R{"inner"}=? [ F "end" ]`, Options{Method: meth})
		if !near(r.Initial, want, tolerance(meth)) {
			t.Errorf("%v: inner iterations %v, want %v", meth, r.Initial, want)
		}
	}
}

func TestBranchChain(t *testing.T) {
	// k decisions in a row; decision i takes its costly branch (cost c_i) with probability p_i.
	ps := []float64{0.1, 0.5, 0.25, 0.9}
	cs := []float64{7, 2.5, 4, 1}
	n := 3*len(ps) + 1
	b := dtmc.NewBuilder(n)
	want := 0.0
	for i := range ps {
		d := 3 * i
		b.Add(d, d+1, ps[i])
		b.Add(d, d+2, 1-ps[i])
		b.Add(d+1, d+3, 1)
		b.Add(d+2, d+3, 1)
		b.AddStateReward("cost", d+1, cs[i])
		want += ps[i] * cs[i]
	}
	b.Add(n-1, n-1, 1)
	b.Label("end", n-1)
	b.SetInit(0)
	m := must(b.Build())
	for _, meth := range allMethods {
		r := check(t, m, `R{"cost"}=? [ F "end" ]`, Options{Method: meth})
		if !near(r.Initial, want, tolerance(meth)) {
			t.Errorf("%v: cost %v, want %v", meth, r.Initial, want)
		}
	}
}

func TestGamblersRuin(t *testing.T) {
	const N, start = 10, 4
	p := 0.45
	q := 1 - p
	b := dtmc.NewBuilder(N + 1)
	for s := 1; s < N; s++ {
		b.Add(s, s+1, p)
		b.Add(s, s-1, q)
		b.AddStateReward("steps", s, 1)
	}
	b.Add(0, 0, 1)
	b.Add(N, N, 1)
	b.Label("win", N)
	b.Label("ruin", 0)
	b.SetInit(start)
	m := must(b.Build())
	rho := q / p
	win := (1 - math.Pow(rho, start)) / (1 - math.Pow(rho, N))
	steps := start/(q-p) - float64(N)/(q-p)*win
	for _, meth := range allMethods {
		r := check(t, m, `P=? [ F "win" ]`, Options{Method: meth})
		if !near(r.Initial, win, tolerance(meth)) {
			t.Errorf("%v: P(win) %v, want %v", meth, r.Initial, win)
		}
		r = check(t, m, `R{"steps"}=? [ F "win" | "ruin" ]`, Options{Method: meth})
		if !near(r.Initial, steps, tolerance(meth)) {
			t.Errorf("%v: duration %v, want %v", meth, r.Initial, steps)
		}
		// Winning is not certain, so the reward to "win" is infinite, as in PRISM.
		r = check(t, m, `R{"steps"}=? [ F "win" ]`, Options{Method: meth})
		if !math.IsInf(r.Initial, 1) || r.Infinite != N {
			t.Errorf("%v: reward to an uncertain goal = %v with %d infinite states, want +Inf in %d", meth, r.Initial, r.Infinite, N)
		}
	}
}

func TestKnuthDie(t *testing.T) {
	m := knuthDie()
	for _, face := range []string{"one", "two", "three", "four", "five", "six"} {
		for _, meth := range allMethods {
			r := check(t, m, `P=? [ F "`+face+`" ]`, Options{Method: meth})
			if !near(r.Initial, 1.0/6, tolerance(meth)) {
				t.Errorf("%v: P(%s) = %v", meth, face, r.Initial)
			}
		}
	}
	r := check(t, m, `P=? [ F "six" ]`, Options{Method: Exact})
	if r.InitialExact.Cmp(big.NewRat(1, 6)) != 0 {
		t.Errorf("exact P(six) = %v, want 1/6", r.InitialExact)
	}
	r = check(t, m, `R{"flips"}=? [ F "done" ]`, Options{Method: Exact})
	if r.InitialExact.Cmp(big.NewRat(11, 3)) != 0 {
		t.Errorf("exact expected flips = %v, want 11/3", r.InitialExact)
	}
	r = check(t, m, `R{"flips"}=? [ F "done" ]`, Options{})
	if !near(r.Initial, 11.0/3, 1e-14) {
		t.Errorf("direct expected flips = %v, want 11/3", r.Initial)
	}
}

func TestBoundedAndOtherOperators(t *testing.T) {
	m := knuthDie()
	// Within 3 flips the die ends with probability 3/4 (the first three flips decide unless they
	// return to a flip state).
	r := check(t, m, `P=? [ F<=3 "done" ]`, Options{Method: Exact})
	if r.InitialExact.Cmp(big.NewRat(3, 4)) != 0 {
		t.Errorf("P[F<=3 done] = %v, want 3/4", r.InitialExact)
	}
	r = check(t, m, `P=? [ F<=3 "done" ]`, Options{})
	if r.Initial != 0.75 {
		t.Errorf("float P[F<=3 done] = %v", r.Initial)
	}
	r = check(t, m, `P=? [ X s=1 ]`, Options{})
	if r.Initial != 0.5 {
		t.Errorf("P[X s=1] = %v", r.Initial)
	}
	r = check(t, m, `P=? [ G !"six" ]`, Options{Method: Exact})
	if r.InitialExact.Cmp(big.NewRat(5, 6)) != 0 {
		t.Errorf("P[G !six] = %v", r.InitialExact)
	}
	r = check(t, m, `P=? [ G<=2 !"done" ]`, Options{})
	if r.Initial != 1 {
		t.Errorf("P[G<=2 !done] = %v (no face in 2 flips)", r.Initial)
	}
	r = check(t, m, `P=? [ !"six" U "one" ]`, Options{Method: Exact})
	if r.InitialExact.Cmp(big.NewRat(1, 6)) != 0 {
		t.Errorf("P[!six U one] = %v", r.InitialExact)
	}
	// Cumulative and instantaneous rewards: C<=k counts flips made in k steps; I=k is the
	// probability of still flipping at step k.
	r = check(t, m, `R{"flips"}=? [ C<=4 ]`, Options{Method: Exact})
	if r.InitialExact.Cmp(big.NewRat(13, 4)) != 0 { // three sure flips, a fourth with probability 1/4
		t.Errorf("R[C<=4] = %v, want 13/4", r.InitialExact)
	}
	r = check(t, m, `R{"flips"}=? [ I=3 ]`, Options{Method: Exact})
	if r.InitialExact.Cmp(big.NewRat(1, 4)) != 0 {
		t.Errorf("R[I=3] = %v, want 1/4", r.InitialExact)
	}
	for _, meth := range allMethods {
		r = check(t, m, `R{"flips"}=? [ C ]`, Options{Method: meth})
		if !near(r.Initial, 11.0/3, tolerance(meth)) {
			t.Errorf("%v: total reward %v, want 11/3", meth, r.Initial)
		}
	}
	// Total reward with reward in a bottom component is infinite.
	b := dtmc.NewBuilder(2)
	b.Add(0, 1, 1)
	b.Add(1, 1, 1)
	b.AddStateReward("r", 1, 1)
	b.SetInit(0)
	r = check(t, must(b.Build()), `R=? [ C ]`, Options{})
	if !math.IsInf(r.Initial, 1) {
		t.Errorf("total reward with a rewarding bottom component = %v, want +Inf", r.Initial)
	}
	// Nested bounded operators and boolean results.
	r = check(t, m, `P>=0.1 [ F "six" ] & !"done"`, Options{})
	if !r.Bool || !r.Holds || r.Sat[7] {
		t.Errorf("nested bound: holds=%v sat=%v", r.Holds, r.Sat)
	}
	// Flip states 4 and 5 are the only ones whose next state is surely a face; the walk visits one
	// of them with probability 2/3.
	r = check(t, m, `P=? [ F (P>=1 [ X "done" ] & !"done") ]`, Options{Method: Exact})
	if r.InitialExact.Cmp(big.NewRat(2, 3)) != 0 {
		t.Errorf("P[F (P>=1[X done] & !done)] = %v, want 2/3", r.InitialExact)
	}
}

func TestSteadyState(t *testing.T) {
	// Two states flipping with a and b: π = (b, a)/(a+b).
	a, bb := 0.3, 0.1
	bd := dtmc.NewBuilder(3)
	bd.Add(0, 1, 0.5)
	bd.Add(0, 2, 0.5)
	bd.Add(1, 1, 1-a)
	bd.Add(1, 2, a)
	bd.Add(2, 1, bb)
	bd.Add(2, 2, 1-bb)
	bd.Label("up", 1)
	bd.SetInit(0)
	m := must(bd.Build())
	for _, meth := range allMethods {
		r := check(t, m, `S=? [ "up" ]`, Options{Method: meth})
		if want := bb / (a + bb); !near(r.Initial, want, tolerance(meth)) {
			t.Errorf("%v: S[up] = %v, want %v", meth, r.Initial, want)
		}
	}
	// A periodic bottom component (0 → 1 → 0) has the Cesàro limit 1/2, and a chain that ends in
	// one of two bottom components weighs them by the probability of reaching each.
	pb := dtmc.NewBuilder(4)
	pb.Add(0, 1, 0.25)
	pb.Add(0, 3, 0.75)
	pb.Add(1, 2, 1)
	pb.Add(2, 1, 1)
	pb.Add(3, 3, 1)
	pb.Label("a", 1)
	pb.SetInit(0)
	r := check(t, must(pb.Build()), `S=? [ "a" ]`, Options{Method: Exact})
	if r.InitialExact.Cmp(big.NewRat(1, 8)) != 0 {
		t.Errorf("periodic S = %v, want 1/8", r.InitialExact)
	}
}

// TestRandomAgreement: on random chains the exact rationals, the direct solution and the
// iterative ones agree, and infinite rewards are found by every method.
func TestRandomAgreement(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 40; i++ {
		n := 5 + r.IntN(60)
		m := randomChain(r, n, 1+r.IntN(3), 0.15, i%2 == 0)
		for _, prop := range []string{`P=? [ F "goal" ]`, `R{"cost"}=? [ F "goal" ]`, `S=? [ "goal" ]`} {
			exact := check(t, m, prop, Options{Method: Exact})
			for _, meth := range []Method{Direct, GaussSeidel, Interval} {
				got := check(t, m, prop, Options{Method: meth, Epsilon: map[Method]float64{Interval: 1e-9}[meth]})
				for s := 0; s < n; s++ {
					want := exact.Values[s]
					if math.IsInf(want, 1) != math.IsInf(got.Values[s], 1) {
						t.Fatalf("model %d %s %v state %d: %v, exact %v", i, prop, meth, s, got.Values[s], want)
					}
					if math.IsInf(want, 1) {
						continue
					}
					tol := 1e-9
					if !near(got.Values[s], want, tol) && math.Abs(got.Values[s]-want) > 1e-15 {
						t.Fatalf("model %d %s %v state %d: %v, exact %v", i, prop, meth, s, got.Values[s], want)
					}
					if meth == Interval && got.Lo != nil && (got.Lo[s] > want*(1+1e-12) || got.Hi[s] < want*(1-1e-12)) {
						t.Fatalf("model %d %s state %d: bounds [%v, %v] miss exact %v", i, prop, s, got.Lo[s], got.Hi[s], want)
					}
				}
			}
		}
	}
}

// TestStiffChain: a walk whose expected time to the top is about 1e22 steps. Elimination with
// additive pivots gets it right; a relative convergence criterion stops far too early, and does
// not claim otherwise; interval bounds from the verified elimination contain the truth.
func TestStiffChain(t *testing.T) {
	const n = 60
	p := big.NewRat(3, 10)
	m := birthDeath(n, p)
	truth, _ := birthDeathTime(n, p).Float64()
	if truth < 1e20 {
		t.Fatalf("chain not stiff enough: %g", truth)
	}
	prop := `R{"steps"}=? [ F "top" ]`
	if r := check(t, m, prop, Options{}); !near(r.Initial, truth, 1e-9) {
		t.Errorf("direct: %g, want %g", r.Initial, truth)
	}
	ex := check(t, m, prop, Options{Method: Exact})
	if ex.InitialExact.Cmp(birthDeathTime(n, p)) != 0 {
		t.Errorf("exact: %v, want %v", ex.InitialExact, birthDeathTime(n, p))
	}
	gs := check(t, m, prop, Options{Method: GaussSeidel, Epsilon: 1e-6})
	if near(gs.Initial, truth, 0.5) {
		t.Fatalf("Gauss-Seidel was expected to stop early on this chain, got %g (truth %g)", gs.Initial, truth)
	}
	// It claims no error estimate, only the last relative change (small although the answer is
	// off by almost all of it), and convergence only if that change is below ε.
	if gs.Stats.ErrEstimate != 0 || gs.Stats.Converged != (gs.Stats.LastChange < 1e-6) {
		t.Errorf("Gauss-Seidel: error estimate %g, last change %g, converged %v; want no estimate and convergence as the change says", gs.Stats.ErrEstimate, gs.Stats.LastChange, gs.Stats.Converged)
	}
	// No residual formed in floats verifies this chain; the interval method solves it in
	// rationals instead: tight bounds around the truth.
	iv := check(t, m, prop, Options{Method: Interval})
	if iv.InitialLo > truth || iv.InitialHi < truth || !iv.Stats.Converged || math.IsInf(iv.InitialHi, 1) || !near(iv.InitialLo, iv.InitialHi, 1e-12) {
		t.Errorf("interval [%g, %g] (converged %v), want tight bounds around %g", iv.InitialLo, iv.InitialHi, iv.Stats.Converged, truth)
	}
}

func TestCodeChainDirectIsExact(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < 10; i++ {
		m := codeChain(r, 200)
		d := check(t, m, `R{"time"}=? [ F "end" ]`, Options{})
		if d.Stats.DenseSCCs+d.Stats.IterSCCs != 0 {
			t.Errorf("code-shaped chain %d: elimination gave up on %d components", i, d.Stats.DenseSCCs+d.Stats.IterSCCs)
		}
		ex := check(t, m, `R{"time"}=? [ F "end" ]`, Options{Method: Exact})
		for s := range d.Values {
			if !near(d.Values[s], ex.Values[s], 1e-10) {
				t.Fatalf("chain %d state %d: %v, exact %v", i, s, d.Values[s], ex.Values[s])
			}
		}
	}
}

func TestDenseFallback(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	m := randomChain(r, 300, 3, 0.05, false)
	d := check(t, m, `R{"cost"}=? [ F "goal" ]`, Options{})
	if d.Stats.DenseSCCs == 0 {
		t.Errorf("expected a random chain to overflow elimination's fill budget and use dense LU")
	}
	// Rationals grow too large on a dense 300-state system; sound bounds are the oracle here.
	iv := check(t, m, `R{"cost"}=? [ F "goal" ]`, Options{Method: Interval, Epsilon: 1e-11})
	for s := range d.Values {
		if d.Values[s] < iv.Lo[s]*(1-1e-12) || d.Values[s] > iv.Hi[s]*(1+1e-12) {
			t.Fatalf("state %d: dense LU %v outside sound bounds [%v, %v]", s, d.Values[s], iv.Lo[s], iv.Hi[s])
		}
	}
}

func TestPropertyErrors(t *testing.T) {
	m := knuthDie()
	cases := map[string]string{
		`P=? [ F "nope" ]`:          `column 9: unknown label "nope"`,
		`R{"time"}=? [ F "done" ]`:  `column 1: unknown reward structure "time"`,
		`R{3}=? [ F "done" ]`:       `column 1: reward structure 3 does not exist`,
		`P=? [ F x=2 ]`:             `column 9: unknown variable or constant "x"`,
		`P=? [ F P=? [ X "six" ] ]`: `column 9: a query (=?) cannot be used as a condition`,
	}
	for prop, want := range cases {
		f, err := pctl.Parse(prop)
		if err != nil {
			t.Fatalf("parse %q: %v", prop, err)
		}
		_, err = Check(m, f, Options{})
		var pe *PositionError
		if err == nil || !errors.As(err, &pe) || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%s: error %v, want prefix %q", prop, err, want)
		}
	}
}

// TestPRISMModeIterate pins what the PRISM-compatible mode computes on the die: Jacobi from 0
// stops after 22 iterations at the first iterate whose relative change is below 1e-6, so the
// answer is that iterate, not 1/6. (PRISM itself cannot run here to confirm its digits.)
func TestPRISMModeIterate(t *testing.T) {
	r := check(t, knuthDie(), `P=? [ F "one" ]`, Options{Method: PRISM})
	if r.Initial != 0.16666650772094727 || r.Stats.Iterations != 22 {
		t.Errorf("PRISM mode: %.17g after %d iterations, want 0.16666650772094727 after 22", r.Initial, r.Stats.Iterations)
	}
}

// TestBoundedMatchesExact: every step-bounded operator gives the exact method's answer in floats,
// for bounds past the first few steps, on random chains.
func TestBoundedMatchesExact(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for i := 0; i < 10; i++ {
		m := randomChain(r, 8+r.IntN(20), 2, 0.2, true)
		for _, prop := range []string{`P=? [ F<=7 "goal" ]`, `P=? [ !"goal" U<=6 s>3 ]`, `P=? [ G<=5 !"goal" ]`, `R=? [ C<=9 ]`, `R=? [ I=8 ]`, `P=? [ X "goal" ]`} {
			ex := check(t, m, prop, Options{Method: Exact})
			fl := check(t, m, prop, Options{})
			for s := range fl.Values {
				if !near(fl.Values[s], ex.Values[s], 1e-12) && math.Abs(fl.Values[s]-ex.Values[s]) > 1e-14 {
					t.Fatalf("chain %d %s state %d: %v, exact %v", i, prop, s, fl.Values[s], ex.Values[s])
				}
			}
		}
	}
}
