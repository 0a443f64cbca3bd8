// Package param checks properties of parametric DTMCs: with the probabilities of a model's
// decisions as named parameters (the constants `analyze --emit prism --parametric` declares),
// it computes a reachability probability or an expected reward as a rational function of the
// parameters by state elimination, as PRISM's -param and Storm's parametric engine do, evaluates
// it exactly at any values, and gives its partial derivatives: the sensitivity of a prediction
// to each branch probability. It owns the symbolic arithmetic; it must not know about Go source.
//
// There is no general multivariate GCD: factors the elimination itself introduces (the 1 - loop
// of each state eliminated) are cancelled where they divide both numerator and denominator, so
// results are exact but may not be in lowest terms.
package param

import (
	"errors"
	"fmt"
	"math/big"
	"sort"
	"strings"

	"github.com/augur-perf/augur/markov/dtmc"
	"github.com/augur-perf/augur/markov/export"
)

// Func is a rational function Num/Den of the parameters Names.
type Func struct {
	Names    []string
	Num, Den Poly
}

// String writes (num)/(den), or num alone when the denominator is 1.
func (f *Func) String() string {
	if c, ok := f.Den.constant(); ok && c.Cmp(big.NewRat(1, 1)) == 0 {
		return f.Num.format(f.Names)
	}
	return "(" + f.Num.format(f.Names) + ") / (" + f.Den.format(f.Names) + ")"
}

// Eval evaluates the function at exact values of its parameters.
func (f *Func) Eval(at map[string]*big.Rat) (*big.Rat, error) {
	x := make([]*big.Rat, len(f.Names))
	for i, n := range f.Names {
		v, ok := at[n]
		if !ok {
			return nil, fmt.Errorf("no value for parameter %s", n)
		}
		x[i] = v
	}
	d := f.Den.eval(x)
	if d.Sign() == 0 {
		return nil, errors.New("the function's denominator vanishes there")
	}
	return new(big.Rat).Quo(f.Num.eval(x), d), nil
}

// Derivative is ∂f/∂name (quotient rule; not simplified further).
func (f *Func) Derivative(name string) (*Func, error) {
	i := -1
	for k, n := range f.Names {
		if n == name {
			i = k
		}
	}
	if i < 0 {
		return nil, fmt.Errorf("unknown parameter %s (the function's: %s)", name, strings.Join(f.Names, ", "))
	}
	num := f.Num.derive(i).mul(f.Den).add(f.Num.mul(f.Den.derive(i)), -1)
	return &Func{Names: f.Names, Num: num, Den: f.Den.mul(f.Den)}, nil
}

// rat is a rational function during elimination.
type rat struct{ num, den Poly }

var one = big.NewRat(1, 1)

func rconst(r *big.Rat) rat { return rat{constPoly(r), constPoly(one)} }

type engine struct {
	factors []Poly // the elimination's 1 - loop factors, tried when simplifying
}

func (e *engine) norm(a rat) rat {
	if a.num.isZero() {
		return rat{Poly{}, constPoly(one)}
	}
	if q, ok := a.num.divExact(a.den); ok {
		return rat{q, constPoly(one)}
	}
	for _, f := range e.factors {
		for {
			qn, ok1 := a.num.divExact(f)
			if !ok1 {
				break
			}
			qd, ok2 := a.den.divExact(f)
			if !ok2 {
				break
			}
			a = rat{qn, qd}
		}
	}
	// A monic denominator: one representation per function.
	if _, c := a.den.lead(); c != nil && c.Cmp(one) != 0 {
		inv := new(big.Rat).Inv(c)
		a = rat{a.num.scale(inv), a.den.scale(inv)}
	}
	return a
}

func (e *engine) add(a, b rat) rat {
	if a.num.isZero() {
		return b
	}
	if b.num.isZero() {
		return a
	}
	if equal(a.den, b.den) {
		return e.norm(rat{a.num.add(b.num, 1), a.den})
	}
	return e.norm(rat{a.num.mul(b.den).add(b.num.mul(a.den), 1), a.den.mul(b.den)})
}

func (e *engine) mul(a, b rat) rat {
	if a.num.isZero() || b.num.isZero() {
		return rat{Poly{}, constPoly(one)}
	}
	return e.norm(rat{a.num.mul(b.num), a.den.mul(b.den)})
}

func equal(p, q Poly) bool {
	if len(p) != len(q) {
		return false
	}
	for m, c := range p {
		d, ok := q[m]
		if !ok || d.Cmp(c) != 0 {
			return false
		}
	}
	return true
}

