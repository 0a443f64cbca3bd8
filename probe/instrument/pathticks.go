package instrument

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"strconv"
	"strings"

	"github.com/augur-perf/augur/source/frontend"
)

// Ticks in paths. A call of a derived leaf (see derive.go) counts its returns; in a twin's tight
// loop an increment of its counter per call costs more than the loop itself (a lexer's
// character classes: 1.8× against 1.2× without). Derived leaves are pure: when their calls are
// in the condition of a decision that is not a cut (an if, a for, a switch's cases), which of
// them ran is decided by the short-circuit evaluation of the condition, so the outcome taken
// tells it, or re-evaluating the (pure) operands that decided it does, right at the outcome:
// the calls that ran are then part of the path (a tick j of node n adds n's paths through its
// outcomes times 2^j), at no cost where the outcome implies them. A loop condition's false
// outcome has no code of its own: the code goes after the loop, when no break leaves it.
// Elsewhere a call adds to its site's counter.

// A dynTick is a tick that ran on an outcome when cond holds.
type dynTick struct {
	j    int
	cond string
}

// planTicks finds the decisions whose derived-leaf calls become ticks of their paths: pp.ticks
// (per node, the sites), pp.sure (per node and outcome, the ticks that ran for sure) and pp.dyn
// (those that ran when a condition holds); pp.after marks the loops whose false outcome's code
// goes after them.
func (pp *pathPlan) planTicks(info *types.Info, src func(ast.Expr) (string, bool)) {
	p, g := pp.p, pp.p.g
	pp.ticks = make([][]*callSite, p.n)
	pp.sure = make([][]int, p.n)
	pp.dyn = make([][][]dynTick, p.n)
	pp.after = map[int]bool{}
	sitesAt := map[int][]*callSite{}
	for _, s := range p.sites {
		if n, _ := siteNode(p, s.call); n >= 0 {
			sitesAt[n] = append(sitesAt[n], s)
		}
	}
	// A node that may panic after a call ran takes a path without its ticks: such calls count at
	// their sites.
	text := func(e ast.Node) string {
		if x, ok := e.(ast.Expr); ok {
			if t, ok := src(x); ok {
				return t
			}
		}
		return "\x00" + strconv.Itoa(int(e.Pos())) // no other expression's
	}
	isSite := func(c *ast.CallExpr) bool {
		return slices.ContainsFunc(p.sites, func(s *callSite) bool { return s.call == c })
	}
	exact := func(n int, sites []*callSite) bool {
		for _, s := range sites {
			if _, part := siteNode(p, s.call); part == nil || !siteExactNode(info, p, text, n, part, s.call, isSite) {
				return false
			}
		}
		return true
	}
	for n, sites := range sitesAt {
		if len(sites) > 6 || pp.cutAll[n] || pp.cutEntry[n] || !exact(n, sites) {
			continue
		}
		nd := g.Nodes[n]
		index := func(c *ast.CallExpr) int {
			for j, s := range sites {
				if s.call == c {
					return j
				}
			}
			return -1
		}
		// The expressions the decision evaluates, in order, and per outcome what is known of
		// their values.
		ctx := map[int][]lit{}
		outcomes := make([]map[ast.Expr]bool, len(nd.Succs))
		reached := make([][]bool, len(nd.Succs)) // per outcome: which case expressions ran (switch)
		ok := true
		var cases []ast.Expr // per case expression in evaluation order
		var clauseOf []int   // its clause's index in the body
		switch s := nd.AST.(type) {
		case *ast.IfStmt:
			execCtx(s.Cond, nil, index, ctx)
			for k, e := range nd.Succs {
				outcomes[k] = map[ast.Expr]bool{}
				know(s.Cond, e.Outcome == frontend.OutTrue, outcomes[k])
			}
			if p.outcomeSite(n, 1).kind == siteNone {
				ok = false // an else if
			}
		case *ast.ForStmt:
			if s.Cond == nil {
				ok = false
				break
			}
			execCtx(s.Cond, nil, index, ctx)
			for k, e := range nd.Succs {
				outcomes[k] = map[ast.Expr]bool{}
				know(s.Cond, e.Outcome == frontend.OutTrue, outcomes[k])
			}
			if breaks(s) {
				ok = false // the code after the loop would run for them too
			} else {
				pp.after[n] = true
			}
		case *ast.SwitchStmt:
			ok = !hasFallthrough(s.Body)
			if s.Tag != nil {
				execCtx(s.Tag, nil, index, ctx)
			}
			var clauses []*ast.CaseClause
			for _, c := range s.Body.List {
				cc := c.(*ast.CaseClause)
				clauses = append(clauses, cc)
				if s.Tag != nil && len(cc.List) > 1 {
					ok = false
				}
			}
			// Cases run in order, the default clause's aside.
			for i, cc := range clauses {
				for _, e := range cc.List {
					cases = append(cases, e)
					clauseOf = append(clauseOf, i)
				}
			}
			// A tick in case expression x runs when the ones before it did not match: in a
			// switch without a tag, when they were false.
			for x, e := range cases {
				var before []lit
				if s.Tag == nil {
					for _, b := range cases[:x] {
						before = append(before, lit{b, false})
					}
				}
				execCtx(e, before, index, ctx)
			}
			for k, e := range nd.Succs {
				outcomes[k] = map[ast.Expr]bool{}
				reached[k] = make([]bool, len(cases))
				clause := -1
				for i, c := range s.Body.List {
					if e.Outcome == frontend.CaseOutcome(i+1) || e.Outcome == frontend.OutDefault && c.(*ast.CaseClause).List == nil {
						clause = i
					}
				}
				for x, ce := range cases {
					switch {
					case clause < 0 || clauses[clause].List == nil || clauseOf[x] < clause:
						// Not matched (the default: none did).
						reached[k][x] = true
						if s.Tag == nil {
							know(ce, false, outcomes[k])
						}
					case clauseOf[x] == clause && len(clauses[clause].List) == 1:
						reached[k][x] = true
						if s.Tag == nil {
							know(ce, true, outcomes[k])
						}
					case clauseOf[x] == clause:
						ok = false // which of the clause's expressions matched is not known
					}
				}
			}
		default:
			ok = false
		}
		if !ok {
			continue
		}
		// Per outcome: the ticks that ran for sure, and those that ran when their unknown
		// operands hold.
		sure := make([]int, len(nd.Succs))
		dyn := make([][]dynTick, len(nd.Succs))
		for k := range nd.Succs {
			for j := range sites {
				lits, in := ctx[j]
				if !in {
					ok = false // not found in the condition
					break
				}
				if sw, isSw := nd.AST.(*ast.SwitchStmt); isSw {
					// In case expression x: only if the cases reached it.
					if x := caseOf(cases, sites[j].call); x >= 0 && !reached[k][x] {
						continue
					}
					_ = sw
				}
				cond, ran, certain := evalLits(lits, outcomes[k], func(e ast.Expr) (string, bool) {
					// Repeating an operand must change nothing: it calls nothing but
					// derived leaves (pure), builtins without effects and conversions.
					if !repeatable(info, e, p.sites) {
						return "", false
					}
					return src(e)
				})
				switch {
				case !ran:
				case certain:
					sure[k] |= 1 << j
				case cond == "":
					ok = false // an operand that cannot be re-evaluated
				default:
					dyn[k] = append(dyn[k], dynTick{j, cond})
				}
			}
			if (sure[k] != 0 || len(dyn[k]) > 0) && !pp.after[n] && p.outcomeSite(n, k).kind == siteNone {
				ok = false
			}
		}
		if !ok {
			delete(pp.after, n)
			continue
		}
		pp.ticks[n], pp.sure[n], pp.dyn[n] = sites, sure, dyn
	}
}

