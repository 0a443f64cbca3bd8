package param

import (
	"math"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/augur-perf/augur/markov/checker"
	"github.com/augur-perf/augur/markov/dtmc"
	"github.com/augur-perf/augur/markov/pctl"
)

// l1 is the model of examples/distance.L1 under PROPER's counts: a check that fails with
// probability 1/10, then a loop that runs again with probability 10/11 (9000 of 9900), its body
// costing 2.5.
func l1(t *testing.T) *dtmc.Model {
	b := dtmc.NewBuilder(6)
	b.AddExact(0, 1, big.NewRat(1, 10))
	b.SetParam("p15_true")
	b.AddExact(0, 2, big.NewRat(9, 10))
	b.Add(1, 5, 1)
	b.Add(2, 3, 1)
	b.AddExact(3, 4, big.NewRat(10, 11))
	b.SetParam("p19_true")
	b.AddExact(3, 5, big.NewRat(1, 11))
	b.Add(4, 3, 1)
	b.Add(5, 5, 1)
	b.SetInit(0)
	b.Label("end", 5)
	b.AddStateReward("time", 4, 2.5)
	b.AddStateReward("cost", 1, 7)
	m, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestL1(t *testing.T) {
	m := l1(t)
	pm, err := FromDTMC(m)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(pm.Names, ",") != "p15_true,p19_true" || pm.Values["p19_true"].RatString() != "10/11" {
		t.Fatalf("names %v values %v", pm.Names, pm.Values)
	}
	time, err := pm.Reach("end", "time")
	if err != nil {
		t.Fatal(err)
	}
	// E[time] = (1-a)·2.5·b/(1-b) with a = p15_true, b = p19_true.
	at := func(a, b *big.Rat) map[string]*big.Rat { return map[string]*big.Rat{"p15_true": a, "p19_true": b} }
	v, err := time.Eval(pm.Values)
	if err != nil || v.RatString() != "45/2" {
		t.Errorf("E[time] = %v (%v) = %s, want 45/2", v, err, time)
	}
	a, bb := big.NewRat(1, 3), big.NewRat(1, 2)
	want := new(big.Rat).Mul(new(big.Rat).Sub(big.NewRat(1, 1), a), big.NewRat(5, 2)) // (1-a)·2.5·(b/(1-b)), b/(1-b) = 1
	if v, _ := time.Eval(at(a, bb)); v.Cmp(want) != 0 {
		t.Errorf("at a=1/3, b=1/2: %v, want %v (%s)", v, want, time)
	}
	// ∂E/∂b = (1-a)·2.5/(1-b)²: at the model's values 0.9·2.5·121 = 272.25.
	d, err := time.Derivative("p19_true")
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := d.Eval(pm.Values); v.RatString() != "1089/4" {
		t.Errorf("∂E/∂p19_true = %v, want 1089/4", v)
	}
	cost, err := pm.Reach("end", "cost")
	if err != nil {
		t.Fatal(err)
	}
	if cost.String() != "7*p15_true" {
		t.Errorf("E[cost] = %s, want 7*p15_true", cost)
	}
	prob, _ := pm.Reach("end", "")
	if prob.String() != "1" {
		t.Errorf("P(F end) = %s, want 1", prob)
	}
	if _, err := time.Derivative("q"); err == nil {
		t.Error("a derivative for an unknown parameter")
	}
}

// Random chains: the rational function evaluated at the model's own values equals the exact
// checker's answer, and at random values the numeric checker's on the substituted chain.
func TestRandomChains(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	compared := 0
	for trial := 0; trial < 30; trial++ {
		n := 4 + rng.IntN(5)
		b := dtmc.NewBuilder(n)
		for s := 0; s < n-1; s++ {
			k := 1 + rng.IntN(3)
			targets := rng.Perm(n)[:k]
			for _, tg := range targets {
				b.AddExact(s, tg, big.NewRat(1, int64(k)))
			}
		}
		b.Add(n-1, n-1, 1)
		b.SetInit(0)
		b.Label("goal", n-1)
		m, err := b.Build()
		if err != nil {
			t.Fatal(err)
		}
		pm, err := FromDTMC(m)
		if err != nil {
			t.Fatal(err)
		}
		f, err := pm.Reach("goal", "")
		if err != nil {
			t.Fatal(err)
		}
		got, err := f.Eval(pm.Values)
		if err != nil {
			t.Fatal(err)
		}
		prop, _ := pctl.Parse(`P=? [ F "goal" ]`)
		ref, err := checker.Check(m, prop, checker.Options{Method: checker.Exact})
		if err != nil {
			t.Fatal(err)
		}
		if got.Cmp(ref.InitialExact) != 0 {
			t.Errorf("trial %d: %v, exact checker %v; f = %s", trial, got, ref.InitialExact, f)
		}
		// Random values in (0, 1) that keep each row a distribution: the chain re-weighted.
		vals := map[string]*big.Rat{}
		for _, name := range pm.Names {
			vals[name] = big.NewRat(int64(1+rng.IntN(9)), 10*int64(3))
		}
		at, err := f.Eval(vals)
		if err != nil {
			continue // a denominator vanishing at these values
		}
		sub, ok := substitute(t, m, vals)
		if !ok {
			continue
		}
		num, err := checker.Check(sub, prop, checker.Options{})
		if err != nil {
			t.Fatal(err)
		}
		fa, _ := at.Float64()
		if math.Abs(fa-num.Initial) > 1e-9 {
			t.Errorf("trial %d at %v: %v, checker %v", trial, vals, fa, num.Initial)
		}
		compared++
	}
	if compared < 15 {
		t.Errorf("only %d of 30 chains compared at random values", compared)
	}
}

// substitute builds m with its parameters at vals (the last successor taking the rest).
func substitute(t *testing.T, m *dtmc.Model, vals map[string]*big.Rat) (*dtmc.Model, bool) {
	pm, _ := FromDTMC(m)
	b := dtmc.NewBuilder(m.N)
	for s := 0; s < m.N; s++ {
		for k := m.RowPtr[s]; k < m.RowPtr[s+1]; k++ {
			x := make([]*big.Rat, len(pm.Names))
			for i, n := range pm.Names {
				x[i] = vals[n]
			}
			p := pm.p[k].num.eval(x)
			if p.Sign() < 0 {
				return nil, false
			}
			f, _ := p.Float64()
			if f > 0 {
				b.Add(s, m.Col[k], f)
			}
		}
	}
	b.SetInit(0)
	b.Label("goal", m.N-1)
	sub, err := b.Build()
	return sub, err == nil
}

func TestInfiniteReward(t *testing.T) {
	b := dtmc.NewBuilder(3)
	b.Add(0, 1, 0.5)
	b.Add(0, 2, 0.5)
	b.Add(1, 1, 1)
	b.Add(2, 2, 1)
	b.SetInit(0)
	b.Label("end", 2)
	b.AddStateReward("r", 0, 1)
	m, _ := b.Build()
	pm, _ := FromDTMC(m)
	if _, err := pm.Reach("end", "r"); err == nil || !strings.Contains(err.Error(), "infinite") {
		t.Errorf("%v", err)
	}
}
