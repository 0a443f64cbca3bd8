package checker

import (
	"fmt"
	"math"
	"math/big"
	"strings"

	"github.com/augur-perf/augur/markov/dtmc"
	"github.com/augur-perf/augur/markov/pctl"
)

// Env is what a property may refer to besides the model. The zero value refers to nothing.
type Env struct {
	// Consts are the constants' values, as expressions (over other constants, for those a
	// properties file defines in terms of others).
	Consts map[string]pctl.StateFormula
	// Props are the named properties, which "name" refers to where no label has that name.
	Props map[string]pctl.StateFormula
	// Labels are labels defined in the properties file (label "name" = expr); they hide a model
	// label of the same name, as in PRISM.
	Labels map[string]pctl.StateFormula
	// Types are the declared types of constants ("int", "double" or "bool"), checked against
	// their values; a constant without one takes its value's type.
	Types map[string]string
}

// vec is an expression's value in every state: Boolean (b) or numeric (v). Int marks integer
// values (variables, integer literals and what + - * min max floor ceil round mod make of them),
// Const those that depend on no state, so that they may bound steps and probabilities.
type vec struct {
	b     []bool
	v     *values
	Int   bool
	Const bool
}

func (x *vec) isBool() bool { return x.b != nil }

func (e *evaluator) boolVec(b []bool, konst bool) *vec { return &vec{b: b, Const: konst} }

func (e *evaluator) numVec(x []float64, isInt, konst bool) *vec {
	return &vec{v: &values{x: x}, Int: isInt, Const: konst}
}

func (e *evaluator) fill(v float64) []float64 {
	x := make([]float64, e.m.N)
	for i := range x {
		x[i] = v
	}
	return x
}

func (e *evaluator) fillBool(v bool) []bool {
	b := make([]bool, e.m.N)
	if v {
		for i := range b {
			b[i] = true
		}
	}
	return b
}

// typeError says that f has the wrong kind of value.
func typeError(f pctl.Node, want string) error {
	return &PositionError{f.Pos(), fmt.Sprintf("%s is not %s", f, want)}
}

// sat evaluates a Boolean state formula.
func (e *evaluator) sat(f pctl.StateFormula) ([]bool, error) {
	x, err := e.eval(f)
	if err != nil {
		return nil, err
	}
	return x.b, mustBool(f, x)
}

// mustBool says why f, whose value is x, is not a state formula, if it is not.
func mustBool(f pctl.StateFormula, x *vec) error {
	if x.isBool() {
		return nil
	}
	switch f.(type) {
	case *pctl.Prob, *pctl.Reward, *pctl.Steady:
		return &PositionError{f.Pos(), "a query (=?) cannot be used as a condition; give a bound such as >=0.9"}
	}
	return typeError(f, "Boolean (a state formula)")
}

// num evaluates a numeric expression.
func (e *evaluator) num(f pctl.StateFormula) (*vec, error) {
	x, err := e.eval(f)
	if err != nil {
		return nil, err
	}
	if x.isBool() {
		return nil, typeError(f, "a number")
	}
	return x, nil
}

// constant evaluates an expression that must not depend on the state: a bound or a step count.
func (e *evaluator) constant(f pctl.StateFormula, what string) (float64, bool, error) {
	x, err := e.num(f)
	if err != nil {
		return 0, false, err
	}
	if !x.Const {
		return 0, false, &PositionError{f.Pos(), fmt.Sprintf("%s %s depends on the state; it must be a constant expression", what, f)}
	}
	return x.v.x[0], x.Int, nil
}

// steps evaluates a step count: a constant non-negative integer.
func (e *evaluator) steps(f pctl.StateFormula) (int, error) {
	v, isInt, err := e.constant(f, "the step bound")
	if err != nil {
		return 0, err
	}
	if !isInt || v < 0 || v > pctl.MaxSteps {
		return 0, &PositionError{f.Pos(), fmt.Sprintf("the step bound %s is %v, not an integer in 0..%d", f, v, pctl.MaxSteps)}
	}
	return int(v), nil
}

