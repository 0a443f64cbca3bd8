package prism

import (
	"fmt"
	"math"
	"strconv"
)

// value is an int, a double or a bool.
type value struct {
	kind byte // 'i', 'd', 'b'
	i    int64
	d    float64
	b    bool
}

func intVal(i int64) value   { return value{kind: 'i', i: i} }
func dblVal(d float64) value { return value{kind: 'd', d: d} }
func boolVal(b bool) value   { return value{kind: 'b', b: b} }
func (v value) num() float64 {
	if v.kind == 'i' {
		return float64(v.i)
	}
	return v.d
}

func (v value) String() string {
	switch v.kind {
	case 'i':
		return strconv.FormatInt(v.i, 10)
	case 'd':
		return strconv.FormatFloat(v.d, 'g', -1, 64)
	}
	return strconv.FormatBool(v.b)
}

// expr is an expression of the language.
type expr interface {
	at() (int, int)
}

type lit struct {
	line, col int
	v         value
}
type ident struct {
	line, col int
	name      string
}
type unary struct {
	line, col int
	op        string
	x         expr
}
type binary struct {
	line, col int
	op        string
	x, y      expr
}
type cond struct {
	line, col int
	c, x, y   expr
}
type call struct {
	line, col int
	fn        string
	args      []expr
}

func (e *lit) at() (int, int)    { return e.line, e.col }
func (e *ident) at() (int, int)  { return e.line, e.col }
func (e *unary) at() (int, int)  { return e.line, e.col }
func (e *binary) at() (int, int) { return e.line, e.col }
func (e *cond) at() (int, int)   { return e.line, e.col }
func (e *call) at() (int, int)   { return e.line, e.col }

// scope resolves identifiers while evaluating: variables of the current state, constants and
// formulas.
type scope struct {
	slot     map[string]int
	state    []int64
	isBool   []bool
	consts   map[string]value
	formulas map[string]expr
	active   map[string]bool // formulas being expanded, to catch cycles
}

func errAt(e expr, format string, a ...any) error {
	l, c := e.at()
	return &Error{l, c, fmt.Sprintf(format, a...)}
}

func (sc *scope) eval(e expr) (value, error) {
	switch e := e.(type) {
	case *lit:
		return e.v, nil
	case *ident:
		if k, ok := sc.slot[e.name]; ok && sc.state != nil {
			if sc.isBool[k] {
				return boolVal(sc.state[k] != 0), nil
			}
			return intVal(sc.state[k]), nil
		}
		if v, ok := sc.consts[e.name]; ok {
			return v, nil
		}
		if f, ok := sc.formulas[e.name]; ok {
			if sc.active[e.name] {
				return value{}, errAt(e, "formula %s refers to itself", e.name)
			}
			sc.active[e.name] = true
			v, err := sc.eval(f)
			delete(sc.active, e.name)
			return v, err
		}
		if _, ok := sc.slot[e.name]; ok {
			return value{}, errAt(e, "variable %s cannot be used here (only constants are known)", e.name)
		}
		return value{}, errAt(e, "unknown identifier %s (not a variable, constant or formula)", e.name)
	case *unary:
		x, err := sc.eval(e.x)
		if err != nil {
			return value{}, err
		}
		switch e.op {
		case "!":
			if x.kind != 'b' {
				return value{}, errAt(e, "! needs a boolean, got %s", x)
			}
			return boolVal(!x.b), nil
		case "-":
			switch x.kind {
			case 'i':
				return intVal(-x.i), nil
			case 'd':
				return dblVal(-x.d), nil
			}
			return value{}, errAt(e, "- needs a number, got %s", x)
		}
	case *cond:
		c, err := sc.eval(e.c)
		if err != nil {
			return value{}, err
		}
		if c.kind != 'b' {
			return value{}, errAt(e, "the condition of ? : must be boolean, got %s", c)
		}
		if c.b {
			return sc.eval(e.x)
		}
		return sc.eval(e.y)
	case *binary:
		return sc.binary(e)
	case *call:
		return sc.call(e)
	}
	return value{}, errAt(e, "cannot evaluate this expression")
}

