package prism

import (
	"fmt"
	"strconv"
)

type varDecl struct {
	line, col int
	name      string
	isBool    bool
	lo, hi    expr
	init      expr
}

type assign struct {
	line, col int
	name      string
	e         expr
}

type update struct {
	prob    expr // nil: 1
	assigns []assign
}

type command struct {
	line, col int
	action    string
	guard     expr
	updates   []update
}

type module struct {
	line, col int
	name      string
	vars      []varDecl
	cmds      []command
	// from and renames describe a renamed copy: module M2 = M1 [ a=b, ... ] endmodule.
	from    string
	renames map[string]string
}

type rewardItem struct {
	trans  bool
	action string
	guard  expr
	value  expr
}

type rewardStruct struct {
	name  string
	items []rewardItem
}

type constDecl struct {
	line, col int
	name      string
	typ       string // "int", "double", "bool"
	e         expr   // nil: given by the caller
}

type file struct {
	consts   []constDecl
	formulas map[string]expr
	forder   []string
	labels   map[string]expr
	lorder   []string
	globals  []varDecl
	modules  []*module
	rewards  []rewardStruct
	init     expr
}

type parser struct {
	toks []token
	i    int
}

func (p *parser) peek() token { return p.toks[p.i] }
func (p *parser) next() token {
	t := p.toks[p.i]
	if t.kind != tEOF {
		p.i++
	}
	return t
}
func (p *parser) is(text string) bool {
	t := p.peek()
	return (t.kind == tPunct || t.kind == tKeyword) && t.text == text
}

func describe(t token) string {
	switch t.kind {
	case tEOF:
		return "the end of the model"
	case tString:
		return strconv.Quote(t.text)
	}
	return fmt.Sprintf("%q", t.text)
}

func (p *parser) expect(text string) (token, error) {
	t := p.next()
	if (t.kind == tPunct || t.kind == tKeyword) && t.text == text {
		return t, nil
	}
	return t, &Error{t.line, t.col, fmt.Sprintf("expected %q, found %s", text, describe(t))}
}

func (p *parser) name(what string) (token, error) {
	t := p.next()
	if t.kind != tIdent {
		return t, &Error{t.line, t.col, fmt.Sprintf("expected %s, found %s", what, describe(t))}
	}
	return t, nil
}