// eval evaluates any state formula or expression.
func (e *evaluator) eval(f pctl.StateFormula) (*vec, error) {
	e.depth++
	defer func() { e.depth-- }()
	if e.depth > maxRefDepth {
		return nil, &PositionError{f.Pos(), "constants, labels or properties refer to one another too deeply (a cycle?)"}
	}
	switch f := f.(type) {
	case *pctl.Bool:
		return e.boolVec(e.fillBool(f.Value), true), nil
	case *pctl.Num:
		return e.numVec(e.fill(f.Value), f.Int, true), nil
	case *pctl.StateIndex:
		return e.index(), nil
	case *pctl.Ident:
		return e.ident(f)
	case *pctl.Label:
		return e.label(f)
	case *pctl.Not:
		x, err := e.eval(f.F)
		if err != nil {
			return nil, err
		}
		if err := mustBool(f.F, x); err != nil {
			return nil, err
		}
		out := make([]bool, len(x.b))
		for i := range x.b {
			out[i] = !x.b[i]
		}
		return e.boolVec(out, x.Const), nil
	case *pctl.Binary:
		return e.binary(f)
	case *pctl.Compare:
		return e.compare(f)
	case *pctl.Neg:
		x, err := e.num(f.X)
		if err != nil {
			return nil, err
		}
		out := make([]float64, e.m.N)
		for i, v := range x.v.x {
			out[i] = -v
		}
		res := e.numVec(out, x.Int, x.Const)
		if ex := e.exactOf(x); ex != nil {
			res.v.exact = e.exactArith(pctl.Sub, e.exactOf(e.numVec(e.fill(0), true, true)), ex)
		}
		return res, nil
	case *pctl.Ternary:
		return e.ternary(f)
	case *pctl.Call:
		return e.call(f)
	case *pctl.Filter:
		r, err := e.filter(f)
		if err != nil {
			return nil, err
		}
		return r.vec(e, f)
	case *pctl.Prob, *pctl.Reward, *pctl.Steady:
		b := bound(f)
		v, err := e.value(f)
		if err != nil {
			return nil, err
		}
		if b.Op == pctl.Query {
			return &vec{v: v}, nil
		}
		return e.bounded(f, b, v)
	case *pctl.PathExpr:
		return nil, &PositionError{f.Pos(), fmt.Sprintf("the path formula %s can only be an argument of P, E or A", f)}
	case *pctl.Quant:
		b, err := e.quant(f)
		if err != nil {
			return nil, err
		}
		return e.boolVec(b, false), nil
	}
	return nil, fmt.Errorf("unsupported formula %s", f)
}

// maxRefDepth bounds the evaluation's recursion through references, which a cycle of constants
// or properties would otherwise make endless.
const maxRefDepth = 10000

// bounded compares a P, R or S operator's values with its bound.
func (e *evaluator) bounded(f pctl.StateFormula, b pctl.Bound, v *values) (*vec, error) {
	limit := b.Value
	if b.Expr != nil {
		var err error
		if limit, _, err = e.constant(b.Expr, "the bound"); err != nil {
			return nil, err
		}
		if _, isProb := f.(*pctl.Reward); !isProb && (limit < 0 || limit > 1) {
			return nil, &PositionError{b.Expr.Pos(), fmt.Sprintf("the bound %s is %v, not a probability in [0,1]", b.Expr, limit)}
		}
	}
	out := make([]bool, e.m.N)
	for s := range out {
		if v.exact != nil && v.exact[s] != nil {
			out[s] = compareRat(v.exact[s], b.Op, limit)
		} else {
			out[s] = compareFloat(v.x[s], b.Op, limit)
		}
	}
	return e.boolVec(out, false), nil
}

func (e *evaluator) index() *vec {
	x := make([]float64, e.m.N)
	for i := range x {
		x[i] = float64(i)
	}
	return e.numVec(x, true, false)
}

