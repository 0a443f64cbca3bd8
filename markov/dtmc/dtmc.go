// Package dtmc owns augur's explicit discrete-time Markov chain: states 0..N-1, an initial
// distribution, a sparse transition matrix in compressed sparse rows, state labels (atomic
// propositions) and named reward structures, together with the builder other packages use to make
// one and the validation that every model passes before it is checked or exported.
//
// It knows nothing of properties, numerics, file formats or Go source: the checker, the readers
// and writers, and the synthesis from code all sit on top of it and must not reach into it beyond
// its exported fields.
package dtmc

import (
	"fmt"
	"math"
	"math/big"
	"sort"
)

// RowTolerance is how far a row's probabilities may sum from 1.
const RowTolerance = 1e-12

// Model is an explicit sparse DTMC. Row s of the transition matrix is
// Col[RowPtr[s]:RowPtr[s+1]] (targets, strictly increasing) with probabilities at the same
// positions of Prob. Models are made by a Builder and are read-only afterwards.
type Model struct {
	N      int
	RowPtr []int
	Col    []int
	Prob   []float64
	// Exact holds the exact probability of each transition where the maker knew it (for example
	// a count ratio from a usage profile); nil entries, or a nil slice, mean "the float64 value as
	// written in decimal". The exact checker uses it.
	Exact []*big.Rat
	// Action names the action of each transition for formats that carry one; nil when none do.
	Action []string
	// Init is the initial distribution as (state, probability) pairs with increasing states.
	Init []StateProb
	// Labels maps an atomic proposition to the increasing list of states where it holds.
	Labels map[string][]int
	// Rewards are the reward structures in the order they were declared.
	Rewards []*Reward
	// Line gives the source line of each state (0 when none); nil when the model has no source.
	Line []int
	// Param names the probability of each transition as a constant for parametric export ("" when
	// the transition has no name); nil when none are named.
	Param []string
	// Vars are the named state variables, when the model was read with them; nil otherwise.
	Vars *Vars
}

// StateProb is one entry of an initial distribution.
type StateProb struct {
	State int
	P     float64
}

// Reward is a named reward structure. State has one entry per state (nil when the structure has
// no state rewards); Trans has one entry per transition, aligned with Model.Prob (nil when it has
// no transition rewards).
type Reward struct {
	Name  string
	State []float64
	Trans []float64
}

// Row returns the targets and probabilities of state s.
func (m *Model) Row(s int) ([]int, []float64) {
	a, b := m.RowPtr[s], m.RowPtr[s+1]
	return m.Col[a:b], m.Prob[a:b]
}

// Find returns the index of transition from → to, if the model has it.
func (m *Model) Find(from, to int) (int, bool) {
	if from < 0 || from >= m.N {
		return 0, false
	}
	a, b := m.RowPtr[from], m.RowPtr[from+1]
	k := a + sort.SearchInts(m.Col[a:b], to)
	return k, k < b && m.Col[k] == to
}

// NumTransitions is the number of non-zero entries of the transition matrix.
func (m *Model) NumTransitions() int { return len(m.Col) }

// Reward returns the reward structure with the given name; the empty name means the first one.
func (m *Model) Reward(name string) (*Reward, error) {
	if len(m.Rewards) == 0 {
		return nil, fmt.Errorf("the model has no reward structures")
	}
	if name == "" {
		return m.Rewards[0], nil
	}
	for _, r := range m.Rewards {
		if r.Name == name {
			return r, nil
		}
	}
	names := make([]string, len(m.Rewards))
	for i, r := range m.Rewards {
		names[i] = fmt.Sprintf("%q", r.Name)
	}
	return nil, fmt.Errorf("unknown reward structure %q (the model has %v)", name, names)
}

