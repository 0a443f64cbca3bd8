package taint

import (
	"go/token"
	"go/types"
	"math/bits"
	"sort"

	"github.com/augur-perf/augur/options/sources"
	"golang.org/x/tools/go/callgraph"
	"golang.org/x/tools/go/ssa"
)

// analysis holds the constraint graph. All nodes (value sets, memory
// classes, function results and contexts, block pc sets) live in one id
// space so that one union-find serves the memory classes and one worklist
// serves everything.
type analysis struct {
	res      *Result
	set      *sources.Set
	optIndex map[string]int
	words    int

	parent  []int32
	pointee map[int32]int32 // representative class → class of its pointers' targets

	vals       map[ssa.Value]int32
	targets    map[ssa.Value]int32
	fields     map[*types.Var]int32
	rets       map[*ssa.Function]int32
	retTargets map[*ssa.Function]int32
	ctxs       map[*ssa.Function]int32
	pcs        map[*ssa.BasicBlock]int32
	selRecvs   map[*ssa.Select][]int32

	edges   [][2]int32
	seeds   [][2]int32 // node, option bit
	pending []pendingRet
	parses  []parseCall

	callees map[ssa.CallInstruction][]*ssa.Function
	sites   map[token.Pos][]siteRef
	cdStar  map[*ssa.BasicBlock][]*ssa.BasicBlock
	fnCD    map[*ssa.Function][][]int
	ifs     []*ssa.If

	pointerLike map[types.Type]bool

	sets []uint64 // words per node, after solve
}

type siteRef struct {
	site sources.Site
	opt  int32
}

func newAnalysis(r *Result, set *sources.Set) *analysis {
	a := &analysis{
		res: r, set: set, optIndex: map[string]int{},
		pointee: map[int32]int32{}, vals: map[ssa.Value]int32{}, targets: map[ssa.Value]int32{},
		fields: map[*types.Var]int32{}, rets: map[*ssa.Function]int32{}, retTargets: map[*ssa.Function]int32{},
		ctxs: map[*ssa.Function]int32{}, pcs: map[*ssa.BasicBlock]int32{}, selRecvs: map[*ssa.Select][]int32{},
		callees: map[ssa.CallInstruction][]*ssa.Function{}, sites: map[token.Pos][]siteRef{},
		cdStar: map[*ssa.BasicBlock][]*ssa.BasicBlock{}, fnCD: map[*ssa.Function][][]int{},
		pointerLike: map[types.Type]bool{},
	}
	for i, o := range set.Options {
		a.optIndex[o.Name] = i
	}
	a.words = (len(set.Options) + 63) / 64
	if a.words == 0 {
		a.words = 1
	}
	return a
}

func (a *analysis) node() int32 {
	a.parent = append(a.parent, int32(len(a.parent)))
	return int32(len(a.parent) - 1)
}

func (a *analysis) find(x int32) int32 {
	for a.parent[x] != x {
		a.parent[x] = a.parent[a.parent[x]]
		x = a.parent[x]
	}
	return x
}

// unify merges two memory classes and, recursively, their pointee classes
// (Steensgaard). A worklist rather than recursion keeps deep pointer chains
// off the stack.
func (a *analysis) unify(x, y int32) {
	if x < 0 || y < 0 {
		return
	}
	work := [][2]int32{{x, y}}
	for len(work) > 0 {
		p := work[len(work)-1]
		work = work[:len(work)-1]
		rx, ry := a.find(p[0]), a.find(p[1])
		if rx == ry {
			continue
		}
		a.parent[ry] = rx
		if py, ok := a.pointee[ry]; ok {
			delete(a.pointee, ry)
			if px, ok := a.pointee[rx]; ok {
				work = append(work, [2]int32{px, py})
			} else {
				a.pointee[rx] = py
			}
		}
	}
}

func (a *analysis) pointeeOf(c int32) int32 {
	if c < 0 {
		return -1
	}
	r := a.find(c)
	if p, ok := a.pointee[r]; ok {
		return p
	}
	p := a.node()
	a.pointee[r] = p
	return p
}

