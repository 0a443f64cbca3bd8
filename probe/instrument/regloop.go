package instrument

import (
	"go/ast"
	"go/token"
	"go/types"

	"github.com/augur-perf/augur/source/frontend"
)

// A regLoop is an outermost loop of a frame-free function whose counters live in local
// variables (registers) while it runs and are added to _augur_c when it is left: a memory
// increment per iteration is a load-add-store chain (store-forwarding latency) that costs more
// than a small loop body. The loop calls nothing and does nothing that can end the process or
// the goroutine without unwinding (no calls, channel or map operations, go, select, defer), and
// it is left only by falling through or breaking out of it (then the locals are flushed after
// it), by a return inside it (flushed before the return) or by a panic. When something in it may
// panic (indexing, division, a nil dereference: runtime errors, which unwind), each increment
// also stores the local into a stack array (_augur_m) that a deferred _augur_flush adds to the
// counters if the function unwinds; a plain store is off the critical path.
type regLoop struct {
	s      ast.Stmt // *ast.ForStmt or *ast.RangeStmt
	init   ast.Stmt
	mirror bool
	// guards holds, when mirror is not set, the terms of the guard of each may-panic node
	// (see guardBuilder).
	guards map[int][]string
	rets   []*ast.ReturnStmt
	exits  bool // the loop can end normally (condition, range, break)
	locals []int
	// body is set when the region is the whole function body (see bodyRegion); flushAt marks
	// its nodes before which the locals are flushed unconditionally.
	body    bool
	flushAt map[int]bool
}

func (l *regLoop) contains(p token.Pos) bool {
	if l.body {
		return p > l.s.Pos() && p < l.s.End()
	}
	if p < l.s.Pos() || p >= l.s.End() {
		return false
	}
	return l.init == nil || p < l.init.Pos() || p >= l.init.End()
}

var pureBuiltins = map[string]bool{"len": true, "cap": true, "min": true, "max": true, "real": true, "imag": true, "complex": true}

// findRegLoops returns the regions of p's function that keep their counters in registers: the
// whole body if it can (see bodyRegion), else its outermost loops that can.
func findRegLoops(p *funcPlan, info *types.Info, src func(ast.Expr) (string, bool)) []*regLoop {
	if l := bodyRegion(p, info, src); l != nil {
		return []*regLoop{l}
	}
	var out []*regLoop
	ast.Inspect(p.fn.Decl.Body, func(n ast.Node) bool {
		switch s := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.ForStmt, *ast.RangeStmt:
			if l := regLoopOf(p, info, src, s.(ast.Stmt)); l != nil {
				out = append(out, l)
				return false
			}
		}
		return true
	})
	return out
}