func parseFile(src string) (*file, error) {
	toks, err := lex(src)
	if err != nil {
		return nil, err
	}
	p := &parser{toks: toks}
	f := &file{formulas: map[string]expr{}, labels: map[string]expr{}}
	seen := map[string]token{}
	declare := func(t token, what string) error {
		if prev, ok := seen[t.text]; ok {
			return &Error{t.line, t.col, fmt.Sprintf("%s %s is already declared at %d:%d", what, t.text, prev.line, prev.col)}
		}
		seen[t.text] = t
		return nil
	}
	typed := false
	for p.peek().kind != tEOF {
		t := p.peek()
		switch {
		case p.is("dtmc") || p.is("probabilistic"):
			if typed {
				return nil, &Error{t.line, t.col, "the model type is given twice"}
			}
			typed = true
			p.next()
		case p.is("mdp") || p.is("nondeterministic") || p.is("ctmc") || p.is("stochastic") || p.is("pta"):
			return nil, &Error{t.line, t.col, fmt.Sprintf("%s models are not supported: augur checks DTMCs (dtmc)", t.text)}
		case p.is("const"):
			p.next()
			typ := "int"
			if p.is("int") || p.is("double") || p.is("bool") {
				typ = p.next().text
			}
			n, err := p.name("a constant name")
			if err != nil {
				return nil, err
			}
			if err := declare(n, "constant"); err != nil {
				return nil, err
			}
			c := constDecl{line: n.line, col: n.col, name: n.text, typ: typ}
			if p.is("=") {
				p.next()
				if c.e, err = p.expr(); err != nil {
					return nil, err
				}
			}
			if _, err := p.expect(";"); err != nil {
				return nil, err
			}
			f.consts = append(f.consts, c)
		case p.is("formula"):
			p.next()
			n, err := p.name("a formula name")
			if err != nil {
				return nil, err
			}
			if err := declare(n, "formula"); err != nil {
				return nil, err
			}
			e, err := p.definition()
			if err != nil {
				return nil, err
			}
			f.formulas[n.text] = e
			f.forder = append(f.forder, n.text)
		case p.is("label"):
			p.next()
			n := p.next()
			if n.kind != tString {
				return nil, &Error{n.line, n.col, fmt.Sprintf("expected a label name in quotes, found %s", describe(n))}
			}
			if _, dup := f.labels[n.text]; dup || n.text == "init" || n.text == "deadlock" {
				return nil, &Error{n.line, n.col, fmt.Sprintf("label %q is already defined", n.text)}
			}
			e, err := p.definition()
			if err != nil {
				return nil, err
			}
			f.labels[n.text] = e
			f.lorder = append(f.lorder, n.text)
		case p.is("global"):
			p.next()
			v, err := p.varDecl()
			if err != nil {
				return nil, err
			}
			if err := declare(token{text: v.name, line: v.line, col: v.col}, "variable"); err != nil {
				return nil, err
			}
			f.globals = append(f.globals, v)
		case p.is("module"):
			m, err := p.module()
			if err != nil {
				return nil, err
			}
			if err := declare(token{text: m.name, line: m.line, col: m.col}, "module"); err != nil {
				return nil, err
			}
			f.modules = append(f.modules, m)
		case p.is("rewards"):
			r, err := p.rewards()
			if err != nil {
				return nil, err
			}
			f.rewards = append(f.rewards, r)
		case p.is("init"):
			if f.init != nil {
				return nil, &Error{t.line, t.col, "init ... endinit is given twice"}
			}
			p.next()
			e, err := p.expr()
			if err != nil {
				return nil, err
			}
			if _, err := p.expect("endinit"); err != nil {
				return nil, err
			}
			f.init = e
		case p.is("system") || p.is("clock") || p.is("invariant"):
			return nil, &Error{t.line, t.col, fmt.Sprintf("%s is outside the DTMC subset augur reads", t.text)}
		default:
			return nil, &Error{t.line, t.col, fmt.Sprintf("expected a declaration (dtmc, const, formula, label, global, module, rewards, init), found %s", describe(t))}
		}
	}
	if len(f.modules) == 0 {
		t := p.peek()
		return nil, &Error{t.line, t.col, "the model has no module"}
	}
	return f, nil
}

// definition reads "= expr ;", the rest of a formula or label declaration.
func (p *parser) definition() (expr, error) {
	if _, err := p.expect("="); err != nil {
		return nil, err
	}
	e, err := p.expr()
	if err != nil {
		return nil, err
	}
	_, err = p.expect(";")
	return e, err
}

func (p *parser) varDecl() (varDecl, error) {
	n, err := p.name("a variable name")
	if err != nil {
		return varDecl{}, err
	}
	v := varDecl{line: n.line, col: n.col, name: n.text}
	if _, err := p.expect(":"); err != nil {
		return v, err
	}
	if p.is("bool") {
		p.next()
		v.isBool = true
	} else if p.is("clock") {
		t := p.next()
		return v, &Error{t.line, t.col, "clocks are outside the DTMC subset augur reads"}
	} else {
		if _, err := p.expect("["); err != nil {
			return v, err
		}
		if v.lo, err = p.expr(); err != nil {
			return v, err
		}
		if _, err := p.expect(".."); err != nil {
			return v, err
		}
		if v.hi, err = p.expr(); err != nil {
			return v, err
		}
		if _, err := p.expect("]"); err != nil {
			return v, err
		}
	}
	if p.is("init") {
		p.next()
		if v.init, err = p.expr(); err != nil {
			return v, err
		}
	}
	_, err = p.expect(";")
	return v, err
}