func (a *analysis) edge(src, dst int32) {
	if src >= 0 && dst >= 0 {
		a.edges = append(a.edges, [2]int32{src, dst})
	}
}

// val is the node of v's own taint; constants have none.
func (a *analysis) val(v ssa.Value) int32 {
	switch v.(type) {
	case *ssa.Const, nil:
		return -1
	}
	if n, ok := a.vals[v]; ok {
		return n
	}
	n := a.node()
	a.vals[v] = n
	return n
}

// isPointerLike reports whether values of t can refer to memory; only those
// get a target class, which keeps the union-find small.
func (a *analysis) isPointerLike(t types.Type) bool {
	if r, ok := a.pointerLike[t]; ok {
		return r
	}
	a.pointerLike[t] = false // cut recursion through recursive types
	r := false
	switch u := t.Underlying().(type) {
	case *types.Basic:
		r = u.Kind() == types.UnsafePointer
	case *types.Struct:
		for i := 0; i < u.NumFields() && !r; i++ {
			r = a.isPointerLike(u.Field(i).Type())
		}
	case *types.Array:
		r = a.isPointerLike(u.Elem())
	case *types.Tuple:
		for i := 0; i < u.Len() && !r; i++ {
			r = a.isPointerLike(u.At(i).Type())
		}
	default: // pointers, slices, maps, chans, funcs, interfaces, type parameters
		r = true
	}
	a.pointerLike[t] = r
	return r
}

// target is the memory class v may point to (-1 if v cannot point).
func (a *analysis) target(v ssa.Value) int32 {
	switch v.(type) {
	case *ssa.Const, nil:
		return -1
	}
	if n, ok := a.targets[v]; ok {
		return n
	}
	if !a.isPointerLike(v.Type()) {
		return -1
	}
	n := a.node()
	a.targets[v] = n
	return n
}

func (a *analysis) field(f *types.Var) int32 {
	f = f.Origin()
	if n, ok := a.fields[f]; ok {
		return n
	}
	n := a.node()
	a.fields[f] = n
	return n
}

func (a *analysis) fnNode(m map[*ssa.Function]int32, fn *ssa.Function) int32 {
	if n, ok := m[fn]; ok {
		return n
	}
	n := a.node()
	m[fn] = n
	return n
}

// flow is a copy: taint and memory class both follow.
func (a *analysis) flow(src, dst ssa.Value) {
	a.edge(a.val(src), a.val(dst))
	a.unify(a.target(src), a.target(dst))
}

func (a *analysis) indexCallees(cg *callgraph.Graph) {
	for _, n := range cg.Nodes {
		for _, e := range n.Out {
			if e.Site != nil && e.Callee.Func != nil {
				a.callees[e.Site] = append(a.callees[e.Site], e.Callee.Func)
			}
		}
	}
	for site, fs := range a.callees {
		sort.Slice(fs, func(i, j int) bool { return fs[i].String() < fs[j].String() })
		a.callees[site] = fs
	}
}

func (a *analysis) seedSites(set *sources.Set) {
	for i, o := range set.Options {
		for _, s := range o.Sites {
			if s.Kind == sources.FieldRead {
				a.seeds = append(a.seeds, [2]int32{a.field(s.Field), int32(i)})
				continue
			}
			a.sites[s.Pos] = append(a.sites[s.Pos], siteRef{s, int32(i)})
		}
	}
}