// ident resolves a name: a state variable of the model, a constant, or — in a model without
// variables — s, the state index. A name that is both a variable and a constant is an error
// rather than a silent choice.
func (e *evaluator) ident(f *pctl.Ident) (*vec, error) {
	vars := e.m.Vars
	vi := -1
	if vars != nil {
		vi = vars.Index(f.Name)
	}
	c, isConst := e.env.Consts[f.Name]
	switch {
	case vi >= 0 && isConst:
		return nil, &PositionError{f.Pos(), fmt.Sprintf("%q is both a state variable of the model and a constant", f.Name)}
	case vi >= 0:
		k := len(vars.Names)
		if vars.Bool[vi] {
			b := make([]bool, e.m.N)
			for s := range b {
				b[s] = vars.Values[s*k+vi] != 0
			}
			return e.boolVec(b, false), nil
		}
		x := make([]float64, e.m.N)
		for s := range x {
			x[s] = float64(vars.Values[s*k+vi])
		}
		return e.numVec(x, true, false), nil
	case isConst:
		if c == nil {
			return nil, &PositionError{f.Pos(), fmt.Sprintf("constant %s has no value (give one with --const %s=...)", f.Name, f.Name)}
		}
		x, err := e.eval(c)
		if err != nil {
			return nil, err
		}
		if !x.Const {
			return nil, &PositionError{f.Pos(), fmt.Sprintf("constant %s = %s depends on the state", f.Name, c)}
		}
		switch typ := e.env.Types[f.Name]; {
		case typ == "bool" && !x.isBool(), typ != "bool" && typ != "" && x.isBool(), typ == "int" && !x.Int:
			return nil, &PositionError{f.Pos(), fmt.Sprintf("constant %s is declared %s but its value is %s", f.Name, typ, c)}
		case typ == "double":
			// A double is no step count, even when its value is whole, as in PRISM.
			x = &vec{v: x.v, Const: true}
		}
		return x, nil
	case f.Name == "s" && vars == nil:
		return e.index(), nil
	}
	if vars != nil {
		return nil, &PositionError{f.Pos(), fmt.Sprintf("unknown variable or constant %q (the model's variables are %s; #s is the state index)", f.Name, strings.Join(vars.Names, ", "))}
	}
	return nil, &PositionError{f.Pos(), fmt.Sprintf("unknown variable or constant %q (the model has no state variables: s or #s is the state index)", f.Name)}
}

// label resolves "name": a label of the properties file, of the model, or a named property.
func (e *evaluator) label(f *pctl.Label) (*vec, error) {
	if d, ok := e.env.Labels[f.Name]; ok {
		b, err := e.sat(d)
		if err != nil {
			return nil, err
		}
		return e.boolVec(b, false), nil
	}
	prop, isProp := e.env.Props[f.Name]
	st, err := e.m.Label(f.Name)
	switch {
	case err == nil && isProp:
		return nil, &PositionError{f.Pos(), fmt.Sprintf("%q is both a label of the model and the name of a property", f.Name)}
	case isProp:
		return e.eval(prop)
	case err != nil:
		return nil, &PositionError{f.Pos(), err.Error()}
	}
	out := make([]bool, e.m.N)
	for _, s := range st {
		out[s] = true
	}
	return e.boolVec(out, false), nil
}

func (e *evaluator) binary(f *pctl.Binary) (*vec, error) {
	switch f.Op {
	case pctl.And, pctl.Or, pctl.Implies, pctl.Iff:
		lv, err := e.eval(f.L)
		if err != nil {
			return nil, err
		}
		rv, err := e.eval(f.R)
		if err != nil {
			return nil, err
		}
		if err := mustBool(f.L, lv); err != nil {
			return nil, err
		}
		if err := mustBool(f.R, rv); err != nil {
			return nil, err
		}
		l, r := lv.b, rv.b
		out := make([]bool, len(l))
		for i := range out {
			switch f.Op {
			case pctl.And:
				out[i] = l[i] && r[i]
			case pctl.Or:
				out[i] = l[i] || r[i]
			case pctl.Implies:
				out[i] = !l[i] || r[i]
			case pctl.Iff:
				out[i] = l[i] == r[i]
			}
		}
		return e.boolVec(out, lv.Const && rv.Const), nil
	}
	l, err := e.num(f.L)
	if err != nil {
		return nil, err
	}
	r, err := e.num(f.R)
	if err != nil {
		return nil, err
	}
	out := make([]float64, e.m.N)
	a, b := l.v.x, r.v.x
	for i := range out {
		switch f.Op {
		case pctl.Add:
			out[i] = a[i] + b[i]
		case pctl.Sub:
			out[i] = a[i] - b[i]
		case pctl.Mul:
			out[i] = a[i] * b[i]
		case pctl.Div:
			out[i] = a[i] / b[i]
		}
	}
	res := e.numVec(out, l.Int && r.Int && f.Op != pctl.Div, l.Const && r.Const)
	if res.v.exact = e.exactArith(f.Op, e.exactOf(l), e.exactOf(r)); res.v.exact != nil {
		for i, q := range res.v.exact {
			if q != nil {
				out[i], _ = q.Float64() // the float is the exact value's, rounded once
			}
		}
	}
	return res, nil
}

