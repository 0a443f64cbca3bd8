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

// MaxSteps bounds step bounds: a bound is a number of matrix-vector products, and one beyond
// this would run for days; the checker applies it to bounds given by constants too.
const MaxSteps = 1<<31 - 1

// maxNesting bounds the parser's recursion, so that hostile input ("((((...") gets an error
// instead of exhausting the stack, which Go cannot recover from.
const maxNesting = 1000

// reserved are PRISM's keywords, which cannot name a variable or constant.
var reserved = map[string]bool{
	"true": true, "false": true, "P": true, "R": true, "S": true, "E": true, "A": true,
	"X": true, "U": true, "W": true, "F": true, "G": true, "C": true, "I": true,
	"filter": true, "func": true, "min": true, "max": true, "const": true, "label": true,
	"init": true, "int": true, "double": true, "bool": true,
}

// arity gives the number of arguments of each built-in function; -2 means two or more.
var arity = map[string]int{"min": -2, "max": -2, "floor": 1, "ceil": 1, "round": 1, "pow": 2, "mod": 2, "log": 2}

// FilterOps are the operators of filter(op, prop, states), as PRISM names them.
var FilterOps = []string{"min", "max", "argmin", "argmax", "count", "sum", "avg", "first", "range", "forall", "exists", "print", "printall", "state"}

// Parse parses one property in PRISM's syntax for DTMCs. Newlines are blanks, comments are
// allowed; node and error columns count runes from the start of src.
func Parse(src string) (StateFormula, error) {
	p := &parser{toks: lex([]rune(src), false), end: "an operator or end of input"}
	return p.property()
}

// ParseFile parses a properties file: properties separated by newlines or ";" (a property goes on
// across lines while brackets are open or a line ends or starts with an operator), each optionally
// named ("name": P=? [ F "end" ]), constant declarations (const double p = 0.3; const int N;),
// label definitions (label "done" = x=3;), and // and /* */ comments. A block comment may span
// lines without ending the property it sits in. A property that does not parse gets its error
// in Property.Err and the others are still read; a bad declaration, on which any property may
// depend, is an error for the whole file. Error lines and columns are the file's line and the
// rune column within that line; node columns are within their line too.
func ParseFile(src string) (*File, error) {
	runes := []rune(src)
	toks := joinLines(lex(runes, true))
	file := &File{}
	named := map[string]int{}
	declared := map[string]int{}
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
		end := `an operator, ";" or end of line`
		if first.kind == tIdent && (first.text == "const" || first.text == "label") {
			p := &parser{toks: group, end: end}
			if err := p.declaration(file, declared); err != nil {
				return nil, err
			}
			continue
		}
		prop := Property{Line: first.line, Text: strings.Trim(string(runes[first.off:last.end]), blanks)}
		body := group
		if len(group) >= 3 && first.kind == tString && group[1].kind == tColon {
			prop.Name = first.text[1 : len(first.text)-1]
			body = group[2:]
			switch line, dup := named[prop.Name]; {
			case prop.Name == "":
				prop.Err = &SyntaxError{Line: first.line, Col: first.col, Msg: `expected a property name between the quotes, found ""`}
			case dup:
				prop.Err = &SyntaxError{Line: first.line, Col: first.col,
					Msg: fmt.Sprintf("expected a property name not used before, found %s (already used on line %d)", quoteShort(first.text, false), line)}
			default:
				named[prop.Name] = first.line
			}
		}
		if prop.Err == nil {
			p := &parser{toks: body, end: end}
			prop.Formula, prop.Err = p.property()
		}
		file.Props = append(file.Props, prop)
	}
	return file, nil
}

// blanks are the characters the lexer skips (a Unicode space such as U+0085 is not one of them).
const blanks = " \t\n\r\f\v\uFEFF"

