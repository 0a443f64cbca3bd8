package estimate

import (
	"fmt"
	"math"
	"sort"

	"github.com/augur-perf/augur/probe/instrument"
	"github.com/augur-perf/augur/probe/profile"
	"github.com/augur-perf/augur/source/frontend"
)

// ProfileNotes says what a field profile could not estimate and where it borrowed.
type ProfileNotes struct {
	// Missing lists the decisions (position and function) with no field data: their outcomes
	// are zero in the profile (analyze treats them as unseen) unless Filled says otherwise.
	Missing []string `json:"missing_decisions,omitempty"`
	// NoInvocations lists the functions left out: their entry, or a node that loops back to
	// it, has no estimate, so their invocations cannot be estimated.
	NoInvocations []string `json:"functions_without_invocations,omitempty"`
	// Filled lists what was taken from the base (in-house) profile: decisions' outcome shares,
	// plain nodes' counts scaled to the field's invocations, or whole functions.
	Filled []string `json:"filled_from_base,omitempty"`
}

// Profile turns the estimates into an augur-profile/1 usage profile of the functions fns (the
// release's packages, loaded as the manifest's units were planned on). Each node's count and
// each decision's outcome counts are the estimates, rounded to integers; a function's
// invocations are its entry node's count less what its back edges bring back to the entry, and
// all of them end at the End exit (panics are not counted in the field). When
// base is not nil, decisions and nodes without field data, and functions without an invocation
// estimate, are filled from it (see ProfileNotes.Filled); otherwise they stay empty and are
// listed.
func (e *Estimates) Profile(fns []*frontend.Func, base *profile.Profile) (*profile.Profile, *ProfileNotes, error) {
	byFunc := map[string][]*Unit{}
	for i := range e.Units {
		u := &e.Units[i]
		byFunc[u.Func] = append(byFunc[u.Func], u)
	}
	p := &profile.Profile{Format: profile.Format, Runs: e.Runs, Workload: []string{"field: release " + e.Release}, Funcs: map[string]*profile.Func{}}
	notes := &ProfileNotes{}
	sorted := append([]*frontend.Func(nil), fns...)
	sort.Slice(sorted, func(a, b int) bool { return sorted[a].Name < sorted[b].Name })
	for _, fn := range sorted {
		units := byFunc[fn.Name]
		if len(units) == 0 {
			continue
		}
		g := fn.CFG
		hash, err := instrument.FuncHash(fn)
		if err != nil {
			return nil, nil, err
		}
		f := &profile.Func{Pos: fn.Pkg.Fset.Position(fn.Decl.Pos()).String(), Hash: hash, Nodes: make([]profile.Node, len(g.Nodes))}
		known := make([]bool, len(g.Nodes))
		for id, nd := range g.Nodes {
			if nd.IsDecision() {
				f.Nodes[id].Outcomes = make([]uint64, len(nd.Succs))
			}
		}
		for _, u := range units {
			if u.Node < 0 || u.Node >= len(g.Nodes) {
				return nil, nil, fmt.Errorf("%s: unit %d is node %d, but the function has %d nodes: was the release planned on other source?", fn.Name, u.ID, u.Node, len(g.Nodes))
			}
			nd := g.Nodes[u.Node]
			if nd.IsDecision() != (u.Outcomes > 0) || u.Outcomes > 0 && u.Outcomes != len(nd.Succs) {
				return nil, nil, fmt.Errorf("%s: unit %d (%s) has %d outcomes, node %d %d: was the release planned on other source?", fn.Name, u.ID, u.Pos, u.Outcomes, u.Node, len(nd.Succs))
			}
			if u.Runs == 0 {
				if u.Outcomes > 0 {
					notes.Missing = append(notes.Missing, fmt.Sprintf("%s (%s)", u.Pos, fn.Name))
				}
				continue
			}
			known[u.Node] = true
			n := &f.Nodes[u.Node]
			n.Count = round(u.Count)
			if u.Outcomes > 0 {
				if u.Out == nil {
					if u.Count > 0 {
						// It ran, but no run recorded an outcome: its shares are unknown.
						notes.Missing = append(notes.Missing, fmt.Sprintf("%s (%s)", u.Pos, fn.Name))
					}
					continue
				}
				var sum uint64
				for k, o := range u.Out {
					n.Outcomes[k] = round(o)
					sum += n.Outcomes[k]
				}
				// Rounded outcomes may add up to one more than the rounded count.
				n.Count = max(n.Count, sum)
			}
		}
		inv, ok := invocations(g, f, known)
		if !ok {
			if fillFunc(p, fn.Name, base, hash) {
				notes.Filled = append(notes.Filled, fn.Name+": the whole function (no invocation estimate)")
			} else {
				notes.NoInvocations = append(notes.NoInvocations, fn.Name)
			}
			continue
		}
		f.Invocations = inv
		// The field does not see panics: every invocation is taken to return normally.
		f.Nodes[g.End].Count = inv
		if base != nil {
			notes.Filled = append(notes.Filled, fill(fn, f, known, base.Funcs[fn.Name], hash)...)
		}
		p.Funcs[fn.Name] = f
	}
	return p, notes, nil
}