// exactOf gives x's values as rationals under the exact method: the operator's own, or a
// constant's decimal; nil when there are none (other methods, or values that went through a
// function, which has no exact form).
func (e *evaluator) exactOf(x *vec) []*big.Rat {
	switch {
	case e.opt.Method != Exact:
		return nil
	case x.v.exact != nil:
		return x.v.exact
	case x.Const && !math.IsInf(x.v.x[0], 0) && !math.IsNaN(x.v.x[0]):
		c := dtmc.Decimal(x.v.x[0])
		out := make([]*big.Rat, e.m.N)
		for i := range out {
			out[i] = c
		}
		return out
	}
	return nil
}

// exactArith applies op to rationals, so that 1 - P=? [ ... ] stays exact under the exact
// method; a nil entry (an infinite value, or a division by zero) stays nil, and so do the
// floating-point results, which then keep their own value.
func (e *evaluator) exactArith(op pctl.BinOp, a, b []*big.Rat) []*big.Rat {
	if a == nil || b == nil {
		return nil
	}
	out := make([]*big.Rat, len(a))
	for i := range out {
		if a[i] == nil || b[i] == nil {
			continue
		}
		r := new(big.Rat)
		switch op {
		case pctl.Add:
			r.Add(a[i], b[i])
		case pctl.Sub:
			r.Sub(a[i], b[i])
		case pctl.Mul:
			r.Mul(a[i], b[i])
		case pctl.Div:
			if b[i].Sign() == 0 {
				continue
			}
			r.Quo(a[i], b[i])
		}
		out[i] = r
	}
	return out
}

func (e *evaluator) compare(f *pctl.Compare) (*vec, error) {
	l, err := e.eval(f.L)
	if err != nil {
		return nil, err
	}
	r, err := e.eval(f.R)
	if err != nil {
		return nil, err
	}
	if err := e.checkIndex(f, l, r); err != nil {
		return nil, err
	}
	out := make([]bool, e.m.N)
	switch {
	case l.isBool() && r.isBool() && (f.Op == pctl.EQ || f.Op == pctl.NE):
		for i := range out {
			out[i] = (l.b[i] == r.b[i]) == (f.Op == pctl.EQ)
		}
	case l.isBool():
		return nil, typeError(f.L, "a number")
	case r.isBool():
		return nil, typeError(f.R, "a number")
	default:
		for i := range out {
			out[i] = compareFloat(l.v.x[i], f.Op, r.v.x[i])
		}
	}
	return e.boolVec(out, l.Const && r.Const), nil
}

// checkIndex refuses a state index compared for equality with a constant that names no state
// (#s=99 on a 10-state model): a typo, not a property that is false everywhere.
func (e *evaluator) checkIndex(f *pctl.Compare, l, r *vec) error {
	if f.Op != pctl.EQ && f.Op != pctl.NE {
		return nil
	}
	idx, other, ov := f.L, f.R, r
	if !e.isIndex(idx) {
		idx, other, ov = f.R, f.L, l
	}
	if !e.isIndex(idx) || ov.isBool() || !ov.Const {
		return nil
	}
	if v := ov.v.x[0]; v != math.Trunc(v) || v < 0 || v >= float64(e.m.N) {
		return &PositionError{other.Pos(), fmt.Sprintf("state %v does not exist: the model's states are 0..%d", v, e.m.N-1)}
	}
	return nil
}

