package regions

import (
	"go/ast"
	"go/token"
	"sort"

	"github.com/augur-perf/augur/options/taint"
	"golang.org/x/tools/go/ssa"
)

// optimiser applies Algorithms 3 and 4 (see the package doc).
type optimiser struct {
	res   *taint.Result
	parse func(string) (*ParsedFile, error)
	rs    []*region
	// sets are the option sets of Algorithm 2's regions: the interactions
	// the compressed configurations cover.
	sets  [][]string
	calls *callIndex
}

func (o *optimiser) covered(opts []string) bool {
	for _, s := range o.sets {
		if subset(opts, s) {
			return true
		}
	}
	return false
}

func (o *optimiser) live() []*region {
	var out []*region
	for _, r := range o.rs {
		if !r.dead {
			out = append(out, r)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].pf != out[j].pf {
			return out[i].pf.Fset.PositionFor(out[i].pf.File.Pos(), false).Filename < out[j].pf.Fset.PositionFor(out[j].pf.File.Pos(), false).Filename
		}
		return out[i].startOff() < out[j].startOff()
	})
	o.rs = out
	return out
}

func (o *optimiser) run() {
	for round := 0; round < 20; round++ {
		changed := o.expand()
		changed = o.mergeNested() || changed
		changed = o.mergeAdjacent() || changed
		changed = o.liftCallees() || changed
		changed = o.liftLoops() || changed
		changed = o.dropCovered() || changed
		if !changed {
			break
		}
	}
	o.live()
}

// byList groups live list regions by their statement list, in order.
func (o *optimiser) byList() map[ast.Node][]*region {
	m := map[ast.Node][]*region{}
	for _, r := range o.live() {
		if r.elseIf == nil {
			m[r.container] = append(m[r.container], r)
		}
	}
	return m
}

// holdsRegion reports whether statement s contains the start of a live
// region (other than skip).
func (o *optimiser) holdsRegion(pf *ParsedFile, s ast.Stmt, skip *region) bool {
	lo, hi := pf.Off(s.Pos()), pf.Off(s.End())
	for _, r := range o.rs {
		if r.dead || r == skip || r.pf != pf {
			continue
		}
		if st := r.startOff(); st >= lo && st < hi {
			return true
		}
	}
	return false
}

func (o *optimiser) absorbable(r *region, s ast.Stmt) bool {
	if _, ok := s.(*ast.LabeledStmt); ok {
		return false
	}
	return !o.holdsRegion(r.pf, s, r) && !waits(s)
}

// waits reports whether s may wait for another goroutine: a channel send or
// receive, a select, or a call of a method named Wait (sync.WaitGroup,
// sync.Cond, errgroup.Group, exec.Cmd), outside function literals, whose
// bodies run when called (or on their own goroutine). A range over a
// channel is not recognised (the syntax alone does not tell).
func waits(s ast.Stmt) bool {
	found := false
	ast.Inspect(s, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.SendStmt, *ast.SelectStmt:
			found = true
		case *ast.UnaryExpr:
			found = found || n.Op == token.ARROW
		case *ast.CallExpr:
			if sel, ok := n.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Wait" {
				found = true
			}
		}
		return !found
	})
	return found
}

func (o *optimiser) expand() bool {
	changed := false
	for _, rs := range o.byList() {
		// The floor is past every earlier region, not just the previous
		// one: a region lifted to a call site (liftCallees) sits inside an
		// enclosing region of the same list, and growing back to the end
		// of the lifted one would cross the enclosing region, whose probes
		// then do not nest.
		floor := 0
		for k, r := range rs {
			// A labeled first statement stays first: a goto from outside
			// must not land in the middle of the span.
			_, labeled := r.list[r.lo].(*ast.LabeledStmt)
			for !labeled && r.lo > floor && o.absorbable(r, r.list[r.lo-1]) && laminar(rs, r, r.lo-1, r.hi) {
				r.lo--
				changed = true
			}
			if k == len(rs)-1 {
				for r.hi < len(r.list)-1 && o.absorbable(r, r.list[r.hi+1]) && laminar(rs, r, r.lo, r.hi+1) {
					r.hi++
					changed = true
				}
			}
			floor = max(floor, r.hi+1)
		}
	}
	return changed
}

