// Package synth owns model synthesis, PROPER's central step: it turns one function's
// statement-level CFG (package frontend), its usage profile (package profile: measured, or
// converted from a given usage profile by package usage) and its reward annotations (package
// annot) into a DTMC (package dtmc) with one state per CFG node.
//
// It must not touch what other stages own: it does not build or change CFGs, parse annotations,
// read or write files, run code or check properties. Everything it knows about Go comes from the
// CFG contract documented in package frontend.
//
// # States and labels
//
// State s is CFG node s (without Options.Compact), so state numbers are stable across runs and
// match CFG dumps and profiles. Labels: "lineN" holds in every state whose node starts on source
// line N (the exits, which sit on the closing brace, carry no line label), "return" in Return
// nodes, "end" in the End exit, "panic" in the Panic exit, "exit" in both exits (so
// R=? [F "exit"] is finite even when some runs panic) and "init" in the entry. The exits are
// absorbing: each has a self-loop.
//
// # Probabilities
//
// Every probability is an exact rational (dtmc.Builder.AddExact), the maximum-likelihood
// estimate from counts: outcome k of a decision goes with Outcomes[k]/(ΣOutcomes+Panics); a plain
// node goes to its successor with (Count−Panics)/Count and, with Panics/Count, to where a panic
// at that node goes (PanicTargets), except the Recovered ones: a deferred call recovered them and
// the function returned normally, so they go to the End exit (transition parameter
// "pL_recovered"; the deferred calls they ran are not states of the model, as their counts are
// not in the profile). For PROPER's nested conditionals and while loops this is
// formula (2) of the paper. Outcomes that lead to the same node add up; zero-probability
// transitions are left out. Decision outcomes and panic transitions are named as parameters
// (Model.Param) "pL_outcome" (L the source line; "pLnID_outcome" when several named nodes share
// line L; "case 1" becomes "case1"; outcomes merged into one transition are joined with "_").
//
// Because the estimates are count ratios, the expected visits of each state before absorption
// are the measured mean visits Count/Invocations whenever the counts conserve flow, so the
// expected reward R=? [F "exit"] equals MeasuredMean: the identity the tests check on every
// corpus function.
//
// # Nodes the profile never saw
//
// A node with Count 0 cannot be reached from the initial state under maximum likelihood, so what
// its row says does not change any result; it still needs a row (for parametric export and
// what-if edits). A plain node goes to its successor. A decision is handled by Options.Unseen:
// UnseenUniform (the default) gives each outcome the same probability, UnseenFirst gives the
// first outcome probability 1, UnseenError refuses the model. Every unseen decision the CFG can
// reach is reported as a Warning (returned, never printed).
//
// # Compact
//
// Options.Compact merges straight-line chains into one state: node u and its successor v share
// a state when u is a plain node with no recorded panics and v is not the entry, not an exit and
// has u as its only predecessor. Then v runs exactly as often as u, so the merged state's reward
// is the sum of its nodes' rewards and every expected reward is unchanged. The merged state keeps
// the labels of all its nodes, the line of its first node and the transitions of its last.
package synth

import (
	"fmt"
	"go/token"
	"math"
	"math/big"
	"sort"
	"strings"

	"github.com/augur-perf/augur/markov/dtmc"
	"github.com/augur-perf/augur/probe/profile"
	"github.com/augur-perf/augur/source/annot"
	"github.com/augur-perf/augur/source/frontend"
)

// Unseen says what a decision the profile never reached gets.
type Unseen int

// The policies for unseen decisions; their names (for --unseen) are "uniform", "first", "error".
const (
	UnseenUniform Unseen = iota
	UnseenFirst
	UnseenError
)

var unseenNames = [...]string{UnseenUniform: "uniform", UnseenFirst: "first", UnseenError: "error"}

func (u Unseen) String() string {
	if u >= 0 && int(u) < len(unseenNames) {
		return unseenNames[u]
	}
	return fmt.Sprintf("Unseen(%d)", int(u))
}

// ParseUnseen reads a policy name as the command line gives it.
func ParseUnseen(s string) (Unseen, error) {
	for i, n := range unseenNames {
		if s == n {
			return Unseen(i), nil
		}
	}
	return 0, fmt.Errorf("unknown unseen policy %q (want uniform, first or error)", s)
}

// Options tune synthesis. The zero value gives a model without rewards, one state per node and
// uniform probabilities for unseen decisions.
type Options struct {
	// Rewards become state reward structures, declared in sorted name order. Each slice has one
	// value per CFG node.
	Rewards annot.Rewards
	Unseen  Unseen
	Compact bool
}

