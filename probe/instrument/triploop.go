package instrument

import (
	"fmt"
	"go/ast"
	"go/build"
	"go/constant"
	"go/token"
	"go/types"
	"slices"
	"strconv"
	"strings"

	"github.com/augur-perf/augur/source/frontend"
)

// Counted loops. A loop of a twin that a path register would cross on every iteration (see
// regLoopPaths) pays, per iteration, the additions of its outcomes' values, a comparison per
// cycle to tell which one the register holds, an increment, and where something in it may
// panic a store of the spill word and of a mirror: more than a small loop body (partition's
// scans, a byte loop). Such a loop can often be counted with no path register at all:
//
//   - Paths end on every edge into the loop's head (its condition, or its Loop node): the path
//     that leads to the loop is counted before it (a constant increment, or one of the register),
//     and every iteration is a cycle, a path from the head back to it.
//   - Each cycle but one has an edge or a statement that no other cycle passes (an outcome of
//     its own, a continue statement): an increment of the cycle's register there counts it.
//   - The one left, when the loop steps a variable by one ("for i := a; ...; i++", i an integer
//     of 64 bits of the function's own, that nothing else in the loop assigns, never captured or
//     addressed), is the iterations less the others: the iterations are how far the variable
//     went, i - i0, so the most frequent cycle (the shortest, or the one that continues) costs
//     nothing per iteration. A loop without such a variable needs a register per cycle.
//   - Every place the loop is left but its condition (a return, a jump out of it) and every node
//     in it that may panic is reached from the head by one path only, so the path number there
//     is a constant: the loop needs no register to tell it.
//
// The cycles' counts are added to their counters where the loop is left: when its condition is
// false, by an arm "|| flush(...)" of the condition that returns false (the variable may be the
// loop's own, out of scope after it); before a return or a jump out of it, less the increments
// of the iteration that did not complete. A node that may panic gets a guard instead of a spill:
// "if <it would panic> { record; evaluate it again }" stores its panic path in the spill word and
// the cycles' counts in the mirror words (see regLoopPaths) only when the node is about to panic,
// and evaluating the node's expression again makes it panic right there, as it would have, with
// the same value: the block ends in a panic, so the compiler lays it out of the loop and drops
// the node's own bounds check after the guard (partition's scans compile to the plain loop's
// instructions). The guard must be exact (true only if the expression panics) and the
// expression free of calls, so evaluating it a second time changes nothing (it panics before the
// first evaluation would); if it did not panic, the record is cleared again.
type tripLoop struct {
	h    int // the head: the condition, or the Loop node
	x    int // the node its back edges were cut at (the head, or the post statement)
	stmt *ast.ForStmt
	id   int
	// cycles are the structural cycles, each its edges from the head back to it; nodes the
	// nodes each passes (the head included).
	cycles [][]tripEdge
	nodes  []map[int]bool
	// site is per cycle where its register is incremented (kind 0 for the derived cycle).
	site    []tripSite
	derived int // the cycle whose count the iterations give, or -1
	// part is, per node of the loop that may panic or leaves it, the edges of the one path from
	// the head to it; exits are the edges that leave the loop, but the condition's (to a return,
	// a break, a jump to an outer loop: nodes of the loop's body that are not the loop's).
	part  map[int][]tripEdge
	exits []tripEdge
	// guard and reeval are, per node that may panic, the terms of its guard and the expression
	// that panics again.
	guard  map[int][]string
	reeval map[int]string
	// The stepped variable (v empty when the loop has none): its name, and whether it steps
	// down.
	v    string
	down bool
	// init is the text of the loop's init statement, which goes before the loop (see
	// rewriteTrip), or empty.
	init string
	// num is per cycle its path's number (its counter less the function's first), set once
	// the paths are numbered; ctr its counter, set when the twin is written.
	num, ctr []int
}

type tripEdge struct{ u, k int }

// A tripSite is where a cycle's register is incremented: on outcome k of node u (kind 1), or
// right before statement node u (kind 2).
type tripSite struct {
	kind int
	u, k int
}

