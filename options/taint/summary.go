package taint

import "golang.org/x/tools/go/ssa"

// A pendingRet is a call whose result waits for its callee's return summary, so that the result
// takes the taint of this call's own arguments instead of every caller's.
type pendingRet struct {
	caller, callee *ssa.Function
	args           []ssa.Value // in the order of callee.Params (receiver first)
	res            int32
}

// summarise links every pending call result to its callee's return, context-sensitively where it
// can (IFDS-style return summaries, as FlowDroid computes them for ConfigCrusher): for a callee
// g outside any call-graph cycle, the values flowing into g's results are traced backwards
// through g's own values. Those reached from g's parameters become, at each call site, edges
// from that site's arguments; everything else (memory, globals, fields, other calls' summaries,
// options loaded inside g, free variables) becomes one node of g whose taint every call site
// gets. A helper parse(s) called as parse(getenv("X")) and parse(getenv("Y")) so returns {X} at
// the first site and {Y} at the second, instead of {X, Y} at both.
//
// Parameters still receive the taint of every call site: decisions inside the helper, and what
// it stores to memory, stay influenced by all its callers' options, which over-approximates
// soundly. Callees in a call-graph cycle (recursion) keep the context-insensitive link from
// their one shared return node.
//
// Summaries are computed callees first (Tarjan's order), so a caller's trace passes through the
// summary edges of the calls it makes: helpers compose to any depth.
func (a *analysis) summarise() {
	owner := map[int32]*ssa.Function{}
	param := map[int32]int{}
	for v, n := range a.vals {
		switch v := v.(type) {
		case *ssa.Parameter:
			owner[n] = v.Parent()
			for i, p := range v.Parent().Params {
				if p == v {
					param[n] = i
				}
			}
		case *ssa.FreeVar:
			owner[n] = v.Parent()
		case ssa.Instruction:
			owner[n] = v.Parent()
		}
	}
	for b, n := range a.pcs {
		if n >= 0 {
			owner[n] = b.Parent()
		}
	}
	seeded := map[int32][]int32{}
	for _, s := range a.seeds {
		if s[0] >= 0 {
			seeded[s[0]] = append(seeded[s[0]], s[1])
		}
	}
	rev := make([][]int32, len(a.parent))
	addEdge := func(src, dst int32) {
		if src < 0 || dst < 0 {
			return
		}
		a.edges = append(a.edges, [2]int32{src, dst})
		for int(dst) >= len(rev) {
			rev = append(rev, nil)
		}
		rev[dst] = append(rev[dst], src)
	}
	for _, e := range a.edges {
		rev[e[1]] = append(rev[e[1]], e[0])
	}

	sites := map[*ssa.Function][]pendingRet{}
	for _, p := range a.pending {
		sites[p.callee] = append(sites[p.callee], p)
	}
	for _, scc := range a.callSCCs() {
		recursive := len(scc) > 1
		for _, p := range sites[scc[0]] {
			recursive = recursive || p.caller == scc[0]
		}
		for _, g := range scc {
			if recursive {
				for _, p := range sites[g] {
					addEdge(a.fnNode(a.rets, g), p.res)
				}
				continue
			}
			ret := a.fnNode(a.rets, g)
			rc := a.node()
			var params []int
			seen := map[int32]bool{ret: true}
			stack := []int32{ret}
			for len(stack) > 0 {
				x := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				if int(x) >= len(rev) {
					continue
				}
				for _, y := range rev[x] {
					if seen[y] {
						continue
					}
					seen[y] = true
					switch {
					case owner[y] != g:
						addEdge(y, rc)
					case hasKey(param, y):
						params = append(params, param[y])
						for _, o := range seeded[y] {
							a.seeds = append(a.seeds, [2]int32{rc, o})
						}
					default:
						for _, o := range seeded[y] {
							a.seeds = append(a.seeds, [2]int32{rc, o})
						}
						stack = append(stack, y)
					}
				}
			}
			for _, p := range sites[g] {
				addEdge(rc, p.res)
				for _, i := range params {
					if i < len(p.args) {
						addEdge(a.val(p.args[i]), p.res)
					}
				}
			}
		}
	}
}

func hasKey(m map[int32]int, k int32) bool {
	_, ok := m[k]
	return ok
}

// callSCCs returns the strongly connected components of the call graph formed by the pending
// calls, callees before their callers (Tarjan's algorithm emits them in that order), in an order
// that depends only on the order of the pending calls.
func (a *analysis) callSCCs() [][]*ssa.Function {
	succ := map[*ssa.Function][]*ssa.Function{}
	var order []*ssa.Function
	known := map[*ssa.Function]bool{}
	note := func(f *ssa.Function) {
		if !known[f] {
			known[f] = true
			order = append(order, f)
		}
	}
	for _, p := range a.pending {
		note(p.caller)
		note(p.callee)
		succ[p.caller] = append(succ[p.caller], p.callee)
	}
	index := map[*ssa.Function]int{}
	low := map[*ssa.Function]int{}
	onStack := map[*ssa.Function]bool{}
	var stack []*ssa.Function
	var out [][]*ssa.Function
	// An explicit stack of frames: call chains in real programs are deep enough to matter.
	type frame struct {
		f *ssa.Function
		i int
	}
	for _, root := range order {
		if _, ok := index[root]; ok {
			continue
		}
		frames := []frame{{f: root}}
		index[root], low[root] = len(index), len(index)
		stack = append(stack, root)
		onStack[root] = true
		for len(frames) > 0 {
			fr := &frames[len(frames)-1]
			if fr.i < len(succ[fr.f]) {
				w := succ[fr.f][fr.i]
				fr.i++
				if _, ok := index[w]; !ok {
					index[w], low[w] = len(index), len(index)
					stack = append(stack, w)
					onStack[w] = true
					frames = append(frames, frame{f: w})
				} else if onStack[w] {
					low[fr.f] = min(low[fr.f], index[w])
				}
				continue
			}
			v := fr.f
			frames = frames[:len(frames)-1]
			if len(frames) > 0 {
				u := frames[len(frames)-1].f
				low[u] = min(low[u], low[v])
			}
			if low[v] == index[v] {
				var scc []*ssa.Function
				for {
					w := stack[len(stack)-1]
					stack = stack[:len(stack)-1]
					onStack[w] = false
					scc = append(scc, w)
					if w == v {
						break
					}
				}
				out = append(out, scc)
			}
		}
	}
	return out
}
