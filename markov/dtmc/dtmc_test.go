package dtmc

import (
	"math"
	"math/big"
	"strings"
	"testing"
)

func TestBuildSortsAndIndexes(t *testing.T) {
	b := NewBuilder(3)
	b.Add(0, 2, 0.75)
	b.AddExact(0, 1, big.NewRat(1, 4))
	b.SetAction("go")
	b.Add(1, 1, 1)
	b.Add(2, 0, 1)
	b.SetInit(0)
	b.Label("end", 2)
	b.Label("end", 2)
	b.AddTransReward("r", 0, 2, 3)
	b.AddStateReward("r", 1, 0.5)
	m, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	cols, probs := m.Row(0)
	if len(cols) != 2 || cols[0] != 1 || cols[1] != 2 || probs[0] != 0.25 {
		t.Fatalf("row 0 = %v %v", cols, probs)
	}
	if m.ExactProb(0).Cmp(big.NewRat(1, 4)) != 0 || m.ExactProb(1).Cmp(big.NewRat(3, 4)) != 0 {
		t.Errorf("exact probabilities %v %v", m.ExactProb(0), m.ExactProb(1))
	}
	if m.Action[0] != "go" || m.Action[1] != "" {
		t.Errorf("actions %q", m.Action)
	}
	if k, ok := m.Find(0, 2); !ok || m.Rewards[0].Trans[k] != 3 {
		t.Errorf("transition reward 0->2 not at its transition")
	}
	if st, _ := m.Label("end"); len(st) != 1 {
		t.Errorf("duplicate label entries kept: %v", st)
	}
	if st, _ := m.Label("init"); len(st) != 1 || st[0] != 0 {
		t.Errorf("built-in init = %v", st)
	}
	if _, err := m.Label("nope"); err == nil || !strings.Contains(err.Error(), `unknown label "nope"`) {
		t.Errorf("unknown label: %v", err)
	}
	if _, err := m.Reward("x"); err == nil || !strings.Contains(err.Error(), `unknown reward structure "x"`) {
		t.Errorf("unknown reward: %v", err)
	}
	if r, _ := m.Reward(""); r.Name != "r" {
		t.Errorf("default reward structure %q", r.Name)
	}
}

func TestValidationErrors(t *testing.T) {
	cases := []struct {
		build func(b *Builder)
		want  string
	}{
		{func(b *Builder) { b.Add(0, 1, 0.5); b.Add(1, 1, 1); b.SetInit(0) }, "state 0 sum to 0.5"},
		{func(b *Builder) { b.Add(0, 1, 1); b.SetInit(0) }, "state 1 has no outgoing transitions"},
		{func(b *Builder) { b.Add(0, 1, math.NaN()); b.Add(0, 0, 1); b.Add(1, 1, 1); b.SetInit(0) }, "not in [0,1]"},
		{func(b *Builder) { b.Add(0, 1, -0.5); b.Add(0, 0, 1.5); b.Add(1, 1, 1); b.SetInit(0) }, "not in [0,1]"},
		{func(b *Builder) { b.Add(0, 5, 1); b.Add(1, 1, 1); b.SetInit(0) }, "out of range"},
		{func(b *Builder) { b.Add(0, 1, 1); b.Add(0, 1, 1); b.Add(1, 1, 1); b.SetInit(0) }, "given twice"},
		{func(b *Builder) { b.Add(0, 1, 1); b.Add(1, 1, 1) }, "no initial state"},
		{func(b *Builder) { b.Add(0, 1, 1); b.Add(1, 1, 1); b.AddInit(0, 0.5) }, "initial distribution sums to 0.5"},
		{func(b *Builder) { b.Add(0, 1, 1); b.Add(1, 1, 1); b.SetInit(0); b.Label("x", 7) }, `label "x": state 7 out of range`},
		{func(b *Builder) { b.Add(0, 1, 1); b.Add(1, 1, 1); b.SetInit(0); b.AddStateReward("r", 0, -1) }, "must be finite and non-negative"},
		{func(b *Builder) { b.Add(0, 1, 1); b.Add(1, 1, 1); b.SetInit(0); b.AddTransReward("r", 1, 0, 1) }, "transition 1 -> 0 is not in the model"},
		{func(b *Builder) { b.Add(0, 1, 1); b.Add(1, 1, 1); b.SetInit(0); b.AddStateReward("", 0, 1) }, "empty name"},
	}
	for i, c := range cases {
		b := NewBuilder(2)
		c.build(b)
		if _, err := b.Build(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("case %d: error %v, want %q", i, err, c.want)
		}
	}
	if _, err := NewBuilder(0).Build(); err == nil {
		t.Error("a model without states was accepted")
	}
}

func TestRowTolerance(t *testing.T) {
	b := NewBuilder(2)
	b.Add(0, 0, 1.0/3)
	b.Add(0, 1, 2.0/3+1e-13)
	b.Add(1, 1, 1)
	b.SetInit(0)
	if _, err := b.Build(); err != nil {
		t.Errorf("a row within 1e-12 of 1 was refused: %v", err)
	}
}

func TestDecimal(t *testing.T) {
	if Decimal(0.1).Cmp(big.NewRat(1, 10)) != 0 || Decimal(2.5).Cmp(big.NewRat(5, 2)) != 0 {
		t.Errorf("Decimal(0.1) = %v, Decimal(2.5) = %v", Decimal(0.1), Decimal(2.5))
	}
}