// continues are the tokens after which a property cannot end, and before which none can start:
// a line ending in one, or a line starting with one, continues the property, as PRISM's grammar
// reads a property across lines for as long as it can.
var (
	trailing = map[tokKind]bool{tAnd: true, tOr: true, tImplies: true, tIff: true, tNot: true, tEQ: true, tNE: true,
		tLT: true, tLE: true, tGT: true, tGE: true, tPlus: true, tMinus: true, tStar: true, tSlash: true,
		tQuestion: true, tColon: true, tComma: true, tLParen: true, tLBrack: true, tLBrace: true, tHash: true}
	leading = map[tokKind]bool{tAnd: true, tOr: true, tImplies: true, tIff: true, tEQ: true, tNE: true,
		tLT: true, tLE: true, tGT: true, tGE: true, tPlus: true, tStar: true, tSlash: true, tQuestion: true,
		tColon: true, tComma: true, tRParen: true, tRBrack: true, tRBrace: true}
)

// joinLines drops the newlines inside a property: within brackets, after a token that needs a
// right operand, and before one that needs a left operand.
func joinLines(toks []token) []token {
	out := toks[:0:0]
	depth := 0
	for i, t := range toks {
		switch t.kind {
		case tLParen, tLBrack, tLBrace:
			depth++
		case tRParen, tRBrack, tRBrace:
			depth--
		case tSemi:
			depth = 0
		case tNewline:
			prev := -1
			if len(out) > 0 {
				prev = len(out) - 1
			}
			next := i + 1
			for next < len(toks) && toks[next].kind == tNewline {
				next++
			}
			if depth > 0 || (prev >= 0 && out[prev].kind != tNewline && out[prev].kind != tSemi && trailing[out[prev].kind]) || leading[toks[next].kind] {
				continue
			}
			depth = 0
		}
		out = append(out, t)
	}
	return out
}

// Err returns the first property's error, if any property has one.
func (f *File) Err() error {
	for _, p := range f.Props {
		if p.Err != nil {
			return p.Err
		}
	}
	return nil
}

type parser struct {
	toks  []token // always ends with tEOF
	i     int
	depth int
	end   string // what may follow a complete property
	// inPath is set while parsing the argument of P, E or A, where parentheses may hold path
	// formulas (LTL).
	inPath bool
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
	return "after " + quoteShort(p.span(from), false)
}

func (p *parser) enter(t token) error {
	p.depth++
	if p.depth > maxNesting {
		return p.failMsg(t, fmt.Sprintf("expected at most %d nested operators, found more", maxNesting))
	}
	return nil
}

func (p *parser) leave() { p.depth-- }

func (p *parser) expect(kind tokKind, what string) (token, error) {
	t := p.peek()
	if t.kind != kind {
		return t, p.fail(t, what)
	}
	return p.next(), nil
}

func (p *parser) property() (StateFormula, error) {
	if p.peek().kind == tEOF {
		return nil, p.fail(p.peek(), "a property")
	}
	f, err := p.expr("a state formula")
	if err != nil {
		return nil, err
	}
	if t := p.peek(); t.kind != tEOF {
		return nil, p.fail(t, p.end)
	}
	return f, nil
}

// declaration parses const [int|double|bool] name [= expr] or label "name" = expr.
func (p *parser) declaration(f *File, declared map[string]int) error {
	kw := p.next()
	if kw.text == "label" {
		t, err := p.expect(tString, `a label name in quotes after "label"`)
		if err != nil {
			return err
		}
		name := t.text[1 : len(t.text)-1]
		if name == "" {
			return p.fail(t, "a label name between the quotes")
		}
		if _, err := p.expect(tEQ, fmt.Sprintf(`"=" after label %s`, t.text)); err != nil {
			return err
		}
		e, err := p.expr("a state formula")
		if err != nil {
			return err
		}
		if t := p.peek(); t.kind != tEOF {
			return p.fail(t, p.end)
		}
		f.Labels = append(f.Labels, LabelDef{Name: name, Expr: e, Line: kw.line, Col: kw.col})
		return nil
	}
	typ := "int"
	if t := p.peek(); t.kind == tIdent && (t.text == "int" || t.text == "double" || t.text == "bool") {
		typ = p.next().text
	}
	t := p.peek()
	if t.kind != tIdent || reserved[t.text] {
		return p.fail(t, "a constant name")
	}
	p.next()
	if line, dup := declared[t.text]; dup {
		return p.failMsg(t, fmt.Sprintf("expected a constant name not declared before, found %q (declared on line %d)", t.text, line))
	}
	declared[t.text] = t.line
	c := Const{Name: t.text, Type: typ, Line: t.line, Col: t.col}
	if p.peek().kind == tEQ {
		p.next()
		v, err := p.expr("a value after " + strconv.Quote(t.text+"="))
		if err != nil {
			return err
		}
		c.Value = v
	}
	if e := p.peek(); e.kind != tEOF {
		return p.fail(e, `"=" or ";" after the constant's name`)
	}
	f.Consts = append(f.Consts, c)
	return nil
}