// seed marks the option loaded by call.
func (a *analysis) seed(call *ssa.Call, args []ssa.Value) {
	for _, ref := range a.sites[call.Pos()] {
		s := ref.site
		idx := s.Arg
		if s.Method { // args carries the receiver first, invoke or not
			idx++
		}
		switch s.Kind {
		case sources.Result:
			a.seeds = append(a.seeds, [2]int32{a.val(call), ref.opt})
			if t := a.target(call); t >= 0 {
				a.seeds = append(a.seeds, [2]int32{t, ref.opt})
			}
			// Field-based: a declared source returning a struct (or a
			// pointer to one) makes all fields of that struct type options.
			for _, f := range structFields(call.Type()) {
				a.seeds = append(a.seeds, [2]int32{a.field(f), ref.opt})
			}
		case sources.ResultPointer:
			a.seeds = append(a.seeds, [2]int32{a.target(call), ref.opt})
		case sources.ArgPointer:
			if idx < len(args) {
				a.seeds = append(a.seeds, [2]int32{a.target(args[idx]), ref.opt})
			}
		case sources.FuncParam:
			if idx < len(args) {
				var fn *ssa.Function
				switch v := args[idx].(type) {
				case *ssa.Function:
					fn = v
				case *ssa.MakeClosure:
					fn, _ = v.Fn.(*ssa.Function)
				}
				if fn != nil && len(fn.Params) > 0 {
					a.seeds = append(a.seeds, [2]int32{a.val(fn.Params[0]), ref.opt})
				}
			}
		}
	}
}

func structFields(t types.Type) []*types.Var {
	if tup, ok := t.(*types.Tuple); ok {
		var fs []*types.Var
		for i := 0; i < tup.Len(); i++ {
			fs = append(fs, structFields(tup.At(i).Type())...)
		}
		return fs
	}
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	st, ok := t.Underlying().(*types.Struct)
	if !ok {
		return nil
	}
	fs := make([]*types.Var, st.NumFields())
	for i := range fs {
		fs[i] = st.Field(i)
	}
	return fs
}

// controlDeps returns, per block index, the blocks it is directly control
// dependent on.
func (a *analysis) controlDeps(fn *ssa.Function) [][]int {
	if cd, ok := a.fnCD[fn]; ok {
		return cd
	}
	pd := a.res.PostDom(fn)
	cd := pd.ControlDeps()
	a.fnCD[fn] = cd
	return cd
}

// star is the transitive closure of control dependence of b, only If
// blocks (other branching blocks are the virtual edges of infinite loops).
func (a *analysis) star(b *ssa.BasicBlock) []*ssa.BasicBlock {
	if s, ok := a.cdStar[b]; ok {
		return s
	}
	cd := a.controlDeps(b.Parent())
	seen := map[int]bool{}
	stack := append([]int(nil), cd[b.Index]...)
	var out []*ssa.BasicBlock
	for len(stack) > 0 {
		c := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[c] {
			continue
		}
		seen[c] = true
		if isIf(b.Parent().Blocks[c]) {
			out = append(out, b.Parent().Blocks[c])
		}
		stack = append(stack, cd[c]...)
	}
	a.cdStar[b] = out
	return out
}

func isIf(b *ssa.BasicBlock) bool {
	if len(b.Instrs) == 0 {
		return false
	}
	_, ok := b.Instrs[len(b.Instrs)-1].(*ssa.If)
	return ok
}

func cond(b *ssa.BasicBlock) ssa.Value { return b.Instrs[len(b.Instrs)-1].(*ssa.If).Cond }

// pc is the node holding the taint of the conditions b is control
// dependent on, -1 if there are none. It is defined recursively on direct
// control dependence so that the graph stays linear in size.
func (a *analysis) pc(b *ssa.BasicBlock) int32 {
	if n, ok := a.pcs[b]; ok {
		return n
	}
	cd := a.controlDeps(b.Parent())[b.Index]
	if len(a.star(b)) == 0 {
		a.pcs[b] = -1
		return -1
	}
	n := a.node()
	a.pcs[b] = n
	for _, c := range cd {
		cb := b.Parent().Blocks[c]
		if isIf(cb) {
			a.edge(a.val(cond(cb)), n)
		}
		if cb != b {
			a.edge(a.pc(cb), n)
		}
	}
	return n
}

// implicit adds the pc and context taint of instr's block to dst: the
// effect happens or not depending on them.
func (a *analysis) implicit(b *ssa.BasicBlock, dst int32) {
	a.edge(a.pc(b), dst)
	a.edge(a.fnNode(a.ctxs, b.Parent()), dst)
}

