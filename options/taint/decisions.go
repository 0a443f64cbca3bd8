package taint

import (
	"go/ast"
	"go/token"
	"go/types"
	"slices"
	"sort"
	"strings"

	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/ssa"
)

// A head is the source range whose evaluation decides a decision: an if or
// for condition, a range clause, a switch tag or case list, a select
// keyword. SSA branches are attributed to the innermost head containing
// their position.
type head struct {
	pos, end token.Pos
	d        *decisionBuild
}

type decisionBuild struct {
	d       *Decision
	key     token.Pos
	bits    []uint64
	regions map[*ssa.Function][]*ssa.BasicBlock
	order   []*ssa.Function
}

func (a *analysis) collectHeads(pkgs []*packages.Package) (map[*token.File][]head, []*decisionBuild) {
	fset := a.res.Fset
	heads := map[*token.File][]head{}
	var all []*decisionBuild
	seenFile := map[*token.File]bool{}
	for _, pkg := range pkgs {
		for _, file := range pkg.Syntax {
			tf := fset.File(file.Pos())
			if tf == nil || seenFile[tf] {
				continue
			}
			seenFile[tf] = true
			if !slices.Contains(pkg.GoFiles, tf.Name()) {
				// cgo's output: the go command writes it anew from the original file, so a
				// region in it could not be timed (a rewrite of it never reaches the
				// compiler), and what cgo adds is not the user's.
				if name := fset.Position(file.Package).Filename; slices.Contains(pkg.GoFiles, name) && !slices.Contains(a.res.Cgo, name) {
					a.res.Cgo = append(a.res.Cgo, name)
				}
				continue
			}
			var fnName string
			newDecision := func(pos token.Pos, kind, text string) *decisionBuild {
				db := &decisionBuild{
					d:       &Decision{Pos: fset.PositionFor(pos, false), Kind: kind, Text: text, Func: fnName},
					key:     pos,
					bits:    make([]uint64, a.words),
					regions: map[*ssa.Function][]*ssa.BasicBlock{},
				}
				all = append(all, db)
				return db
			}
			add := func(db *decisionBuild, from, to token.Pos) {
				heads[tf] = append(heads[tf], head{from, to, db})
			}
			cases := func(db *decisionBuild, body *ast.BlockStmt) {
				for _, s := range body.List {
					if cc, ok := s.(*ast.CaseClause); ok && cc.List != nil {
						add(db, cc.Case, cc.Colon+1)
					}
				}
			}
			ast.Inspect(file, func(n ast.Node) bool {
				switch s := n.(type) {
				case *ast.FuncDecl:
					fnName = s.Name.Name
				case *ast.IfStmt:
					add(newDecision(s.If, "if", "if "+types.ExprString(s.Cond)), s.Cond.Pos(), s.Cond.End())
				case *ast.ForStmt:
					if s.Cond != nil {
						add(newDecision(s.For, "for", "for "+types.ExprString(s.Cond)), s.Cond.Pos(), s.Cond.End())
					}
				case *ast.RangeStmt:
					text := "for range " + types.ExprString(s.X)
					if s.Key != nil {
						kv := types.ExprString(s.Key)
						if s.Value != nil {
							kv += ", " + types.ExprString(s.Value)
						}
						text = "for " + kv + " " + s.Tok.String() + " range " + types.ExprString(s.X)
					}
					add(newDecision(s.For, "range", text), s.For, s.X.End())
				case *ast.SwitchStmt:
					text := "switch"
					if s.Tag != nil {
						text += " " + types.ExprString(s.Tag)
					}
					db := newDecision(s.Switch, "switch", text)
					add(db, s.Switch, s.Body.Lbrace)
					cases(db, s.Body)
				case *ast.TypeSwitchStmt:
					text := "switch"
					var x ast.Expr
					switch as := s.Assign.(type) {
					case *ast.AssignStmt:
						text += " " + types.ExprString(as.Lhs[0]) + " :="
						x = as.Rhs[0]
					case *ast.ExprStmt:
						x = as.X
					}
					if ta, ok := x.(*ast.TypeAssertExpr); ok {
						text += " " + types.ExprString(ta.X) + ".(type)"
					}
					db := newDecision(s.Switch, "typeswitch", text)
					add(db, s.Switch, s.Body.Lbrace)
					cases(db, s.Body)
				case *ast.SelectStmt:
					add(newDecision(s.Select, "select", "select"), s.Select, s.Body.Lbrace+1)
				}
				return true
			})
			hs := heads[tf]
			sort.SliceStable(hs, func(i, j int) bool { return hs[i].pos < hs[j].pos })
		}
	}
	return heads, all
}

// innermost returns the head that most tightly contains pos. Heads nest or
// are disjoint, so among those starting at or before pos the containing one
// with the greatest start is the innermost.
func innermost(hs []head, pos token.Pos) *decisionBuild {
	i := sort.Search(len(hs), func(i int) bool { return hs[i].pos > pos })
	for i--; i >= 0; i-- {
		if hs[i].pos <= pos && pos < hs[i].end {
			return hs[i].d
		}
	}
	return nil
}