// reg is the register of cycle j.
func (tl *tripLoop) reg(j int) string {
	return "_augur_t" + strconv.Itoa(tl.id) + "_" + strconv.Itoa(j)
}

// s0Var is the variable holding the stepped variable's value when the loop starts.
func (tl *tripLoop) s0Var() string { return "_augur_s" + strconv.Itoa(tl.id) }

// in reports whether node n belongs to the loop.
func (tl *tripLoop) in(g *frontend.CFG, n int) bool {
	return n >= 0 && slices.Contains(g.Nodes[n].Loops, tl.h)
}

// trips is the number of iterations the loop has completed, as code (a Uint64).
func (tl *tripLoop) trips() string {
	v := "_augur_r.Uint64(" + tl.v + ")"
	if tl.down {
		return "(" + tl.s0Var() + "-" + v + ")"
	}
	return "(" + v + "-" + tl.s0Var() + ")"
}

// reset is the code that zeroes the cycles' counts (the registers, and the iterations: the
// variable's start is where it is).
func (tl *tripLoop) reset() string {
	t := ""
	for j := range tl.cycles {
		if j != tl.derived {
			t += tl.reg(j) + " = 0; "
		}
	}
	if tl.derived >= 0 {
		t += tl.s0Var() + " = _augur_r.Uint64(" + tl.v + "); "
	}
	return t
}

// counts returns, per cycle, its counter and the code of its count after path (the edges from the
// head, whose increments have run but whose cycle did not complete).
func (tl *tripLoop) counts(path []tripEdge) (ctrs []int, vals []string) {
	adj := make([]int, len(tl.cycles))
	for j, s := range tl.site {
		for _, e := range path {
			if s.kind == 1 && e == (tripEdge{s.u, s.k}) || s.kind == 2 && e.u == s.u {
				adj[j] = 1
			}
		}
	}
	sum := 0
	var others []string
	for j := range tl.cycles {
		if j == tl.derived {
			continue
		}
		v := tl.reg(j)
		if adj[j] > 0 {
			v += "-1"
			sum++
		}
		others = append(others, tl.reg(j))
		ctrs, vals = append(ctrs, tl.ctr[j]), append(vals, v)
	}
	if tl.derived >= 0 {
		v := tl.trips()
		for _, o := range others {
			v += "-" + o
		}
		if sum > 0 {
			v += "+" + strconv.Itoa(sum)
		}
		ctrs, vals = append(ctrs, tl.ctr[tl.derived]), append(vals, v)
	}
	return ctrs, vals
}

// flushStmt is the code that adds the cycles' counts after path to their counters.
func (tl *tripLoop) flushStmt(path []tripEdge) string {
	ctrs, vals := tl.counts(path)
	t := ""
	for i, c := range ctrs {
		t += "_augur_bb[" + strconv.Itoa(c) + "] += " + vals[i] + "; "
	}
	return t
}

// recCall is the call that records, right before node n panics, its panic path (spill) and the
// cycles' counts in the mirror words; it returns true.
func (tl *tripLoop) recCall(n int, spill string) string {
	ctrs, vals := tl.counts(tl.part[n])
	return "_augur_rec" + strconv.Itoa(len(ctrs)) + "(_augur_bb, " + spill + pairs(ctrs, vals) + ")"
}

func pairs(ctrs []int, vals []string) string {
	t := ""
	for i, c := range ctrs {
		t += ", " + strconv.Itoa(c) + ", " + vals[i]
	}
	return t
}

// findTripLoops picks, among the loops whose back edges are cut (pp.head), those counted as
// tripLoops, and cuts every edge into their heads instead.
func (pp *pathPlan) findTripLoops(info *types.Info, src func(ast.Expr) (string, bool), f *fileEdits) {
	pp.trips = map[int]*tripLoop{}
	pp.tripCut = make([]bool, pp.p.n)
	if pp.tk {
		return
	}
	small := inlineCost(pp.p.fn.Decl.Body) <= 80
	for _, x := range pp.cutLoops() {
		h := pp.head[x]
		tl := pp.tripLoopOf(info, src, f, x, h)
		if tl == nil || small && tl.v == "" {
			// In a small function, only loops that step a variable (see findRegLoops).
			continue
		}
		tl.id = len(pp.trips)
		pp.trips[h] = tl
		pp.tripCut[h] = true
		pp.backCut[x] = false
		delete(pp.head, x)
	}
}

