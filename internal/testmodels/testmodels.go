// Package testmodels holds the small sample DTMCs that the golden-file and round-trip tests of
// several packages share, so that every package tests against the same models. Only tests
// import it.
package testmodels

import (
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/augur-perf/augur/markov/dtmc"
)

// Sample is a named model maker.
type Sample struct {
	Name  string
	Model func(t testing.TB) *dtmc.Model
}

// Samples are the three models of the golden and round-trip tests.
var Samples = []Sample{
	{"die", KnuthDie},
	{"geometric", GeometricLoop},
	{"protocol", LossyProtocol},
}

// MustBuild builds b or fails the test.
func MustBuild(t testing.TB, b *dtmc.Builder) *dtmc.Model {
	t.Helper()
	m, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// KnuthDie is the Knuth–Yao die: fair coin flips in states 0..6 until one of the faces 7..12
// (one..six) is reached.
func KnuthDie(t testing.TB) *dtmc.Model {
	b := dtmc.NewBuilder(13)
	flips := [][3]int{{0, 1, 2}, {1, 3, 4}, {2, 5, 6}, {3, 1, 7}, {4, 8, 9}, {5, 10, 11}, {6, 2, 12}}
	for _, f := range flips {
		b.Add(f[0], f[1], 0.5)
		b.Add(f[0], f[2], 0.5)
		b.AddStateReward("flips", f[0], 1)
		b.SetLine(f[0], 10+f[0])
	}
	faces := []string{"one", "two", "three", "four", "five", "six"}
	for i, face := range faces {
		s := 7 + i
		b.Add(s, s, 1)
		b.Label("done", s)
		b.Label(face, s)
	}
	b.SetInit(0)
	return MustBuild(t, b)
}

// GeometricLoop retries with exact probability 2/3 and carries a reward on two states and
// named parameters.
func GeometricLoop(t testing.TB) *dtmc.Model {
	b := dtmc.NewBuilder(3)
	b.AddExact(0, 0, big.NewRat(2, 3))
	b.SetParam("p_retry")
	b.AddExact(0, 1, big.NewRat(1, 3))
	b.SetParam("p_ok")
	b.Add(1, 2, 1)
	b.Add(2, 2, 1)
	b.AddStateReward("cost", 0, 2.5)
	b.AddStateReward("cost", 1, 0.75)
	b.Label("ok", 1)
	b.Label("end", 2)
	b.SetInit(0)
	return MustBuild(t, b)
}

// LossyProtocol has actions, transition rewards, two initial states and an empty label.
func LossyProtocol(t testing.TB) *dtmc.Model {
	b := dtmc.NewBuilder(4)
	b.Add(0, 1, 0.9)
	b.SetAction("send")
	b.Add(0, 2, 0.1)
	b.SetAction("send")
	b.Add(1, 3, 1)
	b.SetAction("ack")
	b.Add(2, 0, 1)
	b.SetAction("retry")
	b.Add(3, 3, 1)
	b.AddTransReward("energy", 0, 1, 2)
	b.AddTransReward("energy", 0, 2, 2)
	b.AddTransReward("energy", 2, 0, 0.5)
	b.AddStateReward("time", 0, 1)
	b.AddStateReward("time", 1, 1)
	b.AddStateReward("time", 2, 1)
	b.AddTransReward("time", 1, 3, 3)
	b.Label("delivered", 3)
	b.Label("lost", 2)
	b.DeclareLabel("empty")
	b.AddInit(0, 0.5)
	b.AddInit(2, 0.5)
	return MustBuild(t, b)
}

// RandomChain is n states with three distinct random successors each (probability 1/3), a
// "goal" label on about a tenth of them and a "cost" reward of 1..5 per state: one giant
// strongly connected component, the random shape of the 10^6-state load-and-check benchmarks.
func RandomChain(n int) *dtmc.Model {
	r := rand.New(rand.NewPCG(8, uint64(n)))
	b := dtmc.NewBuilder(n)
	for s := 0; s < n; s++ {
		if r.IntN(10) == 0 {
			b.Label("goal", s)
		}
		var t [3]int
		for i := range t {
			t[i] = r.IntN(n)
			for j := 0; j < i; j++ {
				if t[j] == t[i] {
					t[i] = r.IntN(n)
					j = -1
				}
			}
		}
		for _, u := range t {
			b.Add(s, u, 1.0/3)
		}
		b.AddStateReward("cost", s, float64(1+r.IntN(5)))
	}
	b.DeclareLabel("goal")
	b.SetInit(0)
	m, err := b.Build()
	if err != nil {
		panic(err) // rows of three thirds always build
	}
	return m
}