// repeatable reports whether evaluating e again changes nothing and sees what its first
// evaluation saw: it calls nothing but derived leaves (sites), pure builtins and conversions.
func repeatable(info *types.Info, e ast.Expr, sites []*callSite) bool {
	return sideEffectFree(info, e, pureBuiltins, func(c *ast.CallExpr) bool {
		return slices.ContainsFunc(sites, func(s *callSite) bool { return s.call == c })
	})
}

// caseOf is the index of the case expression that holds call c, or -1.
func caseOf(cases []ast.Expr, c *ast.CallExpr) int {
	for x, e := range cases {
		if e.Pos() <= c.Pos() && c.End() <= e.End() {
			return x
		}
	}
	return -1
}

// A lit is an operand of a condition that was true (pos) or false when a call ran.
type lit struct {
	x   ast.Expr
	pos bool
}

// execCtx records for each tick call in e (index gives its number) the conjunction of
// operands' values (ctx and those of the && and || around it) under which it runs.
func execCtx(e ast.Expr, ctx []lit, index func(*ast.CallExpr) int, out map[int][]lit) {
	switch x := e.(type) {
	case *ast.ParenExpr:
		execCtx(x.X, ctx, index, out)
		return
	case *ast.BinaryExpr:
		switch x.Op {
		case token.LAND:
			execCtx(x.X, ctx, index, out)
			execCtx(x.Y, append(append([]lit(nil), ctx...), lit{x.X, true}), index, out)
			return
		case token.LOR:
			execCtx(x.X, ctx, index, out)
			execCtx(x.Y, append(append([]lit(nil), ctx...), lit{x.X, false}), index, out)
			return
		}
	case *ast.CallExpr:
		if j := index(x); j >= 0 {
			out[j] = append([]lit(nil), ctx...)
		}
	case *ast.FuncLit:
		return
	}
	ast.Inspect(e, func(n ast.Node) bool {
		if n == nil || n == ast.Node(e) {
			return true
		}
		if sub, ok := n.(ast.Expr); ok {
			execCtx(sub, ctx, index, out)
			return false
		}
		return true
	})
}