// tripLoopOf returns the loop headed by h (back edges cut at x) as a tripLoop, or nil if it cannot
// be one.
func (pp *pathPlan) tripLoopOf(info *types.Info, src func(ast.Expr) (string, bool), f *fileEdits, x, h int) *tripLoop {
	p, g := pp.p, pp.p.g
	fs, ok := g.Nodes[h].AST.(*ast.ForStmt)
	if !ok {
		return nil
	}
	tl := &tripLoop{h: h, x: x, stmt: fs, derived: -1, part: map[int][]tripEdge{}, guard: map[int][]string{}, reeval: map[int]string{}}
	// Nothing in it cuts, ticks or holds another loop.
	var inLoop []int
	for u, nd := range g.Nodes {
		if nd.Unreachable || !tl.in(g, u) {
			continue
		}
		if u != h && nd.LoopHead || pp.cutAll[u] || pp.cutEntry[u] || pp.cutExpr[u] || len(pp.ticks[u]) > 0 || pp.spillExpr[u] && u != h {
			return nil
		}
		if _, isRet := pp.undo[u]; isRet {
			return nil
		}
		inLoop = append(inLoop, u)
	}
	// The init statement goes before the loop, in a block of its own with the loop (and the
	// code after it): it must not panic, call nor cut (a receive), be on one line, and what it
	// declares must be of a predeclared type (no method can address it), neither captured nor
	// addressed: one variable for all iterations then, not one each.
	if fs.Init != nil {
		if n, ok := g.StmtNode[fs.Init]; !ok || p.mayPanic[n] || hasCall(info, fs.Init) || pp.cutAll[n] || pp.cutEntry[n] || pp.cutExpr[n] {
			return nil
		}
		a, b := f.Off(fs.Init.Pos()), f.Off(fs.Init.End())
		t := string(f.Src[a:b])
		if strings.ContainsAny(t, "\n\r") || strings.Contains(t, "//") || strings.Contains(t, "/*") || strings.Contains(t, "_augur") {
			return nil
		}
		if as, ok := fs.Init.(*ast.AssignStmt); ok && as.Tok == token.DEFINE {
			for _, l := range as.Lhs {
				if id, ok := l.(*ast.Ident); ok {
					v, ok := info.Defs[id].(*types.Var)
					if !ok {
						continue
					}
					if _, basic := v.Type().(*types.Basic); !basic || !ownVar(info, p.fn.Decl, v) {
						return nil
					}
				}
			}
		}
		tl.init = t
	}
	// The paths from the head through one iteration: the cycles, and the one path to each node.
	paths := map[int]int{}
	explored := 0
	var walk func(v int, path []tripEdge) bool
	walk = func(v int, path []tripEdge) bool {
		if explored++; explored > 256 {
			return false
		}
		if v != h {
			paths[v]++
			if paths[v] == 1 {
				tl.part[v] = slices.Clone(path)
			}
		}
		for k, e := range g.Nodes[v].Succs {
			w := e.To
			step := append(slices.Clone(path), tripEdge{v, k})
			switch {
			case w == h:
				if len(tl.cycles) == maxCycles {
					return false
				}
				tl.cycles = append(tl.cycles, step)
			case !tl.in(g, w):
				// Leaves the loop: the head's false outcome, or to a return, a jump out.
				if v != h {
					tl.exits = append(tl.exits, tripEdge{v, k})
				}
			default:
				if !walk(w, step) {
					return false
				}
			}
		}
		return true
	}
	if !walk(h, nil) || len(tl.cycles) == 0 {
		return nil
	}
	for _, c := range tl.cycles {
		ns := map[int]bool{h: true}
		for _, e := range c {
			ns[e.u] = true
		}
		tl.nodes = append(tl.nodes, ns)
	}
	// Where the loop is left (but by the condition): one path to it, and a node entered from it
	// alone, before which its code goes.
	preds := g.Preds()
	for _, e := range tl.exits {
		w := g.Nodes[e.u].Succs[e.k].To
		if paths[e.u] != 1 || len(preds[w]) != 1 {
			return nil
		}
		if _, ok := g.Nodes[w].AST.(ast.Stmt); !ok || g.Nodes[w].IsExit() {
			return nil
		}
	}
	oneLine := func(a, b token.Pos) bool {
		return !strings.ContainsAny(string(f.Src[f.Off(a):f.Off(b)]), "\n\r")
	}
	// Where it may panic: one path to it, and a guard (which a post statement has no place for).
	for _, u := range inLoop {
		if !pp.spill[u] {
			continue
		}
		if fs.Post != nil && g.Nodes[u].AST == fs.Post {
			return nil
		}
		if u != h && paths[u] != 1 {
			return nil
		}
		terms, re, ok := tripGuard(info, src, oneLine, p, g.Nodes[u], u == h)
		if !ok {
			return nil
		}
		tl.guard[u], tl.reeval[u] = terms, re
	}
	if len(tl.part) == 0 {
		tl.part = map[int][]tripEdge{}
	}
	tl.stepped(info, src, p)
	if !tl.placeSites(p) {
		return nil
	}
	return tl
}