// expr parses an expression; what describes it for an error at its first token.
func (p *parser) expr(what string) (StateFormula, error) {
	start := p.peek()
	if err := p.enter(start); err != nil {
		return nil, err
	}
	defer p.leave()
	c, err := p.implies(what)
	if err != nil {
		return nil, err
	}
	if p.peek().kind != tQuestion {
		return c, nil
	}
	p.next()
	a, err := p.implies(`an expression after "?"`)
	if err != nil {
		return nil, err
	}
	if _, err := p.expect(tColon, `":" in the conditional c ? a : b`); err != nil {
		return nil, err
	}
	b, err := p.expr(`an expression after ":"`)
	if err != nil {
		return nil, err
	}
	return &Ternary{pos: pos{start.col}, Cond: c, Then: a, Else: b}, nil
}

// level is one left-associative binary level: the tokens it takes, the node each makes, and the
// level below.
type level struct {
	ops  map[tokKind]func(col int, l, r StateFormula) StateFormula
	next func(string) (StateFormula, error)
}

func boolOp(op BinOp) func(int, StateFormula, StateFormula) StateFormula {
	return func(col int, l, r StateFormula) StateFormula { return &Binary{pos: pos{col}, Op: op, L: l, R: r} }
}

func cmpOp(op CmpOp) func(int, StateFormula, StateFormula) StateFormula {
	return func(col int, l, r StateFormula) StateFormula { return &Compare{pos: pos{col}, Op: op, L: l, R: r} }
}

func (p *parser) leftAssoc(what string, lv level) (StateFormula, error) {
	start := p.peek()
	l, err := lv.next(what)
	if err != nil {
		return nil, err
	}
	for {
		make, ok := lv.ops[p.peek().kind]
		if !ok {
			return l, nil
		}
		op := p.next()
		r, err := lv.next(fmt.Sprintf("an expression after %q", op.text))
		if err != nil {
			return nil, err
		}
		l = make(start.col, l, r)
	}
}

// The levels, from the loosest: => <=> | & ! (=, !=) (<, <=, >, >=) (+, -) (*, /) unary minus,
// as in PRISM's grammar; all binary ones are left-associative.

func (p *parser) implies(what string) (StateFormula, error) {
	return p.leftAssoc(what, level{map[tokKind]func(int, StateFormula, StateFormula) StateFormula{tImplies: boolOp(Implies)}, p.iff})
}

func (p *parser) iff(what string) (StateFormula, error) {
	return p.leftAssoc(what, level{map[tokKind]func(int, StateFormula, StateFormula) StateFormula{tIff: boolOp(Iff)}, p.or})
}

func (p *parser) or(what string) (StateFormula, error) {
	return p.leftAssoc(what, level{map[tokKind]func(int, StateFormula, StateFormula) StateFormula{tOr: boolOp(Or)}, p.and})
}

func (p *parser) and(what string) (StateFormula, error) {
	return p.leftAssoc(what, level{map[tokKind]func(int, StateFormula, StateFormula) StateFormula{tAnd: boolOp(And)}, p.not})
}

func (p *parser) not(what string) (StateFormula, error) {
	t := p.peek()
	if t.kind != tNot {
		return p.equality(what)
	}
	if err := p.enter(t); err != nil {
		return nil, err
	}
	defer p.leave()
	p.next()
	f, err := p.not(`a state formula after "!"`)
	if err != nil {
		return nil, err
	}
	return &Not{pos: pos{t.col}, F: f}, nil
}

func (p *parser) equality(what string) (StateFormula, error) {
	return p.leftAssoc(what, level{map[tokKind]func(int, StateFormula, StateFormula) StateFormula{tEQ: cmpOp(EQ), tNE: cmpOp(NE)}, p.relational})
}

func (p *parser) relational(what string) (StateFormula, error) {
	return p.leftAssoc(what, level{map[tokKind]func(int, StateFormula, StateFormula) StateFormula{tLT: cmpOp(LT), tLE: cmpOp(LE), tGT: cmpOp(GT), tGE: cmpOp(GE)}, p.additive})
}

