package checker

import (
	"fmt"
	"math"
	"slices"
	"sync"

	"github.com/augur-perf/augur/markov/dtmc"
)

// graph is the model's transition structure with predecessor lists, built once per check. State
// indices in the lists are int32: that halves the memory every pass over them streams through, and
// a model with 2^31 transitions would not fit in memory anyway.
type graph struct {
	m       *dtmc.Model
	predPtr []int
	pred    []int32
}

// predBlockShift groups the targets for building predecessor lists: 2^13 targets a block, whose
// lists (about 100 KB at three transitions a state) and counts stay in a core's cache while they
// are filled.
const predBlockShift = 13

func newGraph(m *dtmc.Model) (*graph, error) {
	if m.N >= math.MaxInt32 || len(m.Col) >= math.MaxInt32 {
		return nil, fmt.Errorf("model too large: %d states and %d transitions (the checker handles fewer than 2^31 of each)", m.N, len(m.Col))
	}
	g := &graph{m: m, predPtr: make([]int, m.N+1), pred: make([]int32, len(m.Col))}
	if scattered(m) {
		g.fillByBlock()
	} else {
		g.fillDirect()
	}
	return g, nil
}

// scattered tells whether most transitions lead further than a block of targets from their
// source to a target few others lead to, judged on the rows of about 4096 states evenly spaced
// (a target is taken for a busy one when the sample has it twice). Written straight to their
// lists, such transitions land all over memory, every write missing the cache for four bytes (a
// random chain of 10^6 states: 0.13 s on a quiet machine). In the flow graphs of code they stay
// near their source or go to a few busy targets (the exits, loop heads), the direct writes hit
// the cache, and sorting them first would only add a pass.
func scattered(m *dtmc.Model) bool {
	all := 0
	var far []int
	for s := 0; s < m.N; s += max(1, m.N/4096) {
		for _, t := range m.Col[m.RowPtr[s]:m.RowPtr[s+1]] {
			all++
			if t-s >= 1<<predBlockShift || s-t >= 1<<predBlockShift {
				far = append(far, t)
			}
		}
	}
	slices.Sort(far)
	lone := 0
	for k := range far {
		if (k == 0 || far[k-1] != far[k]) && (k+1 == len(far) || far[k+1] != far[k]) {
			lone++
		}
	}
	return 2*lone > all
}

// fillByBlock first sorts the transitions by block of targets into a buffer (a few hundred
// sequential streams), then fills each block's lists within the cache. Each half of the states
// writes its transitions apart, the first half's before the second's in every block, and every
// step keeps file order, so lists stay in increasing order.
func (g *graph) fillByBlock() {
	m, n := g.m, g.m.N
	nb := n>>predBlockShift + 1
	from := [3]int{0, n / 2, n}
	var at [2][]int
	both(func(h int) {
		c := make([]int, nb)
		for _, t := range m.Col[m.RowPtr[from[h]]:m.RowPtr[from[h+1]]] {
			c[t>>predBlockShift]++
		}
		at[h] = c
	})
	blockStart := make([]int, nb+1)
	for b, pos := 0, 0; b < nb; b++ {
		blockStart[b] = pos
		c0, c1 := at[0][b], at[1][b]
		at[0][b], at[1][b] = pos, pos+c0
		pos += c0 + c1
		blockStart[b+1] = pos
	}
	// Each entry is a transition's target (high half) and source (low half).
	buf := make([]uint64, len(m.Col))
	both(func(h int) {
		a := at[h]
		for s := from[h]; s < from[h+1]; s++ {
			for _, t := range m.Col[m.RowPtr[s]:m.RowPtr[s+1]] {
				b := t >> predBlockShift
				buf[a[b]] = uint64(t)<<32 | uint64(s)
				a[b]++
			}
		}
	})
	both(func(h int) {
		fill := make([]int, 1<<predBlockShift)
		for b := h * nb / 2; b < (h+1)*nb/2; b++ {
			base := b << predBlockShift
			clear(fill)
			entries := buf[blockStart[b]:blockStart[b+1]]
			for _, e := range entries {
				fill[int(e>>32)-base]++
			}
			pos := blockStart[b]
			for i := 0; i < 1<<predBlockShift && base+i < n; i++ {
				g.predPtr[base+i] = pos
				pos, fill[i] = pos+fill[i], pos
			}
			for _, e := range entries {
				i := int(e>>32) - base
				g.pred[fill[i]] = int32(uint32(e))
				fill[i]++
			}
		}
	})
	g.predPtr[n] = len(m.Col)
}