// hasCall reports whether n calls anything but a conversion or a builtin.
func hasCall(info *types.Info, n ast.Node) bool {
	found := false
	ast.Inspect(n, func(m ast.Node) bool {
		c, ok := m.(*ast.CallExpr)
		if found || !ok {
			return !found
		}
		if tv, ok := info.Types[c.Fun]; ok && tv.IsType() {
			return true
		}
		if id, ok := ast.Unparen(c.Fun).(*ast.Ident); ok {
			if _, ok := info.Uses[id].(*types.Builtin); ok {
				return true
			}
		}
		found = true
		return false
	})
	return found
}

// tripGuard returns the guard of node nd of a tripLoop (the terms true exactly when it is about to
// panic) and the expression that panics again, or false. The head's condition is guarded inside
// itself (head); elsewhere the guard is a statement before the node, which must be a simple
// statement, an if or a switch without init whose one may-panic expression is evaluated
// unconditionally: evaluating it again panics the same way, before anything else of the node.
func tripGuard(info *types.Info, src func(ast.Expr) (string, bool), oneLine func(a, b token.Pos) bool, p *funcPlan, nd *frontend.Node, head bool) (terms []string, re string, ok bool) {
	// The guard goes before the statement (into the head's condition): what it evaluates
	// again must be on that line, to panic on the line the node would have.
	var e ast.Expr
	at := nd.AST.Pos()
	switch s := nd.AST.(type) {
	case *ast.ForStmt:
		if !head || s.Cond == nil {
			return nil, "", false
		}
		e, at = s.Cond, s.Cond.Pos()
	case *ast.IfStmt:
		if s.Init != nil {
			return nil, "", false
		}
		e = s.Cond
	case *ast.SwitchStmt:
		if s.Init != nil || s.Tag == nil {
			return nil, "", false
		}
		for _, c := range s.Body.List {
			for _, ce := range c.(*ast.CaseClause).List {
				if exprMayPanic(info, ce) || hasCall(info, ce) {
					return nil, "", false
				}
			}
		}
		e = s.Tag
	case *ast.ExprStmt:
		e = s.X
	case *ast.IncDecStmt:
		e = s.X
	case *ast.AssignStmt:
		if len(s.Lhs) != len(s.Rhs) {
			return nil, "", false
		}
		var may []ast.Expr
		for _, x := range append(append([]ast.Expr{}, s.Lhs...), s.Rhs...) {
			if exprMayPanic(info, x) || s.Tok != token.DEFINE && lhsMayPanic(info, x, s) {
				may = append(may, x)
			}
		}
		switch s.Tok {
		case token.QUO_ASSIGN, token.REM_ASSIGN, token.SHL_ASSIGN, token.SHR_ASSIGN:
			// x op= y: the operation of the two (x evaluated once).
			if len(may) > 0 || len(s.Lhs) != 1 {
				return nil, "", false
			}
			op := strings.TrimSuffix(s.Tok.String(), "=")
			l, ok1 := src(s.Lhs[0])
			r, ok2 := src(s.Rhs[0])
			if !ok1 || !ok2 || hasCall(info, s) {
				return nil, "", false
			}
			ts, ok3 := nodeGuard(info, src, p.leaves, s)
			if !ok3 || len(ts) == 0 || !oneLine(s.Pos(), s.End()) {
				return nil, "", false
			}
			return ts, "(" + l + ") " + op + " (" + r + ")", true
		}
		if len(may) != 1 {
			return nil, "", false
		}
		e = may[0]
	case *ast.DeclStmt:
		gd, ok := s.Decl.(*ast.GenDecl)
		if !ok || len(gd.Specs) != 1 {
			return nil, "", false
		}
		vs, ok := gd.Specs[0].(*ast.ValueSpec)
		if !ok || len(vs.Values) != 1 {
			return nil, "", false
		}
		e = vs.Values[0]
	default:
		return nil, "", false
	}
	// Evaluated again as a value: a call of a builtin without one (clear, print) cannot be.
	if e == nil || hasCall(info, e) || info.Types[e].IsVoid() || !oneLine(at, e.End()) {
		return nil, "", false
	}
	ts, ok := guardTerms(info, src, p.leaves, e)
	if !ok || len(ts) == 0 {
		return nil, "", false
	}
	re, ok = src(e)
	if !ok {
		return nil, "", false
	}
	return ts, re, true
}

