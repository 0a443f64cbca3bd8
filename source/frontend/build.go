package frontend

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/printer"
	"go/token"
	"go/types"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// Placeholder edge targets, resolved once the body is built.
const (
	toEnd        = -1 // the End exit
	toPanic      = -2 // the Panic exit
	toSinkReturn = -3 // leave normally: deferred calls (return chain), then End
	toSinkPanic  = -4 // panic: deferred calls (panic chain), then Panic
	toSinkGoexit = -5 // runtime.Goexit: deferred calls (goexit chain), then Panic
)

// pedge is an edge under construction; seq orders a node's edges.
type pedge struct {
	to      int
	outcome string
	seq     int
}

// end is a dangling edge: the outcome of node from, to be connected to whatever comes next.
type end struct {
	from    int
	outcome string
	seq     int
}

// target is an enclosing for, range, switch, type switch or select, for break and continue.
type target struct {
	label  string
	loop   bool
	cont   int
	breaks []end
}

type builder struct {
	fset    *token.FileSet
	info    *types.Info
	g       *CFG
	succ    [][]pedge
	seq     int
	targets []*target
	labels  map[string]int
	gotos   map[string][]end
	err     error
}

// Build makes the statement-level CFG of a function declaration. info may be nil (then only the
// builtins panic and recover are recognised, by name), but Select always passes the package's.
// A construct that cannot be represented is an *Error with its position.
func Build(fset *token.FileSet, decl *ast.FuncDecl, info *types.Info) (*CFG, error) {
	if decl.Body == nil {
		return nil, &Error{Pos: fset.Position(decl.Pos()), Msg: fmt.Sprintf("function %s has no body", FuncName(decl))}
	}
	b := &builder{
		fset:   fset,
		info:   info,
		g:      &CFG{Fset: fset, Decl: decl, StmtNode: map[ast.Stmt]int{}},
		labels: map[string]int{},
		gotos:  map[string][]end{},
	}
	outs := b.block(decl.Body, nil)
	b.connect(outs, toSinkReturn)
	for name, ends := range b.gotos {
		for _, e := range ends {
			b.fail(b.g.Nodes[e.from].AST.Pos(), "goto %s: label not defined", name)
		}
	}
	if b.err != nil {
		return nil, b.err
	}
	b.finishDefers(decl.Body.Rbrace)
	b.finish(decl.Body.Rbrace)
	return b.g, nil
}

func (b *builder) fail(pos token.Pos, format string, args ...any) {
	if b.err == nil {
		b.err = &Error{Pos: b.fset.Position(pos), Msg: fmt.Sprintf(format, args...)}
	}
}

// newNode adds a node and connects the dangling edges ins to it.
func (b *builder) newNode(kind Kind, n ast.Node, pos, endPos token.Pos, text string, ins []end) int {
	id := len(b.g.Nodes)
	b.g.Nodes = append(b.g.Nodes, &Node{
		ID:   id,
		Kind: kind,
		Pos:  b.fset.Position(pos),
		End:  b.fset.Position(endPos),
		AST:  n,
		Text: text,
		// filled in later
		Defer: -1,
	})
	b.succ = append(b.succ, nil)
	b.connect(ins, id)
	return id
}

func (b *builder) stmtNode(kind Kind, s ast.Stmt, ins []end) int {
	id := b.newNode(kind, s, s.Pos(), s.End(), b.src(s), ins)
	b.reg(s, id)
	return id
}

func (b *builder) reg(s ast.Stmt, id int) {
	if _, dup := b.g.StmtNode[s]; dup {
		b.fail(s.Pos(), "internal error: statement mapped twice")
		return
	}
	b.g.StmtNode[s] = id
}

func (b *builder) mkEnd(from int, outcome string) end {
	b.seq++
	return end{from: from, outcome: outcome, seq: b.seq}
}

func (b *builder) connect(ends []end, to int) {
	for _, e := range ends {
		b.succ[e.from] = append(b.succ[e.from], pedge{to: to, outcome: e.outcome, seq: e.seq})
	}
}

func (b *builder) edge(from, to int, outcome string) {
	b.connect([]end{b.mkEnd(from, outcome)}, to)
}

// src renders a node's source on one line: the first line only (with " …" when there is more),
// at most 80 characters.
func (b *builder) src(n ast.Node) string {
	if n == nil {
		return ""
	}
	var buf bytes.Buffer
	if err := printer.Fprint(&buf, b.fset, n); err != nil {
		return fmt.Sprintf("%T", n)
	}
	s := buf.String()
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = strings.TrimRight(s[:i], " \t") + " …"
	}
	if r := []rune(s); len(r) > 80 {
		s = string(r[:79]) + "…"
	}
	return s
}

