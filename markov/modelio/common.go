package modelio

import (
	"fmt"
	"math"
	"math/big"
	"os"
	"slices"
	"sort"

	"github.com/augur-perf/augur/markov/dtmc"
)

// rawTrans is a transition as read, before the Builder sorts it.
type rawTrans struct {
	from, to int
	p        float64
	exact    *big.Rat
	action   string
}

// rawReward is a reward structure as read. Its entries keep only non-zero values: that is the
// canonical form the writers produce (see the package doc), so that read → write → read is the
// identity.
type rawReward struct {
	name  string
	state []stateValue
	trans []transValue
}

type stateValue struct {
	s int
	v float64
}

type transValue struct {
	from, to int
	v        float64
}

// rawModel is everything a text format said, ready for the Builder.
type rawModel struct {
	n     int
	trans []rawTrans
	// csr, when set, holds the transitions instead of trans: rows in order, as the fast path
	// reads them.
	csr     *csrRows
	init    []int // a set; the distribution is uniform over it
	labels  map[string][]int
	rewards []rawReward
}

// build hands a read model to dtmc and reports its verdict against file.
func (r *rawModel) build(file string) (*dtmc.Model, error) {
	if r.csr != nil {
		return r.buildRows(file)
	}
	b := dtmc.NewBuilder(r.n)
	for _, t := range r.trans {
		if t.exact != nil {
			b.AddExact(t.from, t.to, t.exact)
		} else {
			b.Add(t.from, t.to, t.p)
		}
		if t.action != "" {
			b.SetAction(t.action)
		}
	}
	for _, s := range r.init {
		b.AddInit(s, 1/float64(len(r.init)))
	}
	for name, st := range r.labels {
		b.DeclareLabel(name)
		for _, s := range st {
			b.Label(name, s)
		}
	}
	for _, rw := range r.rewards {
		b.DeclareReward(rw.name)
		for _, e := range rw.state {
			b.AddStateReward(rw.name, e.s, e.v)
		}
		for _, e := range rw.trans {
			b.AddTransReward(rw.name, e.from, e.to, e.v)
		}
	}
	m, err := b.Build()
	if err != nil {
		return nil, buildError(file, err)
	}
	return m, nil
}

// buildRows makes the model of a fast-path read, whose matrix is in rows already, as
// dtmc.Builder would from the same transitions but without its copies and maps: labels sorted and
// without repeats (nil when empty), a uniform initial distribution, reward vectors only for
// structures with a non-zero entry. dtmc's validation judges the result all the same.
func (r *rawModel) buildRows(file string) (*dtmc.Model, error) {
	m := &dtmc.Model{N: r.n, RowPtr: r.csr.rowPtr, Col: r.csr.col, Prob: r.csr.prob}
	init := slices.Clone(r.init)
	slices.Sort(init)
	init = slices.Compact(init)
	for _, s := range init {
		m.Init = append(m.Init, dtmc.StateProb{State: s, P: 1 / float64(len(init))})
	}
	m.Labels = make(map[string][]int, len(r.labels))
	for name, st := range r.labels {
		var out []int
		if len(st) > 0 {
			out = slices.Clone(st)
			slices.Sort(out)
			out = slices.Compact(out)
		}
		m.Labels[name] = out
	}
	for _, rw := range r.rewards {
		d := &dtmc.Reward{Name: rw.name}
		if len(rw.state) > 0 {
			d.State = make([]float64, r.n)
			for _, e := range rw.state {
				d.State[e.s] += e.v
			}
		}
		if len(rw.trans) > 0 {
			d.Trans = make([]float64, len(m.Col))
			for _, e := range rw.trans {
				k, ok := m.Find(e.from, e.to)
				if !ok {
					return nil, buildError(file, fmt.Errorf("reward %q: transition %d -> %d is not in the model", rw.name, e.from, e.to))
				}
				d.Trans[k] += e.v
			}
		}
		m.Rewards = append(m.Rewards, d)
	}
	if err := m.Validate(); err != nil {
		return nil, buildError(file, err)
	}
	return m, nil
}

// uniformInit returns the initial states of m when its initial distribution is uniform over
// them, which is all that PRISM's and Storm's explicit formats can say.
func uniformInit(m *dtmc.Model, format string) ([]int, error) {
	k := float64(len(m.Init))
	st := make([]int, len(m.Init))
	for i, e := range m.Init {
		if math.Abs(e.P-1/k) > dtmc.RowTolerance {
			return nil, fmt.Errorf("%s has initial states but no initial distribution, and this model's is not uniform (state %d has %v): write the JSON form instead", format, e.State, e.P)
		}
		st[i] = e.State
	}
	return st, nil
}

// writerLabels returns the labels to write besides the built-in "init" and "deadlock", sorted,
// and the states of "deadlock". A model may carry "init" as an ordinary label only if it agrees
// with the initial distribution, since the formats derive one from the other.
func writerLabels(m *dtmc.Model, init []int, format string) ([]string, []int, error) {
	var names []string
	for _, name := range m.LabelNames() {
		switch name {
		case "init":
			if !equalInts(m.Labels[name], init) {
				return nil, nil, fmt.Errorf("%s reads the \"init\" label as the initial states, but this model's \"init\" label %v differs from its initial states %v", format, m.Labels[name], init)
			}
		case "deadlock":
		default:
			names = append(names, name)
		}
	}
	return names, m.Labels["deadlock"], nil
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func isIdentifier(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (i > 0 && c >= '0' && c <= '9') {
			continue
		}
		return false
	}
	return true
}

func fileExists(path string) bool {
	st, err := os.Stat(path)
	return err == nil && !st.IsDir()
}

// openSources opens the named files; the caller closes them with the returned function.
func openSources(paths ...string) ([]Source, func(), error) {
	var files []*os.File
	closeAll := func() {
		for _, f := range files {
			f.Close()
		}
	}
	srcs := make([]Source, len(paths))
	for i, p := range paths {
		if p == "" {
			continue
		}
		f, err := os.Open(p)
		if err != nil {
			closeAll()
			return nil, nil, err
		}
		files = append(files, f)
		srcs[i] = Source{Name: p, R: f}
	}
	return srcs, closeAll, nil
}

// sortedKeys is for deterministic output of maps.
func sortedKeys(m map[string][]int) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// splitInit separates the "init" label, the initial states, from the others, as both explicit
// formats declare it; an empty "deadlock" label is dropped (every PRISM export declares it, and
// it is only information when it holds somewhere).
func splitInit(names []string, sets [][]int, file string, declLine int) ([]int, map[string][]int, error) {
	var init []int
	haveInit := false
	labels := map[string][]int{}
	for i, name := range names {
		switch {
		case name == "init":
			init, haveInit = sets[i], true
		case name == "deadlock" && len(sets[i]) == 0:
		default:
			labels[name] = sets[i]
		}
	}
	if !haveInit {
		return nil, nil, &Error{File: file, Line: declLine, Msg: "no \"init\" label, so no initial states"}
	}
	return dedupe(init), labels, nil
}