// lhsMayPanic reports whether assigning to x (a left side of s) may panic: an index or a
// dereference.
func lhsMayPanic(info *types.Info, x ast.Expr, s *ast.AssignStmt) bool {
	switch x := ast.Unparen(x).(type) {
	case *ast.IndexExpr, *ast.StarExpr:
		return ownMayPanic(info, x)
	case *ast.SelectorExpr:
		return ownMayPanic(info, x)
	}
	return false
}

// stepped finds the loop's stepped variable: "for init; cond; v++" (v--, v += 1, v -= 1), v an
// integer variable of 64 bits of the function's own (not captured, never addressed), that
// nothing in the condition and the body assigns or declares again.
func (tl *tripLoop) stepped(info *types.Info, src func(ast.Expr) (string, bool), p *funcPlan) {
	fs := tl.stmt
	var id *ast.Ident
	down := false
	switch post := fs.Post.(type) {
	case *ast.IncDecStmt:
		id, _ = ast.Unparen(post.X).(*ast.Ident)
		down = post.Tok == token.DEC
	case *ast.AssignStmt:
		if len(post.Lhs) != 1 || len(post.Rhs) != 1 || post.Tok != token.ADD_ASSIGN && post.Tok != token.SUB_ASSIGN {
			return
		}
		tv, ok := info.Types[post.Rhs[0]]
		if !ok || tv.Value == nil || tv.Value.Kind() != constant.Int || constant.Compare(tv.Value, token.NEQ, constant.MakeInt64(1)) {
			return
		}
		id, _ = ast.Unparen(post.Lhs[0]).(*ast.Ident)
		down = post.Tok == token.SUB_ASSIGN
	}
	if id == nil {
		return
	}
	v, ok := info.ObjectOf(id).(*types.Var)
	if !ok || v.IsField() || !ownVar(info, p.fn.Decl, v) {
		return
	}
	b, ok := v.Type().Underlying().(*types.Basic)
	if !ok || b.Info()&types.IsInteger == 0 {
		return
	}
	if sz := types.SizesFor("gc", build.Default.GOARCH); sz == nil || sz.Sizeof(v.Type()) != 8 {
		return
	}
	// Nothing in the condition or the body assigns v or declares its name again.
	bad := false
	check := func(n ast.Node) {
		if n == nil {
			return
		}
		ast.Inspect(n, func(m ast.Node) bool {
			switch a := m.(type) {
			case *ast.Ident:
				if a.Name == v.Name() && info.Defs[a] != nil {
					bad = true
				}
			case *ast.TypeSwitchStmt:
				if as, ok := a.Assign.(*ast.AssignStmt); ok && len(as.Lhs) == 1 {
					if id, ok := as.Lhs[0].(*ast.Ident); ok && id.Name == v.Name() {
						bad = true
					}
				}
			case *ast.AssignStmt:
				for _, l := range a.Lhs {
					if isObj(info, l, v) {
						bad = true
					}
				}
			case *ast.IncDecStmt:
				if isObj(info, a.X, v) {
					bad = true
				}
			case *ast.RangeStmt:
				if isObj(info, a.Key, v) || isObj(info, a.Value, v) {
					bad = true
				}
			}
			return !bad
		})
	}
	check(fs.Cond)
	check(fs.Body)
	if bad {
		return
	}
	tl.v, tl.down = v.Name(), down
}