func (b *builder) block(s *ast.BlockStmt, ins []end) []end {
	if len(s.List) == 0 {
		id := b.newNode(KindEmpty, s, s.Lbrace, s.End(), "{}", ins)
		b.reg(s, id)
		return []end{b.mkEnd(id, "")}
	}
	entry := len(b.g.Nodes)
	outs := b.list(s.List, ins)
	b.reg(s, entry)
	return outs
}

func (b *builder) list(list []ast.Stmt, ins []end) []end {
	for _, s := range list {
		ins = b.stmt(s, ins)
	}
	return ins
}

// stmt builds s, entered by ins, and returns the dangling edges that leave it normally. Every
// statement makes at least one node, and the first node it makes is its entry.
func (b *builder) stmt(s ast.Stmt, ins []end) []end {
	return b.labelled(s, ins, "")
}

func (b *builder) labelled(s ast.Stmt, ins []end, label string) []end {
	switch s := s.(type) {
	case *ast.BlockStmt:
		return b.block(s, ins)
	case *ast.LabeledStmt:
		name := s.Label.Name
		if name == "_" {
			// A blank label cannot be referred to.
			name = ""
		}
		entry := len(b.g.Nodes)
		if name != "" {
			if _, dup := b.labels[name]; dup {
				b.fail(s.Pos(), "label %s defined twice", name)
			}
			ins = append(ins, b.gotos[name]...)
			delete(b.gotos, name)
			b.labels[name] = entry
		}
		outs := b.labelled(s.Stmt, ins, name)
		b.reg(s, entry)
		return outs
	case *ast.EmptyStmt:
		text := ";"
		if s.Implicit {
			text = "(empty)"
		}
		id := b.newNode(KindEmpty, s, s.Pos(), s.End(), text, ins)
		b.reg(s, id)
		return []end{b.mkEnd(id, "")}
	case *ast.ExprStmt:
		if t := callTerm(b.info, s.X); t != TermNone {
			id := b.stmtNode(KindNoReturn, s, ins)
			b.g.Nodes[id].Term = t
			switch t {
			case TermPanic:
				b.edge(id, toSinkPanic, "")
			case TermGoexit:
				b.edge(id, toSinkGoexit, "")
			default:
				b.edge(id, toPanic, "")
			}
			return nil
		}
		return b.simple(KindStmt, s, ins)
	case *ast.AssignStmt, *ast.IncDecStmt, *ast.SendStmt, *ast.DeclStmt:
		return b.simple(KindStmt, s, ins)
	case *ast.GoStmt:
		return b.simple(KindGo, s, ins)
	case *ast.DeferStmt:
		id := b.stmtNode(KindDefer, s, ins)
		n := b.g.Nodes[id]
		n.Term = callTerm(b.info, s.Call)
		n.Recover = callsRecover(b.info, s.Call)
		b.g.Defers = append(b.g.Defers, id)
		return []end{b.mkEnd(id, "")}
	case *ast.ReturnStmt:
		id := b.stmtNode(KindReturn, s, ins)
		b.edge(id, toSinkReturn, "")
		return nil
	case *ast.BranchStmt:
		return b.branch(s, ins)
	case *ast.IfStmt:
		return b.ifStmt(s, ins)
	case *ast.ForStmt:
		return b.forStmt(s, ins, label)
	case *ast.RangeStmt:
		return b.rangeStmt(s, ins, label)
	case *ast.SwitchStmt:
		return b.switchStmt(s, ins, label)
	case *ast.TypeSwitchStmt:
		return b.typeSwitchStmt(s, ins, label)
	case *ast.SelectStmt:
		return b.selectStmt(s, ins, label)
	case *ast.BadStmt:
		b.fail(s.Pos(), "cannot represent a malformed statement")
	default:
		b.fail(s.Pos(), "cannot represent statement of type %T", s)
	}
	// Keep going after an error with a placeholder node, so every later error is a real one.
	id := b.newNode(KindStmt, s, s.Pos(), s.End(), "?", ins)
	return []end{b.mkEnd(id, "")}
}

func (b *builder) simple(kind Kind, s ast.Stmt, ins []end) []end {
	id := b.stmtNode(kind, s, ins)
	return []end{b.mkEnd(id, "")}
}