func (p *parser) module() (*module, error) {
	p.next()
	n, err := p.name("a module name")
	if err != nil {
		return nil, err
	}
	m := &module{line: n.line, col: n.col, name: n.text}
	if p.is("=") {
		p.next()
		from, err := p.name("the module to rename")
		if err != nil {
			return nil, err
		}
		m.from, m.renames = from.text, map[string]string{}
		if _, err := p.expect("["); err != nil {
			return nil, err
		}
		for {
			a, err := p.name("a name to rename")
			if err != nil {
				return nil, err
			}
			if _, err := p.expect("="); err != nil {
				return nil, err
			}
			b, err := p.name("its new name")
			if err != nil {
				return nil, err
			}
			m.renames[a.text] = b.text
			if !p.is(",") {
				break
			}
			p.next()
		}
		if _, err := p.expect("]"); err != nil {
			return nil, err
		}
		if _, err := p.expect("endmodule"); err != nil {
			return nil, err
		}
		return m, nil
	}
	for !p.is("endmodule") {
		t := p.peek()
		switch {
		case t.kind == tEOF:
			return nil, &Error{t.line, t.col, fmt.Sprintf("module %s has no endmodule", m.name)}
		case p.is("["):
			c, err := p.command()
			if err != nil {
				return nil, err
			}
			m.cmds = append(m.cmds, c)
		case t.kind == tIdent:
			v, err := p.varDecl()
			if err != nil {
				return nil, err
			}
			m.vars = append(m.vars, v)
		default:
			return nil, &Error{t.line, t.col, fmt.Sprintf("expected a variable declaration, a command [action] guard -> updates; or endmodule, found %s", describe(t))}
		}
	}
	p.next()
	return m, nil
}

func (p *parser) command() (command, error) {
	open := p.next()
	c := command{line: open.line, col: open.col}
	if p.peek().kind == tIdent {
		c.action = p.next().text
	}
	if _, err := p.expect("]"); err != nil {
		return c, err
	}
	var err error
	if c.guard, err = p.expr(); err != nil {
		return c, err
	}
	if _, err := p.expect("->"); err != nil {
		return c, err
	}
	for {
		u, err := p.update()
		if err != nil {
			return c, err
		}
		c.updates = append(c.updates, u)
		if !p.is("+") {
			break
		}
		p.next()
	}
	_, err = p.expect(";")
	return c, err
}

// update is [prob :] (x'=e) & (y'=f) | true.
func (p *parser) update() (update, error) {
	var u update
	start := p.i
	// A probability is an expression followed by ':'; try it, and back off when the update starts
	// with an assignment.
	if !p.is("(") || !p.assignmentAhead() {
		if !p.is("true") || p.toks[p.i+1].text == ":" {
			e, err := p.expr()
			if err == nil && p.is(":") {
				p.next()
				u.prob = e
			} else {
				p.i = start
			}
		}
	}
	if p.is("true") {
		p.next()
		return u, nil
	}
	for {
		if _, err := p.expect("("); err != nil {
			return u, err
		}
		n, err := p.name("a variable to update")
		if err != nil {
			return u, err
		}
		if _, err := p.expect("'"); err != nil {
			return u, err
		}
		if _, err := p.expect("="); err != nil {
			return u, err
		}
		e, err := p.expr()
		if err != nil {
			return u, err
		}
		if _, err := p.expect(")"); err != nil {
			return u, err
		}
		u.assigns = append(u.assigns, assign{line: n.line, col: n.col, name: n.text, e: e})
		if !p.is("&") {
			return u, nil
		}
		p.next()
	}
}

// assignmentAhead reports whether the tokens at p.i read "( name '".
func (p *parser) assignmentAhead() bool {
	return p.i+2 < len(p.toks) && p.toks[p.i+1].kind == tIdent && p.toks[p.i+2].text == "'"
}

