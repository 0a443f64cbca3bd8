// Package pmnf holds parametric expressions in the performance-model normal form of Extra-P
// (Calotoiu et al.): a constant plus terms c·Π_p p^i·log2(p)^j over the parameters p, and the
// least-squares search for the terms that fit measurements best under cross-validation. It owns
// expressions, their evaluation, printing and parsing, and fitting; it knows nothing of traces,
// programs or models.
package pmnf

import (
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
)

// Factor is p^I·log2(p)^J for parameter P.
type Factor struct {
	Param string  `json:"param"`
	I     float64 `json:"i"`
	J     int     `json:"j"`
}

// Term is Coef·Π Factors; without factors it is the constant.
type Term struct {
	Coef    float64  `json:"coef"`
	Factors []Factor `json:"factors,omitempty"`
}

// Expr is Σ Terms, or with Link "logistic" the probability 1/(1 + e^−ΣTerms) (logistic
// regression's law of a branch probability).
type Expr struct {
	Terms []Term `json:"terms"`
	Link  string `json:"link,omitempty"`
	// Tree, when set, is the law instead of the terms: a regression tree (see FitTree).
	Tree *Node `json:"tree,omitempty"`
}

// Complexity orders laws of equal error: the number of terms, or for a tree half its nodes
// (rounded up), so that a + b·(n·n) from symbolic regression counts as more than c + a·n².
func (e Expr) Complexity() int {
	if e.Tree != nil {
		return (e.Tree.size() + 1) / 2
	}
	return len(e.Terms)
}

// Empty reports whether the expression has neither terms nor a tree: no law.
func (e Expr) Empty() bool { return len(e.Terms) == 0 && e.Tree == nil }

// Logistic is the link of a logistic law.
const Logistic = "logistic"

// Value evaluates the factor at x; log2 of x ≤ 0 is undefined and gives NaN (as 0 to a negative
// power gives +Inf): hypotheses that meet one are not fitted.
func (f Factor) Value(x float64) float64 {
	v := 1.0
	if f.I != 0 {
		v = math.Pow(x, f.I)
	}
	if f.J != 0 {
		if x <= 0 {
			return math.NaN()
		}
		v *= math.Pow(math.Log2(x), float64(f.J))
	}
	return v
}

// Value evaluates the term at the parameters' values; a missing parameter gives NaN.
func (t Term) Value(at map[string]float64) float64 {
	v := t.Coef
	for _, f := range t.Factors {
		x, ok := at[f.Param]
		if !ok {
			return math.NaN()
		}
		v *= f.Value(x)
	}
	return v
}

// Value evaluates the expression.
func (e Expr) Value(at map[string]float64) float64 {
	if e.Tree != nil {
		return e.Tree.Eval(at)
	}
	var v float64
	for _, t := range e.Terms {
		v += t.Value(at)
	}
	if e.Link == Logistic {
		return 1 / (1 + math.Exp(-v))
	}
	return v
}

// Params lists the parameters the expression uses, sorted.
func (e Expr) Params() []string {
	seen := map[string]bool{}
	var ps []string
	if e.Tree != nil {
		e.Tree.params(seen)
		for p := range seen {
			ps = append(ps, p)
		}
		sort.Strings(ps)
		return ps
	}
	for _, t := range e.Terms {
		for _, f := range t.Factors {
			if !seen[f.Param] {
				seen[f.Param] = true
				ps = append(ps, f.Param)
			}
		}
	}
	sort.Strings(ps)
	return ps
}

// Form is the expression's shape without coefficients, "n·log2(n) + c": what recovery of a law
// compares.
func (e Expr) Form() string {
	if e.Tree != nil {
		return treeForm(e.Tree)
	}
	var parts []string
	for _, t := range e.Terms {
		if len(t.Factors) == 0 {
			continue
		}
		parts = append(parts, factorsString(t.Factors))
	}
	sort.Strings(parts)
	form := "c"
	if len(parts) > 0 {
		form = strings.Join(parts, " + ") + " + c"
	}
	if e.Link == Logistic {
		return "logistic(" + form + ")"
	}
	return form
}