func (b *builder) branch(s *ast.BranchStmt, ins []end) []end {
	id := b.stmtNode(KindJump, s, ins)
	name := ""
	if s.Label != nil {
		name = s.Label.Name
	}
	switch s.Tok {
	case token.BREAK, token.CONTINUE:
		cont := s.Tok == token.CONTINUE
		var t *target
		for i := len(b.targets) - 1; i >= 0; i-- {
			c := b.targets[i]
			if name != "" && c.label != name || name == "" && cont && !c.loop {
				continue
			}
			t = c
			break
		}
		switch {
		case t == nil && name != "":
			b.fail(s.Pos(), "%s %s: no enclosing statement labelled %s", s.Tok, name, name)
		case t == nil && cont:
			b.fail(s.Pos(), "continue is not in a loop")
		case t == nil:
			b.fail(s.Pos(), "break is not in a loop, switch or select")
		case cont && !t.loop:
			b.fail(s.Pos(), "continue %s: %s does not label a loop", name, name)
		case cont:
			b.edge(id, t.cont, "")
		default:
			t.breaks = append(t.breaks, b.mkEnd(id, ""))
		}
	case token.GOTO:
		if to, ok := b.labels[name]; ok {
			b.edge(id, to, "")
		} else {
			b.gotos[name] = append(b.gotos[name], b.mkEnd(id, ""))
		}
	case token.FALLTHROUGH:
		b.fail(s.Pos(), "fallthrough is only allowed as the last statement of a switch clause that is not the last")
	default:
		b.fail(s.Pos(), "cannot represent branch statement %s", s.Tok)
	}
	return nil
}

func (b *builder) ifStmt(s *ast.IfStmt, ins []end) []end {
	if s.Init != nil {
		ins = b.stmt(s.Init, ins)
	}
	d := b.newNode(KindDecision, s, s.Cond.Pos(), s.Cond.End(), "if "+b.src(s.Cond), ins)
	b.reg(s, d)
	t, f := b.mkEnd(d, OutTrue), b.mkEnd(d, OutFalse)
	outs := b.block(s.Body, []end{t})
	if s.Else != nil {
		return append(outs, b.stmt(s.Else, []end{f})...)
	}
	return append(outs, f)
}

func (b *builder) forStmt(s *ast.ForStmt, ins []end, label string) []end {
	if s.Init != nil {
		ins = b.stmt(s.Init, ins)
	}
	header := "for " + b.src(s.Init) + "; " + b.src(s.Cond) + "; " + b.src(s.Post)
	var head int
	var body, exits []end
	if s.Cond != nil {
		text := "for " + b.src(s.Cond)
		if s.Init != nil || s.Post != nil {
			text = header + " (cond)"
		}
		head = b.newNode(KindDecision, s, s.Cond.Pos(), s.Cond.End(), text, ins)
		body = []end{b.mkEnd(head, OutTrue)}
		exits = []end{b.mkEnd(head, OutFalse)}
	} else {
		text := "for"
		if s.Init != nil || s.Post != nil {
			text = header + " (head)"
		}
		head = b.newNode(KindLoop, s, s.For, s.Body.Lbrace, text, ins)
		body = []end{b.mkEnd(head, "")}
	}
	b.reg(s, head)
	cont := head
	if s.Post != nil {
		cont = len(b.g.Nodes)
		b.connect(b.stmt(s.Post, nil), head)
	}
	t := &target{label: label, loop: true, cont: cont}
	b.targets = append(b.targets, t)
	b.connect(b.block(s.Body, body), cont)
	b.targets = b.targets[:len(b.targets)-1]
	return append(exits, t.breaks...)
}

func (b *builder) rangeStmt(s *ast.RangeStmt, ins []end, label string) []end {
	text := "for "
	if s.Key != nil {
		text += b.src(s.Key)
		if s.Value != nil {
			text += ", " + b.src(s.Value)
		}
		text += " " + s.Tok.String() + " "
	}
	text += "range " + b.src(s.X)
	d := b.newNode(KindDecision, s, s.For, s.X.End(), text, ins)
	b.reg(s, d)
	if b.info != nil {
		if tv, ok := b.info.Types[s.X]; ok && tv.Type != nil {
			_, b.g.Nodes[d].RangeFunc = tv.Type.Underlying().(*types.Signature)
		}
	}
	next, done := b.mkEnd(d, OutNext), b.mkEnd(d, OutDone)
	t := &target{label: label, loop: true, cont: d}
	b.targets = append(b.targets, t)
	b.connect(b.block(s.Body, []end{next}), d)
	b.targets = b.targets[:len(b.targets)-1]
	return append([]end{done}, t.breaks...)
}