// laminar reports whether r may cover elements lo..hi of its list: every
// other live region of the list (rs) must lie inside that span, contain it
// or be disjoint from it. Timing needs properly nested spans: with crossing
// ones, the exit of the region entered first finds the other one on top of
// the nesting stack.
func laminar(rs []*region, r *region, lo, hi int) bool {
	for _, s := range rs {
		if s == r || s.dead {
			continue
		}
		disjoint := s.hi < lo || s.lo > hi
		inside := lo <= s.lo && s.hi <= hi
		contains := s.lo <= lo && hi <= s.hi
		if !disjoint && !inside && !contains {
			return false
		}
	}
	return true
}

func absorb(into, from *region) {
	into.opts = union(into.opts, from.opts)
	into.decs = append(append([]token.Position(nil), into.decs...), from.decs...)
	into.texts = append(append([]string(nil), into.texts...), from.texts...)
	from.dead = true
}

func (o *optimiser) mergeAdjacent() bool {
	changed := false
	for _, rs := range o.byList() {
		cur := rs[0]
		for _, r := range rs[1:] {
			if cur.hi+1 == r.lo && o.covered(union(cur.opts, r.opts)) && laminar(rs, cur, cur.lo, r.hi) {
				cur.hi = r.hi
				absorb(cur, r)
				changed = true
				continue
			}
			cur = r
		}
	}
	return changed
}

func (o *optimiser) mergeNested() bool {
	changed := false
	rs := o.live()
	for _, in := range rs {
		for _, out := range rs {
			if in == out || in.dead || out.dead || in.pf != out.pf || in.funcNode != out.funcNode {
				continue
			}
			if out.startOff() <= in.startOff() && in.endOff() <= out.endOff() &&
				!(out.startOff() == in.startOff() && in.endOff() == out.endOff()) &&
				o.covered(union(in.opts, out.opts)) {
				absorb(out, in)
				changed = true
			}
		}
	}
	return changed
}

// wholeBody returns the single live region covering fn's whole body, if any.
func (o *optimiser) wholeBody(fn *ssa.Function) *region {
	var found *region
	for _, r := range o.rs {
		if r.dead || r.fn != fn {
			continue
		}
		if r.elseIf != nil || r.lo != 0 || r.hi != len(r.list)-1 {
			return nil
		}
		var body *ast.BlockStmt
		switch f := r.funcNode.(type) {
		case *ast.FuncDecl:
			body = f.Body
		case *ast.FuncLit:
			body = f.Body
		}
		if body == nil || r.container != ast.Node(body) {
			// Regions nested below the top level only count when a
			// top-level region covers them.
			continue
		}
		if found != nil {
			return nil
		}
		found = r
	}
	if found == nil {
		return nil
	}
	// Every other region of fn must lie inside found with the same options.
	for _, r := range o.rs {
		if !r.dead && r.fn == fn && r != found && !equal(r.opts, found.opts) {
			return nil
		}
	}
	return found
}