func (sc *scope) binary(e *binary) (value, error) {
	x, err := sc.eval(e.x)
	if err != nil {
		return value{}, err
	}
	// & and | short-circuit, as PRISM's do, so guards like x>0 & 10/x>2 are safe.
	switch e.op {
	case "&", "|", "=>":
		if x.kind != 'b' {
			return value{}, errAt(e, "%s needs booleans, got %s", e.op, x)
		}
		if e.op == "&" && !x.b || e.op == "|" && x.b || e.op == "=>" && !x.b {
			return boolVal(e.op != "&"), nil
		}
	}
	y, err := sc.eval(e.y)
	if err != nil {
		return value{}, err
	}
	switch e.op {
	case "&", "|", "=>", "<=>":
		if x.kind != 'b' || y.kind != 'b' {
			return value{}, errAt(e, "%s needs booleans, got %s and %s", e.op, x, y)
		}
		if e.op == "<=>" {
			return boolVal(x.b == y.b), nil
		}
		return y, nil
	case "=", "!=":
		if (x.kind == 'b') != (y.kind == 'b') {
			return value{}, errAt(e, "cannot compare %s with %s", x, y)
		}
		eq := x.kind == 'b' && x.b == y.b || x.kind != 'b' && x.num() == y.num()
		return boolVal(eq == (e.op == "=")), nil
	}
	if x.kind == 'b' || y.kind == 'b' {
		return value{}, errAt(e, "%s needs numbers, got %s and %s", e.op, x, y)
	}
	switch e.op {
	case "<":
		return boolVal(x.num() < y.num()), nil
	case "<=":
		return boolVal(x.num() <= y.num()), nil
	case ">":
		return boolVal(x.num() > y.num()), nil
	case ">=":
		return boolVal(x.num() >= y.num()), nil
	case "/":
		// Division is always real in PRISM.
		if y.num() == 0 {
			return value{}, errAt(e, "division by zero")
		}
		return dblVal(x.num() / y.num()), nil
	}
	if x.kind == 'i' && y.kind == 'i' {
		switch e.op {
		case "+":
			return intVal(x.i + y.i), nil
		case "-":
			return intVal(x.i - y.i), nil
		case "*":
			return intVal(x.i * y.i), nil
		}
	}
	switch e.op {
	case "+":
		return dblVal(x.num() + y.num()), nil
	case "-":
		return dblVal(x.num() - y.num()), nil
	case "*":
		return dblVal(x.num() * y.num()), nil
	}
	return value{}, errAt(e, "unknown operator %s", e.op)
}

func (sc *scope) call(e *call) (value, error) {
	var args []value
	for _, a := range e.args {
		v, err := sc.eval(a)
		if err != nil {
			return value{}, err
		}
		if v.kind == 'b' {
			return value{}, errAt(a, "%s needs numbers, got %s", e.fn, v)
		}
		args = append(args, v)
	}
	need := map[string]int{"floor": 1, "ceil": 1, "pow": 2, "mod": 2, "log": 2}
	if n, ok := need[e.fn]; ok && len(args) != n || (e.fn == "min" || e.fn == "max") && len(args) < 2 {
		return value{}, errAt(e, "%s takes %d arguments, got %d", e.fn, max(need[e.fn], 2), len(args))
	}
	allInt := true
	for _, a := range args {
		allInt = allInt && a.kind == 'i'
	}
	switch e.fn {
	case "min", "max":
		best := args[0]
		for _, a := range args[1:] {
			if e.fn == "min" && a.num() < best.num() || e.fn == "max" && a.num() > best.num() {
				best = a
			}
		}
		if !allInt {
			return dblVal(best.num()), nil
		}
		return best, nil
	case "floor":
		return intVal(int64(math.Floor(args[0].num()))), nil
	case "ceil":
		return intVal(int64(math.Ceil(args[0].num()))), nil
	case "pow":
		if allInt && args[1].i >= 0 && args[1].i <= 64 {
			r := int64(1)
			for k := int64(0); k < args[1].i; k++ {
				r *= args[0].i
			}
			return intVal(r), nil
		}
		return dblVal(math.Pow(args[0].num(), args[1].num())), nil
	case "mod":
		if !allInt {
			return value{}, errAt(e, "mod needs integers")
		}
		if args[1].i == 0 {
			return value{}, errAt(e, "mod by zero")
		}
		m := args[0].i % args[1].i
		if m < 0 {
			m += args[1].i
		}
		return intVal(m), nil
	case "log":
		return dblVal(math.Log(args[0].num()) / math.Log(args[1].num())), nil
	}
	return value{}, errAt(e, "unknown function %s", e.fn)
}

// rename copies e with identifiers renamed.
func rename(e expr, m map[string]string) expr {
	switch e := e.(type) {
	case *ident:
		if n, ok := m[e.name]; ok {
			return &ident{e.line, e.col, n}
		}
		return e
	case *unary:
		return &unary{e.line, e.col, e.op, rename(e.x, m)}
	case *binary:
		return &binary{e.line, e.col, e.op, rename(e.x, m), rename(e.y, m)}
	case *cond:
		return &cond{e.line, e.col, rename(e.c, m), rename(e.x, m), rename(e.y, m)}
	case *call:
		c := &call{e.line, e.col, e.fn, nil}
		for _, a := range e.args {
			c.args = append(c.args, rename(a, m))
		}
		return c
	}
	return e
}