// ownVar reports whether v is a parameter or a local of fn, used in no function literal and never
// addressed (&v, or a method with a pointer receiver called on v).
func ownVar(info *types.Info, fn *ast.FuncDecl, v *types.Var) bool {
	if v.Pos() < fn.Pos() || v.Pos() >= fn.End() {
		return false
	}
	ok := true
	ast.Inspect(fn.Body, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.FuncLit:
			ast.Inspect(x.Body, func(m ast.Node) bool {
				if id, isID := m.(*ast.Ident); isID && info.ObjectOf(id) == v {
					ok = false
				}
				return ok
			})
			return false
		case *ast.UnaryExpr:
			if x.Op == token.AND && isObj(info, x.X, v) {
				ok = false
			}
		case *ast.SelectorExpr:
			if sel, isSel := info.Selections[x]; isSel && sel.Kind() == types.MethodVal && isObj(info, x.X, v) {
				ok = false
			}
		}
		return ok
	})
	return ok
}

// placeSites picks where each cycle's register is incremented: an outcome or a statement that
// no other cycle passes. The cycle left without one, or when every cycle has one the shortest
// (then the one that continues), has its count derived from the iterations when the loop steps a
// variable; a loop that does not needs a site for every cycle.
func (tl *tripLoop) placeSites(p *funcPlan) bool {
	g := p.g
	tl.site = make([]tripSite, len(tl.cycles))
	uses := map[tripEdge]int{}
	nodeUses := map[int]int{}
	for j, c := range tl.cycles {
		for _, e := range c {
			uses[e]++
		}
		for u := range tl.nodes[j] {
			nodeUses[u]++
		}
	}
	var none []int
	for j, c := range tl.cycles {
		for _, e := range c {
			if uses[e] != 1 || !g.Nodes[e.u].IsDecision() || e.u == tl.h {
				continue
			}
			switch x := g.Nodes[e.u].AST.(type) {
			case *ast.IfStmt:
			case *ast.SwitchStmt:
				if hasFallthrough(x.Body) {
					continue // a clause's start is also reached by falling through
				}
			default:
				continue
			}
			if p.outcomeSite(e.u, e.k).kind != siteNone {
				tl.site[j] = tripSite{1, e.u, e.k}
				break
			}
		}
		if tl.site[j].kind == 0 {
			for _, e := range c {
				u := e.u
				if u == tl.h || nodeUses[u] != 1 || tl.guard[u] != nil || !siteStmt(g, u, tl.stmt) {
					continue
				}
				tl.site[j] = tripSite{2, u, 0}
				break
			}
		}
		if tl.site[j].kind == 0 {
			none = append(none, j)
		}
	}
	switch {
	case tl.v == "" && len(none) > 0, len(none) > 1:
		return false
	case len(none) == 1:
		tl.derived = none[0]
	case tl.v != "":
		best := -1
		for j := range tl.cycles {
			if best < 0 || len(tl.nodes[j]) < len(tl.nodes[best]) ||
				len(tl.nodes[j]) == len(tl.nodes[best]) && endsContinue(g, tl.cycles[j]) && !endsContinue(g, tl.cycles[best]) {
				best = j
			}
		}
		tl.derived = best
	}
	if tl.derived >= 0 {
		tl.site[tl.derived] = tripSite{}
	}
	return true
}

// endsContinue reports whether cycle c returns to the head through a continue statement.
func endsContinue(g *frontend.CFG, c []tripEdge) bool {
	return len(c) > 0 && isContinue(g.Nodes[c[len(c)-1].u])
}

