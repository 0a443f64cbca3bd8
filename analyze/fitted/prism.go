package fitted

import (
	"fmt"
	"math"
	"math/big"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/augur-perf/augur/analyze/synth"
	"github.com/augur-perf/augur/fit/pmnf"
	"github.com/augur-perf/augur/markov/export"
	"github.com/augur-perf/augur/probe/profile"
	"github.com/augur-perf/augur/source/annot"
)

// Export is the parametric DTMC of a model: its PRISM text, whose probabilities are
// expressions of the parameters (declared const double, given when checked), and the
// properties that give each reward's expected value per invocation.
type Export struct {
	Text  string
	Props []string
	// Params maps each law's parameter to its PRISM constant (len(xs) → len_xs).
	Params map[string]string
}

// PRISM exports the model as a parametric DTMC in the PRISM language: one state per statement
// as analyze builds it, each decision the laws do not cover with the profile's probability, each
// fitted if's and switch's probabilities formulas of the parameters, and each loop's
// continue probability the formula that makes it iterate as its law says — so that checking
// the export at a point (augur check --const n=1000, or PRISM's -const) gives what At gives.
//
// A loop's probability is derived from the flow of the model rather than solved for: with the
// body's entries pinned to the law's iterations L(n) per invocation, every state's expected
// visits per invocation follow from its predecessors' (a loop's exits carry its head's visits
// minus its iterations), so the visits V of each loop's head are a polynomial in the laws of
// the loops and the probabilities of the ifs and switches on the way, and its continue
// probability is L/V (L/(L+E) for a loop entered E times whose every iteration comes back to the
// head). This needs every cycle of the model to pass through a fitted loop's body: a loop
// without a law (or a goto loop) is an error.
//
// What PRISM's language cannot say is written as what it can: exp (the logistic link) as a
// power of e, log2 as log(x,2), sqrt as pow(x,0.5). Formulas use max, min, pow, log and ? :,
// which PRISM's parametric engine (-param) does not take (it needs rational functions):
// check the export at points (-const), not symbolically. Where a law would make a probability
// leave [0,1] (a loop asked to iterate more often than its head is reached allows), the model is
// invalid at that point, as At then errs.
func (m *Model) PRISM() (*Export, error) {
	ex := &Export{Params: map[string]string{}}
	ident := func(p string) string { return ex.Params[p] }
	used := map[string]bool{"main": true, "s": true}
	var params []string
	addParams := func(ps []string) error {
		for _, p := range ps {
			if _, ok := ex.Params[p]; ok {
				continue
			}
			id := prismIdent(p)
			if id == "" {
				return fmt.Errorf("parameter %q has no PRISM name", p)
			}
			for used[id] {
				id += "_"
			}
			used[id] = true
			ex.Params[p] = id
			params = append(params, p)
		}
		return nil
	}
	for _, l := range m.Loops {
		if err := addParams(l.Law.Params()); err != nil {
			return nil, err
		}
	}
	for _, b := range m.Branches {
		laws := []pmnf.Expr{b.True, b.False}
		if b.Prob != nil {
			laws = []pmnf.Expr{*b.Prob}
		}
		for _, e := range laws {
			if err := addParams(e.Params()); err != nil {
				return nil, err
			}
		}
	}
	for _, sw := range m.Switches {
		for _, l := range sw.Laws {
			if err := addParams(l.Params()); err != nil {
				return nil, err
			}
		}
	}
	sort.Strings(params)
	var consts []string
	for _, p := range params {
		consts = append(consts, ex.Params[p])
	}
	name := func(prefix string, node int, suffix ...string) string {
		n := prefix + strconv.Itoa(m.fn.CFG.Nodes[node].Pos.Line)
		for _, s := range suffix {
			n += "_" + s
		}
		if used[n] {
			n += "_n" + strconv.Itoa(node)
		}
		used[n] = true
		return n
	}

	// The reference model: every fitted decision's outcomes with a share strictly between 0
	// and 1, so that the model has every transition the formulas may weigh.
	pf := *m.base
	pf.Nodes = append([]profile.Node(nil), m.base.Nodes...)
	for _, l := range m.Loops {
		setLoop(&pf, l, 0.5)
	}
	for _, b := range m.Branches {
		setBranch(&pf, b, 0.5)
	}
	for _, sw := range m.Switches {
		probs := make([]float64, len(sw.out))
		for k := range probs {
			probs[k] = 1 / float64(len(probs))
		}
		setOutcomes(&pf, sw.Node, sw.out, probs)
	}
	rewards := annot.Rewards{}
	for _, n := range m.names {
		rewards[n] = m.rewards[n]
	}
	res, err := synth.Synthesize(m.fn.CFG, &pf, synth.Options{Rewards: rewards})
	if err != nil {
		return nil, err
	}
	dm := res.Model

	var formulas []export.Formula
	// A fitted decision's transitions are affine in its symbols: the share of each outcome
	// times the share w of its evaluations that do not panic, plus what the row has besides
	// (panics that go to the same state).
	type decision struct {
		outShare map[int]linear // outcome index → its share among the outcomes
		loop     int            // index into m.Loops, or -1
		w        float64
	}
	decs := map[int]*decision{}
	var partitions [][]string // symbols that sum to 1: a switch's shares
	share := func(node int) (w float64, counts []uint64) {
		c := pf.Nodes[node]
		var sum uint64
		for _, o := range c.Outcomes {
			sum += o
		}
		return float64(sum) / float64(sum+c.Panics), c.Outcomes
	}
	loopSym := map[int]string{} // loop head → its continue probability's formula
	itSym := map[int]string{}   // loop head → its iterations' formula
	for i, l := range m.Loops {
		it := name("it_", l.Node)
		formulas = append(formulas, export.Formula{Name: it, Expr: "max(0, " + l.Law.PRISM(ident) + ")",
			Comment: fmt.Sprintf("%s: iterations per invocation = %s", l.Quantity, l.Law)})
		q := name("q_", l.Node)
		loopSym[l.Node] = q
		w, counts := share(l.Node)
		d := &decision{outShare: map[int]linear{}, loop: i, w: w}
		var exits uint64
		for k, c := range counts {
			if k != l.body {
				exits += c
			}
		}
		for k, c := range counts {
			if k == l.body {
				d.outShare[k] = linear{terms: map[string]float64{q: 1}}
			} else if c > 0 {
				f := float64(c) / float64(exits)
				d.outShare[k] = linear{c: f, terms: map[string]float64{q: -f}}
			}
		}
		decs[l.Node] = d
		itSym[l.Node] = it
	}
	for _, b := range m.Branches {
		p := name("p_", b.Node)
		var law string
		base := 0.5
		if c := m.base.Nodes[b.Node]; c.Outcomes[b.out[0]]+c.Outcomes[b.out[1]] > 0 {
			base = float64(c.Outcomes[b.out[0]]) / float64(c.Outcomes[b.out[0]]+c.Outcomes[b.out[1]])
		}
		if b.Prob != nil {
			law = "min(max(" + b.Prob.PRISM(ident) + ", 0), 1)"
			formulas = append(formulas, export.Formula{Name: p, Expr: law, Comment: fmt.Sprintf("%s: P(true) = %s", b.Quantity, b.Prob)})
		} else {
			t, f := name("t_", b.Node), name("f_", b.Node)
			formulas = append(formulas,
				export.Formula{Name: t, Expr: "max(0, " + b.True.PRISM(ident) + ")", Comment: fmt.Sprintf("%s: true %s, false %s per invocation (else the profile's share)", b.Quantity, b.True, b.False)},
				export.Formula{Name: f, Expr: "max(0, " + b.False.PRISM(ident) + ")"},
				export.Formula{Name: p, Expr: fmt.Sprintf("(%s + %s > 0 ? %s/(%s + %s) : %s)", t, f, t, t, f, num(base))})
		}
		w, _ := share(b.Node)
		decs[b.Node] = &decision{loop: -1, w: w, outShare: map[int]linear{
			b.out[0]: {terms: map[string]float64{p: 1}},
			b.out[1]: {c: 1, terms: map[string]float64{p: -1}},
		}}
	}
	for _, sw := range m.Switches {
		tot := name("n_", sw.Node)
		var part []string
		var cs []string
		d := &decision{loop: -1, outShare: map[int]linear{}}
		d.w, _ = share(sw.Node)
		c := m.base.Nodes[sw.Node]
		var seen uint64
		for _, k := range sw.out {
			seen += c.Outcomes[k]
		}
		for k, l := range sw.Laws {
			cn := name("c_", sw.Node, sw.Outcomes[k])
			cs = append(cs, cn)
			formulas = append(formulas, export.Formula{Name: cn, Expr: "max(0, " + l.PRISM(ident) + ")",
				Comment: fmt.Sprintf("%s:%s: %s per invocation", sw.Quantity, sw.Outcomes[k], l)})
		}
		formulas = append(formulas, export.Formula{Name: tot, Expr: strings.Join(cs, " + ")})
		for k := range sw.Laws {
			base := 1 / float64(len(sw.out))
			if seen > 0 {
				base = float64(c.Outcomes[sw.out[k]]) / float64(seen)
			}
			sn := name("s_", sw.Node, sw.Outcomes[k])
			formulas = append(formulas, export.Formula{Name: sn, Expr: fmt.Sprintf("(%s > 0 ? %s/%s : %s)", tot, cs[k], tot, num(base))})
			d.outShare[sw.out[k]] = linear{terms: map[string]float64{sn: 1}}
			part = append(part, sn)
		}
		decs[sw.Node] = d
		partitions = append(partitions, part)
	}

	// Each transition's probability as a linear form in the symbols.
	cfg := m.fn.CFG
	probs := make([]linear, dm.NumTransitions())
	text := map[int]string{}
	for s := 0; s < dm.N; s++ {
		d := decs[s]
		for k := dm.RowPtr[s]; k < dm.RowPtr[s+1]; k++ {
			if d == nil {
				probs[k] = linear{c: dm.Prob[k]}
				continue
			}
			// The outcomes to this transition's state, weighed by w; the rest of the row's
			// exact probability (a panic's) is a constant.
			l := linear{terms: map[string]float64{}}
			rest := new(big.Rat)
			if dm.Exact != nil && dm.Exact[k] != nil {
				rest.Set(dm.Exact[k])
			} else {
				rest.SetFloat64(dm.Prob[k])
			}
			for o, e := range cfg.Nodes[s].Succs {
				if e.To != dm.Col[k] {
					continue
				}
				// The reference's counts total scale: outcome o's probability is count/scale.
				rest.Sub(rest, big.NewRat(int64(pf.Nodes[s].Outcomes[o]), scale))
				if sh, ok := d.outShare[o]; ok {
					l.c += d.w * sh.c
					for sym, v := range sh.terms {
						l.terms[sym] += d.w * v
					}
				}
			}
			r, _ := rest.Float64()
			l.c += r
			probs[k] = l
			text[k] = l.String()
		}
	}

	// Expected visits per invocation, state by state in an order where each state comes after
	// every state it receives flow from, the flow into a fitted loop's body being the law's
	// iterations (visits·w·q = it) whatever the head's visits.
	flow := func(s, k int, xs poly) poly {
		d := decs[s]
		out := poly{}
		for mono, v := range xs {
			out.add(mono, v*probs[k].c)
		}
		for sym, v := range probs[k].terms {
			if d != nil && d.loop >= 0 && sym == loopSym[s] {
				out.add(itSym[s], v/d.w)
				continue
			}
			for mono, x := range xs {
				out.add(mulMono(mono, sym), v*x)
			}
		}
		return out
	}
	absorbing := func(s int) bool {
		return dm.RowPtr[s+1]-dm.RowPtr[s] == 1 && dm.Col[dm.RowPtr[s]] == s
	}
	indeg := make([]int, dm.N)
	depends := func(s, k int) bool {
		d := decs[s]
		if absorbing(s) {
			return false
		}
		if d != nil && d.loop >= 0 && probs[k].c == 0 && len(probs[k].terms) == 1 && probs[k].terms[loopSym[s]] != 0 {
			return false // a loop's body: its flow is the law's
		}
		return true
	}
	for s := 0; s < dm.N; s++ {
		for k := dm.RowPtr[s]; k < dm.RowPtr[s+1]; k++ {
			if depends(s, k) {
				indeg[dm.Col[k]]++
			}
		}
	}
	visits := make([]poly, dm.N)
	for s := range visits {
		visits[s] = poly{}
	}
	for _, e := range dm.Init {
		visits[e.State].add("", e.P)
	}
	for s := 0; s < dm.N; s++ {
		for k := dm.RowPtr[s]; k < dm.RowPtr[s+1]; k++ {
			if !absorbing(s) && !depends(s, k) {
				for mono, v := range flow(s, k, poly{}) {
					visits[dm.Col[k]].add(mono, v)
				}
			}
		}
	}
	var queue []int
	for s := 0; s < dm.N; s++ {
		if indeg[s] == 0 {
			queue = append(queue, s)
		}
	}
	done := 0
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		done++
		if absorbing(s) {
			continue
		}
		for k := dm.RowPtr[s]; k < dm.RowPtr[s+1]; k++ {
			if !depends(s, k) {
				continue // already there
			}
			t := dm.Col[k]
			for mono, v := range flow(s, k, visits[s]) {
				visits[t].add(mono, v)
			}
			if indeg[t]--; indeg[t] == 0 {
				queue = append(queue, t)
			}
		}
	}
	if done < dm.N {
		where := m.Unfitted
		if len(where) == 0 {
			// A cycle of gotos, say: the states it leaves unordered.
			for s := 0; s < dm.N; s++ {
				if indeg[s] > 0 {
					where = append(where, cfg.Nodes[s].Pos.String())
				}
			}
		}
		return nil, fmt.Errorf("%s: a cycle of the model goes through no fitted loop's body (%s); a parametric export needs a law for every loop", m.fn.Name, strings.Join(where, ", "))
	}
	for _, l := range m.Loops {
		v := name("v_", l.Node)
		d := decs[l.Node]
		formulas = append(formulas, export.Formula{Name: v, Expr: visits[l.Node].sumOut(partitions).String(), Comment: fmt.Sprintf("%s: visits of its head per invocation", l.Quantity)})
		den := v
		if d.w != 1 {
			den = num(d.w) + "*" + v
		}
		formulas = append(formulas, export.Formula{Name: loopSym[l.Node], Expr: fmt.Sprintf("(%s > 0 ? %s/(%s) : 0)", v, itSym[l.Node], den)})
	}
	pm, err := export.PRISM(dm, export.PRISMOptions{Params: consts, Formulas: formulas, Probs: text})
	if err != nil {
		return nil, err
	}
	ex.Text = pm.Text
	for _, n := range m.names {
		ex.Props = append(ex.Props, fmt.Sprintf(`R{"%s"}=? [ F "end" ]`, n))
	}
	return ex, nil
}

