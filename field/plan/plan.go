// Package plan allocates probes to the variants of a release: each variant carries at most a
// bound of probes, and the strategies of Diep, Elbaum and Cohen decide which units each probes —
// Pattern (a random start, then consecutive units, wrapping), Random, Random Balanced (the least
// allocated units first), Grouped Random Balanced (units grouped by their in-house execution
// frequency, least executed first, every unit executed in-house guaranteed a probe before any
// unit the in-house tests never ran), each
// optionally remembering an earlier release's allocation. Allocations are reproducible from
// their seed. It owns units, strategies and the release manifest; it must not build or run
// anything.
package plan

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"sort"

	"github.com/augur-perf/augur/probe/profile"
	"github.com/augur-perf/augur/source/frontend"
)

// Unit is a probe site: a statement of the selected packages. A probe on a decision counts its
// outcomes too.
type Unit struct {
	ID  int    `json:"id"`
	Pos string `json:"pos"`
	// Func and Node name the unit's node in the front end's graph (the names of augur-profile/1),
	// so that field counts map back onto usage profiles.
	Func string `json:"func,omitempty"`
	Node int    `json:"node"`
	// Outcomes is, for a decision, its number of outcomes; 0 for other statements.
	Outcomes int `json:"outcomes,omitempty"`
	// InHouse is how often the unit ran in in-house testing (Grouped RB's grouping).
	InHouse uint64 `json:"in_house,omitempty"`
}

// Units are the statements of fns as probe units, numbered 1.. in function and node order, with
// their in-house counts from inHouse when it is not nil. pos renders a node's position (for
// example relative to the working directory).
func Units(fns []*frontend.Func, inHouse *profile.Profile, pos func(string) string) []Unit {
	var units []Unit
	for _, fn := range fns {
		var counts *profile.Func
		if inHouse != nil {
			counts = inHouse.Funcs[fn.Name]
		}
		for _, n := range fn.CFG.Nodes {
			if n.IsExit() || n.Unreachable || !n.Pos.IsValid() {
				continue
			}
			u := Unit{ID: len(units) + 1, Pos: pos(n.Pos.String()), Func: fn.Name, Node: n.ID}
			if n.IsDecision() {
				u.Outcomes = len(n.Succs)
			}
			if counts != nil && n.ID < len(counts.Nodes) {
				u.InHouse = counts.Nodes[n.ID].Count
			}
			units = append(units, u)
		}
	}
	return units
}

// Strategy names an allocation strategy.
type Strategy string

const (
	Pattern        Strategy = "p"
	Random         Strategy = "r"
	RandomBalanced Strategy = "rb"
	GroupedRB      Strategy = "grb"
)

// Strategies lists every strategy.
var Strategies = []Strategy{Pattern, Random, RandomBalanced, GroupedRB}

// ParseStrategy reads p, r, rb or grb.
func ParseStrategy(s string) (Strategy, error) {
	for _, st := range Strategies {
		if string(st) == s {
			return st, nil
		}
	}
	return "", fmt.Errorf("unknown strategy %q (p, r, rb, grb)", s)
}

// Options control Allocate.
type Options struct {
	Variants int
	// Bound is the most probes a variant carries.
	Bound    int
	Strategy Strategy
	Seed     uint64
	// Previous, when given, is an earlier release's manifest: units it probed often start with
	// that many allocations, so the balanced strategies favour the others (memory).
	Previous *Manifest
}

// Variant is one deployed variant and the units it probes.
type Variant struct {
	ID     int   `json:"id"`
	Probes []int `json:"probes"`
}

// Manifest is a release: its variants and their probes, with what it was made from.
type Manifest struct {
	Format   string    `json:"format"`
	Release  string    `json:"release"`
	Strategy Strategy  `json:"strategy"`
	Bound    int       `json:"bound"`
	Seed     uint64    `json:"seed"`
	Units    []Unit    `json:"units"`
	Variants []Variant `json:"variants"`
}

// Format names the manifest format.
const Format = "augur-field-release/1"