func (a *analysis) function(fn *ssa.Function) {
	for _, b := range fn.Blocks {
		for _, instr := range b.Instrs {
			a.instr(fn, b, instr)
		}
	}
}

func (a *analysis) instr(fn *ssa.Function, b *ssa.BasicBlock, instr ssa.Instruction) {
	switch in := instr.(type) {
	case *ssa.Phi:
		for _, e := range in.Edges {
			a.flow(e, in)
		}
		a.phiControl(b, in)
	case *ssa.Call:
		a.call(fn, b, in)
	case *ssa.Go:
		a.call(fn, b, in)
	case *ssa.Defer:
		a.call(fn, b, in)
	case *ssa.BinOp:
		a.edge(a.val(in.X), a.val(in))
		a.edge(a.val(in.Y), a.val(in))
	case *ssa.UnOp:
		a.edge(a.val(in.X), a.val(in))
		if in.Op == token.MUL || in.Op == token.ARROW { // load or receive
			t := a.target(in.X)
			a.edge(t, a.val(in))
			a.unify(a.target(in), a.pointeeOf(t))
		}
	case *ssa.ChangeType:
		a.flow(in.X, in)
	case *ssa.Convert:
		a.flow(in.X, in)
	case *ssa.MultiConvert:
		a.flow(in.X, in)
	case *ssa.ChangeInterface:
		a.flow(in.X, in)
	case *ssa.SliceToArrayPointer:
		a.flow(in.X, in)
	case *ssa.MakeInterface:
		a.flow(in.X, in)
	case *ssa.TypeAssert:
		a.flow(in.X, in)
	case *ssa.Extract:
		if sel, ok := in.Tuple.(*ssa.Select); ok && in.Index >= 2 {
			// A received value carries its own channel's contents only;
			// the chosen index and recvOk carry none (see Select).
			a.edge(a.selRecv(sel, in.Index-2), a.val(in))
			a.unify(a.target(in), a.target(sel))
			break
		}
		a.flow(in.Tuple, in)
	case *ssa.Slice:
		a.flow(in.X, in)
		for _, v := range []ssa.Value{in.Low, in.High, in.Max} {
			if v != nil {
				a.edge(a.val(v), a.val(in))
			}
		}
	case *ssa.Field:
		a.edge(a.val(in.X), a.val(in))
		f := fieldVar(in.X.Type(), in.Field)
		a.edge(a.field(f), a.val(in))
		a.unify(a.target(in), a.pointeeOf(a.field(f)))
	case *ssa.FieldAddr:
		a.edge(a.val(in.X), a.val(in))
		a.unify(a.target(in), a.field(fieldVar(in.X.Type(), in.Field)))
	case *ssa.Index:
		a.flow(in.X, in)
		a.edge(a.val(in.Index), a.val(in))
	case *ssa.IndexAddr:
		a.edge(a.val(in.X), a.val(in))
		a.edge(a.val(in.Index), a.val(in))
		a.unify(a.target(in), a.target(in.X))
	case *ssa.Lookup:
		a.edge(a.val(in.X), a.val(in))
		a.edge(a.val(in.Index), a.val(in))
		t := a.target(in.X)
		a.edge(t, a.val(in))
		a.unify(a.target(in), a.pointeeOf(t))
	case *ssa.Store:
		t := a.target(in.Addr)
		a.edge(a.val(in.Val), t)
		a.implicit(b, t)
		a.unify(a.pointeeOf(t), a.target(in.Val))
		if _, ok := in.Val.Type().Underlying().(*types.Struct); ok {
			for _, f := range structFields(in.Val.Type()) {
				a.edge(a.val(in.Val), a.field(f))
			}
		}
	case *ssa.MapUpdate:
		t := a.target(in.Map)
		a.edge(a.val(in.Key), t)
		a.edge(a.val(in.Value), t)
		a.implicit(b, t)
		a.unify(a.pointeeOf(t), a.target(in.Key))
		a.unify(a.pointeeOf(t), a.target(in.Value))
	case *ssa.Send:
		t := a.target(in.Chan)
		a.edge(a.val(in.X), t)
		a.implicit(b, t)
		a.unify(a.pointeeOf(t), a.target(in.X))
	case *ssa.Select:
		recv := 0
		for _, st := range in.States {
			t := a.target(st.Chan)
			a.edge(a.val(st.Chan), a.val(in))
			if st.Dir == types.SendOnly {
				a.edge(a.val(st.Send), t)
				a.implicit(b, t)
				a.unify(a.pointeeOf(t), a.target(st.Send))
			} else {
				a.edge(t, a.selRecv(in, recv))
				a.unify(a.target(in), a.pointeeOf(t))
				recv++
			}
		}
	case *ssa.MakeClosure:
		if cl, ok := in.Fn.(*ssa.Function); ok {
			for i, bnd := range in.Bindings {
				if i < len(cl.FreeVars) {
					a.flow(bnd, cl.FreeVars[i])
				}
			}
		}
	case *ssa.MakeSlice:
		a.edge(a.val(in.Len), a.val(in))
		a.edge(a.val(in.Cap), a.val(in))
	case *ssa.MakeChan:
		a.edge(a.val(in.Size), a.val(in))
	case *ssa.MakeMap:
		if in.Reserve != nil {
			a.edge(a.val(in.Reserve), a.val(in))
		}
	case *ssa.Range:
		a.flow(in.X, in)
	case *ssa.Next:
		a.edge(a.val(in.Iter), a.val(in))
		t := a.target(in.Iter)
		a.edge(t, a.val(in))
		a.unify(a.target(in), a.pointeeOf(t))
	case *ssa.Return:
		ret := a.fnNode(a.rets, fn)
		rt := a.fnNode(a.retTargets, fn)
		for _, r := range in.Results {
			a.edge(a.val(r), ret)
			a.unify(a.target(r), rt)
		}
		a.edge(a.pc(b), ret)
	case *ssa.If:
		a.ifs = append(a.ifs, in)
		a.pc(b) // the decision reads it after solving
	}
}