func regLoopOf(p *funcPlan, info *types.Info, src func(ast.Expr) (string, bool), s ast.Stmt) *regLoop {
	l := &regLoop{s: s, guards: map[int][]string{}}
	var body *ast.BlockStmt
	switch s := s.(type) {
	case *ast.ForStmt:
		l.init, body = s.Init, s.Body
		l.exits = s.Cond != nil
	case *ast.RangeStmt:
		body = s.Body
		l.exits = true
		if !rangeOK(info, s) {
			return nil
		}
	}
	labels := map[string]bool{}
	ast.Inspect(s, func(n ast.Node) bool {
		if ls, ok := n.(*ast.LabeledStmt); ok {
			labels[ls.Label.Name] = true
		}
		return true
	})
	own, _ := parentLabel(p.fn.Decl.Body, s)
	ok := true
	depth := 0 // breakable statements between s and the node being inspected
	var stack []ast.Node
	check := func(n ast.Node) bool {
		if !ok {
			return false
		}
		if n == nil {
			if top := stack[len(stack)-1]; isBreakable(top) {
				depth--
			}
			stack = stack[:len(stack)-1]
			return true
		}
		stack = append(stack, n)
		if isBreakable(n) {
			depth++
		}
		switch x := n.(type) {
		case *ast.CallExpr:
			if tv, ok2 := info.Types[x.Fun]; ok2 && tv.IsType() {
				break
			}
			if id, ok2 := ast.Unparen(x.Fun).(*ast.Ident); ok2 {
				if b, ok2 := info.Uses[id].(*types.Builtin); ok2 && pureBuiltins[b.Name()] {
					break
				}
			}
			if safe, _ := p.leaves.leaf(calleeOf(info, x)); safe {
				break
			}
			ok = false
		case *ast.IndexExpr:
			if tv, ok2 := info.Types[x.X]; ok2 {
				if _, isMap := tv.Type.Underlying().(*types.Map); isMap {
					ok = false
				}
			}
		case *ast.UnaryExpr:
			if x.Op == token.ARROW {
				ok = false
			}
		case *ast.FuncLit, *ast.CompositeLit, *ast.SendStmt, *ast.GoStmt, *ast.DeferStmt, *ast.SelectStmt:
			ok = false
		case *ast.RangeStmt:
			if !rangeOK(info, x) {
				ok = false
			}
		case *ast.BranchStmt:
			switch {
			case x.Tok == token.GOTO:
				ok = false
			case x.Label != nil && !labels[x.Label.Name] && x.Label.Name != own:
				ok = false
			case x.Tok == token.BREAK && (x.Label == nil && depth == 0 || x.Label != nil && x.Label.Name == own):
				l.exits = true
			}
		case *ast.ReturnStmt:
			l.rets = append(l.rets, x)
		}
		return ok
	}
	parts := []ast.Node{body}
	if f, isFor := s.(*ast.ForStmt); isFor {
		if f.Cond != nil {
			parts = append(parts, f.Cond)
		}
		if f.Post != nil {
			parts = append(parts, f.Post)
		}
	}
	for _, part := range parts {
		stack, depth = nil, 0
		ast.Inspect(part, check)
	}
	if !ok {
		return nil
	}
	if !l.exits && len(l.rets) == 0 {
		return nil
	}
	for i, nd := range p.g.Nodes {
		if p.mayPanic[i] && nd.AST != nil && l.contains(nd.AST.Pos()) {
			terms, ok := nodeGuard(info, src, p.leaves, nd.AST)
			if !ok {
				l.mirror = true
			} else if len(terms) > 0 {
				l.guards[i] = terms
			}
		}
	}
	if l.mirror {
		l.guards = nil
	}
	return l
}

// rangeOK reports whether a range loop runs no code but its own: not over a map (a concurrent
// write is a fatal error, which does not unwind), a channel or a function.
func rangeOK(info *types.Info, s *ast.RangeStmt) bool {
	tv, ok := info.Types[s.X]
	if !ok {
		return false
	}
	switch u := tv.Type.Underlying().(type) {
	case *types.Basic, *types.Slice, *types.Array:
		return true
	case *types.Pointer:
		_, ok := u.Elem().Underlying().(*types.Array)
		return ok
	}
	return false
}

func isBreakable(n ast.Node) bool {
	switch n.(type) {
	case *ast.ForStmt, *ast.RangeStmt, *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt:
		return true
	}
	return false
}

// parentLabel returns the label of s, if s is a labelled statement's statement.
func parentLabel(body *ast.BlockStmt, s ast.Stmt) (string, bool) {
	name, found := "", false
	ast.Inspect(body, func(n ast.Node) bool {
		if ls, ok := n.(*ast.LabeledStmt); ok && ls.Stmt == s {
			name, found = ls.Label.Name, true
		}
		return !found
	})
	return name, found
}