// fillDirect writes every transition straight into its target's list. Each half of the states
// writes its transitions into the predecessor lists, the first half's before the second's in
// every list, so that lists stay in increasing order.
func (g *graph) fillDirect() {
	m, n := g.m, g.m.N
	from := [3]int{0, n / 2, n}
	var fill [2][]int32
	both(func(h int) {
		c := make([]int32, n)
		for _, t := range m.Col[m.RowPtr[from[h]]:m.RowPtr[from[h+1]]] {
			c[t]++
		}
		fill[h] = c
	})
	for t := 0; t < n; t++ {
		start, a, b := g.predPtr[t], fill[0][t], fill[1][t]
		g.predPtr[t+1] = start + int(a) + int(b)
		fill[0][t], fill[1][t] = int32(start), int32(start)+a
	}
	both(func(h int) {
		f := fill[h]
		for s := from[h]; s < from[h+1]; s++ {
			for _, t := range m.Col[m.RowPtr[s]:m.RowPtr[s+1]] {
				g.pred[f[t]] = int32(s)
				f[t]++
			}
		}
	})
}

// both runs f(0) and f(1) on two goroutines and waits for them: the work of the checker's passes
// over million-state graphs is bound by memory latency, and two cores hide twice as much of it.
func both(f func(h int)) {
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		f(0)
	}()
	f(1)
	wg.Wait()
}

// backward returns the states that can reach a state of target through states of through (a nil
// through allows every state); target states are included.
func (g *graph) backward(target, through []bool) []bool {
	seen := make([]bool, g.m.N)
	var seeds []int32
	for s, in := range target {
		if in {
			seen[s] = true
			seeds = append(seeds, int32(s))
		}
	}
	search(seen, seeds, through, g.predPtr, g.pred, g.m.RowPtr, g.m.Col)
	return seen
}