// clauses builds the clauses of a switch or type switch whose decision is d. The outcome of the
// clause at position k is "case k" or "default"; without a default clause an extra "default"
// outcome leaves the switch. With a single outcome d is a plain node and the edge has no name.
func (b *builder) clauses(d int, body *ast.BlockStmt, label string, fallthroughOK bool) []end {
	hasDefault := false
	for _, c := range body.List {
		if cc, ok := c.(*ast.CaseClause); ok && cc.List == nil {
			hasDefault = true
		}
	}
	n := len(body.List)
	if !hasDefault {
		n++
	}
	if n >= 2 {
		b.g.Nodes[d].Kind = KindDecision
	}
	outcome := func(name string) string {
		if n < 2 {
			return ""
		}
		return name
	}
	b.reg(body, d)
	t := &target{label: label}
	b.targets = append(b.targets, t)
	var outs, ft []end
	for k, c := range body.List {
		cc, ok := c.(*ast.CaseClause)
		if !ok {
			b.fail(c.Pos(), "cannot represent %T in a switch body", c)
			continue
		}
		b.reg(cc, d)
		name := CaseOutcome(k + 1)
		if cc.List == nil {
			name = OutDefault
		}
		in := append([]end{b.mkEnd(d, outcome(name))}, ft...)
		ft = nil
		stmts := cc.Body
		var fall *ast.BranchStmt
		if m := len(stmts); m > 0 {
			if br, ok := stmts[m-1].(*ast.BranchStmt); ok && br.Tok == token.FALLTHROUGH {
				fall, stmts = br, stmts[:m-1]
			}
		}
		o := b.list(stmts, in)
		if fall == nil {
			outs = append(outs, o...)
			continue
		}
		switch {
		case !fallthroughOK:
			b.fail(fall.Pos(), "cannot fallthrough in a type switch")
		case k == len(body.List)-1:
			b.fail(fall.Pos(), "cannot fallthrough the final case in a switch")
		}
		id := b.stmtNode(KindJump, fall, o)
		ft = []end{b.mkEnd(id, "")}
	}
	outs = append(outs, ft...) // only after an error
	if !hasDefault {
		outs = append(outs, b.mkEnd(d, outcome(OutDefault)))
	}
	b.targets = b.targets[:len(b.targets)-1]
	return append(outs, t.breaks...)
}

func (b *builder) switchStmt(s *ast.SwitchStmt, ins []end, label string) []end {
	if s.Init != nil {
		ins = b.stmt(s.Init, ins)
	}
	text, pos, endPos := "switch", s.Switch, s.Body.Lbrace
	if s.Tag != nil {
		text, pos, endPos = "switch "+b.src(s.Tag), s.Tag.Pos(), s.Tag.End()
	}
	d := b.newNode(KindStmt, s, pos, endPos, text, ins)
	b.reg(s, d)
	return b.clauses(d, s.Body, label, true)
}

func (b *builder) typeSwitchStmt(s *ast.TypeSwitchStmt, ins []end, label string) []end {
	if s.Init != nil {
		ins = b.stmt(s.Init, ins)
	}
	d := b.newNode(KindStmt, s, s.Assign.Pos(), s.Assign.End(), "switch "+b.src(s.Assign), ins)
	b.reg(s, d)
	b.reg(s.Assign, d)
	return b.clauses(d, s.Body, label, false)
}

func (b *builder) selectStmt(s *ast.SelectStmt, ins []end, label string) []end {
	n := len(s.Body.List)
	if n == 0 {
		// Blocks forever: a node that only goes to itself.
		d := b.newNode(KindStmt, s, s.Select, s.End(), "select {}", ins)
		b.reg(s, d)
		b.reg(s.Body, d)
		b.edge(d, d, "")
		return nil
	}
	kind := KindStmt
	if n >= 2 {
		kind = KindDecision
	}
	d := b.newNode(kind, s, s.Select, s.Body.Lbrace, "select", ins)
	b.reg(s, d)
	b.reg(s.Body, d)
	t := &target{label: label}
	b.targets = append(b.targets, t)
	var outs []end
	for k, c := range s.Body.List {
		cc, ok := c.(*ast.CommClause)
		if !ok {
			b.fail(c.Pos(), "cannot represent %T in a select body", c)
			continue
		}
		b.reg(cc, d)
		name := CaseOutcome(k + 1)
		if cc.Comm == nil {
			name = OutDefault
		} else {
			b.reg(cc.Comm, d)
		}
		if n < 2 {
			name = ""
		}
		outs = append(outs, b.list(cc.Body, []end{b.mkEnd(d, name)})...)
	}
	b.targets = b.targets[:len(b.targets)-1]
	return append(outs, t.breaks...)
}

