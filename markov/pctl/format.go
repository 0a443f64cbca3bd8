package pctl

import (
	"strconv"
	"strings"
)

// String is defined on the pointer types only, so that only pointers are Nodes and a type switch
// on a value type (case pctl.Label:) fails to compile instead of silently never matching.
var (
	_ StateFormula = (*Bool)(nil)
	_ StateFormula = (*Label)(nil)
	_ StateFormula = (*StateCmp)(nil)
	_ StateFormula = (*Not)(nil)
	_ StateFormula = (*Binary)(nil)
	_ StateFormula = (*Prob)(nil)
	_ StateFormula = (*Steady)(nil)
	_ StateFormula = (*Reward)(nil)
	_ PathFormula  = (*Next)(nil)
	_ PathFormula  = (*Until)(nil)
	_ PathFormula  = (*Eventually)(nil)
	_ PathFormula  = (*Globally)(nil)
	_ RewardKind   = (*Reach)(nil)
	_ RewardKind   = (*Cumulative)(nil)
	_ RewardKind   = (*Instant)(nil)
)

func (op BinOp) String() string {
	switch op {
	case And:
		return "&"
	case Or:
		return "|"
	case Implies:
		return "=>"
	case Iff:
		return "<=>"
	}
	return "BinOp(" + strconv.Itoa(int(op)) + ")"
}

func (op CmpOp) String() string {
	switch op {
	case Query:
		return "=?"
	case LT:
		return "<"
	case LE:
		return "<="
	case GT:
		return ">"
	case GE:
		return ">="
	case EQ:
		return "="
	case NE:
		return "!="
	}
	return "CmpOp(" + strconv.Itoa(int(op)) + ")"
}

// String gives the bound as written after P, R or S: "=?" or, e.g., ">=0.9".
func (b Bound) String() string {
	if b.Op == Query {
		return "=?"
	}
	// 'g' with precision -1 is the shortest text that parses back to the same float64.
	return b.Op.String() + strconv.FormatFloat(b.Value, 'g', -1, 64)
}

// Binding strength of formulas, for deciding where String needs parentheses.
const (
	precIff = iota + 1
	precImplies
	precOr
	precAnd
	precAtom // !, atoms, parenthesised and operator formulas
)

func prec(f StateFormula) int {
	if b, ok := f.(*Binary); ok {
		switch b.Op {
		case Iff:
			return precIff
		case Implies:
			return precImplies
		case Or:
			return precOr
		}
		return precAnd
	}
	return precAtom
}

// operand prints f, parenthesised when it binds less tightly than min.
func operand(f StateFormula, min int) string {
	if f == nil {
		return "<nil>"
	}
	if prec(f) < min {
		return "(" + f.String() + ")"
	}
	return f.String()
}

func str(n Node) string {
	if n == nil {
		return "<nil>"
	}
	return n.String()
}

func stepSuffix(bounded bool, k int) string {
	if bounded {
		return "<=" + strconv.Itoa(k)
	}
	return ""
}

func (f *Bool) String() string { return strconv.FormatBool(f.Value) }

func (f *Label) String() string { return `"` + f.Name + `"` }

func (f *StateCmp) String() string { return f.Var + f.Op.String() + strconv.Itoa(f.Value) }

func (f *Not) String() string { return "!" + operand(f.F, precAtom) }

func (f *Binary) String() string {
	p := prec(f)
	// The side an operator associates to may hold the same operator unparenthesised.
	lmin, rmin := p, p+1
	if f.Op == Implies {
		lmin, rmin = p+1, p
	}
	return operand(f.L, lmin) + " " + f.Op.String() + " " + operand(f.R, rmin)
}

func (f *Prob) String() string { return "P" + f.Bound.String() + " [ " + str(f.Path) + " ]" }

func (f *Steady) String() string { return "S" + f.Bound.String() + " [ " + str(f.F) + " ]" }

func (f *Reward) String() string {
	var b strings.Builder
	b.WriteString("R")
	switch {
	case f.RewardName != "":
		b.WriteString(`{"` + f.RewardName + `"}`)
	case f.RewardIndex != 0:
		b.WriteString("{" + strconv.Itoa(f.RewardIndex) + "}")
	}
	b.WriteString(f.Bound.String() + " [ " + str(f.Kind) + " ]")
	return b.String()
}

// Operands of temporal operators are parenthesised when they are binary, although the grammar
// does not need it: F ("a" | "b") does not read as (F "a") | "b".

func (f *Reach) String() string { return "F " + operand(f.Target, precAtom) }

func (f *Cumulative) String() string {
	if f.Total {
		return "C"
	}
	return "C<=" + strconv.Itoa(f.K)
}

func (f *Instant) String() string { return "I=" + strconv.Itoa(f.K) }

func (f *Next) String() string { return "X " + operand(f.F, precAtom) }

func (f *Until) String() string {
	return operand(f.L, precAtom) + " U" + stepSuffix(f.Bounded, f.Bound) + " " + operand(f.R, precAtom)
}

func (f *Eventually) String() string {
	return "F" + stepSuffix(f.Bounded, f.Bound) + " " + operand(f.F, precAtom)
}

func (f *Globally) String() string {
	return "G" + stepSuffix(f.Bounded, f.Bound) + " " + operand(f.F, precAtom)
}
