package pmnf

import (
	"math"
	"strconv"
	"strings"
)

// PRISM writes the expression in the PRISM modelling language, the parameters named by ident
// (PRISM identifiers: "len(xs)" is not one). PRISM has no exp and no log2, so the logistic link
// becomes 1/(1+pow(e, -z)) (e to double precision: within a few ulps of math.Exp at the |z| a
// fitted probability meets) and log2(x) becomes log(x,2); sqrt is pow(x,0.5); a regression
// tree's threshold is PRISM's ? :. Values stay those of Value but where Value gives NaN (log2
// of x ≤ 0), which PRISM evaluates to ±infinity or NaN instead.
func (e Expr) PRISM(ident func(param string) string) string {
	if e.Tree != nil {
		return e.Tree.prism(ident)
	}
	var b strings.Builder
	terms := e.Terms
	if len(terms) > 1 && terms[0].Coef == 0 {
		terms = terms[1:] // a zero constant says nothing
	}
	for k, t := range terms {
		c := writeSign(&b, k, t.Coef)
		parts := []string{prismNum(c)}
		for _, f := range t.Factors {
			x := ident(f.Param)
			switch {
			case f.I == 1:
				parts = append(parts, x)
			case f.I != 0:
				parts = append(parts, "pow("+x+", "+prismNum(f.I)+")")
			}
			switch {
			case f.J == 1:
				parts = append(parts, "log("+x+", 2)")
			case f.J > 1:
				parts = append(parts, "pow(log("+x+", 2), "+strconv.Itoa(f.J)+")")
			}
		}
		if len(parts) > 1 && c == 1 {
			parts = parts[1:]
		}
		b.WriteString(strings.Join(parts, "*"))
	}
	if len(terms) == 0 {
		b.WriteString("0")
	}
	if e.Link == Logistic {
		return "1/(1 + pow(" + prismNum(math.E) + ", -(" + b.String() + ")))"
	}
	return b.String()
}

func (n *Node) prism(ident func(string) string) string {
	switch n.Op {
	case "const":
		if n.Value < 0 {
			return "(" + prismNum(n.Value) + ")"
		}
		return prismNum(n.Value)
	case "param":
		return ident(n.Param)
	case "lt":
		return "(" + ident(n.Param) + " < " + prismNum(n.Value) + " ? " + n.Args[0].prism(ident) + " : " + n.Args[1].prism(ident) + ")"
	case "+", "-", "*", "/":
		return "(" + n.Args[0].prism(ident) + " " + n.Op + " " + n.Args[1].prism(ident) + ")"
	case "log2":
		return "log(" + n.Args[0].prism(ident) + ", 2)"
	case "sqrt":
		return "pow(" + n.Args[0].prism(ident) + ", 0.5)"
	}
	return "0" // Validate admits no other operation
}

// prismNum writes a number so that PRISM reads it back exactly: the shortest decimal that
// round-trips, in PRISM's exponent syntax, always with a point so that PRISM reads a double.
func prismNum(v float64) string {
	s := strconv.FormatFloat(v, 'g', -1, 64)
	if !strings.ContainsAny(s, ".eEnN") {
		s += ".0"
	}
	return s
}