func (o *optimiser) liftCallees() bool {
	cg := o.res.CallGraph
	if cg == nil {
		return false
	}
	changed := false
	for _, r := range o.live() {
		if r.dead {
			continue
		}
		fn := r.fn
		if fn.Name() == "main" || fn.Name() == "init" || o.wholeBody(fn) != r {
			continue
		}
		node := cg.Nodes[fn]
		if node == nil || len(node.In) == 0 {
			continue
		}
		type site struct {
			pf   *ParsedFile
			s    ast.Stmt
			fn   *ssa.Function
			list []ast.Stmt
			cont ast.Node
			i    int
		}
		var sites []site
		ok := true
		seen := map[ast.Stmt]bool{}
		for _, e := range node.In {
			caller := e.Caller.Func
			if caller == fn || e.Site == nil || caller.Syntax() == nil {
				ok = false
				break
			}
			if _, isCall := e.Site.(*ssa.Call); !isCall {
				ok = false // go and defer statements run the callee elsewhere
				break
			}
			p := o.res.Fset.PositionFor(e.Site.Pos(), false)
			pf, err := o.parse(p.Filename)
			if err != nil {
				ok = false
				break
			}
			s := o.callStmt(pf, p.Offset)
			if s == nil {
				ok = false
				break
			}
			if seen[s] {
				continue
			}
			seen[s] = true
			cont, list, i, _ := pf.listOf(s)
			if i < 0 {
				ok = false
				break
			}
			sites = append(sites, site{pf, s, caller, list, cont, i})
		}
		if !ok || len(sites) == 0 {
			continue
		}
		for _, s := range o.rs {
			if !s.dead && s.fn == fn {
				s.dead = true
			}
		}
		for _, st := range sites {
			nr := &region{pf: st.pf, fn: st.fn, container: st.cont, list: st.list, lo: st.i, hi: st.i,
				opts: append([]string(nil), r.opts...), decs: append([]token.Position(nil), r.decs...),
				texts: []string{"call " + fn.Name() + ": " + joinTexts(r.texts)}}
			nr.funcNode, _ = st.pf.enclosingFunc(st.s)
			o.rs = append(o.rs, nr)
		}
		changed = true
	}
	return changed
}

func joinTexts(ts []string) string {
	if len(ts) == 1 {
		return ts[0]
	}
	out := ""
	for i, t := range ts {
		if i > 0 {
			out += "; "
		}
		out += t
	}
	return out
}

// callStmt is the simple statement holding the call whose Lparen is at
// off, or nil when the call sits in a compound statement (lifting there
// would time the compound statement's other parts too).
func (o *optimiser) callStmt(pf *ParsedFile, off int) ast.Stmt {
	var innermost ast.Stmt
	ast.Inspect(pf.File, func(n ast.Node) bool {
		if n == nil || pf.Off(n.Pos()) > off || pf.Off(n.End()) <= off {
			return false
		}
		if _, lit := n.(*ast.FuncLit); lit && innermost != nil {
			return false
		}
		if s, ok := n.(ast.Stmt); ok {
			innermost = s
		}
		return true
	})
	switch innermost.(type) {
	case *ast.ExprStmt, *ast.AssignStmt, *ast.DeclStmt, *ast.IncDecStmt, *ast.SendStmt:
		return innermost
	}
	return nil
}

func (o *optimiser) liftLoops() bool {
	changed := false
	for _, r := range o.live() {
		if r.dead || r.elseIf != nil || r.lo != 0 || r.hi != len(r.list)-1 {
			continue
		}
		b, ok := r.container.(*ast.BlockStmt)
		if !ok {
			continue
		}
		loop := r.pf.Parent[b]
		switch l := loop.(type) {
		case *ast.ForStmt:
			if l.Body != b {
				continue
			}
		case *ast.RangeStmt:
			if l.Body != b {
				continue
			}
		default:
			continue
		}
		// Only one region may cover the body; others would be nested in
		// the lifted one without their options.
		alone := true
		for _, s := range o.rs {
			if s != r && !s.dead && s.pf == r.pf && s.startOff() >= r.pf.Off(b.Pos()) && s.endOff() <= r.pf.Off(b.End()) {
				alone = false
			}
		}
		if !alone {
			continue
		}
		cont, list, i, _ := r.pf.listOf(loop.(ast.Stmt))
		if i < 0 || o.holdsRegionExactly(r.pf, list[i]) {
			continue
		}
		r.container, r.list, r.lo, r.hi = cont, list, i, i
		r.texts = []string{"loop: " + joinTexts(r.texts)}
		changed = true
	}
	return changed
}

// holdsRegionExactly reports whether some live region starts at s (the
// loop is itself influenced: nested merging handles it).
func (o *optimiser) holdsRegionExactly(pf *ParsedFile, s ast.Stmt) bool {
	off := pf.Off(s.Pos())
	for _, r := range o.rs {
		if !r.dead && r.pf == pf && r.startOff() == off {
			return true
		}
	}
	return false
}
