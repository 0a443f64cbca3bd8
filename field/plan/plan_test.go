package plan

import (
	"fmt"
	"testing"
)

// Grouped RB's guarantee: once the variants' probes number the units executed in-house, each of
// them has a probe — also when they are far fewer than all units — and the least executed
// quartile is probed before the most executed one.
func TestGroupedGuarantee(t *testing.T) {
	var units []Unit
	for i := 0; i < 400; i++ {
		u := Unit{ID: i + 1, Pos: "u"}
		if i%4 == 1 { // 100 units executed in-house, 1..100 times; 300 never
			u.InHouse = uint64(1 + i/4)
		}
		units = append(units, u)
	}
	for _, c := range []struct{ variants, bound int }{{10, 10}, {4, 30}, {1, 100}} {
		m, err := Allocate("r", units, Options{Variants: c.variants, Bound: c.bound, Strategy: GroupedRB, Seed: 3})
		if err != nil {
			t.Fatal(err)
		}
		probed := map[int]bool{}
		for _, v := range m.Variants {
			for _, id := range v.Probes {
				probed[id] = true
			}
		}
		for _, u := range units {
			if u.InHouse > 0 && !probed[u.ID] {
				t.Errorf("%d×%d: unit %d (executed %d times in-house) has no probe", c.variants, c.bound, u.ID, u.InHouse)
			}
		}
	}
	// With 25 probes, exactly the least executed quartile (in-house counts 1..25).
	m, _ := Allocate("r", units, Options{Variants: 1, Bound: 25, Strategy: GroupedRB, Seed: 4})
	for _, id := range m.Variants[0].Probes {
		if c := units[id-1].InHouse; c < 1 || c > 25 {
			t.Errorf("25 probes: unit %d executed %d times in-house, want the least executed quartile", id, c)
		}
	}
}

// Weights share each variant's probes among the groups: 4:3:2:1:0 of 10 probes gives the least
// executed quartile 4, ... and the never-executed group none; within a group the allocation stays
// balanced, so each group is covered once the variants' shares of it number its units; a share
// beyond its group's units goes to the next groups.
func TestGroupedWeights(t *testing.T) {
	var units []Unit
	for i := 0; i < 400; i++ {
		u := Unit{ID: i + 1, Pos: "u"}
		if i%4 == 1 { // 100 units executed in-house (25 per quartile), 300 never
			u.InHouse = uint64(1 + i/4)
		}
		units = append(units, u)
	}
	quartile := func(u Unit) int {
		if u.InHouse == 0 {
			return 4
		}
		return int(u.InHouse-1) / 25
	}
	m, err := Allocate("r", units, Options{Variants: 25, Bound: 10, Strategy: GroupedRB, Seed: 5, Weights: []float64{4, 3, 2, 1, 0}})
	if err != nil {
		t.Fatal(err)
	}
	probes := map[int]int{}
	for _, v := range m.Variants {
		per := make([]int, 5)
		for _, id := range v.Probes {
			per[quartile(units[id-1])]++
			probes[id]++
		}
		if fmt.Sprint(per) != "[4 3 2 1 0]" {
			t.Errorf("variant %d: probes per group %v, want [4 3 2 1 0]", v.ID, per)
		}
	}
	// 25 variants × 4 probes = 100 over quartile 1's 25 units: 4 each; quartile 4: 1 each.
	for _, u := range units {
		want := []int{4, 3, 2, 1, 0}[quartile(u)]
		if probes[u.ID] != want {
			t.Errorf("unit %d (group %d): %d probes, want %d (balanced within its group)", u.ID, quartile(u), probes[u.ID], want)
		}
	}
	if fmt.Sprint(m.Weights) != "[4 3 2 1 0]" {
		t.Errorf("the manifest keeps weights %v", m.Weights)
	}
	// A share beyond its group's units goes to the next groups: 40 probes with all weight on the
	// least executed quartile (25 units) give it 25, and 15 to quartile 2.
	m, err = Allocate("r", units, Options{Variants: 1, Bound: 40, Strategy: GroupedRB, Seed: 5, Weights: []float64{1, 0, 0, 0, 0}})
	if err != nil {
		t.Fatal(err)
	}
	per := make([]int, 5)
	for _, id := range m.Variants[0].Probes {
		per[quartile(units[id-1])]++
	}
	if fmt.Sprint(per) != "[25 15 0 0 0]" {
		t.Errorf("spill: probes per group %v, want [25 15 0 0 0]", per)
	}
	for _, bad := range []Options{
		{Variants: 1, Bound: 5, Strategy: GroupedRB, Weights: []float64{1, 2}},
		{Variants: 1, Bound: 5, Strategy: GroupedRB, Weights: []float64{0, 0, 0, 0, 0}},
		{Variants: 1, Bound: 5, Strategy: GroupedRB, Weights: []float64{1, -1, 0, 0, 0}},
		{Variants: 1, Bound: 5, Strategy: RandomBalanced, Weights: []float64{1, 1, 1, 1, 1}},
	} {
		if _, err := Allocate("r", units, bad); err == nil {
			t.Errorf("weights %v with %s: no error", bad.Weights, bad.Strategy)
		}
	}
}

// The list flags of augur field: strategies and Grouped RB's weights, comma-separated.
func TestParseLists(t *testing.T) {
	if sts, err := ParseStrategies("r, grb"); err != nil || len(sts) != 2 || sts[0] != Random || sts[1] != GroupedRB {
		t.Errorf("r, grb: %v %v", sts, err)
	}
	if _, err := ParseStrategies("r,q"); err == nil || err.Error() != `unknown strategy "q" (p, r, rb, grb)` {
		t.Errorf("r,q: %v", err)
	}
	if ws, err := ParseWeights("4, 3,0.5"); err != nil || len(ws) != 3 || ws[2] != 0.5 {
		t.Errorf("4, 3,0.5: %v %v", ws, err)
	}
	if _, err := ParseWeights("1,x"); err == nil || err.Error() != `"x" is not a number` {
		t.Errorf("1,x: %v", err)
	}
}
