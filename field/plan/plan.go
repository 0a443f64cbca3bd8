// Package plan allocates probes to the variants of a release: each variant carries at most a
// bound of probes, and the strategies of Diep, Elbaum and Cohen decide which units each probes —
// Pattern (a random start, then consecutive units, wrapping), Random, Random Balanced (the least
// allocated units first), Grouped Random Balanced (units grouped by their in-house execution
// frequency, least executed first, every unit executed in-house guaranteed a probe before any
// unit the in-house tests never ran; or, with weights per group, each variant's probes shared
// among the groups in proportion, the guarantee holding for a group once the variants' shares
// of it number its units), each
// optionally remembering an earlier release's allocation. Allocations are reproducible from
// their seed. It owns units, strategies and the release manifest; it must not build or run
// anything.
package plan

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"

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

// ParseStrategies reads a comma-separated list of strategies (p,r,rb,grb).
func ParseStrategies(list string) ([]Strategy, error) {
	var sts []Strategy
	for _, s := range strings.Split(list, ",") {
		st, err := ParseStrategy(strings.TrimSpace(s))
		if err != nil {
			return nil, err
		}
		sts = append(sts, st)
	}
	return sts, nil
}

// ParseWeights reads Grouped RB's shares per group (Options.Weights), comma-separated: 4,3,2,1,0.
func ParseWeights(list string) ([]float64, error) {
	var ws []float64
	for _, f := range strings.Split(list, ",") {
		w, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		if err != nil {
			return nil, fmt.Errorf("%q is not a number", f)
		}
		ws = append(ws, w)
	}
	return ws, nil
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
	// Weights, for Grouped RB, share each variant's probes among its five groups — the
	// quartiles of in-house frequency, least executed first, then the units never executed
	// in-house — in proportion (largest remainders; a group's share beyond its units goes to
	// the groups after it). Nil: no shares, the groups are probed in that order.
	Weights []float64
}

// Variant is one deployed variant and the units it probes.
type Variant struct {
	ID     int   `json:"id"`
	Probes []int `json:"probes"`
}

// Manifest is a release: its variants and their probes, with what it was made from.
type Manifest struct {
	Format   string   `json:"format"`
	Release  string   `json:"release"`
	Strategy Strategy `json:"strategy"`
	Bound    int      `json:"bound"`
	Seed     uint64   `json:"seed"`
	Units    []Unit   `json:"units"`
	// Weights are Grouped RB's shares of each variant's probes, when given (Options.Weights).
	Weights  []float64 `json:"weights,omitempty"`
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
	m := &Manifest{Format: Format, Release: release, Strategy: o.Strategy, Bound: bound, Seed: o.Seed, Units: units, Weights: o.Weights}
	var order []int    // Grouped RB's unit order: least executed in-house first, groups by quartile
	var groups [][]int // the same, group by group
	var shares []int   // each group's probes per variant, with Weights
	if o.Strategy == GroupedRB {
		groups = grouped(units, rng)
		order = slices.Concat(groups...)
		if o.Weights != nil {
			var err error
			if shares, err = weighShares(o.Weights, groups, bound); err != nil {
				return nil, err
			}
		}
	} else if o.Weights != nil {
		return nil, fmt.Errorf("weights share probes among Grouped RB's groups: strategy %q has none", o.Strategy)
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
			if shares == nil {
				picks = leastAllocated(allocated, order, bound)
				break
			}
			for g, group := range groups {
				picks = append(picks, leastAllocated(allocated, group, shares[g])...)
			}
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

// weighShares splits bound probes among the groups in proportion to weights (largest remainders,
// ties to the earlier group), then moves what a group cannot take — more than its units — to the
// groups after it, and what is left at the end back to the first groups with room.
func weighShares(weights []float64, groups [][]int, bound int) ([]int, error) {
	if len(weights) != len(groups) {
		return nil, fmt.Errorf("want %d weights (the four quartiles of in-house frequency, least executed first, then the units never executed in-house), got %d", len(groups), len(weights))
	}
	total := 0.0
	for _, w := range weights {
		if !(w >= 0) || math.IsInf(w, 0) {
			return nil, fmt.Errorf("weight %v: weights are finite and not negative", w)
		}
		total += w
	}
	if total == 0 {
		return nil, fmt.Errorf("the weights are all zero")
	}
	shares := make([]int, len(groups))
	rest := make([]float64, len(groups))
	given := 0
	for g, w := range weights {
		exact := float64(bound) * w / total
		shares[g] = int(exact)
		rest[g] = exact - float64(shares[g])
		given += shares[g]
	}
	for ; given < bound; given++ {
		best := 0
		for g := range rest {
			if rest[g] > rest[best] {
				best = g
			}
		}
		shares[best]++
		rest[best] = -1
	}
	over := 0
	for pass := 0; pass < 2; pass++ {
		for g := range shares {
			shares[g] += over
			over = max(0, shares[g]-len(groups[g]))
			shares[g] -= over
		}
	}
	return shares, nil
}

// grouped orders units for Grouped RB, group by group: the units executed in-house first, by
// quartile of their in-house execution frequency, least executed first, shuffled within a
// quartile; then the units never executed in-house, shuffled. With the balanced allocation no unit gets a second probe
// before every unit has one, so as soon as the variants' probes number at least the units
// executed in-house, every one of them is probed somewhere (the strategy's guarantee), the rarely
// executed ones — cheapest to probe — first. Units the in-house tests never reached come last:
// they are mostly code the field does not run either (error paths, unused options), and leading
// with them spent tight bounds on probes that see nothing.
func grouped(units []Unit, rng *rand.Rand) [][]int {
	var ran, never []int
	for i, u := range units {
		if u.InHouse > 0 {
			ran = append(ran, i)
		} else {
			never = append(never, i)
		}
	}
	sort.SliceStable(ran, func(a, b int) bool { return units[ran[a]].InHouse < units[ran[b]].InHouse })
	var groups [][]int
	for q := 0; q < 4; q++ {
		group := append([]int(nil), ran[q*len(ran)/4:(q+1)*len(ran)/4]...)
		rng.Shuffle(len(group), func(a, b int) { group[a], group[b] = group[b], group[a] })
		groups = append(groups, group)
	}
	rng.Shuffle(len(never), func(a, b int) { never[a], never[b] = never[b], never[a] })
	return append(groups, never)
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
