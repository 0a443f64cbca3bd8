package pctl

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// SyntaxError is a malformed property. Msg says what was expected and what was found.
type SyntaxError struct {
	// Line is the 1-based line in a properties file; 0 for Parse, which has no lines.
	Line int
	// Col is the 1-based rune column: within the line for ParseFile, within the text for Parse.
	Col int
	Msg string
}

func (e *SyntaxError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("line %d, column %d: %s", e.Line, e.Col, e.Msg)
	}
	return fmt.Sprintf("column %d: %s", e.Col, e.Msg)
}

// maxNesting bounds the parser's recursion, so that hostile input ("((((...") gets an error
// instead of exhausting the stack, which Go cannot recover from.
const maxNesting = 1000

// reserved are PRISM's operator keywords, which cannot name a variable in s=8.
var reserved = map[string]bool{
	"true": true, "false": true, "P": true, "R": true, "S": true,
	"X": true, "U": true, "F": true, "G": true, "C": true, "I": true,
}

// Parse parses one property in PRISM's syntax for DTMCs. Newlines are blanks, comments are
// allowed; node and error columns count runes from the start of src.
func Parse(src string) (StateFormula, error) {
	p := &parser{toks: lex([]rune(src), false), end: `"&", "|", "=>", "<=>" or end of input`}
	return p.property()
}

// ParseFile parses a properties file: properties separated by newlines or ";", each optionally
// named ("name": P=? [ F "end" ]), with // and /* */ comments. A block comment may span lines
// without ending the property it sits in. It stops at the first error, whose Line and Col are
// the file's line and the rune column within that line; node columns are within their line too.
func ParseFile(src string) ([]Property, error) {
	runes := []rune(src)
	toks := lex(runes, true)
	var props []Property
	named := map[string]int{}
	start := 0
	for i := range toks {
		t := &toks[i]
		switch t.kind {
		case tNewline:
			t.text = "end of line"
		case tSemi:
			t.text = `";"`
		case tEOF:
		default:
			continue
		}
		// The separator becomes the group's end of input, named as what it really is.
		t.kind = tEOF
		group := toks[start : i+1]
		start = i + 1
		if len(group) == 1 {
			continue
		}
		first, last := group[0], group[len(group)-2]
		prop := Property{Line: first.line, Text: strings.TrimSpace(string(runes[first.off:last.end]))}
		body := group
		if len(group) >= 3 && first.kind == tString && group[1].kind == tColon {
			prop.Name = first.text[1 : len(first.text)-1]
			if prop.Name == "" {
				return nil, &SyntaxError{Line: first.line, Col: first.col, Msg: `expected a property name between the quotes, found ""`}
			}
			if line, dup := named[prop.Name]; dup {
				return nil, &SyntaxError{Line: first.line, Col: first.col,
					Msg: fmt.Sprintf("expected a property name not used before, found %s (already used on line %d)", quoteShort(first.text, false), line)}
			}
			named[prop.Name] = first.line
			body = group[2:]
		}
		p := &parser{toks: body, end: `"&", "|", "=>", "<=>", ";" or end of line`}
		f, err := p.property()
		if err != nil {
			return nil, err
		}
		prop.Formula = f
		props = append(props, prop)
	}
	return props, nil
}

type parser struct {
	toks  []token // always ends with tEOF
	i     int
	depth int
	end   string // what may follow a complete property
}

func (p *parser) peek() token { return p.toks[p.i] }

func (p *parser) next() token {
	t := p.toks[p.i]
	if t.kind != tEOF {
		p.i++
	}
	return t
}

// fail reports that expected was not found at t.
func (p *parser) fail(t token, expected string) error {
	if t.kind == tIllegal && t.msg != "" {
		return p.failMsg(t, t.msg)
	}
	return p.failMsg(t, "expected "+expected+", found "+describe(t))
}

func (p *parser) failMsg(t token, msg string) error {
	return &SyntaxError{Line: t.line, Col: t.col, Msg: msg}
}

func describe(t token) string {
	switch t.kind {
	case tEOF:
		return t.text
	case tIllegal:
		return "unexpected character " + strconv.Quote(t.text)
	case tString:
		return quoteShort(t.text, false)
	}
	return quoteShort(t.text, true)
}

// quoteShort keeps messages readable when the offending token is a long name.
func quoteShort(s string, quote bool) string {
	const max = 30
	if utf8.RuneCountInString(s) > max {
		s = string([]rune(s)[:max-3]) + "..."
	}
	if quote {
		return `"` + s + `"`
	}
	return s
}

