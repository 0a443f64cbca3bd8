package pctl

import (
	"strconv"
	"strings"
)

// String is defined on the pointer types only, so that only pointers are Nodes and a type switch
// on a value type (case pctl.Label:) fails to compile instead of silently never matching.
var (
	_ StateFormula = (*Bool)(nil)
	_ StateFormula = (*Num)(nil)
	_ StateFormula = (*Ident)(nil)
	_ StateFormula = (*StateIndex)(nil)
	_ StateFormula = (*Label)(nil)
	_ StateFormula = (*Not)(nil)
	_ StateFormula = (*Binary)(nil)
	_ StateFormula = (*Compare)(nil)
	_ StateFormula = (*Neg)(nil)
	_ StateFormula = (*Ternary)(nil)
	_ StateFormula = (*Call)(nil)
	_ StateFormula = (*Filter)(nil)
	_ StateFormula = (*Prob)(nil)
	_ StateFormula = (*Quant)(nil)
	_ StateFormula = (*Steady)(nil)
	_ StateFormula = (*Reward)(nil)
	_ StateFormula = (*PathExpr)(nil)
	_ PathFormula  = (*LTL)(nil)
	_ PathFormula  = (*Next)(nil)
	_ PathFormula  = (*Until)(nil)
	_ PathFormula  = (*Eventually)(nil)
	_ PathFormula  = (*Globally)(nil)
	_ RewardKind   = (*Reach)(nil)
	_ RewardKind   = (*Cumulative)(nil)
	_ RewardKind   = (*Instant)(nil)
	_ RewardKind   = (*LongRun)(nil)
	_ RewardKind   = (*CoSafe)(nil)
)

var binOpNames = []string{"&", "|", "=>", "<=>", "+", "-", "*", "/"}

func (op BinOp) String() string {
	if op >= 0 && int(op) < len(binOpNames) {
		return binOpNames[op]
	}
	return "BinOp(" + strconv.Itoa(int(op)) + ")"
}

var cmpOpNames = []string{"=?", "<", "<=", ">", ">=", "=", "!="}

func (op CmpOp) String() string {
	if op >= 0 && int(op) < len(cmpOpNames) {
		return cmpOpNames[op]
	}
	return "CmpOp(" + strconv.Itoa(int(op)) + ")"
}

func (op TempOp) String() string {
	switch op {
	case U:
		return "U"
	case W:
		return "W"
	case R:
		return "R"
	}
	return "TempOp(" + strconv.Itoa(int(op)) + ")"
}

// String gives the bound as written after P, R or S: "=?" or, e.g., ">=0.9".
func (b Bound) String() string {
	if b.Op == Query {
		return "=?"
	}
	if b.Expr != nil {
		return b.Op.String() + b.Expr.String()
	}
	// 'g' with precision -1 is the shortest text that parses back to the same float64.
	return b.Op.String() + strconv.FormatFloat(b.Value, 'g', -1, 64)
}

// Binding strength of expressions, loosest first, as in PRISM's grammar; String uses it to
// decide where parentheses are needed.
const (
	precTernary = iota + 1
	precImplies
	precIff
	precOr
	precAnd
	precNot
	precEq
	precRel
	precAdd
	precMul
	precNeg
	precAtom // literals, names, parenthesised and operator formulas
)

var binPrec = []int{And: precAnd, Or: precOr, Implies: precImplies, Iff: precIff, Add: precAdd, Sub: precAdd, Mul: precMul, Div: precMul}

func prec(f StateFormula) int {
	switch f := f.(type) {
	case *Ternary:
		return precTernary
	case *Binary:
		if f.Op >= 0 && int(f.Op) < len(binPrec) {
			return binPrec[f.Op]
		}
	case *Not:
		return precNot
	case *Compare:
		if f.Op == EQ || f.Op == NE {
			return precEq
		}
		return precRel
	case *Neg:
		return precNeg
	case *Num:
		if f.Value < 0 {
			return precNeg
		}
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

func (f *Bool) String() string { return strconv.FormatBool(f.Value) }

// String prints integers in full ('f'), so that a large step bound stays an integer literal when
// read back, and other numbers in the shortest form that reads back the same.
func (f *Num) String() string {
	if f.Int {
		return strconv.FormatFloat(f.Value, 'f', -1, 64)
	}
	s := strconv.FormatFloat(f.Value, 'g', -1, 64)
	if !strings.ContainsAny(s, ".e") {
		s += ".0" // keep it a real literal, not an integer one
	}
	return s
}

func (f *Ident) String() string { return f.Name }

func (f *StateIndex) String() string { return "#s" }

func (f *Label) String() string { return `"` + f.Name + `"` }

func (f *Not) String() string { return "!" + operand(f.F, precNot) }

func (f *Binary) String() string {
	p := prec(f)
	sep := " "
	if p >= precAdd {
		sep = ""
	}
	return operand(f.L, p) + sep + f.Op.String() + sep + operand(f.R, p+1)
}

func (f *Compare) String() string {
	p := prec(f)
	return operand(f.L, p) + f.Op.String() + operand(f.R, p+1)
}

func (f *Neg) String() string { return "-" + operand(f.X, precNeg) }

func (f *Ternary) String() string {
	return operand(f.Cond, precImplies) + " ? " + operand(f.Then, precImplies) + " : " + operand(f.Else, precTernary)
}

func (f *Call) String() string {
	args := make([]string, len(f.Args))
	for i, a := range f.Args {
		args[i] = str(a)
	}
	return f.Name + "(" + strings.Join(args, ", ") + ")"
}

func (f *Filter) String() string {
	s := "filter(" + f.Op + ", " + str(f.Prop)
	if f.States != nil {
		s += ", " + f.States.String()
	}
	return s + ")"
}

func (f *Prob) String() string { return "P" + f.Bound.String() + " [ " + str(f.Path) + " ]" }

func (f *Quant) String() string {
	q := "E"
	if f.Forall {
		q = "A"
	}
	return q + " [ " + str(f.Path) + " ]"
}

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

// Operands of temporal operators are parenthesised when they are Boolean combinations, although
// the grammar does not need it: F ("a" | "b") does not read as (F "a") | "b".

func temporal(f StateFormula) string { return operand(f, precNot) }

func (f *Reach) String() string { return "F " + temporal(f.Target) }

func (f *Cumulative) String() string {
	if f.K == nil {
		return "C"
	}
	return "C<=" + operand(f.K, precAdd)
}

func (f *Instant) String() string { return "I=" + operand(f.K, precAdd) }

func (f *LongRun) String() string { return "S" }

func (s *Steps) String() string {
	if s == nil {
		return ""
	}
	if s.Interval {
		return "[" + operand(s.Lo, precAdd) + "," + operand(s.Hi, precAdd) + "]"
	}
	return s.Op.String() + operand(s.K, precAdd)
}

func (f *Next) String() string { return "X " + temporal(f.F) }

func (f *Until) String() string {
	return temporal(f.L) + " " + f.Op.String() + f.Steps.String() + " " + temporal(f.R)
}

func (f *Eventually) String() string { return "F" + f.Steps.String() + " " + temporal(f.F) }

func (f *Globally) String() string { return "G" + f.Steps.String() + " " + temporal(f.F) }

func (f *PathExpr) String() string { return "(" + str(f.P) + ")" }

func (f *LTL) String() string { return str(f.F) }

func (f *CoSafe) String() string { return str(f.Path) }
