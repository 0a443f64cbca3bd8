// Package fitted predicts a function's expected rewards for inputs never run: its model's loops
// follow the laws augur fit learnt (iterations per invocation as functions of the parameters,
// augur-fit/1), its ifs the probabilities their outcomes' laws give (true's law over the sum of
// both), its switches and selects each case's count law over the sum of all of them, its other
// decisions the probabilities of a measured profile, and the expected
// rewards per invocation are evaluated at an input point or over input distributions (exactly
// for finite ones, by Monte Carlo with its standard error otherwise).
//
// At a point, each loop's continue probability is set so that the model's expected iterations
// per invocation equal the law's value. The expected iterations B of a loop are a linear
// fractional function of its continue probability p, B(p) = A·p/(1 − C·p) (the loop's head is
// visited e/(1 − p·q − (1 − p)·r) times for e arrivals from outside, q and r the chances of
// coming back after an iteration and after leaving), so two evaluations of the model give A and
// C and the p that meets the law exactly; outer loops are set before the loops they hold, and
// the pass repeats until every loop meets its law to 1e-9.
//
// The same model is exported as a parametric DTMC in the PRISM language (Model.PRISM), each
// probability a formula of the parameters, each loop's continue probability derived from the
// model's flow rather than solved for.
//
// Analyze is augur analyze --fit as one call: the files loaded, the model written, the
// expectations over the inputs.
//
// It owns that fitting of probabilities to laws; models come from analyze/predict, laws from
// fit. It must not run workloads, and prints nothing but the names of the files it writes.
package fitted

import (
	"fmt"
	"go/ast"
	"go/token"
	"math"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/augur-perf/augur/analyze/predict"
	"github.com/augur-perf/augur/fit/board"
	"github.com/augur-perf/augur/fit/inputs"
	"github.com/augur-perf/augur/fit/pmnf"
	"github.com/augur-perf/augur/probe/profile"
	"github.com/augur-perf/augur/source/annot"
	"github.com/augur-perf/augur/source/frontend"
)

// Loop is a loop of the function whose iterations follow a law.
type Loop struct {
	Quantity string
	Node     int
	Law      pmnf.Expr
	Range    map[string][2]float64
	body     int // the index of the outcome that enters the body
	depth    int
}

// Branch is an if whose outcomes follow laws: its probability of true at a point is the law of
// that probability (branch@FILE:LINE:p, judged among the mean, regressions and logistic
// regression) when the fit has one, else the law of its true outcomes over the sum of both
// laws (counts per invocation).
type Branch struct {
	Quantity    string // branch@FILE:LINE
	Node        int
	Prob        *pmnf.Expr
	True, False pmnf.Expr
	Range       map[string][2]float64
	out         [2]int // the indices of the true and false outcomes
}

// Switch is a switch, type switch or select whose outcomes follow laws of their counts per
// invocation (switch@FILE:LINE:case1, ..., :default, as augur fit record names them; select@
// for a select): its probability of each outcome at a point is that outcome's law over the sum
// of all its outcomes' laws (each taken as at least 0). The ratio of the expected counts is what
// the model's probabilities are (a decision's probability is its expected outcomes over its
// expected evaluations); fitting each outcome's share separately would not sum to 1.
type Switch struct {
	Quantity string   // switch@FILE:LINE or select@FILE:LINE
	Node     int      // the decision
	Outcomes []string // the quantities' outcome names: case1, case2, ..., default
	Laws     []pmnf.Expr
	Range    map[string][2]float64
	out      []int // the index of each outcome among the decision's successors
}

// Model is a function's model whose loops follow fitted laws.
type Model struct {
	fn       *frontend.Func
	base     *profile.Func
	rewards  annot.Rewards
	names    []string // the user's reward names, sorted
	Branches []Branch
	Switches []Switch
	Loops    []Loop
	// Unfitted are the function's loops without a law: they keep the profile's probabilities.
	Unfitted []string
	// Others are the laws that are not loops of the function (time_ns, say).
	Others []board.Law
}

// visits is the prefix of the indicator rewards that count a loop head's visits.
const visits = "_augur_visits_"

