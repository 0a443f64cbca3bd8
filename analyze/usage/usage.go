// Package usage owns given usage profiles (format "augur-usage/1", documented in
// docs/usage-format.md): PROPER's logs for code that cannot be run here, stating how often each
// function is invoked (N0) and how often each outcome of each decision is taken (N_i), keyed by
// source position. It reads them and turns them, against the frontend's CFGs, into the measured
// profile form (profile.Func) that synthesis consumes, deriving node counts by flow.
//
// It must not touch what other stages own: it builds no CFGs, assigns no probabilities, builds
// no models and does not read or write measured profiles (package profile does).
package usage

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"

	"github.com/augur-perf/augur/probe/profile"
	"github.com/augur-perf/augur/source/frontend"
)

// Format is the version tag of given usage profiles.
const Format = "augur-usage/1"

// Usage is a given usage profile.
type Usage struct {
	// Name is the file it was read from, for errors.
	Name  string
	Funcs map[string]*Func
}

// Func holds one function's given counts.
type Func struct {
	Invocations uint64
	// Decisions maps a position, file:line or file:line:col, to counts per outcome name.
	Decisions map[string]map[string]uint64
}

type fileJSON struct {
	Format string `json:"format"`
	Funcs  map[string]*struct {
		Invocations *uint64                      `json:"invocations"`
		Decisions   map[string]map[string]uint64 `json:"decisions"`
	} `json:"functions"`
}

// ReadFile reads a given usage profile.
func ReadFile(path string) (*Usage, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Decode(bytes.NewReader(data), path)
}

// Decode reads a given usage profile from r; name is used in errors.
func Decode(r io.Reader, name string) (*Usage, error) {
	var raw fileJSON
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&raw); err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	if raw.Format != Format {
		return nil, fmt.Errorf("%s: format %q is not %q", name, raw.Format, Format)
	}
	u := &Usage{Name: name, Funcs: map[string]*Func{}}
	for fn, f := range raw.Funcs {
		if f == nil || f.Invocations == nil {
			return nil, fmt.Errorf("%s: functions[%q]: \"invocations\" is missing", name, fn)
		}
		u.Funcs[fn] = &Func{Invocations: *f.Invocations, Decisions: f.Decisions}
	}
	return u, nil
}

// pos is a decision key read.
type pos struct {
	file      string
	line, col int
}

func parsePos(s string) (pos, bool) {
	parts := strings.Split(s, ":")
	num := func(s string) (int, bool) {
		n, err := strconv.Atoi(s)
		return n, err == nil && n > 0
	}
	if len(parts) >= 3 {
		l, ok1 := num(parts[len(parts)-2])
		c, ok2 := num(parts[len(parts)-1])
		if ok1 && ok2 {
			return pos{strings.Join(parts[:len(parts)-2], ":"), l, c}, true
		}
	}
	if len(parts) >= 2 {
		if l, ok := num(parts[len(parts)-1]); ok {
			p := pos{strings.Join(parts[:len(parts)-1], ":"), l, 0}
			return p, p.file != ""
		}
	}
	return pos{}, false
}

// sameFile reports whether a node's file name matches a name given by a user: the same, or a
// path suffix of it at a "/" boundary.
func sameFile(full, given string) bool {
	full, given = strings.ReplaceAll(full, "\\", "/"), strings.ReplaceAll(given, "\\", "/")
	return full == given || strings.HasSuffix(full, "/"+given)
}

// Profile converts the functions of the usage profile that fns contains into a measured profile.
// A function named in the usage profile but not among fns is an error (a typo, or a function
// not selected for analysis).
func (u *Usage) Profile(fns []*frontend.Func) (*profile.Profile, error) {
	p := &profile.Profile{Format: profile.Format, Runs: 1, Funcs: map[string]*profile.Func{}}
	byName := map[string]*frontend.Func{}
	for _, fn := range fns {
		byName[fn.Name] = fn
	}
	names := make([]string, 0, len(u.Funcs))
	for n := range u.Funcs {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fn, ok := byName[n]
		if !ok {
			return nil, fmt.Errorf("%s: function %s is not among the functions analysed", u.Name, n)
		}
		f, err := u.Func(n, fn.CFG)
		if err != nil {
			return nil, err
		}
		p.Funcs[n] = f
	}
	return p, nil
}

