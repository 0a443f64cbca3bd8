package checker

import "github.com/augur-perf/augur/dtmc"

// graph is the model's transition structure with predecessor lists, built once per check.
type graph struct {
	m       *dtmc.Model
	predPtr []int
	pred    []int
}

func newGraph(m *dtmc.Model) *graph {
	g := &graph{m: m, predPtr: make([]int, m.N+1), pred: make([]int, len(m.Col))}
	for _, t := range m.Col {
		g.predPtr[t+1]++
	}
	for s := 0; s < m.N; s++ {
		g.predPtr[s+1] += g.predPtr[s]
	}
	fill := append([]int(nil), g.predPtr[:m.N]...)
	for s := 0; s < m.N; s++ {
		for _, t := range m.Col[m.RowPtr[s]:m.RowPtr[s+1]] {
			g.pred[fill[t]] = s
			fill[t]++
		}
	}
	return g
}

// backward returns the states that can reach a state of target through states of through (a nil
// through allows every state); target states are included.
func (g *graph) backward(target, through []bool) []bool {
	seen := make([]bool, g.m.N)
	stack := make([]int, 0, 64)
	for s, in := range target {
		if in {
			seen[s] = true
			stack = append(stack, s)
		}
	}
	for len(stack) > 0 {
		t := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, s := range g.pred[g.predPtr[t]:g.predPtr[t+1]] {
			if !seen[s] && (through == nil || through[s]) {
				seen[s] = true
				stack = append(stack, s)
			}
		}
	}
	return seen
}

// prob0 is PRISM's Prob0 precomputation for φ1 U φ2: the states from which φ2 is reached with
// probability 0, found on the graph alone.
func (g *graph) prob0(phi1, phi2 []bool) []bool {
	can := g.backward(phi2, phi1)
	for s := range can {
		can[s] = !can[s]
	}
	return can
}

// prob1 is PRISM's Prob1 precomputation for φ1 U φ2, given the Prob0 states: a state reaches φ2
// with probability 1 exactly when it cannot reach a Prob0 state along φ1∧¬φ2 states.
func (g *graph) prob1(phi1, phi2, no []bool) []bool {
	through := make([]bool, g.m.N)
	for s := range through {
		through[s] = phi1[s] && !phi2[s]
	}
	bad := g.backward(no, through)
	for s := range bad {
		bad[s] = !bad[s]
	}
	return bad
}

// sccs returns the strongly connected components of the graph restricted to the states in sub, in
// reverse topological order (every component comes after all components it can reach), using an
// iterative Tarjan so that long chains cannot overflow the goroutine stack. Components are
// returned as one flat slice of states with boundaries.
func (g *graph) sccs(sub []bool) (states []int, bounds []int) {
	n := g.m.N
	const unvisited = -1
	index := make([]int32, n)
	low := make([]int32, n)
	for i := range index {
		index[i] = unvisited
	}
	onStack := make([]bool, n)
	size := 0
	for _, in := range sub {
		if in {
			size++
		}
	}
	states = make([]int, 0, size)
	var stack []int
	type frame struct{ s, k int }
	var call []frame
	next := int32(0)
	bounds = append(bounds, 0)
	for root := 0; root < n; root++ {
		if !sub[root] || index[root] != unvisited {
			continue
		}
		call = append(call, frame{root, g.m.RowPtr[root]})
		index[root], low[root] = next, next
		next++
		stack = append(stack, root)
		onStack[root] = true
		for len(call) > 0 {
			f := &call[len(call)-1]
			s := f.s
			if f.k < g.m.RowPtr[s+1] {
				t := g.m.Col[f.k]
				f.k++
				if !sub[t] {
					continue
				}
				if index[t] == unvisited {
					index[t], low[t] = next, next
					next++
					stack = append(stack, t)
					onStack[t] = true
					call = append(call, frame{t, g.m.RowPtr[t]})
				} else if onStack[t] && index[t] < low[s] {
					low[s] = index[t]
				}
				continue
			}
			call = call[:len(call)-1]
			if len(call) > 0 {
				if p := call[len(call)-1].s; low[s] < low[p] {
					low[p] = low[s]
				}
			}
			if low[s] == index[s] {
				for {
					t := stack[len(stack)-1]
					stack = stack[:len(stack)-1]
					onStack[t] = false
					states = append(states, t)
					if t == s {
						break
					}
				}
				bounds = append(bounds, len(states))
			}
		}
	}
	return states, bounds
}

// bsccs returns the bottom strongly connected components: those no transition leaves.
func (g *graph) bsccs() [][]int {
	all := make([]bool, g.m.N)
	for i := range all {
		all[i] = true
	}
	states, bounds := g.sccs(all)
	comp := make([]int, g.m.N)
	for c := 0; c+1 < len(bounds); c++ {
		for _, s := range states[bounds[c]:bounds[c+1]] {
			comp[s] = c
		}
	}
	var out [][]int
	for c := 0; c+1 < len(bounds); c++ {
		members := states[bounds[c]:bounds[c+1]]
		bottom := true
		for _, s := range members {
			for _, t := range g.m.Col[g.m.RowPtr[s]:g.m.RowPtr[s+1]] {
				if comp[t] != c {
					bottom = false
				}
			}
		}
		if bottom {
			out = append(out, append([]int(nil), members...))
		}
	}
	return out
}
