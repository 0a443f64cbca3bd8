package instrument

import (
	"go/ast"
	"go/token"
	"go/types"
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
}

func (l *regLoop) contains(p token.Pos) bool {
	if p < l.s.Pos() || p >= l.s.End() {
		return false
	}
	return l.init == nil || p < l.init.Pos() || p >= l.init.End()
}

var pureBuiltins = map[string]bool{"len": true, "cap": true, "min": true, "max": true, "real": true, "imag": true, "complex": true}

// findRegLoops returns the outermost loops of p's function that can keep their counters in
// registers.
func findRegLoops(p *funcPlan, info *types.Info, src func(ast.Expr) (string, bool)) []*regLoop {
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
	// A nest three or more loops deep does enough work per call to amortize the deferred flush,
	// and there the mirror stores measured cheaper than guards the compiler cannot drop (MatMul:
	// 0.84× with the mirror, 1.6× with guards on its two strided indexes).
	if len(l.guards) > 0 && loopDepth(s) >= 3 {
		l.mirror = true
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

// loopDepth is the deepest nesting of loops in s, s included.
func loopDepth(s ast.Node) int {
	d := 0
	var walk func(n ast.Node, k int)
	walk = func(n ast.Node, k int) {
		ast.Inspect(n, func(m ast.Node) bool {
			switch m.(type) {
			case *ast.ForStmt, *ast.RangeStmt:
				if m != n {
					walk(m, k+1)
					return false
				}
			}
			return true
		})
		d = max(d, k)
	}
	walk(s, 1)
	return d
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
func calleeOf(info *types.Info, call *ast.CallExpr) *types.Func {
	switch f := ast.Unparen(call.Fun).(type) {
	case *ast.Ident:
		fn, _ := info.Uses[f].(*types.Func)
		return fn
	case *ast.SelectorExpr:
		if sel, ok := info.Selections[f]; ok {
			if sel.Kind() != types.MethodVal || types.IsInterface(sel.Recv()) {
				return nil
			}
			fn, _ := sel.Obj().(*types.Func)
			return fn
		}
		fn, _ := info.Uses[f.Sel].(*types.Func)
		return fn
	}
	return nil
}

// leaf reports whether fn is a leaf (see leafFuncs) and whether it may panic.
func (l *leafFuncs) leaf(fn *types.Func) (safe, mayPanic bool) {
	if l == nil || fn == nil {
		return false, true
	}
	if r, ok := l.memo[fn]; ok {
		return r[0], r[1]
	}
	fd := l.decls[fn]
	if fd == nil {
		return false, true
	}
	l.memo[fn] = [2]bool{false, true} // recursion: not a leaf
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
		case *ast.CallExpr:
			if tv, ok := l.info.Types[x.Fun]; ok && tv.IsType() {
				break
			}
			if id, ok := ast.Unparen(x.Fun).(*ast.Ident); ok {
				if b, ok := l.info.Uses[id].(*types.Builtin); ok && pureBuiltins[b.Name()] {
					break
				}
			}
			s, m := l.leaf(calleeOf(l.info, x))
			safe, may = safe && s, may || m
			return false
		case ast.Expr:
			if exprMayPanic(l.info, x) {
				may = true
			}
		case *ast.AssignStmt:
			if stmtMayPanic(l.info, x) {
				may = true // s /= 0, x <<= -1
			}
		}
		return true
	})
	l.memo[fn] = [2]bool{safe, may}
	return safe, may
}