// after names the tokens consumed since index from, for messages such as `expected "[" after
// P>=0.9`: a lone token is quoted, a run of them is shown as written without blanks.
func (p *parser) after(from int) string {
	if p.i-from == 1 {
		return "after " + describe(p.toks[from])
	}
	var b strings.Builder
	for _, t := range p.toks[from:p.i] {
		b.WriteString(t.text)
	}
	return "after " + quoteShort(b.String(), false)
}

func (p *parser) enter(t token) error {
	p.depth++
	if p.depth > maxNesting {
		return p.failMsg(t, fmt.Sprintf("expected at most %d nested operators, found more", maxNesting))
	}
	return nil
}

func (p *parser) leave() { p.depth-- }

func (p *parser) property() (StateFormula, error) {
	if p.peek().kind == tEOF {
		return nil, p.fail(p.peek(), "a property")
	}
	f, err := p.formula("a state formula")
	if err != nil {
		return nil, err
	}
	if t := p.peek(); t.kind != tEOF {
		return nil, p.fail(t, p.end)
	}
	return f, nil
}

// formula parses a state formula; what describes it for an error at its first token.
func (p *parser) formula(what string) (StateFormula, error) {
	return p.leftAssoc(what, tIff, Iff, "<=>", p.implies)
}

func (p *parser) implies(what string) (StateFormula, error) {
	start := p.peek()
	l, err := p.or(what)
	if err != nil {
		return nil, err
	}
	if p.peek().kind != tImplies {
		return l, nil
	}
	op := p.next()
	if err := p.enter(op); err != nil {
		return nil, err
	}
	defer p.leave()
	r, err := p.implies(`a state formula after "=>"`)
	if err != nil {
		return nil, err
	}
	return &Binary{pos: pos{start.col}, Op: Implies, L: l, R: r}, nil
}

func (p *parser) or(what string) (StateFormula, error) {
	return p.leftAssoc(what, tOr, Or, "|", p.and)
}

func (p *parser) and(what string) (StateFormula, error) {
	return p.leftAssoc(what, tAnd, And, "&", p.unary)
}

// leftAssoc parses operand (sym operand)* into left-nested Binary nodes, the shape of every
// left-associative level.
func (p *parser) leftAssoc(what string, kind tokKind, op BinOp, sym string, operand func(string) (StateFormula, error)) (StateFormula, error) {
	start := p.peek()
	l, err := operand(what)
	if err != nil {
		return nil, err
	}
	for p.peek().kind == kind {
		p.next()
		r, err := operand(`a state formula after "` + sym + `"`)
		if err != nil {
			return nil, err
		}
		l = &Binary{pos: pos{start.col}, Op: op, L: l, R: r}
	}
	return l, nil
}

func (p *parser) unary(what string) (StateFormula, error) {
	t := p.peek()
	if err := p.enter(t); err != nil {
		return nil, err
	}
	defer p.leave()
	if t.kind != tNot {
		return p.primary(what)
	}
	p.next()
	f, err := p.unary(`a state formula after "!"`)
	if err != nil {
		return nil, err
	}
	return &Not{pos: pos{t.col}, F: f}, nil
}

func (p *parser) primary(what string) (StateFormula, error) {
	t := p.peek()
	switch t.kind {
	case tString:
		p.next()
		name := t.text[1 : len(t.text)-1]
		if name == "" {
			return nil, p.fail(t, "a label name between the quotes")
		}
		return &Label{pos: pos{t.col}, Name: name}, nil
	case tLParen:
		p.next()
		f, err := p.formula(`a state formula after "("`)
		if err != nil {
			return nil, err
		}
		if c := p.peek(); c.kind != tRParen {
			return nil, p.fail(c, fmt.Sprintf(`")" to close the "(" at column %d`, t.col))
		}
		p.next()
		return f, nil
	case tIdent:
		switch t.text {
		case "true", "false":
			p.next()
			return &Bool{pos: pos{t.col}, Value: t.text == "true"}, nil
		case "P":
			return p.prob()
		case "R":
			return p.reward()
		case "S":
			return p.steady()
		case "Pmin", "Pmax", "Rmin", "Rmax", "Smin", "Smax":
			return nil, p.fail(t, fmt.Sprintf("%q (a DTMC has no nondeterminism to minimise or maximise over)", t.text[:1]))
		}
		if !reserved[t.text] {
			return p.stateCmp()
		}
	}
	return nil, p.fail(t, what)
}

var cmpOps = map[tokKind]CmpOp{tEQ: EQ, tNE: NE, tLT: LT, tLE: LE, tGT: GT, tGE: GE}