// Label returns the states of an atomic proposition. "init" is built in (the support of the initial
// distribution) and so is "deadlock" (no model made by a Builder has one, so it is empty), as in
// PRISM.
func (m *Model) Label(name string) ([]int, error) {
	if st, ok := m.Labels[name]; ok {
		return st, nil
	}
	switch name {
	case "init":
		st := make([]int, len(m.Init))
		for i, e := range m.Init {
			st[i] = e.State
		}
		return st, nil
	case "deadlock":
		return nil, nil
	}
	return nil, fmt.Errorf("unknown label %q (the model has %v)", name, m.LabelNames())
}

// LabelNames lists the model's labels in sorted order.
func (m *Model) LabelNames() []string {
	names := make([]string, 0, len(m.Labels))
	for n := range m.Labels {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// ExactProb returns transition k's probability as an exact rational: the recorded one, or the
// float64 read as the shortest decimal that prints it (so 0.1 is 1/10, not 0x1.999999999999ap-4).
func (m *Model) ExactProb(k int) *big.Rat {
	if m.Exact != nil && m.Exact[k] != nil {
		return m.Exact[k]
	}
	return Decimal(m.Prob[k])
}

// Decimal turns a finite float64 into the rational of its shortest decimal representation.
func Decimal(v float64) *big.Rat {
	r, ok := new(big.Rat).SetString(fmt.Sprint(v))
	if !ok {
		panic(fmt.Sprintf("dtmc.Decimal: %v is not finite", v))
	}
	return r
}

// Builder makes a Model. Transitions may be added in any order; Build sorts them, merges none
// (a repeated transition is an error) and validates the result.
type Builder struct {
	n                             int
	trans                         []trans
	init                          []StateProb
	labels                        map[string][]int
	rewards                       []*builderReward
	line                          []int
	extras                        []extra
	hasExact, hasAction, hasParam bool
}

type trans struct {
	from, to int
	p        float64
	// extra indexes Builder.extras for the rare transitions that carry more than a probability.
	extra int32
}

type extra struct {
	exact  *big.Rat
	action string
	param  string
}

type builderReward struct {
	name  string
	state map[int]float64
	trans map[[2]int]float64
}

// NewBuilder starts a model with n states.
func NewBuilder(n int) *Builder {
	return &Builder{n: n, labels: map[string][]int{}}
}

// Add adds the transition from → to with probability p.
func (b *Builder) Add(from, to int, p float64) {
	b.trans = append(b.trans, trans{from: from, to: to, p: p, extra: -1})
}

// last returns the extra data of the most recently added transition, making it if needed.
func (b *Builder) last() *extra {
	t := &b.trans[len(b.trans)-1]
	if t.extra < 0 {
		t.extra = int32(len(b.extras))
		b.extras = append(b.extras, extra{})
	}
	return &b.extras[t.extra]
}

// AddExact adds a transition whose probability is known exactly.
func (b *Builder) AddExact(from, to int, p *big.Rat) {
	f, _ := p.Float64()
	b.hasExact = true
	b.Add(from, to, f)
	b.last().exact = new(big.Rat).Set(p)
}

// SetAction names the action of the most recently added transition.
func (b *Builder) SetAction(a string) {
	b.hasAction = true
	b.last().action = a
}

// SetParam names the probability of the most recently added transition as a constant.
func (b *Builder) SetParam(name string) {
	b.hasParam = true
	b.last().param = name
}

// SetInit sets the initial distribution to the single state s.
func (b *Builder) SetInit(s int) { b.init = []StateProb{{s, 1}} }

// AddInit adds weight p for state s to the initial distribution.
func (b *Builder) AddInit(s int, p float64) { b.init = append(b.init, StateProb{s, p}) }

// Label makes the atomic proposition name hold in state s.
func (b *Builder) Label(name string, s int) { b.labels[name] = append(b.labels[name], s) }

// DeclareLabel makes sure the label exists even if it holds nowhere.
func (b *Builder) DeclareLabel(name string) {
	if _, ok := b.labels[name]; !ok {
		b.labels[name] = []int{}
	}
}

// SetLine records the source line of state s.
func (b *Builder) SetLine(s, line int) {
	if b.line == nil {
		b.line = make([]int, b.n)
	}
	if s >= 0 && s < b.n {
		b.line[s] = line
	}
}

func (b *Builder) reward(name string) *builderReward {
	for _, r := range b.rewards {
		if r.name == name {
			return r
		}
	}
	r := &builderReward{name: name, state: map[int]float64{}, trans: map[[2]int]float64{}}
	b.rewards = append(b.rewards, r)
	return r
}

// DeclareReward makes sure the reward structure exists even if it is zero everywhere.
func (b *Builder) DeclareReward(name string) { b.reward(name) }

// AddStateReward adds v to the state reward of s in structure name.
func (b *Builder) AddStateReward(name string, s int, v float64) { b.reward(name).state[s] += v }

// AddTransReward adds v to the reward of transition from → to in structure name.
func (b *Builder) AddTransReward(name string, from, to int, v float64) {
	b.reward(name).trans[[2]int{from, to}] += v
}

// Build sorts, checks and freezes the model.
func (b *Builder) Build() (*Model, error) {
	n := b.n
	if n <= 0 {
		return nil, fmt.Errorf("a model needs at least one state, got %d", n)
	}
	for _, t := range b.trans {
		if t.from < 0 || t.from >= n || t.to < 0 || t.to >= n {
			return nil, fmt.Errorf("transition %d -> %d: state out of range 0..%d", t.from, t.to, n-1)
		}
	}
	ts := append([]trans(nil), b.trans...)
	sort.SliceStable(ts, func(i, j int) bool {
		if ts[i].from != ts[j].from {
			return ts[i].from < ts[j].from
		}
		return ts[i].to < ts[j].to
	})
	m := &Model{N: n, RowPtr: make([]int, n+1), Col: make([]int, len(ts)), Prob: make([]float64, len(ts))}
	if b.hasExact {
		m.Exact = make([]*big.Rat, len(ts))
	}
	if b.hasAction {
		m.Action = make([]string, len(ts))
	}
	if b.hasParam {
		m.Param = make([]string, len(ts))
	}
	for k, t := range ts {
		if k > 0 && ts[k-1].from == t.from && ts[k-1].to == t.to {
			return nil, fmt.Errorf("transition %d -> %d is given twice", t.from, t.to)
		}
		m.RowPtr[t.from+1]++
		m.Col[k], m.Prob[k] = t.to, t.p
		if t.extra >= 0 {
			e := b.extras[t.extra]
			if m.Exact != nil {
				m.Exact[k] = e.exact
			}
			if m.Action != nil {
				m.Action[k] = e.action
			}
			if m.Param != nil {
				m.Param[k] = e.param
			}
		}
	}
	for s := 0; s < n; s++ {
		m.RowPtr[s+1] += m.RowPtr[s]
	}
	m.Init = mergeInit(b.init)
	m.Labels = make(map[string][]int, len(b.labels))
	for name, st := range b.labels {
		st = append([]int(nil), st...)
		sort.Ints(st)
		out := st[:0]
		for i, s := range st {
			if i == 0 || s != st[i-1] {
				out = append(out, s)
			}
		}
		m.Labels[name] = out
	}
	for _, br := range b.rewards {
		r := &Reward{Name: br.name}
		if len(br.state) > 0 {
			r.State = make([]float64, n)
			for s, v := range br.state {
				if s < 0 || s >= n {
					return nil, fmt.Errorf("reward %q: state %d out of range 0..%d", br.name, s, n-1)
				}
				r.State[s] = v
			}
		}
		if len(br.trans) > 0 {
			r.Trans = make([]float64, len(ts))
			for ft, v := range br.trans {
				k, ok := m.Find(ft[0], ft[1])
				if !ok {
					return nil, fmt.Errorf("reward %q: transition %d -> %d is not in the model", br.name, ft[0], ft[1])
				}
				r.Trans[k] = v
			}
		}
		m.Rewards = append(m.Rewards, r)
	}
	m.Line = b.line
	if err := m.Validate(); err != nil {
		return nil, err
	}
	return m, nil
}

func mergeInit(in []StateProb) []StateProb {
	acc := map[int]float64{}
	for _, e := range in {
		acc[e.State] += e.P
	}
	out := make([]StateProb, 0, len(acc))
	for s, p := range acc {
		out = append(out, StateProb{s, p})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].State < out[j].State })
	return out
}

