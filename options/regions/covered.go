package regions

import (
	"go/ast"
	"go/token"
	"sort"

	"golang.org/x/tools/go/ssa"
)

// funcKey names a function by its declaration's place, so that the
// instantiations of a generic function (distinct SSA functions sharing one
// declaration) and the re-parsed syntax regions work on meet.
type funcKey struct {
	file string
	off  int
}

// callIndex is what dropCovered needs from the call graph, built once.
type callIndex struct {
	// insts lists the SSA functions declared at a place.
	insts map[funcKey][]*ssa.Function
	// valued holds functions used other than as a static callee: passed
	// around as values, they may be called from code the call graph does
	// not see.
	valued map[*ssa.Function]bool
}

func (o *optimiser) index() *callIndex {
	if o.calls != nil {
		return o.calls
	}
	ci := &callIndex{insts: map[funcKey][]*ssa.Function{}, valued: map[*ssa.Function]bool{}}
	o.calls = ci
	fns := make([]*ssa.Function, 0, len(o.res.CallGraph.Nodes))
	for fn := range o.res.CallGraph.Nodes {
		if fn != nil {
			fns = append(fns, fn)
		}
	}
	for _, fn := range fns {
		if syn := fn.Syntax(); syn != nil {
			p := o.res.Fset.PositionFor(syn.Pos(), false)
			k := funcKey{p.Filename, p.Offset}
			ci.insts[k] = append(ci.insts[k], fn)
		}
		var ops []*ssa.Value
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				if _, ok := instr.(*ssa.DebugRef); ok {
					continue // names the function, does not use it
				}
				var callee ssa.Value
				if c, ok := instr.(ssa.CallInstruction); ok && !c.Common().IsInvoke() {
					callee = c.Common().Value
				}
				for _, op := range instr.Operands(ops[:0]) {
					if op == nil || *op == nil {
						continue
					}
					if f, ok := (*op).(*ssa.Function); ok && (*op) != callee {
						ci.valued[f] = true
					}
				}
			}
		}
	}
	return ci
}

func (o *optimiser) keyOf(r *region) funcKey {
	p := r.pf.Fset.PositionFor(r.funcNode.Pos(), false)
	return funcKey{p.Filename, p.Offset}
}

// dropCovered is the general form of Algorithm 4's callee lifting: a region
// of a function every one of whose calls runs inside a region of the caller
// whose options contain the region's is removed. Its time is then the
// enclosing region's, which the same options already explain, and the
// probes (with the frame prologue) leave a function that may be called
// millions of times, such as a helper of a compression loop. Recursive
// calls are allowed: they run inside an outer call, which is covered.
//
// Only functions the call graph sees every caller of qualify: named
// functions and methods with unexported names (exported ones may be called
// from code outside the analysis, through interfaces or reflection) that
// are never used as values, called only by plain calls (go runs the callee
// on another goroutine; defer runs it outside the caller's regions).
func (o *optimiser) dropCovered() bool {
	if o.res == nil || o.res.CallGraph == nil {
		return false
	}
	ci := o.index()
	byFunc := map[funcKey][]*region{}
	var keys []funcKey
	for _, r := range o.live() {
		fd, ok := r.funcNode.(*ast.FuncDecl)
		if !ok || fd.Name.IsExported() || fd.Name.Name == "main" || fd.Name.Name == "init" {
			continue
		}
		k := o.keyOf(r)
		if byFunc[k] == nil {
			keys = append(keys, k)
		}
		byFunc[k] = append(byFunc[k], r)
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].file != keys[j].file {
			return keys[i].file < keys[j].file
		}
		return keys[i].off < keys[j].off
	})
	changed := false
	for _, k := range keys {
		insts := ci.insts[k]
		if len(insts) == 0 {
			continue
		}
		// need is the union of the options of the regions to drop: every
		// call site must sit in a region whose options contain it.
		var need []string
		for _, r := range byFunc[k] {
			need = union(need, r.opts)
		}
		if o.callsCovered(insts, need) {
			for _, r := range byFunc[k] {
				r.dead, r.covered = true, true
			}
			changed = true
		}
	}
	return changed
}

func (o *optimiser) callsCovered(insts []*ssa.Function, need []string) bool {
	self := map[*ssa.Function]bool{}
	for _, fn := range insts {
		self[fn] = true
	}
	ci := o.calls
	for _, fn := range insts {
		node := o.res.CallGraph.Nodes[fn]
		if ci.valued[fn] || node == nil {
			return false
		}
		for _, e := range node.In {
			caller := e.Caller.Func
			if self[caller] {
				continue
			}
			if e.Site == nil || caller == nil || caller.Syntax() == nil {
				return false
			}
			if _, ok := e.Site.(*ssa.Call); !ok {
				return false
			}
			if !o.insideRegion(caller, e.Site.Pos(), need) {
				return false
			}
		}
	}
	return true
}

// insideRegion reports whether the call at pos, in caller, lies in a
// region of caller's own body (not of a function literal around or inside
// it) whose options contain need. Regions dropCovered removed still count:
// they run inside covering regions whose options contain theirs.
func (o *optimiser) insideRegion(caller *ssa.Function, pos token.Pos, need []string) bool {
	p := o.res.Fset.PositionFor(pos, false)
	sp := o.res.Fset.PositionFor(caller.Syntax().Pos(), false)
	k := funcKey{sp.Filename, sp.Offset}
	for _, r := range o.rs {
		if (r.dead && !r.covered) || r.funcNode == nil {
			continue
		}
		if r.pf.Fset.PositionFor(r.funcNode.Pos(), false).Filename != p.Filename || o.keyOf(r) != k {
			continue
		}
		if r.startOff() <= p.Offset && p.Offset < r.endOff() && subset(need, r.opts) {
			return true
		}
	}
	return false
}