func (p *parser) stateCmp() (StateFormula, error) {
	from := p.i
	v := p.next()
	opTok := p.peek()
	op, ok := cmpOps[opTok.kind]
	if !ok {
		return nil, p.fail(opTok, fmt.Sprintf("a comparison (=, !=, <, <=, > or >=) after %q", v.text))
	}
	p.next()
	n, err := p.integer(from, "an integer", true)
	if err != nil {
		return nil, err
	}
	return &StateCmp{pos: pos{v.col}, Var: v.text, Op: op, Value: n}, nil
}

// integer reads an integer literal (with a minus sign when signed) following the tokens from
// index from on; what says what it is for the error message.
func (p *parser) integer(from int, what string, signed bool) (int, error) {
	ctx := p.after(from)
	t := p.peek()
	sign := ""
	if signed && t.kind == tMinus {
		p.next()
		sign = "-"
		t = p.peek()
	}
	if t.kind != tNumber || strings.ContainsAny(t.text, ".eE") {
		return 0, p.fail(t, what+" "+ctx)
	}
	p.next()
	n, err := strconv.Atoi(sign + t.text)
	if err != nil {
		return 0, p.failMsg(t, fmt.Sprintf("expected %s that fits in %d bits, found %s", what, strconv.IntSize, quoteShort(sign+t.text, true)))
	}
	return n, nil
}

// bound parses =? or "op value" after the operator at index from, and the "[" that opens the
// operator's argument. A query is accepted anywhere: rejecting one nested in a condition is the
// checker's job, as in PRISM, where it is a type error.
func (p *parser) bound(from int, prob bool) (Bound, error) {
	op := p.toks[from].text
	head := p.after(from)
	t := p.next()
	var b Bound
	switch t.kind {
	case tEQ:
		if q := p.peek(); q.kind != tQuestion {
			return b, p.fail(q, `"?" `+p.after(from)+" ("+op+"=? asks for the value; a bound uses <, <=, > or >=)")
		}
		p.next()
		return Bound{Op: Query}, p.open(from)
	case tLT, tLE, tGT, tGE:
		b.Op = cmpOps[t.kind]
	default:
		return b, p.fail(t, "a bound (=?, <, <=, > or >=) "+head)
	}
	what := "a probability"
	if !prob {
		what = "a reward bound"
	}
	ctx := p.after(from)
	vt := p.peek()
	sign := ""
	if vt.kind == tMinus {
		p.next()
		sign = "-"
	}
	if n := p.peek(); n.kind != tNumber {
		return b, p.fail(n, what+" "+ctx)
	}
	text := sign + p.next().text
	// ParseFloat's only possible error here is ErrRange: the lexer made the syntax.
	v, err := strconv.ParseFloat(text, 64)
	switch {
	case prob && (err != nil || v < 0 || v > 1):
		return b, p.failMsg(vt, "expected a probability in [0,1], found "+quoteShort(text, true))
	case !prob && (err != nil || v < 0):
		return b, p.failMsg(vt, "expected a finite reward bound >= 0, found "+quoteShort(text, true))
	}
	if v == 0 {
		v = 0 // -0 would print as "-0"
	}
	b.Value = v
	return b, p.open(from)
}

// open consumes the "[" after the bound of the operator at index from.
func (p *parser) open(from int) error {
	if t := p.peek(); t.kind != tLBrack {
		return p.fail(t, `"[" `+p.after(from))
	}
	p.next()
	return nil
}

func (p *parser) prob() (StateFormula, error) {
	from := p.i
	pt := p.next()
	b, err := p.bound(from, true)
	if err != nil {
		return nil, err
	}
	path, err := p.path()
	if err != nil {
		return nil, err
	}
	if t := p.peek(); t.kind != tRBrack {
		return nil, p.fail(t, `"]" to close P[...]`)
	}
	p.next()
	n := &Prob{pos: pos{pt.col}, Bound: b, Path: path}
	return n, nil
}

