package plan

import "testing"

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