// search extends seen, whose states are the sources and where frontier holds those found last, to
// every state reachable within sub (nil: all states) along the adjacency lists outPtr/out; in is
// the reverse adjacency. It reuses frontier's array.
// It is a direction-optimising breadth-first search (Beamer, Asanović and Patterson): while the
// frontier is small it follows the frontier's lists, and once it is large it instead runs through
// all states not yet found and looks for one found among their reverse lists. On random graphs the
// frontier soon holds a large share of the states, and the scan reads the lists in sequence where
// following them from the frontier waits on a cache miss for nearly every state; on the flow
// graphs of code the frontier stays small and the scan is never used.
func search[O, I int | int32](seen []bool, frontier []int32, sub []bool, outPtr []int, out []O, inPtr []int, in []I) {
	n := len(seen)
	// The scan looks states up in a bitset, which stays in cache where the []bool would not.
	bits := make([]uint64, (n+63)/64)
	for s, in := range seen {
		if in {
			bits[s>>6] |= 1 << (s & 63)
		}
	}
	next := make([]int32, 0, len(frontier))
	for len(frontier) > 0 {
		next = next[:0]
		if len(frontier) >= max(n/64, 1024) {
			for s := range seen {
				if seen[s] || (sub != nil && !sub[s]) {
					continue
				}
				for _, p := range in[inPtr[s]:inPtr[s+1]] {
					if bits[p>>6]&(1<<(p&63)) != 0 {
						seen[s] = true
						bits[s>>6] |= 1 << (s & 63)
						next = append(next, int32(s))
						break
					}
				}
			}
		} else {
			for _, v := range frontier {
				for _, t := range out[outPtr[v]:outPtr[v+1]] {
					if bits[t>>6]&(1<<(t&63)) == 0 && (sub == nil || sub[t]) {
						seen[t] = true
						bits[t>>6] |= 1 << (t & 63)
						next = append(next, int32(t))
					}
				}
			}
		}
		frontier, next = next, frontier
	}
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

// pivotMin is the subgraph size from which sccs first splits off the component of one pivot state
// by two breadth-first searches. Tarjan's depth-first search follows one transition at a time and
// waits for every load on a chain of cache misses; on a million-state random graph it takes 0.5 s
// where the two searches, run on two cores, take 0.1 s.
const pivotMin = 1 << 16

// sccs returns the strongly connected components of the graph restricted to the states in sub, in
// reverse topological order (every component comes after all components it can reach), as one flat
// slice of states with boundaries. Within a component, states come in Tarjan's order, the state
// discovered last first: for a loop of code, the body's statements from last to first and then the
// loop head, an order in which a Gauss–Seidel sweep carries values back along the body.
//
// Large subgraphs are split first (the forward–backward algorithm of Fleischer, Hendrickson and
// Pınar): with F the states a pivot reaches and B those reaching it, F∩B is the pivot's component,
// F\B can reach only F\B, and the rest reaches nothing of F that it would need solved after
// itself. So the order is: the components of F\B, then F∩B, then those of sub\F, each part found
// by Tarjan's algorithm. F∩B comes in decreasing state order, which for models numbered in
// statement order is again last statement first, and lets whoever builds equations for it read
// the model's rows in sequence.
func (g *graph) sccs(sub []bool) (states []int, bounds []int) {
	n := g.m.N
	size := 0
	pivot, best := -1, -1
	for s, in := range sub {
		if in {
			size++
			// The pivot is the state with most predecessors: in a random graph it is surely in
			// the giant component, in the flow graph of code it is the head of a busy loop.
			if d := g.predPtr[s+1] - g.predPtr[s]; d > best {
				pivot, best = s, d
			}
		}
	}
	states = make([]int, 0, size)
	bounds = []int{0}
	t := newTarjan(n)
	if size < pivotMin {
		return t.run(g, sub, states, bounds)
	}
	inFW, inBW := make([]bool, n), make([]bool, n)
	inFW[pivot], inBW[pivot] = true, true
	both(func(h int) {
		if h == 0 {
			search(inFW, []int32{int32(pivot)}, sub, g.m.RowPtr, g.m.Col, g.predPtr, g.pred)
		} else {
			search(inBW, []int32{int32(pivot)}, sub, g.predPtr, g.pred, g.m.RowPtr, g.m.Col)
		}
	})
	part := make([]bool, n)
	for s := range part {
		part[s] = inFW[s] && !inBW[s]
	}
	states, bounds = t.run(g, part, states, bounds)
	for s := n - 1; s >= 0; s-- {
		if inFW[s] && inBW[s] {
			states = append(states, s)
		}
	}
	bounds = append(bounds, len(states))
	for s := range part {
		part[s] = sub[s] && !inFW[s]
	}
	return t.run(g, part, states, bounds)
}

// tarjan holds the work arrays of Tarjan's algorithm so that several parts of one graph share them.
type tarjan struct {
	// index is 0 for unvisited states, the visit number (from 1) for states on the stack and -1
	// for states already assigned to a component: one array instead of index and onStack.
	index, low []int32
	stack      []int32
	call       []tarjanFrame
}

type tarjanFrame struct {
	s int32
	k int
}

func newTarjan(n int) *tarjan {
	return &tarjan{index: make([]int32, n), low: make([]int32, n)}
}

// run appends the components of the graph restricted to sub to states and bounds, sinks first,
// with an iterative Tarjan so that long chains cannot overflow the goroutine stack.
func (t *tarjan) run(g *graph, sub []bool, states, bounds []int) ([]int, []int) {
	rowPtr, col := g.m.RowPtr, g.m.Col
	index, low := t.index, t.low
	next := int32(1)
	for root := range sub {
		if !sub[root] || index[root] != 0 {
			continue
		}
		t.call = append(t.call[:0], tarjanFrame{int32(root), rowPtr[root]})
		index[root], low[root] = next, next
		next++
		t.stack = append(t.stack, int32(root))
		for len(t.call) > 0 {
			f := &t.call[len(t.call)-1]
			s := f.s
			descended := false
			for end := rowPtr[s+1]; f.k < end; {
				u := col[f.k]
				f.k++
				if !sub[u] {
					continue
				}
				if iu := index[u]; iu == 0 {
					index[u], low[u] = next, next
					next++
					t.stack = append(t.stack, int32(u))
					t.call = append(t.call, tarjanFrame{int32(u), rowPtr[u]})
					descended = true
					break
				} else if iu > 0 && iu < low[s] {
					low[s] = iu
				}
			}
			if descended {
				continue
			}
			t.call = t.call[:len(t.call)-1]
			if len(t.call) > 0 {
				if p := t.call[len(t.call)-1].s; low[s] < low[p] {
					low[p] = low[s]
				}
			}
			if low[s] == index[s] {
				for {
					u := t.stack[len(t.stack)-1]
					t.stack = t.stack[:len(t.stack)-1]
					index[u] = -1
					states = append(states, int(u))
					if u == s {
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