// New binds the laws of res to fn's loops (quantities loop@FILE:LINE, as augur fit record names
// them); base is a measured profile of fn that gives every other decision's probabilities.
func New(fn *frontend.Func, res *board.Result, base *profile.Profile, rewards annot.Rewards) (*Model, error) {
	if res.Function != fn.Name {
		return nil, fmt.Errorf("the laws are of %s, not %s", res.Function, fn.Name)
	}
	var pf *profile.Func
	if base != nil {
		pf = base.Funcs[fn.Name]
	}
	if pf == nil || pf.Invocations == 0 {
		return nil, fmt.Errorf("%s: the profile never invoked it; its decisions other than the fitted loops need a measured profile", fn.Name)
	}
	m := &Model{fn: fn, base: pf, rewards: annot.Rewards{}}
	for name, v := range rewards {
		m.rewards[name] = v
		m.names = append(m.names, name)
	}
	sort.Strings(m.names)
	if len(m.names) == 0 {
		return nil, fmt.Errorf("%s has no reward to predict (annotate its statements, e.g. // @cost=2)", fn.Name)
	}
	heads := map[string]int{} // FILE:LINE → loop head
	for _, n := range fn.CFG.Nodes {
		if n.IsDecision() && n.LoopHead && !n.Unreachable {
			key := filepath.Base(n.Pos.Filename) + ":" + strconv.Itoa(n.Pos.Line)
			if _, dup := heads[key]; !dup {
				heads[key] = n.ID
			}
		}
	}
	ifs := map[string]int{} // FILE:LINE of the if keyword → its decision
	for _, n := range fn.CFG.Nodes {
		if s, ok := n.AST.(*ast.IfStmt); ok && n.IsDecision() && !n.Unreachable {
			p := fn.CFG.Fset.Position(s.If)
			ifs[filepath.Base(p.Filename)+":"+strconv.Itoa(p.Line)] = n.ID
		}
	}
	// switch@FILE:LINE and select@FILE:LINE (the keyword's position) → the decision.
	multi := map[string]int{}
	for _, n := range fn.CFG.Nodes {
		if !n.IsDecision() || n.Unreachable {
			continue
		}
		var kw string
		var at token.Pos
		switch s := n.AST.(type) {
		case *ast.SwitchStmt:
			kw, at = "switch@", s.Switch
		case *ast.TypeSwitchStmt:
			kw, at = "switch@", s.Switch
		case *ast.SelectStmt:
			kw, at = "select@", s.Select
		default:
			continue
		}
		p := fn.CFG.Fset.Position(at)
		multi[kw+filepath.Base(p.Filename)+":"+strconv.Itoa(p.Line)] = n.ID
	}
	switches := map[string]*Switch{}
	var sorder []string
	branches := map[string]*Branch{}
	var order []string
	used := map[int]bool{}
	for _, l := range res.Laws {
		if strings.HasPrefix(l.Quantity, "switch@") || strings.HasPrefix(l.Quantity, "select@") {
			i := strings.LastIndexByte(l.Quantity, ':')
			key, outcome := l.Quantity[:i], l.Quantity[i+1:]
			id, found := multi[key]
			if !found {
				m.Others = append(m.Others, l)
				continue
			}
			if l.Error != "" {
				return nil, fmt.Errorf("%s: no law was fitted (%s)", l.Quantity, l.Error)
			}
			sw := switches[key]
			if sw == nil {
				sw = &Switch{Quantity: key, Node: id}
				switches[key] = sw
				sorder = append(sorder, key)
			}
			k := -1
			for j, e := range fn.CFG.Nodes[id].Succs {
				if strings.ReplaceAll(e.Outcome, " ", "") == outcome {
					k = j
				}
			}
			if k < 0 {
				return nil, fmt.Errorf("%s: %s has no outcome %q", l.Quantity, key, outcome)
			}
			sw.Outcomes = append(sw.Outcomes, outcome)
			sw.Laws = append(sw.Laws, l.Law)
			sw.out = append(sw.out, k)
			sw.Range = l.Range
			continue
		}
		if rest, ok := strings.CutPrefix(l.Quantity, "branch@"); ok {
			key, out, _ := strings.Cut(rest, ":")
			line, outcome, _ := strings.Cut(out, ":")
			key += ":" + line
			id, found := ifs[key]
			if !found || outcome != "true" && outcome != "false" && outcome != "p" {
				m.Others = append(m.Others, l)
				continue
			}
			if l.Error != "" {
				return nil, fmt.Errorf("%s: no law was fitted (%s)", l.Quantity, l.Error)
			}
			b := branches[key]
			if b == nil {
				b = &Branch{Quantity: "branch@" + key, Node: id, out: [2]int{-1, -1}}
				for k, e := range fn.CFG.Nodes[id].Succs {
					switch e.Outcome {
					case frontend.OutTrue:
						b.out[0] = k
					case frontend.OutFalse:
						b.out[1] = k
					}
				}
				branches[key] = b
				order = append(order, key)
			}
			b.Range = l.Range
			switch outcome {
			case "true":
				b.True = l.Law
			case "false":
				b.False = l.Law
			default:
				law := l.Law
				b.Prob = &law
			}
			continue
		}
		key, isLoop := strings.CutPrefix(l.Quantity, "loop@")
		id, found := heads[key]
		if !isLoop || !found {
			m.Others = append(m.Others, l)
			continue
		}
		if l.Error != "" {
			return nil, fmt.Errorf("%s: no law was fitted (%s)", l.Quantity, l.Error)
		}
		nd := fn.CFG.Nodes[id]
		body := -1
		for k, e := range nd.Succs {
			if e.Outcome == frontend.OutTrue || e.Outcome == frontend.OutNext {
				body = k
			}
		}
		if body < 0 {
			return nil, fmt.Errorf("%s: the loop at %s has no body outcome", l.Quantity, nd.Pos)
		}
		used[id] = true
		m.Loops = append(m.Loops, Loop{Quantity: l.Quantity, Node: id, Law: l.Law, Range: l.Range, body: body, depth: len(nd.Loops)})
		r := make([]float64, len(fn.CFG.Nodes))
		r[id] = 1
		m.rewards[visits+strconv.Itoa(id)] = r
	}
	for _, key := range order {
		b := branches[key]
		if b.Prob == nil && (b.True.Empty() || b.False.Empty()) || b.out[0] < 0 || b.out[1] < 0 {
			return nil, fmt.Errorf("%s: a law of its probability or of both outcomes is needed", b.Quantity)
		}
		m.Branches = append(m.Branches, *b)
	}
	for _, key := range sorder {
		sw := switches[key]
		if len(sw.out) != len(fn.CFG.Nodes[sw.Node].Succs) {
			var have []string
			for _, e := range fn.CFG.Nodes[sw.Node].Succs {
				have = append(have, strings.ReplaceAll(e.Outcome, " ", ""))
			}
			return nil, fmt.Errorf("%s: laws of %s, but every outcome (%s) needs one", key, strings.Join(sw.Outcomes, ", "), strings.Join(have, ", "))
		}
		m.Switches = append(m.Switches, *sw)
	}
	for key, id := range heads {
		if !used[id] {
			m.Unfitted = append(m.Unfitted, "loop@"+key)
		}
	}
	sort.Strings(m.Unfitted)
	sort.SliceStable(m.Loops, func(a, b int) bool { return m.Loops[a].depth < m.Loops[b].depth })
	return m, nil
}