// siteStmt reports whether node u is a statement of loop s before which code can go and runs
// every time u does: a simple statement or a continue in a statement list of the loop's body.
func siteStmt(g *frontend.CFG, u int, s *ast.ForStmt) bool {
	st, ok := g.Nodes[u].AST.(ast.Stmt)
	if !ok || st == s.Init || st == s.Post {
		return false
	}
	switch x := st.(type) {
	case *ast.BranchStmt:
		return x.Tok == token.CONTINUE && x.Label == nil
	case *ast.ExprStmt, *ast.AssignStmt, *ast.IncDecStmt, *ast.DeclStmt:
	default:
		return false
	}
	// In a statement list (a block or a clause) of the body.
	in := false
	ast.Inspect(s.Body, func(n ast.Node) bool {
		var list []ast.Stmt
		switch b := n.(type) {
		case *ast.BlockStmt:
			list = b.List
		case *ast.CaseClause:
			list = b.Body
		case *ast.FuncLit:
			return false
		}
		if slices.Contains(list, st) {
			in = true
		}
		return !in
	})
	return in
}

// tripCounters numbers the cycles of the tripLoops once the paths are numbered.
func (pp *pathPlan) tripCounters() {
	for h, tl := range pp.trips {
		st := pp.starts[pp.startOf[h]].val
		tl.num = make([]int, len(tl.cycles))
		for j, c := range tl.cycles {
			v := 0
			for _, e := range c {
				ev, _ := pp.edgeVal(e.u, e.k)
				v += ev
			}
			tl.num[j] = st + v
		}
	}
}

// tripOf returns the tripLoop node n belongs to, or nil.
func (pp *pathPlan) tripOf(n int) *tripLoop {
	for _, h := range pp.p.g.Nodes[n].Loops {
		if tl := pp.trips[h]; tl != nil {
			return tl
		}
	}
	return nil
}

// entryValue is the path register's value where the loop headed by h is entered (over the edges
// into h from outside the loop), or -1 if not known.
func (pp *pathPlan) entryValue(tl *tripLoop) int {
	return pp.arrivalAt(tl.h, func(u int) bool { return u >= 0 && !tl.in(pp.p.g, u) })
}