// leafFuncs tells which functions of a package are leaves a register loop may call: they call
// only pure builtins, conversions and other leaves, and do nothing that blocks or ends the
// process or the goroutine without unwinding (channel operations, select, go, defer, maps,
// function literals, ranging over maps, channels or functions), so that a loop calling them
// still ends only by leaving it or by unwinding; and which of them cannot panic at all.
type leafFuncs struct {
	info  *types.Info
	decls map[*types.Func]*ast.FuncDecl
	memo  map[*types.Func][2]bool // safe, may panic
	// extern are leaves of the build that cannot panic, declared in any of its packages (the
	// split leaves: see leafPlan).
	extern map[*types.Func]bool
	// foreign are the leaves of the build's other packages, and whether each may panic. They
	// count into their own packages' counters, never into this package's: like the standard
	// library's leaves, a call of one may panic but does not suspend (see suspends).
	foreign map[*types.Func]bool
	// counted are the instrumented functions of the build that count their own invocations
	// when called by name: a guard must not call them again (see guardBuilder.pure). rename are
	// the split leaves whose calls in text a guard repeats call their copies instead (see
	// exprSource), nil in a package that cannot name the copies.
	counted, rename map[*types.Func]bool
}

func newLeafFuncs(info *types.Info, files []*ast.File) *leafFuncs {
	l := &leafFuncs{info: info, decls: map[*types.Func]*ast.FuncDecl{}, memo: map[*types.Func][2]bool{}}
	for _, f := range files {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
				if fn, ok := info.Defs[fd.Name].(*types.Func); ok {
					l.decls[fn] = fd
				}
			}
		}
	}
	return l
}

// calleeOf is the function or concrete method a call statically calls, or nil.
// A generic function's or a generic type's method's is its declared (uninstantiated) object.
func calleeOf(info *types.Info, call *ast.CallExpr) *types.Func {
	var fn *types.Func
	switch f := calleeExpr(call).(type) {
	case *ast.Ident:
		fn, _ = info.Uses[f].(*types.Func)
	case *ast.SelectorExpr:
		if sel, ok := info.Selections[f]; ok {
			if sel.Kind() != types.MethodVal || types.IsInterface(sel.Recv()) {
				return nil
			}
			fn, _ = sel.Obj().(*types.Func)
		} else {
			fn, _ = info.Uses[f.Sel].(*types.Func)
		}
	}
	if fn == nil {
		return nil
	}
	return fn.Origin()
}

// calleeExpr is the function a call names, without parentheses and explicit type arguments
// (F[int](x) calls F).
func calleeExpr(call *ast.CallExpr) ast.Expr {
	f := ast.Unparen(call.Fun)
	switch x := f.(type) {
	case *ast.IndexExpr:
		f = ast.Unparen(x.X)
	case *ast.IndexListExpr:
		f = ast.Unparen(x.X)
	}
	return f
}

// renamed is l.rename, or nil when l is.
func (l *leafFuncs) renamed() map[*types.Func]bool {
	if l == nil {
		return nil
	}
	return l.rename
}