// Model is a DTMC whose transition probabilities are rational functions of parameters.
type Model struct {
	m     *dtmc.Model
	Names []string
	// Values are the parameters' values in the model the parametric one was made from.
	Values map[string]*big.Rat
	p      []rat // per transition
}

// FromDTMC makes the parametric model of m as the PRISM export names it: in every state with
// several successors each transition but the last is a parameter (Model.Param, or p<state>_<k>),
// the last one minus the others; transitions sharing a name share the parameter.
func FromDTMC(m *dtmc.Model) (*Model, error) {
	names, consts, err := export.ParamNames(m)
	if err != nil {
		return nil, err
	}
	pm := &Model{m: m, Values: map[string]*big.Rat{}}
	for _, c := range consts {
		pm.Names = append(pm.Names, c.Name)
		v := c.Exact
		if v == nil {
			v = dtmc.Decimal(c.Value)
		}
		pm.Values[c.Name] = v
	}
	sort.Strings(pm.Names)
	index := map[string]int{}
	for i, n := range pm.Names {
		index[n] = i
	}
	pm.p = make([]rat, len(m.Col))
	for s := 0; s < m.N; s++ {
		a, b := m.RowPtr[s], m.RowPtr[s+1]
		if b-a == 1 {
			pm.p[a] = rconst(one)
			continue
		}
		rest := constPoly(one)
		for k := a; k < b-1; k++ {
			v := varPoly(index[names[k]])
			pm.p[k] = rat{v, constPoly(one)}
			rest = rest.add(v, -1)
		}
		pm.p[b-1] = rat{rest, constPoly(one)}
	}
	return pm, nil
}