// prismIdent turns a parameter's name (len(xs), req.Items, len(*p)) into a PRISM identifier:
// each run of other characters becomes one underscore, trailing ones dropped.
func prismIdent(p string) string {
	var b strings.Builder
	under := false
	for _, r := range p {
		if r == '_' || r < 0x80 && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			if b.Len() == 0 && r >= '0' && r <= '9' {
				b.WriteString("p_")
			}
			b.WriteRune(r)
			under = false
			continue
		}
		if !under && b.Len() > 0 {
			b.WriteByte('_')
			under = true
		}
	}
	return strings.TrimRight(b.String(), "_")
}

// linear is c + Σ terms[sym]·sym.
type linear struct {
	c     float64
	terms map[string]float64
}

func (l linear) String() string {
	p := poly{}
	p.add("", l.c)
	for sym, v := range l.terms {
		p.add(sym, v)
	}
	return p.String()
}

// poly is a polynomial in the formulas' symbols: monomial (symbols joined by "*", sorted;
// "" for the constant) → coefficient.
type poly map[string]float64

func (p poly) add(mono string, v float64) {
	if v == 0 {
		return
	}
	p[mono] += v
	if p[mono] == 0 {
		delete(p, mono)
	}
}

// sumOut writes X·s1 + ... + X·sk as X wherever s1..sk are the symbols of a partition (they
// sum to 1: the shares of a switch's outcomes all coming to the same state), so that a loop
// around a switch reads 1 + it, not 1 + it·s_case1 + it·s_case2 + it·s_default.
func (p poly) sumOut(partitions [][]string) poly {
	out := poly{}
	for mono, v := range p {
		out[mono] = v
	}
	for changed := true; changed; {
		changed = false
		for mono, v := range out {
			syms := strings.Split(mono, "*")
			for i, sym := range syms {
				for _, part := range partitions {
					if !slices.Contains(part, sym) {
						continue
					}
					rest := slices.Delete(slices.Clone(syms), i, i+1)
					base := strings.Join(rest, "*")
					all := true
					for _, other := range part {
						w, ok := out[mulMono(base, other)]
						all = all && ok && math.Abs(w-v) <= 1e-12*math.Abs(v)
					}
					if !all {
						continue
					}
					for _, other := range part {
						delete(out, mulMono(base, other))
					}
					out.add(base, v)
					changed = true
					break
				}
				if changed {
					break
				}
			}
			if changed {
				break
			}
		}
	}
	return out
}