// leaf reports whether fn is a leaf (see leafFuncs) and whether it may panic.
func (l *leafFuncs) leaf(fn *types.Func) (safe, mayPanic bool) {
	if l == nil || fn == nil {
		return false, true
	}
	if r, ok := l.memo[fn]; ok {
		return r[0], r[1]
	}
	if leaf, may := stdLeaf(fn); leaf {
		return true, may
	}
	if l.extern[fn] {
		return true, false
	}
	if may, ok := l.foreign[fn]; ok {
		return true, may
	}
	fd := l.decls[fn]
	if fd == nil {
		return false, true
	}
	l.memo[fn] = [2]bool{false, true} // mutual recursion: not a leaf
	if sig, ok := fn.Type().(*types.Signature); ok && sig.TypeParams().Len() > 0 {
		return false, true
	}
	safe, may := true, false
	ast.Inspect(fd.Body, func(n ast.Node) bool {
		if !safe {
			return false
		}
		switch x := n.(type) {
		case *ast.FuncLit, *ast.SendStmt, *ast.GoStmt, *ast.DeferStmt, *ast.SelectStmt:
			safe = false
		case *ast.UnaryExpr:
			if x.Op == token.ARROW {
				safe = false
			}
		case *ast.RangeStmt:
			if !rangeOK(l.info, x) {
				safe = false
			}
		case *ast.IndexExpr:
			if tv, ok := l.info.Types[x.X]; ok {
				if _, isMap := tv.Type.Underlying().(*types.Map); isMap {
					safe = false
				}
			}
			if exprMayPanic(l.info, x) {
				may = true // an index out of range
			}
		case *ast.CallExpr:
			if tv, ok := l.info.Types[x.Fun]; ok && tv.IsType() {
				switch tv.Type.Underlying().(type) {
				case *types.Array, *types.Pointer:
					may = true // a slice too short for the array
				}
				break
			}
			if id, ok := ast.Unparen(x.Fun).(*ast.Ident); ok {
				if b, ok := l.info.Uses[id].(*types.Builtin); ok && pureBuiltins[b.Name()] {
					break
				}
			}
			callee := calleeOf(l.info, x)
			if callee == fn {
				// A call of fn itself adds nothing to what its body does (a recursion
				// without end overflows the stack, which does not unwind).
				return true
			}
			s, m := l.leaf(callee)
			safe, may = safe && s, may || m
			return true // the arguments
		case ast.Expr:
			// The expression's own operation: its operands, calls included, are visited
			// on their own.
			if ownMayPanic(l.info, x) {
				may = true
			}
		case *ast.AssignStmt:
			switch x.Tok {
			case token.QUO_ASSIGN, token.REM_ASSIGN:
				if isInteger(l.info, x.Lhs[0]) && !nonZeroConst(l.info, x.Rhs[0]) {
					may = true // s /= 0
				}
			case token.SHL_ASSIGN, token.SHR_ASSIGN:
				if !constShift(l.info, x.Rhs[0]) {
					may = true // x <<= -1
				}
			}
		}
		return true
	})
	l.memo[fn] = [2]bool{safe, may}
	return safe, may
}

// bodyRegion makes the whole body of a frame-free function one register region, when it has no goto
// to a loop statement and ranges over nothing that runs code or blocks (a function, a channel):
// every counter, the invocations included, is a local, and the locals are added to the counters in
// one pinned commit where the invocation leaves (before each return, at the end of the body) and
// right before every node that may not come back by returning or unwinding through a guard (see
// suspends): a call of anything but a leaf that cannot panic, a channel or select operation, a go
// statement, or a may-panic operation no guard expresses outside loops. Other may-panic nodes get
// guards, as in register loops; where a guard cannot be had inside a loop (an index of a map), the
// locals are mirrored instead, with the deferred flush (the calls still flush before they run: one
// may block for as long as the process lives). Pinning costs two runtime calls; once per invocation
// (per call in it) instead of once per probe is what makes small functions called often, and loops
// that call, cheap to count. An invocation the process ends in the middle of keeps the counts
// flushed before the node it was at (none, if nothing was flushed): counted as unwound there, as
// everywhere else.
func bodyRegion(p *funcPlan, info *types.Info, src func(ast.Expr) (string, bool)) *regLoop {
	body := p.fn.Decl.Body
	gotos := map[string]bool{}
	ast.Inspect(body, func(n ast.Node) bool {
		if x, ok := n.(*ast.BranchStmt); ok && x.Tok == token.GOTO {
			gotos[x.Label.Name] = true
		}
		_, lit := n.(*ast.FuncLit)
		return !lit
	})
	ok := true
	ast.Inspect(body, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.LabeledStmt:
			// A goto to a loop statement would enter the loop by an edge no cut of a
			// twin's paths is placed on; a goto to any other statement is a jump the
			// region's flow analysis follows like any other edge.
			switch x.Stmt.(type) {
			case *ast.ForStmt, *ast.RangeStmt, *ast.LabeledStmt:
				if gotos[x.Label.Name] {
					ok = false
				}
			}
		case *ast.RangeStmt:
			if !rangeOK(info, x) && !isMapRange(info, x) {
				ok = false
			}
		}
		return ok
	})
	if !ok {
		return nil
	}
	res := p.fn.Decl.Type.Results
	l := &regLoop{s: body, body: true, guards: map[int][]string{}, flushAt: map[int]bool{}, exits: res == nil || len(res.List) == 0}
	var unguarded []int
	for i, nd := range p.g.Nodes {
		if nd.AST == nil || nd.IsExit() || nd.Unreachable || nd.Kind == frontend.KindLoop {
			continue
		}
		if suspends(info, p.leaves, nd, false) {
			if len(nd.Loops) > 0 && !suspends(info, p.leaves, nd, true) {
				// In a loop, a call of a leaf that may panic (it cannot block or end
				// the goroutine otherwise) is left with the locals mirrored for the
				// deferred flush, not flushed before on every iteration.
				l.mirror = true
				continue
			}
			// Even in a loop, where mirroring the locals would cost less than a flush per
			// iteration: a call may block for as long as the process lives (a server's
			// accept loop), and what is held in locals then never reaches the counters.
			l.flushAt[i] = true
			continue
		}
		if !p.mayPanic[i] {
			continue
		}
		terms, ok := nodeGuard(info, src, p.leaves, nd.AST)
		switch {
		case !ok && len(nd.Loops) > 0:
			l.mirror = true
		case !ok:
			l.flushAt[i] = true
			unguarded = append(unguarded, i)
		case len(terms) > 0:
			l.guards[i] = terms
		}
	}
	if l.mirror {
		// The deferred flush catches the panics; the calls still flush.
		l.guards = nil
		for _, i := range unguarded {
			delete(l.flushAt, i)
		}
	}
	return l
}