// selRecv is the node of the value received by the k-th receiving case
// of sel, kept apart from sel's own node so that the case chosen does not
// look data-dependent on what the channels carry.
func (a *analysis) selRecv(sel *ssa.Select, k int) int32 {
	ns := a.selRecvs[sel]
	for len(ns) <= k {
		ns = append(ns, a.node())
	}
	a.selRecvs[sel] = ns
	return ns[k]
}

func fieldVar(t types.Type, i int) *types.Var {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	return t.Underlying().(*types.Struct).Field(i)
}

// phiControl adds the implicit flow into a phi: which incoming value is
// chosen depends on the conditions an incoming edge is (transitively)
// control dependent on, minus those that decide whether the phi's block
// runs at all.
func (a *analysis) phiControl(b *ssa.BasicBlock, phi *ssa.Phi) {
	own := map[*ssa.BasicBlock]bool{}
	for _, c := range a.star(b) {
		own[c] = true
	}
	seen := map[*ssa.BasicBlock]bool{}
	add := func(c *ssa.BasicBlock) {
		if !own[c] && !seen[c] {
			seen[c] = true
			a.edge(a.val(cond(c)), a.val(phi))
		}
	}
	for _, p := range b.Preds {
		if isIf(p) {
			add(p)
		}
		for _, c := range a.star(p) {
			add(c)
		}
	}
}