func (p *parser) path() (PathFormula, error) {
	t := p.peek()
	if t.kind == tIdent {
		switch t.text {
		case "X":
			p.next()
			f, err := p.formula(`a state formula after "X"`)
			if err != nil {
				return nil, err
			}
			return &Next{pos: pos{t.col}, F: f}, nil
		case "F", "G":
			from := p.i
			p.next()
			bounded, k, err := p.stepBound(from)
			if err != nil {
				return nil, err
			}
			f, err := p.formula("a state formula " + p.after(from))
			if err != nil {
				return nil, err
			}
			if t.text == "F" {
				return &Eventually{pos: pos{t.col}, F: f, Bounded: bounded, Bound: k}, nil
			}
			return &Globally{pos: pos{t.col}, F: f, Bounded: bounded, Bound: k}, nil
		}
	}
	l, err := p.formula("a path formula (X, F, G or U)")
	if err != nil {
		return nil, err
	}
	u := p.peek()
	if u.kind != tIdent || u.text != "U" {
		return nil, p.fail(u, `"U" (P[...] needs a path formula: X, F, G or U)`)
	}
	from := p.i
	p.next()
	bounded, k, err := p.stepBound(from)
	if err != nil {
		return nil, err
	}
	r, err := p.formula("a state formula " + p.after(from))
	if err != nil {
		return nil, err
	}
	return &Until{pos: pos{t.col}, L: l, R: r, Bounded: bounded, Bound: k}, nil
}

// stepBound parses the optional <=k after F, G, U or C, whose keyword is at index from.
func (p *parser) stepBound(from int) (bool, int, error) {
	switch t := p.peek(); t.kind {
	case tLE:
		p.next()
		k, err := p.integer(from, "a non-negative integer step bound", false)
		return true, k, err
	case tLT, tGT, tGE, tEQ, tNE:
		return false, 0, p.fail(t, fmt.Sprintf(`"<=" (the only step bound is %s<=k)`, p.toks[from].text))
	}
	return false, 0, nil
}

func (p *parser) reward() (StateFormula, error) {
	from := p.i
	rt := p.next()
	n := &Reward{pos: pos{rt.col}}
	if p.peek().kind == tLBrace {
		p.next()
		t := p.peek()
		switch {
		case t.kind == tString:
			p.next()
			n.RewardName = t.text[1 : len(t.text)-1]
			if n.RewardName == "" {
				return nil, p.fail(t, "a reward structure name between the quotes")
			}
		case t.kind == tNumber && !strings.ContainsAny(t.text, ".eE"):
			p.next()
			i, err := strconv.Atoi(t.text)
			if err != nil || i < 1 {
				return nil, p.failMsg(t, "expected a reward structure index >= 1, found "+quoteShort(t.text, true))
			}
			n.RewardIndex = i
		default:
			return nil, p.fail(t, `a reward structure name ("name") or index (1, 2, ...) `+p.after(from))
		}
		if t := p.peek(); t.kind != tRBrace {
			return nil, p.fail(t, `"}" to close R{...}`)
		}
		p.next()
	}
	b, err := p.bound(from, false)
	if err != nil {
		return nil, err
	}
	n.Bound = b
	t := p.peek()
	switch {
	case t.kind == tIdent && t.text == "F":
		p.next()
		if le := p.peek(); le.kind == tLE {
			return nil, p.fail(le, `a state formula after "F" (R[F φ] takes no step bound)`)
		}
		f, err := p.formula(`a state formula after "F"`)
		if err != nil {
			return nil, err
		}
		n.Kind = &Reach{pos: pos{t.col}, Target: f}
	case t.kind == tIdent && t.text == "C":
		at := p.i
		p.next()
		bounded, k, err := p.stepBound(at)
		if err != nil {
			return nil, err
		}
		n.Kind = &Cumulative{pos: pos{t.col}, K: k, Total: !bounded}
	case t.kind == tIdent && t.text == "I":
		at := p.i
		p.next()
		if e := p.peek(); e.kind != tEQ {
			return nil, p.fail(e, `"=" after "I" (I=k)`)
		}
		p.next()
		k, err := p.integer(at, "a non-negative integer step", false)
		if err != nil {
			return nil, err
		}
		n.Kind = &Instant{pos: pos{t.col}, K: k}
	default:
		return nil, p.fail(t, "a reward kind (F φ, C<=k, C or I=k)")
	}
	if t := p.peek(); t.kind != tRBrack {
		return nil, p.fail(t, `"]" to close R[...]`)
	}
	p.next()
	return n, nil
}

func (p *parser) steady() (StateFormula, error) {
	from := p.i
	st := p.next()
	b, err := p.bound(from, true)
	if err != nil {
		return nil, err
	}
	f, err := p.formula("a state formula inside S[...]")
	if err != nil {
		return nil, err
	}
	if t := p.peek(); t.kind != tRBrack {
		return nil, p.fail(t, `"]" to close S[...]`)
	}
	p.next()
	n := &Steady{pos: pos{st.col}, Bound: b, F: f}
	return n, nil
}