func isMapRange(info *types.Info, s *ast.RangeStmt) bool {
	tv, ok := info.Types[s.X]
	if !ok {
		return false
	}
	_, m := tv.Type.Underlying().(*types.Map)
	return m
}

// suspends reports whether running node nd may leave the function other than by returning or
// unwinding where a guard sees it coming, or run other code first: it calls something that is
// neither a leaf of the package that cannot panic nor a leaf of the standard library or of the
// build's other packages (which may panic, block, exit the process or run for long), or does a
// channel, select or go operation, or ranges over a map. An index of a map does not: it runs no
// code of the program and does not block. A concurrent write to the map is a fatal error there,
// which ends the process without unwinding, as os.Exit in another goroutine would: what the
// invocation holds in locals is lost and it counts as unwound where its counted part stops, the
// counts consistent. (A flush before every map operation made the HashMap kernel 1.40x, against
// 1.20x without; a map operation may panic, which no guard expresses, so in a loop it is mirrored.)
//
// With leafPanics, a call of a leaf that may panic does not count: it can only return or unwind.
func suspends(info *types.Info, leaves *leafFuncs, nd *frontend.Node, leafPanics bool) bool {
	var parts []ast.Node
	switch s := nd.AST.(type) {
	case *ast.IfStmt:
		parts = []ast.Node{s.Cond}
	case *ast.ForStmt:
		parts = []ast.Node{s.Cond}
	case *ast.SwitchStmt:
		parts = []ast.Node{s.Tag}
		for _, c := range s.Body.List {
			for _, e := range c.(*ast.CaseClause).List {
				parts = append(parts, e)
			}
		}
	case *ast.TypeSwitchStmt:
		parts = []ast.Node{s.Assign}
	case *ast.RangeStmt:
		if isMapRange(info, s) {
			return true
		}
		parts = []ast.Node{s.X}
	case *ast.SelectStmt, *ast.GoStmt, *ast.SendStmt, *ast.DeferStmt:
		return true
	case ast.Stmt:
		parts = []ast.Node{s}
	default:
		return true
	}
	found := false
	for _, part := range parts {
		if part == nil {
			continue
		}
		ast.Inspect(part, func(n ast.Node) bool {
			if found {
				return false
			}
			switch x := n.(type) {
			case *ast.FuncLit:
				return false
			case *ast.CallExpr:
				if tv, ok := info.Types[x.Fun]; ok && tv.IsType() {
					break
				}
				if id, ok := ast.Unparen(x.Fun).(*ast.Ident); ok {
					if b, ok := info.Uses[id].(*types.Builtin); ok {
						found = !pureBuiltins[b.Name()] && !safeBuiltins[b.Name()]
						break
					}
				}
				// A leaf that may panic gets no guard (see guardBuilder): flushed before.
				// One of the standard library's, or of another package of the build, does
				// not touch the counters: its panic is an operation's (a spill, or
				// mirrored locals).
				if std, _ := stdLeaf(calleeOf(info, x)); std {
					break
				}
				if leaves != nil {
					if _, foreign := leaves.foreign[calleeOf(info, x)]; foreign {
						break
					}
				}
				if safe, may := leaves.leaf(calleeOf(info, x)); !safe || may && !leafPanics {
					found = true
				}
			case *ast.UnaryExpr:
				found = x.Op == token.ARROW
			case *ast.SendStmt, *ast.GoStmt, *ast.SelectStmt:
				found = true
			}
			return !found
		})
	}
	return found
}