func mulMono(mono, sym string) string {
	if mono == "" {
		return sym
	}
	syms := append(strings.Split(mono, "*"), sym)
	sort.Strings(syms)
	return strings.Join(syms, "*")
}

// String writes the polynomial, constant first and monomials sorted; coefficients within 1e-12
// of 1 in relative terms are left out as 1, and terms whose coefficient is below 1e-12 of the
// largest (what is left of a cancellation in floating point) are dropped.
func (p poly) String() string {
	monos := make([]string, 0, len(p))
	big := 0.0
	for mono, v := range p {
		monos = append(monos, mono)
		big = math.Max(big, math.Abs(v))
	}
	sort.Slice(monos, func(a, b int) bool {
		if (monos[a] == "") != (monos[b] == "") {
			return monos[a] == ""
		}
		return monos[a] < monos[b]
	})
	var b strings.Builder
	for _, mono := range monos {
		v := p[mono]
		if math.Abs(v) < 1e-12*big {
			continue
		}
		switch {
		case b.Len() == 0 && v < 0:
			b.WriteString("-")
		case v < 0:
			b.WriteString(" - ")
		case b.Len() > 0:
			b.WriteString(" + ")
		}
		v = math.Abs(v)
		switch {
		case mono == "":
			b.WriteString(num(v))
		case math.Abs(v-1) <= 1e-12:
			b.WriteString(mono)
		default:
			b.WriteString(num(v) + "*" + mono)
		}
	}
	if b.Len() == 0 {
		return "0"
	}
	return b.String()
}

func num(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// WritePRISM writes the export to base.pm and its properties to base.props (creating base's
// directory) and returns the files written.
func (m *Model) WritePRISM(base string) ([]string, error) {
	ex, err := m.PRISM()
	if err != nil {
		return nil, err
	}
	props, err := export.Props(ex.Props)
	if err != nil {
		return nil, err
	}
	if dir := filepath.Dir(base); dir != "." {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, err
		}
	}
	if err := os.WriteFile(base+".pm", []byte(ex.Text), 0o644); err != nil {
		return nil, err
	}
	if err := os.WriteFile(base+".props", []byte(props), 0o644); err != nil {
		return nil, err
	}
	return []string{base + ".pm", base + ".props"}, nil
}