// Reach is P=? [ F target ] from the initial distribution; with reward non-empty it is
// R{reward}=? [ F target ] instead. The parameters are taken to lie strictly between 0 and 1, so
// the graph (which states reach the target) does not depend on them; an expected reward that
// is infinite there (the target missed with positive probability) is an error.
func (pm *Model) Reach(target, reward string) (*Func, error) {
	m := pm.m
	sts, err := m.Label(target)
	if err != nil {
		return nil, err
	}
	goal := make([]bool, m.N)
	for _, s := range sts {
		goal[s] = true
	}
	var rw *dtmc.Reward
	if reward != "" {
		if rw, err = m.Reward(reward); err != nil {
			return nil, err
		}
	}
	// Backward reachability from the goal.
	preds := make([][]int, m.N)
	for s := 0; s < m.N; s++ {
		for k := m.RowPtr[s]; k < m.RowPtr[s+1]; k++ {
			preds[m.Col[k]] = append(preds[m.Col[k]], s)
		}
	}
	reaches := make([]bool, m.N)
	stack := append([]int(nil), sts...)
	for _, s := range sts {
		reaches[s] = true
	}
	for len(stack) > 0 {
		t := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, s := range preds[t] {
			if !reaches[s] {
				reaches[s] = true
				stack = append(stack, s)
			}
		}
	}
	if rw != nil {
		// A reward is finite only if every state reachable from the initial ones reaches the
		// goal.
		seen := make([]bool, m.N)
		var st []int
		for _, e := range m.Init {
			st = append(st, e.State)
		}
		for len(st) > 0 {
			s := st[len(st)-1]
			st = st[:len(st)-1]
			if seen[s] || goal[s] {
				continue
			}
			seen[s] = true
			if !reaches[s] {
				return nil, fmt.Errorf("state %d cannot reach %q: the expected reward is infinite", s, target)
			}
			for k := m.RowPtr[s]; k < m.RowPtr[s+1]; k++ {
				st = append(st, m.Col[k])
			}
		}
	}
	e := &engine{}
	// x_s = Σ_t a[s][t]·x_t + b[s] for the unknown states.
	unknown := func(s int) bool { return !goal[s] && reaches[s] }
	a := map[int]map[int]rat{}
	b := map[int]rat{}
	for s := 0; s < m.N; s++ {
		if !unknown(s) {
			continue
		}
		a[s] = map[int]rat{}
		bs := rat{Poly{}, constPoly(one)}
		if rw != nil && rw.State != nil && rw.State[s] != 0 {
			bs = rconst(dtmc.Decimal(rw.State[s]))
		}
		for k := m.RowPtr[s]; k < m.RowPtr[s+1]; k++ {
			t := m.Col[k]
			if rw == nil && goal[t] {
				bs = e.add(bs, pm.p[k])
			}
			if rw != nil && rw.Trans != nil && rw.Trans[k] != 0 {
				bs = e.add(bs, e.mul(pm.p[k], rconst(dtmc.Decimal(rw.Trans[k]))))
			}
			if unknown(t) {
				if old, ok := a[s][t]; ok {
					a[s][t] = e.add(old, pm.p[k])
				} else {
					a[s][t] = pm.p[k]
				}
			}
		}
		b[s] = bs
	}
	inits := map[int]bool{}
	for _, i := range m.Init {
		inits[i.State] = true
	}
	// Who refers to whom, to substitute eliminated states.
	refs := map[int]map[int]bool{}
	for s, row := range a {
		for t := range row {
			if refs[t] == nil {
				refs[t] = map[int]bool{}
			}
			refs[t][s] = true
		}
	}
	order := make([]int, 0, len(a))
	for s := range a {
		if !inits[s] {
			order = append(order, s)
		}
	}
	// Highest index first: the synthesis numbers states in source order, so loops' bodies go
	// before their heads.
	sort.Sort(sort.Reverse(sort.IntSlice(order)))
	eliminate := func(k int) {
		row := a[k]
		if loop, ok := row[k]; ok {
			f := e.add(rconst(one), e.mul(rconst(big.NewRat(-1, 1)), loop))
			e.factors = append(e.factors, f.num)
			inv := rat{f.den, f.num}
			delete(row, k)
			delete(refs[k], k)
			for t, v := range row {
				row[t] = e.mul(v, inv)
			}
			b[k] = e.mul(b[k], inv)
		}
		for s := range refs[k] {
			if s == k {
				continue
			}
			w := a[s][k]
			delete(a[s], k)
			for t, v := range row {
				add := e.mul(w, v)
				if old, ok := a[s][t]; ok {
					a[s][t] = e.add(old, add)
				} else {
					a[s][t] = add
					refs[t][s] = true
				}
			}
			b[s] = e.add(b[s], e.mul(w, b[k]))
		}
		for t := range row {
			delete(refs[t], k)
		}
	}
	for _, k := range order {
		eliminate(k)
		delete(a, k)
	}
	// The initial states refer only to each other now; eliminate all but one at a time, in turn.
	total := rat{Poly{}, constPoly(one)}
	for _, ini := range m.Init {
		s := ini.State
		var val rat
		switch {
		case goal[s]:
			if rw == nil {
				val = rconst(one)
			} else {
				val = rconst(new(big.Rat))
			}
		case !reaches[s]:
			val = rconst(new(big.Rat))
		default:
			val = pm.solveInitial(e, s, a, b)
		}
		total = e.add(total, e.mul(rconst(dtmc.Decimal(ini.P)), val))
	}
	return &Func{Names: pm.Names, Num: total.num, Den: total.den}, nil
}

// solveInitial eliminates the other initial states from copies of the remaining equations and
// solves for s.
func (pm *Model) solveInitial(e *engine, s int, a map[int]map[int]rat, b map[int]rat) rat {
	ca := map[int]map[int]rat{}
	for x, row := range a {
		ca[x] = map[int]rat{}
		for t, v := range row {
			ca[x][t] = v
		}
	}
	cb := map[int]rat{}
	for x, v := range b {
		cb[x] = v
	}
	for k := range ca {
		if k == s {
			continue
		}
		row := ca[k]
		if loop, ok := row[k]; ok {
			f := e.add(rconst(one), e.mul(rconst(big.NewRat(-1, 1)), loop))
			inv := rat{f.den, f.num}
			delete(row, k)
			for t, v := range row {
				row[t] = e.mul(v, inv)
			}
			cb[k] = e.mul(cb[k], inv)
		}
		for x, r := range ca {
			w, ok := r[k]
			if x == k || !ok {
				continue
			}
			delete(r, k)
			for t, v := range row {
				if old, ok := r[t]; ok {
					r[t] = e.add(old, e.mul(w, v))
				} else {
					r[t] = e.mul(w, v)
				}
			}
			cb[x] = e.add(cb[x], e.mul(w, cb[k]))
		}
		delete(ca, k)
	}
	val := cb[s]
	if loop, ok := ca[s][s]; ok {
		f := e.add(rconst(one), e.mul(rconst(big.NewRat(-1, 1)), loop))
		val = e.mul(val, rat{f.den, f.num})
	}
	return val
}