// dirtySets computes, for a body region, which counters' locals may be non-zero
// right before each node runs (din, by node, as offsets from the function's base), so that a
// flush adds only those: the one before a call in a loop then commits the one or two counters
// the iteration has touched since the last flush, not every local of the function. The locals
// are incremented at the entry (the invocations), right before a node (its count, or the
// decrement of a fallthrough), right after it (its completions) and on an edge (an outcome);
// an unconditional flush right before a node zeroes them all, except where its code does not
// sit right before the node (a header with an init statement runs the init in between). It
// returns nil if some local is incremented where the analysis does not look, so that every
// flush adds every local.
func dirtySets(p *funcPlan, r *regState, l *regLoop, f *fileEdits) [][]bool {
	g := p.g
	size := p.size()
	gen := make([][]int, p.n) // before node n
	for i, nd := range g.Nodes {
		if p.countBefore[i] {
			gen[i] = append(gen[i], p.cnt(i)-p.base)
		}
		if br, ok := nd.AST.(*ast.BranchStmt); ok && br.Tok == token.FALLTHROUGH {
			if d, k := fallthroughTarget(f, g, br); d >= 0 && p.rawFlow[p.edge0[d]+k] {
				gen[i] = append(gen[i], p.flow(d, k)-p.base)
			}
		}
	}
	gen[g.Entry] = append(gen[g.Entry], 0)
	seen := map[int]bool{}
	for _, c := range r.locals {
		seen[c-p.base] = false
	}
	mark := func(c int) {
		if _, ok := seen[c]; ok {
			seen[c] = true
		}
	}
	for i := range gen {
		for _, c := range gen[i] {
			mark(c)
		}
	}
	for i, nd := range g.Nodes {
		for k := range nd.Succs {
			if p.rawFlow[p.edge0[i]+k] {
				mark(p.flow(i, k) - p.base)
			}
		}
	}
	mark(p.cnt(g.End) - p.base) // fallEnd: flushed by the flush at the end of the body, of all
	// The calls of derived leaves counted in locals: while their node runs, after any flush
	// right before it.
	after := make([][]int, p.n)
	for _, s := range p.sites {
		if s.local {
			after[s.node] = append(after[s.node], s.ctr)
			mark(s.ctr)
		}
	}
	for _, ok := range seen {
		if !ok {
			return nil
		}
	}
	kills := func(i int) bool { return l.kills(g.Nodes[i], i) }
	din := make([][]bool, p.n)
	for i := range din {
		din[i] = make([]bool, size)
	}
	for changed := true; changed; {
		changed = false
		for i, nd := range g.Nodes {
			if nd.IsExit() {
				continue
			}
			out := make([]bool, size)
			if !kills(i) {
				copy(out, din[i])
				for _, c := range gen[i] {
					out[c] = true
				}
			}
			for _, c := range after[i] {
				out[c] = true
			}
			for k, e := range nd.Succs {
				add := func(c int) {
					if !din[e.To][c] {
						din[e.To][c] = true
						changed = true
					}
				}
				for c, on := range out {
					if on {
						add(c)
					}
				}
				if p.rawFlow[p.edge0[i]+k] {
					add(p.flow(i, k) - p.base)
				}
			}
		}
		// The entry's own increment.
		if !din[g.Entry][0] {
			din[g.Entry][0] = true
			changed = true
		}
	}
	for i := range din {
		for _, c := range gen[i] {
			din[i][c] = true // what a flush right before node i adds
		}
	}
	return din
}