func (p *parser) additive(what string) (StateFormula, error) {
	return p.leftAssoc(what, level{map[tokKind]func(int, StateFormula, StateFormula) StateFormula{tPlus: boolOp(Add), tMinus: boolOp(Sub)}, p.multiplicative})
}

func (p *parser) multiplicative(what string) (StateFormula, error) {
	return p.leftAssoc(what, level{map[tokKind]func(int, StateFormula, StateFormula) StateFormula{tStar: boolOp(Mul), tSlash: boolOp(Div)}, p.negation})
}

// negation parses unary minus; on a numeric literal it folds into the literal, so that -3 is the
// number -3 (and prints back as written).
func (p *parser) negation(what string) (StateFormula, error) {
	t := p.peek()
	if t.kind != tMinus {
		return p.primary(what)
	}
	if err := p.enter(t); err != nil {
		return nil, err
	}
	defer p.leave()
	p.next()
	x, err := p.negation(`an expression after "-"`)
	if err != nil {
		return nil, err
	}
	if n, ok := x.(*Num); ok {
		v := -n.Value
		if v == 0 {
			v = 0 // -0 would print as "-0"
		}
		return &Num{pos: pos{t.col}, Value: v, Int: n.Int}, nil
	}
	return &Neg{pos: pos{t.col}, X: x}, nil
}

func (p *parser) primary(what string) (StateFormula, error) {
	t := p.peek()
	switch t.kind {
	case tNumber:
		return p.number()
	case tString:
		p.next()
		name := t.text[1 : len(t.text)-1]
		if name == "" {
			return nil, p.fail(t, "a label name between the quotes")
		}
		return &Label{pos: pos{t.col}, Name: name}, nil
	case tLParen:
		p.next()
		inner := p.expr
		if p.inPath {
			inner = p.temporal
		}
		f, err := inner(`an expression after "("`)
		if err != nil {
			return nil, err
		}
		if c := p.peek(); c.kind != tRParen {
			return nil, p.fail(c, fmt.Sprintf(`")" to close the "(" at column %d`, t.col))
		}
		p.next()
		return f, nil
	case tHash:
		p.next()
		if s := p.peek(); s.kind != tIdent || s.text != "s" || s.off != t.end {
			return nil, p.fail(s, `"s" right after "#" (#s is the state index)`)
		}
		p.next()
		return &StateIndex{pos: pos{t.col}}, nil
	case tIdent:
		if t.text == "P" || t.text == "R" || t.text == "S" || t.text == "E" || t.text == "A" || t.text == "filter" || t.text == "func" || arity[t.text] != 0 {
			// Their arguments are not path formulas of the P[...] they may sit in.
			saved := p.inPath
			p.inPath = false
			defer func() { p.inPath = saved }()
		}
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
		case "E", "A":
			return p.quant()
		case "filter":
			return p.filter()
		case "func":
			return p.oldCall()
		case "Pmin", "Pmax", "Rmin", "Rmax", "Smin", "Smax":
			return nil, p.fail(t, fmt.Sprintf("%q (a DTMC has no nondeterminism to minimise or maximise over)", t.text[:1]))
		}
		if _, ok := arity[t.text]; ok && p.toks[p.i+1].kind == tLParen {
			p.next()
			return p.call(t, t.text)
		}
		if !reserved[t.text] {
			p.next()
			if p.peek().kind == tLParen {
				return nil, p.failMsg(t, fmt.Sprintf("expected a function (min, max, floor, ceil, round, pow, mod or log), found %q", t.text))
			}
			return &Ident{pos: pos{t.col}, Name: t.text}, nil
		}
	}
	return nil, p.fail(t, what)
}

func (p *parser) number() (StateFormula, error) {
	t := p.next()
	v, err := strconv.ParseFloat(t.text, 64)
	if err != nil {
		// The lexer made the syntax, so the only possible error is ErrRange.
		return nil, p.failMsg(t, "expected a number within float64's range, found "+quoteShort(t.text, true))
	}
	return &Num{pos: pos{t.col}, Value: v, Int: !strings.ContainsAny(t.text, ".eE")}, nil
}