// scale is the total of a loop head's outcome counts in the profile At builds: probabilities
// are count ratios, and 2^50 keeps them to within 1e-15 of the value wanted.
const scale = 1 << 50

// At returns each reward's expected value per invocation with the parameters at at.
func (m *Model) At(at map[string]float64) (map[string]float64, error) {
	pf := *m.base
	pf.Nodes = append([]profile.Node(nil), m.base.Nodes...)
	p := make([]float64, len(m.Loops))
	for i, l := range m.Loops {
		c := pf.Nodes[l.Node]
		var sum uint64
		for _, o := range c.Outcomes {
			sum += o
		}
		p[i] = 0.5
		if sum > 0 && c.Outcomes[l.body] < sum {
			p[i] = float64(c.Outcomes[l.body]) / float64(sum)
		}
	}
	for _, b := range m.Branches {
		if b.Prob != nil {
			pt := b.Prob.Value(at)
			if math.IsNaN(pt) {
				return nil, fmt.Errorf("%s: the law %s is undefined at %v", b.Quantity, b.Prob, at)
			}
			setBranch(&pf, b, math.Min(math.Max(pt, 0), 1))
			continue
		}
		t, f := math.Max(b.True.Value(at), 0), math.Max(b.False.Value(at), 0)
		if math.IsNaN(t) || math.IsNaN(f) || math.IsInf(t+f, 0) {
			return nil, fmt.Errorf("%s: the laws are undefined at %v", b.Quantity, at)
		}
		if t+f > 0 {
			setBranch(&pf, b, t/(t+f))
		}
	}
	for _, sw := range m.Switches {
		probs, err := sw.probabilities(at)
		if err != nil {
			return nil, err
		}
		if probs != nil {
			setOutcomes(&pf, sw.Node, sw.out, probs)
		}
	}
	target := make([]float64, len(m.Loops))
	for i, l := range m.Loops {
		target[i] = l.Law.Value(at)
		if math.IsNaN(target[i]) || math.IsInf(target[i], 0) {
			return nil, fmt.Errorf("%s: the law %s is undefined at %v", l.Quantity, l.Law, at)
		}
		target[i] = math.Max(target[i], 0)
	}
	eval := func() (map[string]float64, error) {
		for i, l := range m.Loops {
			setLoop(&pf, l, p[i])
		}
		prof := &profile.Profile{Format: profile.Format, Funcs: map[string]*profile.Func{m.fn.Name: &pf}}
		out, err := predict.Scenario{Name: "fitted", Rewards: m.rewards, Profile: prof}.Predict(m.fn, predict.Options{})
		if err != nil {
			return nil, err
		}
		vals := map[string]float64{}
		for k, name := range out.Rewards {
			if out.Values[k] == nil {
				return nil, fmt.Errorf("%s: %s", name, out.Unanswered[name])
			}
			vals[name] = out.Values[k].Initial
		}
		return vals, nil
	}
	iterations := func(vals map[string]float64, i int) float64 {
		return vals[visits+strconv.Itoa(m.Loops[i].Node)] * p[i] * m.notPanicking(i)
	}
	vals, err := eval()
	if err != nil {
		return nil, err
	}
	for pass := 0; pass < 8; pass++ {
		met := true
		for i := range m.Loops {
			if math.Abs(iterations(vals, i)-target[i]) <= 1e-9*math.Max(1, target[i]) {
				continue
			}
			met = false
			if p[i] == 0 || iterations(vals, i) == 0 {
				// Two points with iterations are needed to fit the curve.
				p[i] = 0.5
				if vals, err = eval(); err != nil {
					return nil, err
				}
			}
			p1, b1 := p[i], iterations(vals, i)
			p[i] = p1 / 2
			if vals, err = eval(); err != nil {
				return nil, err
			}
			p2, b2 := p[i], iterations(vals, i)
			// B = A·p + C·p·B at both points.
			det := p1*p2*b2 - p2*p1*b1
			if det == 0 {
				return nil, fmt.Errorf("%s: the model's iterations do not depend on the loop's probability (is the loop reachable?)", m.Loops[i].Quantity)
			}
			a := (b1*p2*b2 - b2*p1*b1) / det
			c := (p1*b2 - p2*b1) / det
			np := target[i] / (a + c*target[i])
			if math.IsNaN(np) || np < 0 || np >= 1 {
				return nil, fmt.Errorf("%s: no probability makes the loop iterate %.6g times per invocation at %v (the other decisions' probabilities bound it)", m.Loops[i].Quantity, target[i], at)
			}
			p[i] = np
			if vals, err = eval(); err != nil {
				return nil, err
			}
		}
		if met {
			res := map[string]float64{}
			for _, n := range m.names {
				res[n] = vals[n]
			}
			return res, nil
		}
	}
	return nil, fmt.Errorf("the loops' probabilities did not settle at %v", at)
}