// isIndex reports whether f stands for the state index: #s, or s in a model without variables.
func (e *evaluator) isIndex(f pctl.StateFormula) bool {
	switch f := f.(type) {
	case *pctl.StateIndex:
		return true
	case *pctl.Ident:
		_, isConst := e.env.Consts[f.Name]
		return f.Name == "s" && !isConst && (e.m.Vars == nil || e.m.Vars.Index("s") < 0)
	}
	return false
}

func (e *evaluator) ternary(f *pctl.Ternary) (*vec, error) {
	c, err := e.eval(f.Cond)
	if err != nil {
		return nil, err
	}
	if !c.isBool() {
		return nil, typeError(f.Cond, "Boolean")
	}
	a, err := e.eval(f.Then)
	if err != nil {
		return nil, err
	}
	b, err := e.eval(f.Else)
	if err != nil {
		return nil, err
	}
	if a.isBool() != b.isBool() {
		return nil, &PositionError{f.Pos(), fmt.Sprintf("the branches of %s are not of one type", f)}
	}
	konst := c.Const && a.Const && b.Const
	if a.isBool() {
		out := make([]bool, e.m.N)
		for i := range out {
			out[i] = b.b[i]
			if c.b[i] {
				out[i] = a.b[i]
			}
		}
		return e.boolVec(out, konst), nil
	}
	out := make([]float64, e.m.N)
	for i := range out {
		out[i] = b.v.x[i]
		if c.b[i] {
			out[i] = a.v.x[i]
		}
	}
	return e.numVec(out, a.Int && b.Int, konst), nil
}

func (e *evaluator) call(f *pctl.Call) (*vec, error) {
	args := make([]*vec, len(f.Args))
	isInt, konst := true, true
	for i, a := range f.Args {
		x, err := e.num(a)
		if err != nil {
			return nil, err
		}
		args[i] = x
		isInt, konst = isInt && x.Int, konst && x.Const
	}
	out := make([]float64, e.m.N)
	switch f.Name {
	case "min", "max":
		copy(out, args[0].v.x)
		for _, a := range args[1:] {
			for i, v := range a.v.x {
				if (f.Name == "min") == (v < out[i]) {
					out[i] = v
				}
			}
		}
	case "floor", "ceil", "round":
		op := map[string]func(float64) float64{"floor": math.Floor, "ceil": math.Ceil,
			// PRISM rounds halves up, also below zero: round(-1.5) is -1.
			"round": func(v float64) float64 { return math.Floor(v + 0.5) }}[f.Name]
		for i, v := range args[0].v.x {
			out[i] = op(v)
		}
		isInt = true
	case "pow":
		for i := range out {
			out[i] = math.Pow(args[0].v.x[i], args[1].v.x[i])
		}
		isInt = isInt && allNonNegative(args[1].v.x)
	case "mod":
		if !isInt {
			return nil, &PositionError{f.Pos(), fmt.Sprintf("%s needs integer arguments", f)}
		}
		for i := range out {
			a, n := int64(args[0].v.x[i]), int64(args[1].v.x[i])
			if n == 0 {
				return nil, &PositionError{f.Pos(), fmt.Sprintf("%s divides by zero", f)}
			}
			// As PRISM: Java's remainder, with the divisor added to a negative one.
			r := a % n
			if r < 0 {
				r += n
			}
			out[i] = float64(r)
		}
	case "log":
		for i := range out {
			out[i] = math.Log(args[0].v.x[i]) / math.Log(args[1].v.x[i])
		}
		isInt = false
	default:
		return nil, &PositionError{f.Pos(), fmt.Sprintf("unknown function %s", f.Name)}
	}
	return e.numVec(out, isInt, konst), nil
}

func allNonNegative(x []float64) bool {
	for _, v := range x {
		if v < 0 {
			return false
		}
	}
	return true
}