// kills reports whether the unconditional flush before node i (nd) runs right before it, so
// that every local is zero when it starts.
func (l *regLoop) kills(nd *frontend.Node, i int) bool {
	if !l.flushAt[i] {
		return false
	}
	switch s := nd.AST.(type) {
	case *ast.IfStmt:
		return s.Init == nil
	case *ast.SwitchStmt:
		return s.Init == nil
	case *ast.TypeSwitchStmt:
		return s.Init == nil
	case *ast.ForStmt:
		return s.Init == nil
	case *ast.RangeStmt:
		return false // flushed once, before the loop; the node runs on every iteration
	}
	return true
}

// countPanics plans p again, when its body is one register region with guards, so that the
// guards count the Panics of their nodes (in the commit of their flush, see panicFlush) instead
// of flow deriving them from counts placed after the nodes, which every invocation adds at its
// return although the panics they serve are rare: the return flushes only the counts the
// outcomes need. Nodes whose guard does not run right before them keep derived Panics: a header
// with an init statement (the guard runs before the init), a range header (its guard runs once
// before the loop). It reports whether p changed.
func countPanics(p *funcPlan, loops []*regLoop) bool {
	if len(loops) != 1 || !loops[0].body || loops[0].mirror {
		return false
	}
	l := loops[0]
	counted := make([]bool, p.n)
	some := false
	for i, terms := range l.guards {
		if len(terms) == 0 || l.flushAt[i] || !p.panDerived[i] {
			continue
		}
		switch s := p.g.Nodes[i].AST.(type) {
		case *ast.IfStmt:
			if s.Init != nil {
				continue
			}
		case *ast.SwitchStmt:
			if s.Init != nil {
				continue
			}
		case *ast.ForStmt:
			if s.Init != nil {
				continue
			}
		case *ast.TypeSwitchStmt, *ast.RangeStmt, *ast.SelectStmt:
			continue
		}
		counted[i], some = true, true
	}
	if !some {
		return false
	}
	np, err := planFunc(p.fn, p.k, false, counted, p.safe)
	if err != nil || np.frame {
		return false
	}
	np.base, np.leaves, np.sites, np.derived, np.from, np.pp = p.base, p.leaves, p.sites, p.derived, p.from, p.pp
	if np.pp != nil {
		np.pp.p = np
	}
	np.countedPan = counted
	*p = *np
	return true
}

// ownMayPanic reports whether the operation of e itself, not counting what its operands do,
// may panic: an index, slice, dereference, type assertion, integer division or modulo, shift
// by a signed count, comparison of interfaces, or a map literal with interface keys.
func ownMayPanic(info *types.Info, e ast.Expr) bool {
	if tv, ok := info.Types[e]; ok && (tv.IsType() || tv.Value != nil) {
		return false
	}
	switch x := e.(type) {
	case *ast.IndexExpr:
		if tv, ok := info.Types[x.X]; ok {
			if _, ok := tv.Type.Underlying().(*types.Signature); ok {
				return false // instantiation
			}
		}
		return !isSafeIndex(x)
	case *ast.SliceExpr, *ast.StarExpr, *ast.TypeAssertExpr:
		return true
	case *ast.CompositeLit:
		if tv, ok := info.Types[x]; ok {
			if m, ok := tv.Type.Underlying().(*types.Map); ok {
				_, iface := m.Key().Underlying().(*types.Interface)
				return iface
			}
		}
		return false
	case *ast.SelectorExpr:
		sel, ok := info.Selections[x]
		return ok && sel.Indirect()
	case *ast.BinaryExpr:
		return binaryMayPanic(info, x)
	}
	return false
}