// notPanicking is the share of a loop head's evaluations that do not panic, in the profile.
func (m *Model) notPanicking(i int) float64 {
	c := m.base.Nodes[m.Loops[i].Node]
	var sum uint64
	for _, o := range c.Outcomes {
		sum += o
	}
	if sum+c.Panics == 0 {
		return 1
	}
	return float64(sum) / float64(sum+c.Panics)
}

// probabilities gives the switch's outcome probabilities at a point (in Outcomes' order): each
// law (at least 0) over their sum; nil when every law is 0 there, and the profile's stand.
func (sw Switch) probabilities(at map[string]float64) ([]float64, error) {
	counts := make([]float64, len(sw.Laws))
	var sum float64
	for k, l := range sw.Laws {
		counts[k] = math.Max(l.Value(at), 0)
		if math.IsNaN(counts[k]) || math.IsInf(counts[k], 0) {
			return nil, fmt.Errorf("%s:%s: the law %s is undefined at %v", sw.Quantity, sw.Outcomes[k], l, at)
		}
		sum += counts[k]
	}
	if sum == 0 {
		return nil, nil
	}
	for k := range counts {
		counts[k] /= sum
	}
	return counts, nil
}

// setBranch gives an if the outcome counts of probability p of true, keeping its panics' share.
func setBranch(pf *profile.Func, b Branch, p float64) {
	setOutcomes(pf, b.Node, b.out[:], []float64{p, 1 - p})
}