// Warning is something synthesis could work around but the user should hear about.
type Warning struct {
	Pos token.Position
	Msg string
}

func (w Warning) String() string {
	if w.Pos.IsValid() {
		return w.Pos.String() + ": " + w.Msg
	}
	return w.Msg
}

// Result is a synthesised model with its mapping back to the CFG.
type Result struct {
	Model *dtmc.Model
	// StateOf gives the state of each CFG node (the identity without Compact).
	StateOf []int
	// Nodes lists, for each state, its CFG nodes in ascending order.
	Nodes    [][]int
	Warnings []Warning
}

// Error is a problem with the inputs, at the position of the node it concerns (the front end's
// positioned error, so every stage reports positions alike).
type Error = frontend.Error

// row is one node's outgoing distribution: targets in first-seen order.
type row struct {
	to     []int
	p      []*big.Rat
	params [][]string
}

func (r *row) add(to int, p *big.Rat, param string) {
	for i, t := range r.to {
		if t == to {
			r.p[i].Add(r.p[i], p)
			if param != "" {
				r.params[i] = append(r.params[i], param)
			}
			return
		}
	}
	r.to = append(r.to, to)
	r.p = append(r.p, new(big.Rat).Set(p))
	var ps []string
	if param != "" {
		ps = []string{param}
	}
	r.params = append(r.params, ps)
}

func ratio(a, b uint64) *big.Rat {
	return new(big.Rat).SetFrac(new(big.Int).SetUint64(a), new(big.Int).SetUint64(b))
}