// finishDefers replaces the sink placeholders with the deferred calls each exit point runs.
func (b *builder) finishDefers(rbrace token.Pos) {
	nBody := len(b.g.Nodes)
	exitOf := func(c Chain) int {
		if c == ChainReturn {
			return toEnd
		}
		return toPanic
	}
	chainOf := func(sink int) Chain {
		switch sink {
		case toSinkReturn:
			return ChainReturn
		case toSinkPanic:
			return ChainPanic
		}
		return ChainGoexit
	}
	resolve := func(f func(from int, c Chain) int) {
		for id := 0; id < nBody; id++ {
			for i, e := range b.succ[id] {
				if e.to <= toSinkReturn {
					b.succ[id][i].to = f(id, chainOf(e.to))
				}
			}
		}
	}
	if len(b.g.Defers) == 0 {
		resolve(func(_ int, c Chain) int { return exitOf(c) })
		return
	}

	// runSuccs gives the edges of a DeferRun node of chain c running defer node d, where
	// next(c2) is where chain c2 goes on.
	runSuccs := func(run int, c Chain, d int, next func(Chain) int) {
		dn := b.g.Nodes[d]
		switch {
		case dn.Term == TermExit:
			b.edge(run, toPanic, "")
		case dn.Term == TermPanic:
			b.edge(run, next(ChainPanic), "")
		case dn.Term == TermGoexit:
			b.edge(run, next(ChainGoexit), "")
		case c == ChainPanic && dn.Recover:
			b.edge(run, next(ChainReturn), OutRecovered)
			b.edge(run, next(ChainPanic), OutPanicking)
		default:
			b.edge(run, next(c), "")
		}
	}
	newRun := func(c Chain, d int) int {
		ds := b.g.Nodes[d].AST.(*ast.DeferStmt)
		id := b.newNode(KindDeferRun, ds, ds.Pos(), ds.End(), "run "+b.src(ds.Call)+" ("+c.String()+")", nil)
		n := b.g.Nodes[id]
		n.Defer, n.Chain, n.Term, n.Recover = d, c, b.g.Nodes[d].Term, b.g.Nodes[d].Recover
		return id
	}

	stacks, dynamic := b.deferStacks(nBody)
	b.g.DynamicDefers = dynamic
	if !dynamic {
		memo := map[string]int{}
		var entry func(c Chain, stack []int) int
		entry = func(c Chain, stack []int) int {
			if len(stack) == 0 {
				return exitOf(c)
			}
			key := c.String()
			for _, d := range stack {
				key += "," + strconv.Itoa(d)
			}
			if id, ok := memo[key]; ok {
				return id
			}
			top, rest := stack[len(stack)-1], stack[:len(stack)-1]
			id := newRun(c, top)
			memo[key] = id
			runSuccs(id, c, top, func(c2 Chain) int { return entry(c2, rest) })
			return id
		}
		resolve(func(from int, c Chain) int { return entry(c, stacks[from]) })
		return
	}

	dispatch := map[Chain]int{}
	var disp func(c Chain) int
	disp = func(c Chain) int {
		if id, ok := dispatch[c]; ok {
			return id
		}
		id := b.newNode(KindDeferDispatch, nil, rbrace, rbrace+1, "defers ("+c.String()+")", nil)
		b.g.Nodes[id].Chain = c
		dispatch[c] = id
		runs := make([]int, len(b.g.Defers))
		for k, d := range b.g.Defers {
			runs[k] = newRun(c, d)
			b.edge(id, runs[k], DeferOutcome(k+1))
		}
		b.edge(id, exitOf(c), OutDone)
		for k, d := range b.g.Defers {
			runSuccs(runs[k], c, d, disp)
		}
		return id
	}
	resolve(func(_ int, c Chain) int { return disp(c) })
}