// invocations is the entry's count less the flow its predecessors send back to it; ok is false
// when one of these nodes has no estimate.
func invocations(g *frontend.CFG, f *profile.Func, known []bool) (uint64, bool) {
	if !known[g.Entry] {
		return 0, false
	}
	in := float64(f.Nodes[g.Entry].Count)
	for id, nd := range g.Nodes {
		for k, s := range nd.Succs {
			if s.To != g.Entry {
				continue
			}
			if !known[id] {
				return 0, false
			}
			if nd.IsDecision() {
				in -= float64(f.Nodes[id].Outcomes[k])
			} else {
				in -= float64(f.Nodes[id].Count)
			}
		}
	}
	return uint64(max(0, in)), true
}

// fill completes f from the base profile's counts b of the same function: a decision without
// outcomes takes the base's outcome shares of its field count (or, when it has none, of the
// base's count scaled by the ratio of invocations), a plain node without an estimate the base's
// count so scaled.
func fill(fn *frontend.Func, f *profile.Func, known []bool, b *profile.Func, hash string) []string {
	if b == nil || len(b.Nodes) != len(f.Nodes) || b.Hash != "" && b.Hash != hash || b.Invocations == 0 {
		return nil
	}
	var filled []string
	scale := float64(f.Invocations) / float64(b.Invocations)
	for id, nd := range fn.CFG.Nodes {
		if nd.IsExit() || nd.Unreachable {
			continue
		}
		n, bn := &f.Nodes[id], b.Nodes[id]
		if !known[id] {
			n.Count = round(float64(bn.Count) * scale)
		}
		if !nd.IsDecision() || len(bn.Outcomes) != len(n.Outcomes) {
			if !known[id] && bn.Count > 0 {
				filled = append(filled, fmt.Sprintf("%s: node %d's count", fn.Name, id))
			}
			continue
		}
		var have, bsum uint64
		for k := range n.Outcomes {
			have += n.Outcomes[k]
			bsum += bn.Outcomes[k]
		}
		if have > 0 || bsum == 0 {
			continue
		}
		total := float64(n.Count)
		if total == 0 {
			total = float64(bsum) * scale
		}
		var sum uint64
		for k := range n.Outcomes {
			n.Outcomes[k] = round(total * float64(bn.Outcomes[k]) / float64(bsum))
			sum += n.Outcomes[k]
		}
		n.Count = max(n.Count, sum)
		filled = append(filled, fmt.Sprintf("%s: decision %s's outcome shares", fn.Name, nd.Pos))
	}
	return filled
}

// fillFunc copies the base profile's counts of a function the field cannot estimate.
func fillFunc(p *profile.Profile, name string, base *profile.Profile, hash string) bool {
	if base == nil {
		return false
	}
	b := base.Funcs[name]
	if b == nil || b.Hash != "" && b.Hash != hash {
		return false
	}
	one := &profile.Profile{Format: profile.Format, Funcs: map[string]*profile.Func{name: b}}
	return p.Merge(one) == nil
}

func round(x float64) uint64 {
	if x <= 0 || math.IsNaN(x) {
		return 0
	}
	return uint64(math.Round(x))
}