func (a *analysis) call(fn *ssa.Function, b *ssa.BasicBlock, site ssa.CallInstruction) {
	common := site.Common()
	args := common.Args
	if common.IsInvoke() {
		args = append([]ssa.Value{common.Value}, args...)
	}
	value := site.Value() // nil for go and defer
	var res int32 = -1
	if value != nil {
		res = a.val(value)
	}
	if c, ok := site.(*ssa.Call); ok {
		a.seed(c, args)
	}
	if bi, ok := common.Value.(*ssa.Builtin); ok {
		for _, arg := range args {
			a.edge(a.val(arg), res)
		}
		switch bi.Name() {
		case "append", "copy":
			// Elements move between the operands and the result: one class.
			// (A nil constant operand has no class, so anchor on the result.)
			anchor := int32(-1)
			if value != nil {
				anchor = a.target(value)
			}
			for _, arg := range args {
				if t := a.target(arg); t >= 0 {
					if anchor < 0 {
						anchor = t
					}
					a.unify(anchor, t)
				}
			}
		}
		return
	}
	var callees []*ssa.Function
	if sc := common.StaticCallee(); sc != nil {
		callees = []*ssa.Function{sc}
	} else {
		callees = a.callees[site]
	}
	summarise := len(callees) == 0
	if summarise || len(callees) == 1 && len(callees[0].Blocks) == 0 {
		a.noteParse(common, site.Pos())
	}
	for _, g := range callees {
		if len(g.Blocks) == 0 {
			summarise = true
			continue
		}
		for i, p := range g.Params {
			if i < len(args) {
				a.flow(args[i], p)
			}
		}
		if value != nil {
			a.pending = append(a.pending, pendingRet{caller: fn, callee: g, args: args, res: res})
			a.unify(a.fnNode(a.retTargets, g), a.target(value))
		}
		ctx := a.fnNode(a.ctxs, g)
		a.edge(a.pc(b), ctx)
		a.edge(a.fnNode(a.ctxs, fn), ctx)
		if common.StaticCallee() == nil {
			a.edge(a.val(common.Value), ctx)
		}
	}
	if summarise {
		for _, arg := range args {
			a.edge(a.val(arg), res)
		}
		if !common.IsInvoke() {
			a.edge(a.val(common.Value), res)
		}
	}
}

// solve propagates option bits to a fixpoint.
func (a *analysis) solve() {
	n := len(a.parent)
	w := a.words
	a.sets = make([]uint64, n*w)
	// Compressed adjacency on representatives.
	count := make([]int32, n+1)
	for i, e := range a.edges {
		e[0], e[1] = a.find(e[0]), a.find(e[1])
		a.edges[i] = e
		count[e[0]+1]++
	}
	for i := 1; i <= n; i++ {
		count[i] += count[i-1]
	}
	adj := make([]int32, len(a.edges))
	fill := append([]int32(nil), count[:n]...)
	for _, e := range a.edges {
		adj[fill[e[0]]] = e[1]
		fill[e[0]]++
	}
	a.edges = nil
	inWork := make([]bool, n)
	var work []int32
	for _, s := range a.seeds {
		if s[0] < 0 {
			continue
		}
		r := a.find(s[0])
		a.sets[int(r)*w+int(s[1])/64] |= 1 << (uint(s[1]) % 64)
		if !inWork[r] {
			inWork[r] = true
			work = append(work, r)
		}
	}
	for len(work) > 0 {
		x := work[len(work)-1]
		work = work[:len(work)-1]
		inWork[x] = false
		src := a.sets[int(x)*w : int(x)*w+w]
		for _, y := range adj[count[x]:count[x+1]] {
			if y == x {
				continue
			}
			dst := a.sets[int(y)*w : int(y)*w+w]
			changed := false
			for k := range src {
				if src[k]&^dst[k] != 0 {
					dst[k] |= src[k]
					changed = true
				}
			}
			if changed && !inWork[y] {
				inWork[y] = true
				work = append(work, y)
			}
		}
	}
}

// or adds node x's set (after solve) into acc.
func (a *analysis) or(acc []uint64, x int32) {
	if x < 0 {
		return
	}
	r := int(a.find(x))
	if (r+1)*a.words > len(a.sets) {
		return // created after solving (e.g. a context nobody calls): empty
	}
	for k := range acc {
		acc[k] |= a.sets[r*a.words+k]
	}
}

func (a *analysis) names(acc []uint64) []string {
	var out []string
	for k, word := range acc {
		for word != 0 {
			i := bits.TrailingZeros64(word)
			word &^= 1 << uint(i)
			out = append(out, a.set.Options[k*64+i].Name)
		}
	}
	sort.Strings(out)
	return out
}