// setOutcomes gives a decision's outcomes out[k] the counts of probabilities probs[k] (summing
// to 1), keeping its panics' share; outcomes not in out get none.
func setOutcomes(pf *profile.Func, node int, out []int, probs []float64) {
	c := pf.Nodes[node]
	var sum uint64
	for _, o := range c.Outcomes {
		sum += o
	}
	panics := uint64(0)
	if den := float64(sum + c.Panics); den > 0 {
		panics = uint64(math.Round(scale * float64(c.Panics) / den))
	}
	rest := scale - panics
	outs := make([]uint64, len(c.Outcomes))
	left := rest
	for k, o := range out {
		if k == len(out)-1 {
			outs[o] = left // the last takes what rounding left
			break
		}
		outs[o] = min(uint64(math.Round(probs[k]*float64(rest))), left)
		left -= outs[o]
	}
	c.Outcomes, c.Panics, c.Count = outs, panics, scale
	pf.Nodes[node] = c
}

// setLoop gives a loop head the outcome counts of continue probability p (other outcomes, such
// as a range over a channel's, keep their share), keeping its panics' share.
func setLoop(pf *profile.Func, l Loop, p float64) {
	c := pf.Nodes[l.Node]
	outs := make([]uint64, len(c.Outcomes))
	var sum uint64
	for _, o := range c.Outcomes {
		sum += o
	}
	den := float64(sum + c.Panics)
	panics := uint64(0)
	if den > 0 {
		panics = uint64(math.Round(scale * float64(c.Panics) / den))
	}
	rest := scale - panics
	body := uint64(math.Round(p * float64(rest)))
	outs[l.body] = body
	// The exit outcome(s) share what is left in their measured proportions (one, for a for or
	// range loop, takes all of it).
	var others uint64
	for k, o := range c.Outcomes {
		if k != l.body {
			others += o
		}
	}
	left := rest - body
	for k, o := range c.Outcomes {
		if k == l.body {
			continue
		}
		if others == 0 {
			outs[k] = left
			break
		}
		outs[k] = uint64(math.Round(float64(left) * float64(o) / float64(others)))
	}
	c.Outcomes = outs
	c.Panics = panics
	c.Count = scale
	pf.Nodes[l.Node] = c
}

// Prediction is a reward's expectation over the inputs.
type Prediction struct {
	Reward string
	inputs.Expectation
}

// Expect gives each reward's expectation over the independent input distributions ds: exact
// for finite distributions, else Monte Carlo with n samples from seed (one model per sample, the
// same samples for every reward).
func (m *Model) Expect(ds []inputs.Dist, n int, seed uint64) ([]Prediction, error) {
	ranges := map[string][2]float64{}
	var fittedOn []map[string][2]float64
	for _, l := range m.Loops {
		fittedOn = append(fittedOn, l.Range)
	}
	for _, b := range m.Branches {
		fittedOn = append(fittedOn, b.Range)
	}
	for _, sw := range m.Switches {
		fittedOn = append(fittedOn, sw.Range)
	}
	for _, rs := range fittedOn {
		for p, r := range rs {
			if old, ok := ranges[p]; ok {
				r = [2]float64{math.Max(old[0], r[0]), math.Min(old[1], r[1])}
			}
			ranges[p] = r
		}
	}
	memo := map[string]map[string]float64{}
	var failed error
	point := func(at map[string]float64) map[string]float64 {
		key := fmt.Sprint(at)
		if v, ok := memo[key]; ok {
			return v
		}
		v, err := m.At(at)
		if err != nil && failed == nil {
			failed = err
		}
		memo[key] = v
		return v
	}
	var out []Prediction
	for _, name := range m.names {
		e, err := inputs.Expect(ds, func(at map[string]float64) float64 {
			v := point(at)
			if v == nil {
				return math.NaN()
			}
			return v[name]
		}, ranges, n, seed)
		if failed != nil {
			return nil, failed
		}
		if err != nil {
			return nil, err
		}
		out = append(out, Prediction{Reward: name, Expectation: e})
	}
	return out, nil
}