// Func converts the given counts of function name into the counts of its CFG g. Only decision
// outcomes are given; every node's count is derived by flow conservation from the invocations
// and the outcome counts (no panics: a given profile has none). It is an error when a key names
// no decision of g, an outcome name is not one of the decision's, a decision the flow reaches is
// not given, a given decision's outcomes do not add up to the flow that reaches it, or a loop
// without any decision is reached (its count would be infinite).
func (u *Usage) Func(name string, g *frontend.CFG) (*profile.Func, error) {
	uf, ok := u.Funcs[name]
	if !ok {
		return nil, fmt.Errorf("%s: no function %s", u.Name, name)
	}
	where := func(key string) string { return fmt.Sprintf("%s: functions[%q].decisions[%q]", u.Name, name, key) }
	n := len(g.Nodes)
	out := &profile.Func{Invocations: uf.Invocations, Nodes: make([]profile.Node, n)}
	if g.Decl != nil {
		out.Pos = g.Fset.Position(g.Decl.Pos()).String()
	}
	given := make([]bool, n)
	keys := make([]string, 0, len(uf.Decisions))
	for k := range uf.Decisions {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	// Decisions by line, so that each key looks only at its own line.
	byLine := map[int][]int{}
	for id, nd := range g.Nodes {
		if nd.IsDecision() {
			byLine[nd.Pos.Line] = append(byLine[nd.Pos.Line], id)
		}
	}
	for _, key := range keys {
		p, ok := parsePos(key)
		if !ok {
			return nil, fmt.Errorf("%s: %q is not file:line or file:line:col", where(key), key)
		}
		var hits []int
		for _, id := range byLine[p.line] {
			nd := g.Nodes[id]
			if !sameFile(nd.Pos.Filename, p.file) {
				continue
			}
			if p.col == 0 || nd.Pos.Column == p.col || nd.AST != nil && g.Fset.Position(nd.AST.Pos()).Column == p.col {
				hits = append(hits, id)
			}
		}
		switch {
		case len(hits) == 0:
			return nil, fmt.Errorf("%s: no decision of %s is at %s%s", where(key), name, key, decisionList(g))
		case len(hits) > 1:
			var at []string
			for _, id := range hits {
				at = append(at, fmt.Sprintf("%s:%d:%d (%s)", p.file, p.line, g.Nodes[id].Pos.Column, g.Nodes[id].Text))
			}
			return nil, fmt.Errorf("%s: %d decisions are on line %d; give the column: %s", where(key), len(hits), p.line, strings.Join(at, ", "))
		}
		id := hits[0]
		nd := g.Nodes[id]
		if given[id] {
			return nil, fmt.Errorf("%s: the decision at %s is given twice", where(key), nd.Pos)
		}
		given[id] = true
		counts := make([]uint64, len(nd.Succs))
		for oc, c := range uf.Decisions[key] {
			k := -1
			for i, e := range nd.Succs {
				if e.Outcome == oc {
					k = i
				}
			}
			if k < 0 {
				return nil, fmt.Errorf("%s: %s: decision %q has no outcome %q (it has %s)", where(key), nd.Pos, nd.Text, oc, outcomes(nd))
			}
			counts[k] = c
		}
		out.Nodes[id].Outcomes = counts
	}

	// Flow: the inflow of a node is known once every edge into it is; a decision's outflow is
	// given, a plain node's is its count.
	preds := g.Preds()
	known := make([]bool, n)
	for id, nd := range g.Nodes {
		// No execution goes there, whatever the counts.
		known[id] = nd.Unreachable
	}
	for {
		progress := false
		for v := 0; v < n; v++ {
			if known[v] {
				continue
			}
			in := uint64(0)
			if v == g.Entry {
				in = uf.Invocations
			}
			ok := true
			for _, e := range edgesInto(g, preds[v], v) {
				switch {
				case g.Nodes[e.from].IsDecision() && given[e.from]:
					in += out.Nodes[e.from].Outcomes[e.k]
				case known[e.from] && !g.Nodes[e.from].IsDecision():
					in += out.Nodes[e.from].Count
				case known[e.from] && out.Nodes[e.from].Count == 0:
					// An unreached decision sends nothing.
				default:
					ok = false
				}
			}
			if ok {
				known[v], progress = true, true
				out.Nodes[v].Count = in
			}
		}
		if !progress {
			break
		}
	}
	for id, nd := range g.Nodes {
		c := &out.Nodes[id]
		if !known[id] || !nd.IsDecision() {
			continue
		}
		if !given[id] {
			if c.Count > 0 {
				return nil, fmt.Errorf("%s: %s: function %s: decision %q is reached %d times but the usage profile gives no counts for it (key %s:%d:%d, outcomes %s)", u.Name, nd.Pos, name, nd.Text, c.Count, baseName(nd.Pos.Filename), nd.Pos.Line, nd.Pos.Column, outcomes(nd))
			}
			c.Outcomes = make([]uint64, len(nd.Succs))
			continue
		}
		sum := uint64(0)
		for _, o := range c.Outcomes {
			sum += o
		}
		if sum != c.Count {
			return nil, fmt.Errorf("%s: %s: function %s: decision %q is reached %d times by the given counts, but its outcomes add up to %d", u.Name, nd.Pos, name, nd.Text, c.Count, sum)
		}
	}
	for id, nd := range g.Nodes {
		if !known[id] && nd.IsDecision() && !given[id] {
			return nil, fmt.Errorf("%s: %s: function %s: decision %q is reached but the usage profile gives no counts for it (key %s:%d:%d, outcomes %s)", u.Name, nd.Pos, name, nd.Text, baseName(nd.Pos.Filename), nd.Pos.Line, nd.Pos.Column, outcomes(nd))
		}
	}
	for id, nd := range g.Nodes {
		if !known[id] {
			return nil, fmt.Errorf("%s: %s: function %s: the count of %q cannot be derived: it is in a loop that has no decision, or that only decisions without given counts leave", u.Name, nd.Pos, name, nd.Text)
		}
	}
	return out, nil
}

type inEdge struct{ from, k int }

// edgesInto lists the edges into v, one per edge (two outcomes of one decision may both lead to
// v).
func edgesInto(g *frontend.CFG, preds []int, v int) []inEdge {
	var es []inEdge
	seen := map[int]bool{}
	for _, u := range preds {
		if seen[u] {
			continue
		}
		seen[u] = true
		for k, e := range g.Nodes[u].Succs {
			if e.To == v {
				es = append(es, inEdge{u, k})
			}
		}
	}
	return es
}

func outcomes(nd *frontend.Node) string {
	var os []string
	for _, e := range nd.Succs {
		os = append(os, strconv.Quote(e.Outcome))
	}
	return strings.Join(os, ", ")
}

func baseName(p string) string {
	if i := strings.LastIndexAny(p, "/\\"); i >= 0 {
		return p[i+1:]
	}
	return p
}

func decisionList(g *frontend.CFG) string {
	var at []string
	for _, nd := range g.Nodes {
		if nd.IsDecision() {
			at = append(at, fmt.Sprintf("%s:%d:%d", baseName(nd.Pos.Filename), nd.Pos.Line, nd.Pos.Column))
		}
	}
	if len(at) == 0 {
		return " (it has no decisions)"
	}
	return " (its decisions are at " + strings.Join(at, ", ") + ")"
}