func (p *parser) rewards() (rewardStruct, error) {
	p.next()
	var r rewardStruct
	if p.peek().kind == tString {
		r.name = p.next().text
	}
	for !p.is("endrewards") {
		t := p.peek()
		if t.kind == tEOF {
			return r, &Error{t.line, t.col, "rewards has no endrewards"}
		}
		var it rewardItem
		if p.is("[") {
			p.next()
			it.trans = true
			if p.peek().kind == tIdent {
				it.action = p.next().text
			}
			if _, err := p.expect("]"); err != nil {
				return r, err
			}
		}
		var err error
		if it.guard, err = p.expr(); err != nil {
			return r, err
		}
		if _, err := p.expect(":"); err != nil {
			return r, err
		}
		if it.value, err = p.expr(); err != nil {
			return r, err
		}
		if _, err := p.expect(";"); err != nil {
			return r, err
		}
		r.items = append(r.items, it)
	}
	p.next()
	return r, nil
}

// Expressions, loosest first: ?:, <=>, =>, |, &, = !=, < <= > >=, + -, * /, unary ! -.
func (p *parser) expr() (expr, error) {
	c, err := p.binaryLevel(0)
	if err != nil {
		return nil, err
	}
	if p.is("?") {
		q := p.next()
		x, err := p.expr()
		if err != nil {
			return nil, err
		}
		if _, err := p.expect(":"); err != nil {
			return nil, err
		}
		y, err := p.expr()
		if err != nil {
			return nil, err
		}
		return &cond{q.line, q.col, c, x, y}, nil
	}
	return c, nil
}

var levels = [][]string{{"<=>"}, {"=>"}, {"|"}, {"&"}, {"=", "!="}, {"<", "<=", ">", ">="}, {"+", "-"}, {"*", "/"}}

func (p *parser) binaryLevel(l int) (expr, error) {
	if l == len(levels) {
		return p.unaryExpr()
	}
	x, err := p.binaryLevel(l + 1)
	if err != nil {
		return nil, err
	}
	for {
		t := p.peek()
		matched := false
		if t.kind == tPunct {
			for _, op := range levels[l] {
				if t.text == op {
					matched = true
				}
			}
		}
		if !matched {
			return x, nil
		}
		p.next()
		y, err := p.binaryLevel(l + 1)
		if err != nil {
			return nil, err
		}
		x = &binary{t.line, t.col, t.text, x, y}
	}
}

func (p *parser) unaryExpr() (expr, error) {
	if p.is("!") || p.is("-") {
		t := p.next()
		x, err := p.unaryExpr()
		if err != nil {
			return nil, err
		}
		return &unary{t.line, t.col, t.text, x}, nil
	}
	return p.primary()
}

func (p *parser) primary() (expr, error) {
	t := p.next()
	switch {
	case t.kind == tInt:
		v, err := strconv.ParseInt(t.text, 10, 64)
		if err != nil {
			return nil, &Error{t.line, t.col, fmt.Sprintf("integer %s out of range", t.text)}
		}
		return &lit{t.line, t.col, intVal(v)}, nil
	case t.kind == tReal:
		v, err := strconv.ParseFloat(t.text, 64)
		if err != nil {
			return nil, &Error{t.line, t.col, fmt.Sprintf("number %s out of range", t.text)}
		}
		return &lit{t.line, t.col, dblVal(v)}, nil
	case t.kind == tKeyword && (t.text == "true" || t.text == "false"):
		return &lit{t.line, t.col, boolVal(t.text == "true")}, nil
	case t.kind == tIdent:
		return &ident{t.line, t.col, t.text}, nil
	case t.kind == tKeyword && (t.text == "min" || t.text == "max" || t.text == "floor" || t.text == "ceil" || t.text == "pow" || t.text == "mod" || t.text == "log"):
		if _, err := p.expect("("); err != nil {
			return nil, err
		}
		c := &call{t.line, t.col, t.text, nil}
		for {
			a, err := p.expr()
			if err != nil {
				return nil, err
			}
			c.args = append(c.args, a)
			if !p.is(",") {
				break
			}
			p.next()
		}
		if _, err := p.expect(")"); err != nil {
			return nil, err
		}
		return c, nil
	case t.kind == tPunct && t.text == "(":
		e, err := p.expr()
		if err != nil {
			return nil, err
		}
		if _, err := p.expect(")"); err != nil {
			return nil, err
		}
		return e, nil
	}
	return nil, &Error{t.line, t.col, fmt.Sprintf("expected an expression, found %s", describe(t))}
}