// ifPositions lists, best first, source positions that may identify the
// decision an *ssa.If belongs to. ssa.If has no position of its own.
func ifPositions(ifi *ssa.If) []token.Pos {
	b := ifi.Block()
	// The builder evaluates a condition with b.expr, which under
	// GlobalDebug emits a DebugRef for it just before the If. If there is
	// one, it is the answer, even outside any head (a && in an assignment
	// is then not a decision).
	for i := len(b.Instrs) - 1; i >= 0; i-- {
		if dr, ok := b.Instrs[i].(*ssa.DebugRef); ok && dr.X == ifi.Cond {
			return []token.Pos{dr.Expr.Pos()}
		}
	}
	var ps []token.Pos
	if p := ifi.Cond.Pos(); p.IsValid() {
		ps = append(ps, p)
	}
	// Synthesised comparisons (range, switch, select) have no position;
	// the instructions of their block, or the values they compare, do.
	for i := len(b.Instrs) - 1; i >= 0; i-- {
		if p := b.Instrs[i].Pos(); p.IsValid() {
			ps = append(ps, p)
		}
	}
	var operands func(v ssa.Value, depth int)
	operands = func(v ssa.Value, depth int) {
		instr, ok := v.(ssa.Instruction)
		if !ok || depth > 4 {
			return
		}
		if p := v.Pos(); p.IsValid() {
			ps = append(ps, p)
		}
		for _, op := range instr.Operands(nil) {
			operands(*op, depth+1)
		}
	}
	operands(ifi.Cond, 0)
	if s := b.Succs[0]; strings.HasPrefix(s.Comment, "range") {
		for _, instr := range s.Instrs {
			if p := instr.Pos(); p.IsValid() {
				ps = append(ps, p)
			}
		}
	}
	return ps
}

func (a *analysis) decisions(pkgs []*packages.Package) []*Decision {
	fset := a.res.Fset
	heads, all := a.collectHeads(pkgs)
	for _, ifi := range a.ifs {
		var db *decisionBuild
		for _, p := range ifPositions(ifi) {
			tf := fset.File(p)
			if tf == nil {
				continue
			}
			if db = innermost(heads[tf], p); db != nil {
				break
			}
		}
		if db == nil {
			continue // a branch inside an expression: not a decision
		}
		b := ifi.Block()
		fn := b.Parent()
		a.or(db.bits, a.val(ifi.Cond))
		a.or(db.bits, a.pc(b))
		a.or(db.bits, a.fnNode(a.ctxs, fn))
		if _, ok := db.regions[fn]; !ok {
			db.order = append(db.order, fn)
		}
		db.regions[fn] = append(db.regions[fn], b)
	}
	// Test variants parse a file twice; merge decisions at the same place.
	byPlace := map[string]*decisionBuild{}
	var out []*Decision
	for _, db := range all {
		place := db.d.Pos.String()
		if prev, ok := byPlace[place]; ok {
			for k := range prev.bits {
				prev.bits[k] |= db.bits[k]
			}
			prev.d.Regions = append(prev.d.Regions, a.regions(db)...)
			prev.d.Options = a.names(prev.bits)
			continue
		}
		byPlace[place] = db
		db.d.Options = a.names(db.bits)
		db.d.Regions = a.regions(db)
		out = append(out, db.d)
	}
	for _, d := range out {
		if len(d.Regions) > 0 {
			r := d.Regions[0]
			d.Func = r.Func.Name()
			if r.IPDom != nil {
				d.End = fset.PositionFor(blockPos(r.IPDom), false)
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		pi, pj := out[i].Pos, out[j].Pos
		if pi.Filename != pj.Filename {
			return pi.Filename < pj.Filename
		}
		if pi.Line != pj.Line {
			return pi.Line < pj.Line
		}
		return pi.Column < pj.Column
	})
	return out
}

func (a *analysis) regions(db *decisionBuild) []Region {
	var rs []Region
	for _, fn := range db.order {
		blocks := db.regions[fn]
		pd := a.res.PostDom(fn)
		end := -1
		for _, b := range blocks {
			ip := pd.IPDom(b.Index)
			if end < 0 {
				end = ip
			} else {
				end = pd.LCA(end, ip)
			}
		}
		// The branches of one && chain post-dominate nothing of each
		// other, but the LCA of their ipdoms may still be one of them
		// when a loop condition re-enters itself; climb past the blocks.
		for isMember(blocks, end) && end != pd.Exit {
			end = pd.IPDom(end)
		}
		r := Region{Func: fn, Blocks: blocks}
		if end >= 0 && end != pd.Exit {
			r.IPDom = fn.Blocks[end]
		}
		rs = append(rs, r)
	}
	return rs
}

func isMember(bs []*ssa.BasicBlock, i int) bool {
	for _, b := range bs {
		if b.Index == i {
			return true
		}
	}
	return false
}

// blockPos is the first source position in b, searching forward along
// single successors when b itself has none (empty join blocks); a block
// that only returns yields the function's closing brace.
func blockPos(b *ssa.BasicBlock) token.Pos {
	fn := b.Parent()
	for steps := 0; b != nil && steps < 8; steps++ {
		for _, instr := range b.Instrs {
			if p := instr.Pos(); p.IsValid() {
				return p
			}
			if dr, ok := instr.(*ssa.DebugRef); ok {
				return dr.Expr.Pos()
			}
		}
		if len(b.Succs) != 1 {
			break
		}
		b = b.Succs[0]
	}
	switch syn := fn.Syntax().(type) {
	case *ast.FuncDecl:
		if syn.Body != nil {
			return syn.Body.Rbrace
		}
	case *ast.FuncLit:
		return syn.Body.Rbrace
	}
	return token.NoPos
}