// Validate checks the invariants every consumer relies on: rows are non-empty, sorted and sum to
// 1 within RowTolerance; probabilities and rewards are finite and non-negative; the initial
// distribution is a distribution over existing states; labels name existing states; reward names
// are unique and non-empty.
func (m *Model) Validate() error {
	if m.N <= 0 || len(m.RowPtr) != m.N+1 || len(m.Col) != len(m.Prob) || m.RowPtr[m.N] != len(m.Col) {
		return fmt.Errorf("malformed transition matrix")
	}
	for s := 0; s < m.N; s++ {
		cols, probs := m.Row(s)
		if len(cols) == 0 {
			return fmt.Errorf("state %d has no outgoing transitions (a dangling state: give it a self-loop if it is absorbing)", s)
		}
		sum := 0.0
		for i, p := range probs {
			if i > 0 && cols[i] <= cols[i-1] {
				return fmt.Errorf("state %d: targets are not strictly increasing", s)
			}
			if cols[i] < 0 || cols[i] >= m.N {
				return fmt.Errorf("transition %d -> %d: state out of range 0..%d", s, cols[i], m.N-1)
			}
			if math.IsNaN(p) || math.IsInf(p, 0) || p < 0 || p > 1 {
				return fmt.Errorf("transition %d -> %d has probability %v, not in [0,1]", s, cols[i], p)
			}
			sum += p
		}
		if math.Abs(sum-1) > RowTolerance {
			return fmt.Errorf("the probabilities of state %d sum to %.17g, not 1 (tolerance %g)", s, sum, RowTolerance)
		}
	}
	if len(m.Init) == 0 {
		return fmt.Errorf("the model has no initial state")
	}
	sum := 0.0
	for _, e := range m.Init {
		if e.State < 0 || e.State >= m.N {
			return fmt.Errorf("initial state %d out of range 0..%d", e.State, m.N-1)
		}
		if math.IsNaN(e.P) || e.P <= 0 {
			return fmt.Errorf("initial state %d has probability %v", e.State, e.P)
		}
		sum += e.P
	}
	if math.Abs(sum-1) > RowTolerance {
		return fmt.Errorf("the initial distribution sums to %.17g, not 1", sum)
	}
	for name, st := range m.Labels {
		if name == "" {
			return fmt.Errorf("a label has an empty name")
		}
		for _, s := range st {
			if s < 0 || s >= m.N {
				return fmt.Errorf("label %q: state %d out of range 0..%d", name, s, m.N-1)
			}
		}
	}
	seen := map[string]bool{}
	for _, r := range m.Rewards {
		if r.Name == "" {
			return fmt.Errorf("a reward structure has an empty name")
		}
		if seen[r.Name] {
			return fmt.Errorf("reward structure %q is declared twice", r.Name)
		}
		seen[r.Name] = true
		if r.State != nil && len(r.State) != m.N {
			return fmt.Errorf("reward %q: %d state rewards for %d states", r.Name, len(r.State), m.N)
		}
		if r.Trans != nil && len(r.Trans) != len(m.Col) {
			return fmt.Errorf("reward %q: %d transition rewards for %d transitions", r.Name, len(r.Trans), len(m.Col))
		}
		for s, v := range r.State {
			if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
				return fmt.Errorf("reward %q: state %d has reward %v (rewards must be finite and non-negative)", r.Name, s, v)
			}
		}
		for k, v := range r.Trans {
			if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
				return fmt.Errorf("reward %q: transition %d has reward %v (rewards must be finite and non-negative)", r.Name, k, v)
			}
		}
	}
	if m.Line != nil && len(m.Line) != m.N {
		return fmt.Errorf("%d source lines for %d states", len(m.Line), m.N)
	}
	return nil
}