// Allocate gives each variant its probes.
func Allocate(release string, units []Unit, o Options) (*Manifest, error) {
	if o.Variants < 1 || o.Bound < 1 {
		return nil, fmt.Errorf("want at least one variant and a bound of at least one probe (got %d variants, bound %d)", o.Variants, o.Bound)
	}
	if len(units) == 0 {
		return nil, fmt.Errorf("no units to probe")
	}
	rng := rand.New(rand.NewPCG(o.Seed, 0xa11c47e))
	n := len(units)
	bound := min(o.Bound, n)
	// allocated counts each unit's probes so far, the earlier release's included.
	allocated := make([]int, n)
	index := map[int]int{}
	for i, u := range units {
		index[u.ID] = i
	}
	if o.Previous != nil {
		for _, v := range o.Previous.Variants {
			for _, id := range v.Probes {
				if i, ok := index[id]; ok {
					allocated[i]++
				}
			}
		}
	}
	m := &Manifest{Format: Format, Release: release, Strategy: o.Strategy, Bound: bound, Seed: o.Seed, Units: units}
	var order []int // Grouped RB's unit order: least executed in-house first, groups by quartile
	if o.Strategy == GroupedRB {
		order = grouped(units, rng)
	}
	for v := 0; v < o.Variants; v++ {
		var picks []int
		switch o.Strategy {
		case Pattern:
			start := rng.IntN(n)
			for k := 0; k < bound; k++ {
				picks = append(picks, (start+k)%n)
			}
		case Random:
			picks = rng.Perm(n)[:bound]
		case RandomBalanced:
			picks = leastAllocated(allocated, rng.Perm(n), bound)
		case GroupedRB:
			picks = leastAllocated(allocated, order, bound)
		default:
			return nil, fmt.Errorf("unknown strategy %q", o.Strategy)
		}
		var probes []int
		for _, i := range picks {
			allocated[i]++
			probes = append(probes, units[i].ID)
		}
		sort.Ints(probes)
		m.Variants = append(m.Variants, Variant{ID: v + 1, Probes: probes})
	}
	return m, nil
}

// leastAllocated picks k units with the fewest allocations, ties broken by their place in order.
func leastAllocated(allocated, order []int, k int) []int {
	cand := append([]int(nil), order...)
	sort.SliceStable(cand, func(a, b int) bool { return allocated[cand[a]] < allocated[cand[b]] })
	return cand[:k]
}

// grouped orders units for Grouped RB: the units executed in-house first, by quartile of their
// in-house execution frequency, least executed first, shuffled within a quartile; then the units
// never executed in-house, shuffled. With the balanced allocation no unit gets a second probe
// before every unit has one, so as soon as the variants' probes number at least the units
// executed in-house, every one of them is probed somewhere (the strategy's guarantee), the rarely
// executed ones — cheapest to probe — first. Units the in-house tests never reached come last:
// they are mostly code the field does not run either (error paths, unused options), and leading
// with them spent tight bounds on probes that see nothing.
func grouped(units []Unit, rng *rand.Rand) []int {
	var ran, never []int
	for i, u := range units {
		if u.InHouse > 0 {
			ran = append(ran, i)
		} else {
			never = append(never, i)
		}
	}
	sort.SliceStable(ran, func(a, b int) bool { return units[ran[a]].InHouse < units[ran[b]].InHouse })
	var order []int
	for q := 0; q < 4; q++ {
		group := append([]int(nil), ran[q*len(ran)/4:(q+1)*len(ran)/4]...)
		rng.Shuffle(len(group), func(a, b int) { group[a], group[b] = group[b], group[a] })
		order = append(order, group...)
	}
	rng.Shuffle(len(never), func(a, b int) { never[a], never[b] = never[b], never[a] })
	return append(order, never...)
}

// Write writes the manifest as JSON.
func (m *Manifest) Write(path string) error {
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(data, '\n'), 0o644)
}

// Read reads a manifest.
func Read(path string) (*Manifest, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var m Manifest
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	if m.Format != Format {
		return nil, fmt.Errorf("%s: format %q, want %q", path, m.Format, Format)
	}
	return &m, nil
}