// call parses the "(" args ")" of function name, whose name token is t.
func (p *parser) call(t token, name string) (StateFormula, error) {
	open, err := p.expect(tLParen, fmt.Sprintf(`"(" after %q`, name))
	if err != nil {
		return nil, err
	}
	return p.callArgs(t, name, open.col)
}

// callArgs parses the arguments of function name and the ")" that closes the "(" at column open.
func (p *parser) callArgs(t token, name string, open int) (StateFormula, error) {
	c := &Call{pos: pos{t.col}, Name: name}
	for {
		a, err := p.expr(fmt.Sprintf("an argument of %s", name))
		if err != nil {
			return nil, err
		}
		c.Args = append(c.Args, a)
		if p.peek().kind != tComma {
			break
		}
		p.next()
	}
	if cl := p.peek(); cl.kind != tRParen {
		return nil, p.fail(cl, fmt.Sprintf(`"," or ")" to close the "(" at column %d`, open))
	}
	p.next()
	switch n := arity[name]; {
	case n == -2 && len(c.Args) < 2:
		return nil, p.failMsg(t, fmt.Sprintf("expected two or more arguments for %s, found %d", name, len(c.Args)))
	case n > 0 && len(c.Args) != n:
		return nil, p.failMsg(t, fmt.Sprintf("expected %d argument(s) for %s, found %d", n, name, len(c.Args)))
	}
	return c, nil
}

// oldCall parses func(name, args...), PRISM's older form of a function call.
func (p *parser) oldCall() (StateFormula, error) {
	t := p.next()
	open, err := p.expect(tLParen, `"(" after "func"`)
	if err != nil {
		return nil, err
	}
	nt := p.peek()
	if _, ok := arity[nt.text]; nt.kind != tIdent || !ok {
		return nil, p.fail(nt, "a function name (min, max, floor, ceil, round, pow, mod or log)")
	}
	p.next()
	if _, err := p.expect(tComma, fmt.Sprintf(`"," after func(%s`, nt.text)); err != nil {
		return nil, err
	}
	return p.callArgs(t, nt.text, open.col)
}

func (p *parser) filter() (StateFormula, error) {
	t := p.next()
	if _, err := p.expect(tLParen, `"(" after "filter"`); err != nil {
		return nil, err
	}
	ot := p.next()
	op := ot.text
	switch ot.kind {
	case tPlus:
		op = "sum"
	case tAnd:
		op = "forall"
	case tOr:
		op = "exists"
	case tIdent:
		if !isFilterOp(op) {
			return nil, p.fail(ot, "a filter operator ("+strings.Join(FilterOps, ", ")+")")
		}
	default:
		return nil, p.fail(ot, "a filter operator ("+strings.Join(FilterOps, ", ")+")")
	}
	if _, err := p.expect(tComma, fmt.Sprintf(`"," after filter(%s`, ot.text)); err != nil {
		return nil, err
	}
	prop, err := p.expr("a property to filter")
	if err != nil {
		return nil, err
	}
	f := &Filter{pos: pos{t.col}, Op: op, Prop: prop}
	if p.peek().kind == tComma {
		p.next()
		if f.States, err = p.expr("a state formula saying which states to filter"); err != nil {
			return nil, err
		}
	}
	if c := p.peek(); c.kind != tRParen {
		return nil, p.fail(c, `"," or ")" to close filter(...)`)
	}
	p.next()
	return f, nil
}

func isFilterOp(s string) bool {
	for _, o := range FilterOps {
		if o == s {
			return true
		}
	}
	return false
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
	vt, vi := p.peek(), p.i
	v, err := p.expr(what + " " + p.after(from))
	if err != nil {
		return b, err
	}
	n, ok := v.(*Num)
	switch {
	case !ok:
		b.Expr = v
	case prob && (n.Value < 0 || n.Value > 1):
		return b, p.failMsg(vt, "expected a probability in [0,1], found "+quoteShort(p.span(vi), true))
	case !prob && n.Value < 0:
		return b, p.failMsg(vt, "expected a finite reward bound >= 0, found "+quoteShort(p.span(vi), true))
	default:
		b.Value = n.Value
	}
	return b, p.open(from)
}

