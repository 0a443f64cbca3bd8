// Package profile owns usage profiles: how often each function was invoked and how often each of
// its statements ran and each decision outcome was taken, either measured by augur's
// instrumentation (format "augur-profile/1") or stated by a user (format "augur-usage/1",
// PROPER-style counts keyed by source position). It reads, writes, validates and merges them;
// it turns CPU profiles of a timed run into time per CFG node, and reads and writes that time
// as a rewards file (TimeFile).
//
// It must not build models or run anything: synthesis turns profiles into probabilities, and the
// instrumentation package produces measured ones.
package profile

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sort"
)

// Format is the version tag of measured profiles.
const Format = "augur-profile/1"

// Profile is a measured usage profile.
type Profile struct {
	Format string `json:"format"`
	// Workload records what was run, for the reader's benefit.
	Workload []string `json:"workload,omitempty"`
	// Runs is how many workload runs were added into this profile.
	Runs int `json:"runs"`
	// Partial is set when a run was interrupted: its counts are those gathered until it ended,
	// and invocations still under way when it did may be counted in part.
	Partial bool `json:"partial,omitempty"`
	// Funcs maps a function's qualified name (import/path.Func, import/path.(*T).M,
	// import/path.T.M, as frontend.Func.Name) to its counts.
	Funcs map[string]*Func `json:"functions"`
}

// Func holds one function's counts, indexed by the node IDs of its frontend CFG.
type Func struct {
	// Pos is the declaration's file:line:col and Hash a digest of the function's source text:
	// a profile is refused for a function whose source has changed since it was measured.
	Pos  string `json:"pos"`
	Hash string `json:"hash"`
	// Invocations is N0, how often the function was entered.
	Invocations uint64 `json:"invocations"`
	// Nodes has one entry per CFG node.
	Nodes []Node `json:"nodes"`
	// Concurrent is set when an invocation was seen to start while another goroutine was in
	// the function (sampled: overlaps can go unseen, never the other way round).
	Concurrent bool `json:"concurrent,omitempty"`
}

// Node holds one CFG node's counts.
type Node struct {
	// Count is how often the node ran.
	Count uint64 `json:"n"`
	// Outcomes, for a decision, counts each outcome, aligned with the node's CFG edges.
	Outcomes []uint64 `json:"out,omitempty"`
	// Panics counts runs of the node that did not reach any of its successors because a panic
	// the CFG does not show (a nil dereference, an index out of range, a panic in a callee)
	// unwound the function there.
	Panics uint64 `json:"panics,omitempty"`
	// Recovered counts the Panics after which the function still returned normally: a deferred
	// call the CFG does not show recovering (the panic chain has no node for the deferred calls
	// registered there, or the call recovers though it is not a literal calling recover) caught
	// the panic, and every deferred call left ran without panicking. Synthesis sends these to
	// the End exit, the other Panics where frontend.PanicTargets says.
	Recovered uint64 `json:"recovered,omitempty"`
}

// Read reads a measured profile.
func Read(path string) (*Profile, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	p, err := Decode(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return p, nil
}

// Decode reads a measured profile from r.
func Decode(r io.Reader) (*Profile, error) {
	var p Profile
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&p); err != nil {
		return nil, err
	}
	if p.Format != Format {
		return nil, fmt.Errorf("format %q is not %q", p.Format, Format)
	}
	if p.Funcs == nil {
		p.Funcs = map[string]*Func{}
	}
	for name, f := range p.Funcs {
		if f == nil {
			return nil, fmt.Errorf("function %s: no counts", name)
		}
	}
	return &p, nil
}

// Write writes the profile as indented JSON with functions in sorted order.
func (p *Profile) Write(path string) error {
	data, err := json.MarshalIndent(p, "", " ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(data, '\n'), 0o644)
}

// Merge adds q's counts into p. Both must describe the same source: a function present in both
// must have the same hash and number of nodes.
func (p *Profile) Merge(q *Profile) error {
	if p.Funcs == nil {
		p.Funcs = map[string]*Func{}
	}
	names := make([]string, 0, len(q.Funcs))
	for n := range q.Funcs {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, name := range names {
		g := q.Funcs[name]
		f, ok := p.Funcs[name]
		if !ok {
			p.Funcs[name] = g.clone()
			continue
		}
		if f.Hash != g.Hash || len(f.Nodes) != len(g.Nodes) {
			return fmt.Errorf("function %s: the profiles were measured on different source (hash %s vs %s)", name, f.Hash, g.Hash)
		}
		f.Invocations += g.Invocations
		f.Concurrent = f.Concurrent || g.Concurrent
		for i := range f.Nodes {
			a, b := &f.Nodes[i], g.Nodes[i]
			if len(a.Outcomes) != len(b.Outcomes) {
				return fmt.Errorf("function %s node %d: %d outcomes vs %d", name, i, len(a.Outcomes), len(b.Outcomes))
			}
			a.Count += b.Count
			a.Panics += b.Panics
			a.Recovered += b.Recovered
			for k := range a.Outcomes {
				a.Outcomes[k] += b.Outcomes[k]
			}
		}
	}
	p.Runs += q.Runs
	p.Partial = p.Partial || q.Partial
	return nil
}

func (f *Func) clone() *Func {
	g := *f
	g.Nodes = make([]Node, len(f.Nodes))
	for i, n := range f.Nodes {
		g.Nodes[i] = n
		g.Nodes[i].Outcomes = append([]uint64(nil), n.Outcomes...)
	}
	return &g
}