// Synthesize builds the DTMC of function g from its profile f.
func Synthesize(g *frontend.CFG, f *profile.Func, opt Options) (*Result, error) {
	if f == nil {
		return nil, fmt.Errorf("synth: no profile")
	}
	n := len(g.Nodes)
	pos := func(id int) token.Position { return g.Nodes[id].Pos }
	if len(f.Nodes) != n {
		return nil, &Error{Pos: pos(g.Entry), Msg: fmt.Sprintf("the profile has %d nodes, the CFG %d (was it measured on other source?)", len(f.Nodes), n)}
	}
	for name, vs := range opt.Rewards {
		if len(vs) != n {
			return nil, fmt.Errorf("synth: reward %q has %d values for %d CFG nodes", name, len(vs), n)
		}
		for id, v := range vs {
			if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
				return nil, &Error{Pos: pos(id), Msg: fmt.Sprintf("reward %q is %v (rewards must be finite and non-negative)", name, v)}
			}
		}
	}
	var warns []Warning
	if f.Invocations == 0 {
		warns = append(warns, Warning{pos(g.Entry), "the function was never invoked: every probability comes from the unseen policy"})
	}

	pt := frontend.PanicTargets(g)
	rows := make([]row, n)
	unseen := make([]bool, n)
	for id, nd := range g.Nodes {
		c := f.Nodes[id]
		r := &rows[id]
		if nd.IsExit() {
			r.add(id, big.NewRat(1, 1), "")
			continue
		}
		if len(nd.Succs) == 0 {
			return nil, &Error{Pos: pos(id), Msg: fmt.Sprintf("CFG node %d has no successors", id)}
		}
		if !nd.IsDecision() {
			if len(c.Outcomes) > 1 {
				return nil, &Error{Pos: pos(id), Msg: fmt.Sprintf("node %d is not a decision but the profile has %d outcomes for it", id, len(c.Outcomes))}
			}
			if c.Panics > c.Count {
				return nil, &Error{Pos: pos(id), Msg: fmt.Sprintf("node %d panicked %d times but ran only %d times", id, c.Panics, c.Count)}
			}
			if c.Count == 0 {
				unseen[id] = true
				r.add(nd.Succs[0].To, big.NewRat(1, 1), "")
				continue
			}
			if ok := c.Count - c.Panics; ok > 0 {
				r.add(nd.Succs[0].To, ratio(ok, c.Count), "")
			}
			if c.Recovered > c.Panics {
				return nil, &Error{Pos: pos(id), Msg: fmt.Sprintf("node %d recovered %d panics but panicked only %d times", id, c.Recovered, c.Panics)}
			}
			if c.Panics > c.Recovered {
				r.add(pt[id], ratio(c.Panics-c.Recovered, c.Count), "panic")
			}
			if c.Recovered > 0 {
				r.add(g.End, ratio(c.Recovered, c.Count), "recovered")
			}
			continue
		}
		if len(c.Outcomes) != len(nd.Succs) {
			return nil, &Error{Pos: pos(id), Msg: fmt.Sprintf("decision %d has %d outcomes in the CFG but %d in the profile", id, len(nd.Succs), len(c.Outcomes))}
		}
		den := c.Panics
		for _, o := range c.Outcomes {
			den += o
		}
		if den == 0 {
			unseen[id] = true
			if c.Count > 0 {
				warns = append(warns, Warning{pos(id), fmt.Sprintf("decision %d ran %d times but no outcome or panic was recorded; treated as unseen", id, c.Count)})
			}
			if !nd.Unreachable {
				if opt.Unseen == UnseenError {
					return nil, &Error{Pos: pos(id), Msg: fmt.Sprintf("decision %q was never reached in the profile (policy %s)", nd.Text, opt.Unseen)}
				}
				warns = append(warns, Warning{pos(id), fmt.Sprintf("decision %q was never reached in the profile; its outcomes are %s", nd.Text, policyWords(opt.Unseen))})
			}
			switch opt.Unseen {
			case UnseenFirst:
				for k, e := range nd.Succs {
					p := new(big.Rat)
					if k == 0 {
						p.SetInt64(1)
					}
					r.add(e.To, p, e.Outcome)
				}
			default:
				for _, e := range nd.Succs {
					r.add(e.To, big.NewRat(1, int64(len(nd.Succs))), e.Outcome)
				}
			}
			continue
		}
		if den != c.Count {
			warns = append(warns, Warning{pos(id), fmt.Sprintf("decision %d ran %d times but its outcomes and panics add up to %d; the probabilities use %d", id, c.Count, den, den)})
		}
		for k, e := range nd.Succs {
			r.add(e.To, ratio(c.Outcomes[k], den), e.Outcome)
		}
		if c.Recovered > c.Panics {
			return nil, &Error{Pos: pos(id), Msg: fmt.Sprintf("decision %d recovered %d panics but panicked only %d times", id, c.Recovered, c.Panics)}
		}
		if c.Panics > c.Recovered {
			r.add(pt[id], ratio(c.Panics-c.Recovered, den), "panic")
		}
		if c.Recovered > 0 {
			r.add(g.End, ratio(c.Recovered, den), "recovered")
		}
	}

	// Group nodes into states.
	stateOf := make([]int, n)
	var groups [][]int
	if opt.Compact {
		groups = chains(g, f, rows)
	} else {
		groups = make([][]int, n)
		for id := range groups {
			groups[id] = []int{id}
		}
	}
	for s, grp := range groups {
		for _, id := range grp {
			stateOf[id] = s
		}
	}

	params := paramBases(g, f, rows)
	b := dtmc.NewBuilder(len(groups))
	b.SetInit(stateOf[g.Entry])
	b.Label("init", stateOf[g.Entry])
	for _, l := range []string{"end", "panic", "exit", "return"} {
		b.DeclareLabel(l)
	}
	names := opt.Rewards.Names()
	for _, name := range names {
		b.DeclareReward(name)
	}
	for s, grp := range groups {
		last := grp[len(grp)-1]
		r := rows[last]
		for i, to := range r.to {
			if r.p[i].Sign() == 0 {
				continue
			}
			b.AddExact(s, stateOf[to], r.p[i])
			if len(r.params) > 0 && len(r.params[i]) > 0 && !g.Nodes[last].IsExit() {
				b.SetParam(params[last] + "_" + strings.Join(r.params[i], "_"))
			}
		}
		b.SetLine(s, lineOf(g.Nodes[grp[0]]))
		for _, id := range grp {
			nd := g.Nodes[id]
			switch {
			case id == g.End:
				b.Label("end", s)
				b.Label("exit", s)
			case id == g.Panic:
				b.Label("panic", s)
				b.Label("exit", s)
			default:
				if l := lineOf(nd); l > 0 {
					b.Label(fmt.Sprintf("line%d", l), s)
				}
			}
			if nd.Kind == frontend.KindReturn {
				b.Label("return", s)
			}
		}
		for _, name := range names {
			if v := groupReward(opt.Rewards[name], grp); v != 0 {
				b.AddStateReward(name, s, v)
			}
		}
	}
	m, err := b.Build()
	if err != nil {
		return nil, fmt.Errorf("synth: %v", err)
	}
	return &Result{Model: m, StateOf: stateOf, Nodes: groups, Warnings: warns}, nil
}

// groupReward adds the rewards of a state's nodes in exact decimal arithmetic, so that 0.1+0.2
// is 0.3 as the exact checker and MeasuredMeanExact read the annotations.
func groupReward(vs []float64, grp []int) float64 {
	if len(grp) == 1 {
		return vs[grp[0]]
	}
	sum := new(big.Rat)
	for _, id := range grp {
		if vs[id] != 0 {
			sum.Add(sum, dtmc.Decimal(vs[id]))
		}
	}
	v, _ := sum.Float64()
	return v
}