// rewriteTrip writes the code of tripLoop tl before it, in its condition, after it and where it is
// left otherwise, and declares its registers in pro.
//
// Before the loop: the init statement, moved there in a block of its own with the loop (so that
// the variable it declares is in scope after the loop), the end of the path that leads to the
// loop, the registers set to zero (in a loop) and the stepped variable's start. After the loop
// (when it can end but by a return or a jump elsewhere), the cycles' counts go to their counters.
// Where it is left otherwise (to a return, a break, a jump to an outer loop), the counts of the
// iterations completed go first and the registers start again from zero, so that the code there
// has nothing pending (whatever it calls, wherever it panics), and the path register is set.
func (pp *pathPlan) rewriteTrip(f *fileEdits, tl *tripLoop, pro *string, initOf map[ast.Stmt]ast.Stmt) error {
	g := pp.p.g
	tl.ctr = make([]int, len(tl.num))
	for j, n := range tl.num {
		tl.ctr[j] = pp.base + n
	}
	for j := range tl.cycles {
		if j != tl.derived {
			*pro += "var " + tl.reg(j) + " _augur_r.Uint64; "
		}
	}
	if tl.derived >= 0 {
		*pro += "var " + tl.s0Var() + " _augur_r.Uint64; "
	}
	for k, e := range g.Nodes[tl.h].Succs {
		if !tl.in(g, e.To) && pp.val[tl.h][k] != 0 {
			return fmt.Errorf("%s: internal error: a counted loop's exit adds to the path", g.Nodes[tl.h].Pos)
		}
	}
	t := ""
	if tl.init != "" {
		t = "{" + tl.init + "; "
		f.Add(tl.stmt.Init.Pos(), tl.stmt.Init.End(), 1, "")
	}
	t += pp.commit(pp.regAt(tl.h, pp.entryValue(tl))) + pp.restart(tl.h)
	if len(g.Nodes[tl.h].Loops) > 1 {
		for j := range tl.cycles {
			if j != tl.derived {
				t += tl.reg(j) + " = 0; "
			}
		}
	}
	if tl.derived >= 0 {
		t += tl.s0Var() + " = _augur_r.Uint64(" + tl.v + "); "
	}
	f.BeforeStmt(tl.stmt, pp.reads(t))
	after := ""
	if tl.stmt.Cond != nil || breaks(tl.stmt) {
		after = "; " + tl.flushStmt(nil)
	}
	if tl.init != "" {
		after += "}"
	}
	if after != "" {
		f.Add(tl.stmt.End(), token.NoPos, 5, after)
	}
	// Where the loop is left otherwise.
	for _, e := range tl.exits {
		w := g.Nodes[e.u].Succs[e.k].To
		if pp.arr[w] < 0 {
			return fmt.Errorf("%s: internal error: a counted loop's exit has no known path", g.Nodes[w].Pos)
		}
		path := append(slices.Clone(tl.part[e.u]), e)
		beforeNode(f, g.Nodes[w].AST.(ast.Stmt), initOf, pp.reads(tl.flushStmt(path)+tl.reset()+"_augur_pr = "+strconv.Itoa(pp.arr[w]-pp.pend[w])+"; "))
	}
	// The increments on the outcomes that are sites of cycles.
	for j, s := range tl.site {
		if s.kind != 1 {
			continue
		}
		inc := tl.reg(j) + "++; "
		switch st := pp.p.outcomeSite(s.u, s.k); st.kind {
		case siteAt:
			f.Add(st.pos, token.NoPos, 0, inc)
		case siteElse:
			f.Add(g.Nodes[s.u].AST.(*ast.IfStmt).Body.End(), token.NoPos, 2, " else {"+inc+"}")
		case siteDefault:
			f.Add(switchBody(g.Nodes[s.u].AST).Rbrace, token.NoPos, 2, "; default: "+inc)
		default:
			return fmt.Errorf("%s: internal error: a counted loop's site has none", g.Nodes[s.u].Pos)
		}
	}
	// The condition's guard.
	if c := tl.stmt.Cond; c != nil && tl.guard[tl.h] != nil {
		f.Insert(c.Pos(), "((!("+strings.Join(tl.guard[tl.h], " || ")+") || "+tl.recCall(tl.h, pp.spillValue(tl.h, pp.start(tl.h)))+
			" && _augur_r.Use("+tl.reeval[tl.h]+") && _augur_unrec(_augur_bb)) && _augur_r.Bool(")
		f.Add(c.End(), token.NoPos, 0, "))")
	}
	return nil
}

// rewriteTripNode writes the code of node n of tripLoop tl: the increment of the cycle whose
// site it is, its guard.
func (pp *pathPlan) rewriteTripNode(f *fileEdits, tl *tripLoop, n int, initOf map[ast.Stmt]ast.Stmt) error {
	g := pp.p.g
	nd := g.Nodes[n]
	if n == tl.h {
		return nil
	}
	st, ok := nd.AST.(ast.Stmt)
	if !ok {
		return nil
	}
	for j, s := range tl.site {
		if s.kind == 2 && s.u == n {
			beforeNode(f, st, initOf, tl.reg(j)+"++; ")
		}
	}
	if terms := tl.guard[n]; terms != nil {
		if pp.arr[n] < 0 {
			return fmt.Errorf("%s: internal error: a counted loop's node has no known path", nd.Pos)
		}
		beforeNode(f, st, initOf, "if "+strings.Join(terms, " || ")+" {"+tl.recCall(n, pp.spillValue(n, pp.arr[n]))+"; _ = ("+tl.reeval[n]+"); _augur_unrec(_augur_bb)}; ")
	}
	return nil
}

// beforeNode puts t right before statement st (before its header if it is one's init).
func beforeNode(f *fileEdits, st ast.Stmt, initOf map[ast.Stmt]ast.Stmt, t string) {
	if parent, ok := initOf[st]; ok {
		f.BeforeStmt(parent, t)
	} else {
		f.BeforeStmt(st, t)
	}
}