// span is the text of the tokens from index from to the current one, without blanks.
func (p *parser) span(from int) string {
	var b strings.Builder
	for _, t := range p.toks[from:p.i] {
		b.WriteString(t.text)
	}
	return b.String()
}

var cmpOps = map[tokKind]CmpOp{tEQ: EQ, tNE: NE, tLT: LT, tLE: LE, tGT: GT, tGE: GE}

func isCmp(t token) bool {
	_, ok := cmpOps[t.kind]
	return ok
}

// open consumes the "[" after the bound of the operator at index from.
func (p *parser) open(from int) error {
	if t := p.peek(); t.kind != tLBrack {
		return p.fail(t, `"[" `+p.after(from))
	}
	p.next()
	return nil
}

// closePath consumes the "]" of P[...], E[...] or A[...].
func (p *parser) closePath(op string) error {
	if t := p.peek(); t.kind != tRBrack {
		return p.fail(t, fmt.Sprintf(`"]" to close %s[...]`, op))
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
	path, err := p.path("P")
	if err != nil {
		return nil, err
	}
	filter, err := p.oldFilter()
	if err != nil {
		return nil, err
	}
	if err := p.closePath("P"); err != nil {
		return nil, err
	}
	return filter.wrap(&Prob{pos: pos{pt.col}, Bound: b, Path: path}), nil
}

// oldStyle is PRISM's older filter, written inside an operator's brackets: {states}, then
// optionally {min}, {max} or both.
type oldStyle struct {
	col      int
	states   StateFormula
	min, max bool
}

// oldFilter parses an optional old-style filter before the "]" of P, R or S.
func (p *parser) oldFilter() (*oldStyle, error) {
	t := p.peek()
	if t.kind != tLBrace {
		return nil, nil
	}
	p.next()
	saved := p.inPath
	p.inPath = false
	defer func() { p.inPath = saved }()
	states, err := p.expr("a state formula for the filter {...}")
	if err != nil {
		return nil, err
	}
	if _, err := p.expect(tRBrace, `"}" to close the filter {...}`); err != nil {
		return nil, err
	}
	f := &oldStyle{col: t.col, states: states}
	for p.peek().kind == tLBrace {
		p.next()
		m := p.peek()
		if m.kind != tIdent || (m.text != "min" && m.text != "max") {
			return nil, p.fail(m, `"min" or "max" in {...} after a filter`)
		}
		p.next()
		f.min, f.max = f.min || m.text == "min", f.max || m.text == "max"
		if _, err := p.expect(tRBrace, fmt.Sprintf(`"}" to close {%s}`, m.text)); err != nil {
			return nil, err
		}
	}
	return f, nil
}

// wrap turns an operator with an old-style filter into the filter(...) PRISM reads it as: forall
// for a bounded operator; min, max or range when asked for; otherwise the value in the one state
// the filter selects.
func (f *oldStyle) wrap(op StateFormula) StateFormula {
	if f == nil {
		return op
	}
	name := "state"
	switch {
	case bound(op).Op != Query:
		name = "forall"
	case f.min && f.max:
		name = "range"
	case f.min:
		name = "min"
	case f.max:
		name = "max"
	}
	return &Filter{pos: pos{op.Pos()}, Op: name, Prop: op, States: f.states}
}

func bound(op StateFormula) Bound {
	switch op := op.(type) {
	case *Prob:
		return op.Bound
	case *Reward:
		return op.Bound
	case *Steady:
		return op.Bound
	}
	return Bound{}
}

func (p *parser) quant() (StateFormula, error) {
	from := p.i
	qt := p.next()
	if err := p.open(from); err != nil {
		return nil, err
	}
	path, err := p.path(qt.text)
	if err != nil {
		return nil, err
	}
	if err := p.closePath(qt.text); err != nil {
		return nil, err
	}
	return &Quant{pos: pos{qt.col}, Forall: qt.text == "A", Path: path}, nil
}

// path parses the argument of P, E or A: a PCTL path formula (X φ, F φ, G φ, φ U ψ, φ W ψ,
// φ R ψ) or, as in PRISM, an LTL formula, whose operands may be path formulas themselves (F G φ,
// (X φ) U ψ) combined by Boolean operators in parentheses ((F φ) & !(G ψ)).
func (p *parser) path(op string) (PathFormula, error) {
	saved := p.inPath
	p.inPath = true
	defer func() { p.inPath = saved }()
	start := p.peek()
	f, err := p.temporal("a path formula (X, F, G, U, W or R)")
	if err != nil {
		return nil, err
	}
	if pe, ok := f.(*PathExpr); ok {
		return pe.P, nil
	}
	// A state formula is a path formula too (it holds of a path whose first state satisfies it),
	// as in PRISM's LTL: P=? [ "a" ] is 1 or 0.
	return &LTL{pos: pos{start.col}, F: f}, nil
}

// containsPath says whether a formula parsed in a path context has a temporal operator in it.
func containsPath(f StateFormula) bool {
	found := false
	Walk(f, func(n Node) {
		if _, ok := n.(*PathExpr); ok {
			found = true
		}
	})
	return found
}

var tempOps = map[string]TempOp{"U": U, "W": W, "R": R}

// temporal parses φ [U|W|R bound ψ], each side a unary temporal formula; as in PRISM the binary
// operators do not chain.
func (p *parser) temporal(what string) (StateFormula, error) {
	start := p.peek()
	l, err := p.temporalUnary(what)
	if err != nil {
		return nil, err
	}
	u := p.peek()
	op, ok := tempOps[u.text]
	if u.kind != tIdent || !ok {
		return l, nil
	}
	from := p.i
	p.next()
	steps, err := p.steps(from)
	if err != nil {
		return nil, err
	}
	r, err := p.temporalUnary("a state formula " + p.after(from))
	if err != nil {
		return nil, err
	}
	return &PathExpr{pos: pos{start.col}, P: &Until{pos: pos{start.col}, Op: op, L: l, R: r, Steps: steps}}, nil
}

// temporalUnary parses X φ, F bound φ, G bound φ (φ again unary temporal) or an expression. A
// run of prefix operators is read in a loop, not by recursion, so it needs no nesting limit.
func (p *parser) temporalUnary(what string) (StateFormula, error) {
	type prefix struct {
		t     token
		steps *Steps
	}
	var ops []prefix
	for {
		t := p.peek()
		if t.kind != tIdent || (t.text != "X" && t.text != "F" && t.text != "G") {
			break
		}
		from := p.i
		p.next()
		op := prefix{t: t}
		if t.text != "X" {
			var err error
			if op.steps, err = p.steps(from); err != nil {
				return nil, err
			}
		}
		ops = append(ops, op)
		what = "a state formula " + p.after(from)
	}
	f, err := p.expr(what)
	if err != nil {
		return nil, err
	}
	for i := len(ops) - 1; i >= 0; i-- {
		t := ops[i].t
		var pf PathFormula
		switch t.text {
		case "X":
			pf = &Next{pos: pos{t.col}, F: f}
		case "F":
			pf = &Eventually{pos: pos{t.col}, F: f, Steps: ops[i].steps}
		default:
			pf = &Globally{pos: pos{t.col}, F: f, Steps: ops[i].steps}
		}
		f = &PathExpr{pos: pos{t.col}, P: pf}
	}
	return f, nil
}

// steps parses the optional time bound after F, G, U, W or R, whose keyword is at index from:
// <=k, <k, >=k, >k, =k or [a,b]. A bound is an arithmetic expression (so a constant may be one);
// a literal must be a non-negative integer.
func (p *parser) steps(from int) (*Steps, error) {
	t := p.peek()
	switch t.kind {
	case tLE, tLT, tGE, tGT, tEQ:
		p.next()
		k, err := p.stepValue("a non-negative integer step bound " + p.after(from))
		if err != nil {
			return nil, err
		}
		return &Steps{Op: cmpOps[t.kind], K: k}, nil
	case tLBrack:
		p.next()
		in := fmt.Sprintf("a non-negative integer step bound in %s[a,b]", p.toks[from].text)
		lo, err := p.stepValue(in)
		if err != nil {
			return nil, err
		}
		if _, err := p.expect(tComma, `"," in the step interval [a,b]`); err != nil {
			return nil, err
		}
		hi, err := p.stepValue(in)
		if err != nil {
			return nil, err
		}
		if _, err := p.expect(tRBrack, `"]" to close the step interval [a,b]`); err != nil {
			return nil, err
		}
		return &Steps{Interval: true, Lo: lo, Hi: hi}, nil
	case tNE:
		return nil, p.fail(t, fmt.Sprintf(`a step bound (<=k, <k, >=k, >k, =k or [a,b]) after %q`, p.toks[from].text))
	}
	return nil, nil
}

// stepValue parses one step bound; as in PRISM the bound ends where an arithmetic expression
// does, so that F<=N-1 "a" reads as intended.
func (p *parser) stepValue(what string) (StateFormula, error) {
	t, ti := p.peek(), p.i
	if _, fn := arity[t.text]; t.kind == tIdent && !fn && !reserved[t.text] && p.toks[p.i+1].kind == tLParen {
		// As in PRISM, a name followed by "(" is the whole bound: F<=T (X "a") is F<=T of X "a".
		p.next()
		return &Ident{pos: pos{t.col}, Name: t.text}, nil
	}
	k, err := p.additive(what)
	if err != nil {
		return nil, err
	}
	if n, ok := k.(*Num); ok {
		if !n.Int || n.Value < 0 {
			return nil, p.failMsg(t, "expected "+what+", found "+quoteShort(p.span(ti), true))
		}
		if n.Value > MaxSteps {
			return nil, p.failMsg(t, fmt.Sprintf("expected a step bound of at most %d, found %s", MaxSteps, quoteShort(p.span(ti), true)))
		}
	}
	return k, nil
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
	case t.kind == tIdent && t.text == "F" && (isCmp(p.toks[p.i+1]) || p.toks[p.i+1].kind == tLBrack):
		return nil, p.fail(p.toks[p.i+1], `a state formula after "F" (R[F φ] takes no step bound)`)
	case t.kind == tIdent && t.text == "C":
		at := p.i
		p.next()
		c := &Cumulative{pos: pos{t.col}}
		switch le := p.peek(); le.kind {
		case tLE:
			p.next()
			if c.K, err = p.stepValue("a non-negative integer step bound " + p.after(at)); err != nil {
				return nil, err
			}
		case tLT, tGT, tGE, tEQ, tNE, tLBrack:
			return nil, p.fail(le, `"<=" (the only step bound is C<=k)`)
		}
		n.Kind = c
	case t.kind == tIdent && t.text == "I":
		at := p.i
		p.next()
		if e := p.peek(); e.kind != tEQ {
			return nil, p.fail(e, `"=" after "I" (I=k)`)
		}
		p.next()
		k, err := p.stepValue("a non-negative integer step " + p.after(at))
		if err != nil {
			return nil, err
		}
		n.Kind = &Instant{pos: pos{t.col}, K: k}
	case t.kind == tIdent && t.text == "S":
		p.next()
		n.Kind = &LongRun{pos: pos{t.col}}
	default:
		// F φ, or a co-safe LTL formula: the reward gathered until it is satisfied.
		path, err := p.path("R")
		if err != nil {
			if t.kind == tRBrack || t.kind == tEOF {
				return nil, p.fail(t, "a reward kind (F φ, C<=k, C, I=k, S or a co-safe LTL formula)")
			}
			return nil, err
		}
		if ev, ok := path.(*Eventually); ok && ev.Steps == nil && !containsPath(ev.F) {
			n.Kind = &Reach{pos: pos{t.col}, Target: ev.F}
		} else {
			n.Kind = &CoSafe{pos: pos{t.col}, Path: path}
		}
	}
	filter, err := p.oldFilter()
	if err != nil {
		return nil, err
	}
	if t := p.peek(); t.kind != tRBrack {
		return nil, p.fail(t, `"]" to close R[...]`)
	}
	p.next()
	return filter.wrap(n), nil
}

func (p *parser) steady() (StateFormula, error) {
	from := p.i
	st := p.next()
	b, err := p.bound(from, true)
	if err != nil {
		return nil, err
	}
	f, err := p.expr("a state formula inside S[...]")
	if err != nil {
		return nil, err
	}
	filter, err := p.oldFilter()
	if err != nil {
		return nil, err
	}
	if t := p.peek(); t.kind != tRBrack {
		return nil, p.fail(t, `"]" to close S[...]`)
	}
	p.next()
	return filter.wrap(&Steady{pos: pos{st.col}, Bound: b, F: f}), nil
}