func policyWords(u Unseen) string {
	if u == UnseenFirst {
		return "the first outcome with probability 1"
	}
	return "equally likely"
}

func lineOf(nd *frontend.Node) int {
	if nd.Pos.IsValid() {
		return nd.Pos.Line
	}
	return 0
}

// paramBases names, per node, the prefix of its transitions' parameters: "pL", or "pLnID" when
// several nodes with named transitions start on line L.
func paramBases(g *frontend.CFG, f *profile.Func, rows []row) []string {
	named := func(id int) bool {
		for _, ps := range rows[id].params {
			if len(ps) > 0 {
				return true
			}
		}
		return false
	}
	perLine := map[int]int{}
	for id, nd := range g.Nodes {
		if named(id) {
			perLine[lineOf(nd)]++
		}
	}
	out := make([]string, len(g.Nodes))
	for id, nd := range g.Nodes {
		l := lineOf(nd)
		out[id] = fmt.Sprintf("p%d", l)
		if perLine[l] > 1 {
			out[id] = fmt.Sprintf("p%dn%d", l, id)
		}
	}
	for id := range out {
		for i, ps := range rows[id].params {
			for j, p := range ps {
				rows[id].params[i][j] = strings.NewReplacer(" ", "").Replace(p)
			}
		}
	}
	return out
}

// chains groups the nodes into the states of a compact model (see the package documentation),
// groups ordered by their first node.
func chains(g *frontend.CFG, f *profile.Func, rows []row) [][]int {
	n := len(g.Nodes)
	// The model's predecessors, not the CFG's: panic transitions enter chains of deferred calls
	// in the middle.
	preds := make([]int, n)
	for u := range rows {
		for _, v := range rows[u].to {
			preds[v]++
		}
	}
	// next[u] = v when v joins u's state.
	next := make([]int, n)
	joined := make([]bool, n)
	for u := range next {
		next[u] = -1
	}
	for u, nd := range g.Nodes {
		if nd.IsExit() || nd.IsDecision() || len(nd.Succs) != 1 || f.Nodes[u].Panics > 0 {
			continue
		}
		v := nd.Succs[0].To
		vn := g.Nodes[v]
		if v == u || v == g.Entry || vn.IsExit() || preds[v] != 1 {
			continue
		}
		next[u], joined[v] = v, true
	}
	done := make([]bool, n)
	var groups [][]int
	walk := func(h int) {
		var grp []int
		for u := h; u >= 0 && !done[u]; u = next[u] {
			done[u] = true
			grp = append(grp, u)
		}
		groups = append(groups, grp)
	}
	for h := 0; h < n; h++ {
		if !joined[h] {
			walk(h)
		}
	}
	// What is left is a cycle of nodes each joined to the previous: no node outside reaches it,
	// so it is cut anywhere.
	for h := 0; h < n; h++ {
		if !done[h] {
			walk(h)
		}
	}
	sort.SliceStable(groups, func(i, j int) bool { return minOf(groups[i]) < minOf(groups[j]) })
	return groups
}

func minOf(xs []int) int {
	m := xs[0]
	for _, x := range xs {
		m = min(m, x)
	}
	return m
}

// MeasuredMean is the measured mean of a reward per invocation, Σ reward(node)·Count(node) /
// Invocations: the right-hand side of synthesis's identity. It is NaN for a function that was
// never invoked.
func MeasuredMean(f *profile.Func, reward []float64) float64 {
	if f.Invocations == 0 {
		return math.NaN()
	}
	sum := 0.0
	for id, v := range reward {
		if id < len(f.Nodes) {
			sum += v * float64(f.Nodes[id].Count)
		}
	}
	return sum / float64(f.Invocations)
}

// MeasuredMeanExact is MeasuredMean in exact arithmetic, each reward read as its shortest
// decimal (as the exact checker reads it). It is nil for a function that was never invoked.
func MeasuredMeanExact(f *profile.Func, reward []float64) *big.Rat {
	if f.Invocations == 0 {
		return nil
	}
	sum := new(big.Rat)
	for id, v := range reward {
		if id < len(f.Nodes) && v != 0 {
			sum.Add(sum, new(big.Rat).Mul(dtmc.Decimal(v), new(big.Rat).SetInt(new(big.Int).SetUint64(f.Nodes[id].Count))))
		}
	}
	return sum.Quo(sum, new(big.Rat).SetInt(new(big.Int).SetUint64(f.Invocations)))
}