// String writes the expression as "0.5·n·log2(n) + 3", terms in the order they are kept; a
// logistic law as "logistic(2 - 0.5·n)".
func (e Expr) String() string {
	if e.Tree != nil {
		return e.Tree.String()
	}
	if e.Link == Logistic {
		return "logistic(" + Expr{Terms: e.Terms}.String() + ")"
	}
	if len(e.Terms) == 0 {
		return "0"
	}
	terms := e.Terms
	if len(terms) > 1 && len(terms[0].Factors) == 0 && math.Abs(terms[0].Coef) < 1e-9 {
		// A constant that is rounding error of an exact law (3.5e-16 + n) is left out.
		terms = terms[1:]
	}
	var b strings.Builder
	for k, t := range terms {
		c := writeSign(&b, k, t.Coef)
		if c == 0 {
			c = 0 // not -0
		}
		num := strconv.FormatFloat(c, 'g', 6, 64)
		if len(t.Factors) == 0 {
			b.WriteString(num)
			continue
		}
		if num != "1" {
			b.WriteString(num + "·")
		}
		b.WriteString(factorsString(t.Factors))
	}
	return b.String()
}

// writeSign writes what goes before the k-th term of a sum whose coefficient is c — a minus sign
// for a negative first term, " - " or " + " between terms — and returns |c|, what follows it.
func writeSign(b *strings.Builder, k int, c float64) float64 {
	switch {
	case k == 0 && c < 0:
		b.WriteString("-")
	case k > 0 && c < 0:
		b.WriteString(" - ")
	case k > 0:
		b.WriteString(" + ")
	}
	return math.Abs(c)
}

func factorsString(fs []Factor) string {
	var parts []string
	for _, f := range fs {
		if f.I != 0 {
			switch {
			case f.I == 1:
				parts = append(parts, f.Param)
			case f.I == 0.5:
				parts = append(parts, "sqrt("+f.Param+")")
			default:
				parts = append(parts, f.Param+"^"+strconv.FormatFloat(f.I, 'g', -1, 64))
			}
		}
		switch f.J {
		case 0:
		case 1:
			parts = append(parts, "log2("+f.Param+")")
		default:
			parts = append(parts, "log2("+f.Param+")^"+strconv.Itoa(f.J))
		}
	}
	return strings.Join(parts, "·")
}

// Validate checks that coefficients are finite, factors name parameters and the link is known.
func (e Expr) Validate() error {
	if e.Link != "" && e.Link != Logistic {
		return fmt.Errorf("link %q: want none or %q", e.Link, Logistic)
	}
	if e.Tree != nil {
		return e.Tree.validate(0)
	}
	for k, t := range e.Terms {
		if math.IsNaN(t.Coef) || math.IsInf(t.Coef, 0) {
			return fmt.Errorf("term %d: coefficient %v is not finite", k+1, t.Coef)
		}
		for _, f := range t.Factors {
			if f.Param == "" {
				return fmt.Errorf("term %d: a factor without a parameter", k+1)
			}
			if math.IsNaN(f.I) || math.IsInf(f.I, 0) || f.J < 0 || f.J > 3 {
				return fmt.Errorf("term %d: factor %s^%v·log2^%d is out of the normal form", k+1, f.Param, f.I, f.J)
			}
		}
	}
	return nil
}

// UnmarshalJSON reads an expression and validates it.
func (e *Expr) UnmarshalJSON(data []byte) error {
	var raw struct {
		Terms []Term `json:"terms"`
		Link  string `json:"link"`
		Tree  *Node  `json:"tree"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		return err
	}
	x := Expr{Terms: raw.Terms, Link: raw.Link, Tree: raw.Tree}
	if err := x.Validate(); err != nil {
		return err
	}
	*e = x
	return nil
}