// deferStacks computes, for each of the first nBody nodes, the stack of registered Defer nodes
// after it runs (bottom first). dynamic is set when a reachable node can be reached with two
// different stacks. Unreachable nodes get the stack of the preceding node in ID order.
func (b *builder) deferStacks(nBody int) (out [][]int, dynamic bool) {
	in := make([][]int, nBody)
	seen := make([]bool, nBody)
	out = make([][]int, nBody)
	outOf := func(id int) []int {
		s := in[id]
		if b.g.Nodes[id].Kind == KindDefer {
			s = append(s[:len(s):len(s)], id)
		}
		return s
	}
	flow := func(root int, stack []int, check bool) {
		in[root], seen[root] = stack, true
		work := []int{root}
		for len(work) > 0 {
			u := work[len(work)-1]
			work = work[:len(work)-1]
			out[u] = outOf(u)
			for _, e := range b.succ[u] {
				v := e.to
				if v < 0 || v >= nBody {
					continue
				}
				if !seen[v] {
					in[v], seen[v] = out[u], true
					work = append(work, v)
				} else if check && !slices.Equal(in[v], out[u]) {
					dynamic = true
				}
			}
		}
	}
	flow(0, nil, true)
	for id := 1; id < nBody; id++ {
		if !seen[id] {
			flow(id, out[id-1], false)
		}
	}
	return out, dynamic
}

// finish adds the exits, fixes the edges, and marks unreachable nodes and loops.
func (b *builder) finish(rbrace token.Pos) {
	g := b.g
	g.End = b.newNode(KindEnd, nil, rbrace, rbrace+1, "end", nil)
	g.Panic = b.newNode(KindPanic, nil, rbrace, rbrace+1, "panic", nil)
	for id, es := range b.succ {
		sort.SliceStable(es, func(i, j int) bool { return es[i].seq < es[j].seq })
		n := g.Nodes[id]
		n.Succs = make([]Edge, 0, len(es))
		for _, e := range es {
			to := e.to
			switch to {
			case toEnd:
				to = g.End
			case toPanic:
				to = g.Panic
			}
			n.Succs = append(n.Succs, Edge{To: to, Outcome: e.outcome})
		}
	}

	// Reachability from Entry.
	reach := make([]bool, len(g.Nodes))
	reach[g.Entry] = true
	work := []int{g.Entry}
	for len(work) > 0 {
		u := work[len(work)-1]
		work = work[:len(work)-1]
		for _, e := range g.Nodes[u].Succs {
			if !reach[e.To] {
				reach[e.To] = true
				work = append(work, e.To)
			}
		}
	}
	for id, n := range g.Nodes {
		n.Unreachable = !reach[id]
	}

	// Depth-first search for back edges: from Entry, then from every unvisited node.
	const (
		white = iota
		grey
		black
	)
	color := make([]int, len(g.Nodes))
	type frame struct{ id, next int }
	var backs [][2]int
	dfs := func(root int) {
		stack := []frame{{root, 0}}
		color[root] = grey
		for len(stack) > 0 {
			f := &stack[len(stack)-1]
			n := g.Nodes[f.id]
			if f.next == len(n.Succs) {
				color[f.id] = black
				stack = stack[:len(stack)-1]
				continue
			}
			e := &n.Succs[f.next]
			f.next++
			switch color[e.To] {
			case white:
				color[e.To] = grey
				stack = append(stack, frame{e.To, 0})
			case grey:
				e.Back = true
				g.Nodes[e.To].LoopHead = true
				backs = append(backs, [2]int{f.id, e.To})
			}
		}
	}
	dfs(g.Entry)
	for id := range g.Nodes {
		if color[id] == white {
			dfs(id)
		}
	}

	// Loop membership: a back edge u -> h makes a loop of h and every node that reaches u
	// without going through h.
	preds := g.Preds()
	member := make([]map[int]bool, len(g.Nodes))
	for _, be := range backs {
		u, h := be[0], be[1]
		seen := map[int]bool{h: true}
		work := []int{u}
		seen[u] = true
		for len(work) > 0 {
			x := work[len(work)-1]
			work = work[:len(work)-1]
			for _, p := range preds[x] {
				if !seen[p] {
					seen[p] = true
					work = append(work, p)
				}
			}
		}
		for x := range seen {
			if member[x] == nil {
				member[x] = map[int]bool{}
			}
			member[x][h] = true
		}
	}
	for id, m := range member {
		for h := range m {
			g.Nodes[id].Loops = append(g.Nodes[id].Loops, h)
		}
		sort.Ints(g.Nodes[id].Loops)
	}
}