// know records what e being v tells of its operands.
func know(e ast.Expr, v bool, k map[ast.Expr]bool) {
	k[e] = v
	switch x := e.(type) {
	case *ast.ParenExpr:
		know(x.X, v, k)
	case *ast.UnaryExpr:
		if x.Op == token.NOT {
			know(x.X, !v, k)
		}
	case *ast.BinaryExpr:
		if x.Op == token.LAND && v {
			know(x.X, true, k)
			know(x.Y, true, k)
		}
		if x.Op == token.LOR && !v {
			know(x.X, false, k)
			know(x.Y, false, k)
		}
	}
}

// evalLits evaluates the conjunction lits with what is known: whether the call may have run,
// whether for certain, and else the condition on the unknown operands, in their order ("" when
// one has no source to repeat).
func evalLits(lits []lit, k map[ast.Expr]bool, src func(ast.Expr) (string, bool)) (cond string, ran, certain bool) {
	var terms []string
	for _, l := range lits {
		if v, ok := k[l.x]; ok {
			if v != l.pos {
				return "", false, false
			}
			continue
		}
		t, ok := src(l.x)
		if !ok {
			return "", true, false
		}
		if l.pos {
			terms = append(terms, "("+t+")")
		} else {
			terms = append(terms, "!("+t+")")
		}
	}
	if len(terms) == 0 {
		return "", true, true
	}
	return strings.Join(terms, " && "), true, false
}

// breaks reports whether a break statement leaves loop s (a break in it that no inner loop,
// switch or select takes, or a labelled one).
func breaks(s ast.Stmt) bool {
	found := false
	var walk func(n ast.Node, depth int)
	walk = func(n ast.Node, depth int) {
		ast.Inspect(n, func(m ast.Node) bool {
			if found || m == nil {
				return false
			}
			switch x := m.(type) {
			case *ast.FuncLit:
				return false
			case *ast.BranchStmt:
				if x.Tok == token.BREAK && (x.Label != nil || depth == 0) || x.Tok == token.GOTO {
					found = true
				}
			case *ast.ForStmt, *ast.RangeStmt, *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt:
				if m != n {
					walk(m, depth+1)
					return false
				}
			}
			return true
		})
	}
	walk(s, 0)
	return found
}

// hasFallthrough reports whether a switch's clauses fall through.
func hasFallthrough(body *ast.BlockStmt) bool {
	for _, c := range body.List {
		cc := c.(*ast.CaseClause)
		if n := len(cc.Body); n > 0 {
			if br, ok := cc.Body[n-1].(*ast.BranchStmt); ok && br.Tok == token.FALLTHROUGH {
				return true
			}
		}
	}
	return false
}
