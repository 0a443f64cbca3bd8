// Package dom computes dominator and post-dominator trees and control
// dependence on any directed graph given as successor lists.
//
// It owns only graph algorithms on integer node ids; it must not know about
// go/ssa, go/ast or options (package taint adapts SSA blocks to it), and it
// must not touch the graph it is given.
//
// Post-dominators need a single exit. Nodes 0..n-1 are the caller's nodes and
// node n is a virtual exit added here: every node without successors (return,
// panic) gets an edge to it. A node that still cannot reach the exit lies in
// a region with no way out (an infinite loop such as `for {}` or `select {}`).
// For every terminal strongly connected component of those nodes (one with
// no edge leaving it) the lowest-numbered node gets an edge to the exit too,
// as LLVM does. The lowest number is chosen because builders (go/ssa
// included) number a loop's header before its body, so the loop is deemed to
// "exit" at its header: its body stays control dependent on the header and
// nothing after the header post-dominates code before the loop by accident.
// Every node then reaches the exit, so every node has a post-dominator.
package dom

import "sort"

// Tree is a dominator or post-dominator tree over nodes 0..Len()-1.
type Tree struct {
	// Idom[v] is the immediate (post-)dominator of v, -1 for the root and
	// for nodes the root cannot reach.
	Idom []int
	// Root is the entry (dominators) or the virtual exit (post-dominators).
	Root int
	// pre and post are DFS numbers on the tree, for O(1) ancestor tests.
	pre, post []int
	depth     []int
}

// Len is the number of nodes in the tree, the virtual exit included.
func (t *Tree) Len() int { return len(t.Idom) }

// Reachable reports whether v is in the tree (reached from the root).
func (t *Tree) Reachable(v int) bool { return v == t.Root || t.Idom[v] >= 0 }

// Dominates reports whether a (post-)dominates b; every reachable node
// dominates itself.
func (t *Tree) Dominates(a, b int) bool {
	if !t.Reachable(a) || !t.Reachable(b) {
		return false
	}
	return t.pre[a] <= t.pre[b] && t.post[b] <= t.post[a]
}

// Depth is the distance of v from the root (0 for the root).
func (t *Tree) Depth(v int) int { return t.depth[v] }

// LCA is the nearest common ancestor of a and b in the tree, -1 if either
// is unreachable.
func (t *Tree) LCA(a, b int) int {
	if !t.Reachable(a) || !t.Reachable(b) {
		return -1
	}
	for t.depth[a] > t.depth[b] {
		a = t.Idom[a]
	}
	for t.depth[b] > t.depth[a] {
		b = t.Idom[b]
	}
	for a != b {
		a, b = t.Idom[a], t.Idom[b]
	}
	return a
}

// PostDom is a post-dominator tree together with the graph it was computed
// on (the caller's graph plus the virtual exit and its edges).
type PostDom struct {
	*Tree
	// Exit is the virtual exit node, equal to the caller's node count.
	Exit int
	// Succs is the augmented graph: the caller's successors plus the edges
	// to Exit described in the package comment; Succs[Exit] is empty.
	Succs [][]int
}

// PostDominates reports whether every path from b to the exit passes a.
func (p *PostDom) PostDominates(a, b int) bool { return p.Dominates(a, b) }

// IPDom is the immediate post-dominator of v (Exit for nodes whose only
// post-dominator is the exit, -1 for Exit itself).
func (p *PostDom) IPDom(v int) int { return p.Idom[v] }

// Augment returns succs plus the virtual exit node len(succs) and the edges
// to it described in the package comment. The input is not modified.
func Augment(succs [][]int) [][]int {
	n := len(succs)
	g := make([][]int, n+1)
	for v, ss := range succs {
		g[v] = append([]int(nil), ss...)
		if len(ss) == 0 {
			g[v] = append(g[v], n)
		}
	}
	for {
		reach := reverseReach(g, n)
		var stuck []int
		for v := 0; v < n; v++ {
			if !reach[v] {
				stuck = append(stuck, v)
			}
		}
		if len(stuck) == 0 {
			return g
		}
		// Terminal SCCs of the stuck subgraph: an SCC none of whose edges
		// leave it. (Stuck nodes never have edges to non-stuck nodes, or
		// they would reach the exit.)
		comp := sccs(g, stuck)
		hasOut := map[int]bool{}
		lowest := map[int]int{}
		for _, v := range stuck {
			c := comp[v]
			if l, ok := lowest[c]; !ok || v < l {
				lowest[c] = v
			}
			for _, w := range g[v] {
				if comp[w] != c {
					hasOut[c] = true
				}
			}
		}
		var add []int
		for c, v := range lowest {
			if !hasOut[c] {
				add = append(add, v)
			}
		}
		sort.Ints(add)
		for _, v := range add {
			g[v] = append(g[v], n)
		}
	}
}

func reverseReach(g [][]int, root int) []bool {
	preds := make([][]int, len(g))
	for v, ss := range g {
		for _, w := range ss {
			preds[w] = append(preds[w], v)
		}
	}
	seen := make([]bool, len(g))
	stack := []int{root}
	seen[root] = true
	for len(stack) > 0 {
		v := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, p := range preds[v] {
			if !seen[p] {
				seen[p] = true
				stack = append(stack, p)
			}
		}
	}
	return seen
}

// sccs numbers the strongly connected components of the subgraph induced by
// nodes (Tarjan, iterative so that deep graphs cannot overflow the stack).
func sccs(g [][]int, nodes []int) map[int]int {
	in := map[int]bool{}
	for _, v := range nodes {
		in[v] = true
	}
	index := map[int]int{}
	low := map[int]int{}
	onStack := map[int]bool{}
	comp := map[int]int{}
	var stack []int
	next, ncomp := 0, 0
	type frame struct{ v, i int }
	for _, root := range nodes {
		if _, ok := index[root]; ok {
			continue
		}
		call := []frame{{root, 0}}
		index[root], low[root] = next, next
		next++
		stack = append(stack, root)
		onStack[root] = true
		for len(call) > 0 {
			f := &call[len(call)-1]
			if f.i < len(g[f.v]) {
				w := g[f.v][f.i]
				f.i++
				if !in[w] {
					continue
				}
				if _, ok := index[w]; !ok {
					index[w], low[w] = next, next
					next++
					stack = append(stack, w)
					onStack[w] = true
					call = append(call, frame{w, 0})
				} else if onStack[w] && index[w] < low[f.v] {
					low[f.v] = index[w]
				}
				continue
			}
			v := f.v
			call = call[:len(call)-1]
			if len(call) > 0 {
				if u := call[len(call)-1].v; low[v] < low[u] {
					low[u] = low[v]
				}
			}
			if low[v] == index[v] {
				for {
					w := stack[len(stack)-1]
					stack = stack[:len(stack)-1]
					onStack[w] = false
					comp[w] = ncomp
					if w == v {
						break
					}
				}
				ncomp++
			}
		}
	}
	return comp
}

// Dominators computes the dominator tree of succs from entry with the
// Cooper–Harvey–Kennedy iterative algorithm ("A Simple, Fast Dominance
// Algorithm", 2001), which is near-linear on the reducible graphs compilers
// produce and simple enough to trust.
func Dominators(succs [][]int, entry int) *Tree {
	n := len(succs)
	preds := make([][]int, n)
	for v, ss := range succs {
		for _, w := range ss {
			preds[w] = append(preds[w], v)
		}
	}
	return chk(n, entry, func(v int) []int { return succs[v] }, func(v int) []int { return preds[v] })
}

// PostDominators computes the post-dominator tree of succs with a virtual
// exit (see the package comment): dominators of the reversed augmented graph
// rooted at the exit.
func PostDominators(succs [][]int) *PostDom {
	g := Augment(succs)
	n := len(g)
	preds := make([][]int, n)
	for v, ss := range g {
		for _, w := range ss {
			preds[w] = append(preds[w], v)
		}
	}
	t := chk(n, n-1, func(v int) []int { return preds[v] }, func(v int) []int { return g[v] })
	return &PostDom{Tree: t, Exit: n - 1, Succs: g}
}

// chk runs Cooper–Harvey–Kennedy on the graph given by fwd/back from root.
func chk(n, root int, fwd, back func(int) []int) *Tree {
	// Reverse postorder from root, iteratively.
	order := make([]int, n) // order[v] = postorder number, -1 if unreached
	for i := range order {
		order[i] = -1
	}
	var post []int
	visited := make([]bool, n)
	type frame struct{ v, i int }
	call := []frame{{root, 0}}
	visited[root] = true
	for len(call) > 0 {
		f := &call[len(call)-1]
		ss := fwd(f.v)
		if f.i < len(ss) {
			w := ss[f.i]
			f.i++
			if !visited[w] {
				visited[w] = true
				call = append(call, frame{w, 0})
			}
			continue
		}
		order[f.v] = len(post)
		post = append(post, f.v)
		call = call[:len(call)-1]
	}
	idom := make([]int, n)
	for i := range idom {
		idom[i] = -1
	}
	idom[root] = root
	intersect := func(a, b int) int {
		for a != b {
			for order[a] < order[b] {
				a = idom[a]
			}
			for order[b] < order[a] {
				b = idom[b]
			}
		}
		return a
	}
	for changed := true; changed; {
		changed = false
		for i := len(post) - 1; i >= 0; i-- {
			v := post[i]
			if v == root {
				continue
			}
			nd := -1
			for _, p := range back(v) {
				if idom[p] < 0 {
					continue // unreached or not yet processed
				}
				if nd < 0 {
					nd = p
				} else {
					nd = intersect(p, nd)
				}
			}
			if nd >= 0 && idom[v] != nd {
				idom[v] = nd
				changed = true
			}
		}
	}
	idom[root] = -1
	t := &Tree{Idom: idom, Root: root}
	t.number()
	return t
}

func (t *Tree) number() {
	n := len(t.Idom)
	kids := make([][]int, n)
	for v, d := range t.Idom {
		if d >= 0 {
			kids[d] = append(kids[d], v)
		}
	}
	t.pre = make([]int, n)
	t.post = make([]int, n)
	t.depth = make([]int, n)
	clock := 0
	type frame struct{ v, i int }
	call := []frame{{t.Root, 0}}
	t.pre[t.Root] = clock
	clock++
	for len(call) > 0 {
		f := &call[len(call)-1]
		if f.i < len(kids[f.v]) {
			w := kids[f.v][f.i]
			f.i++
			t.depth[w] = t.depth[f.v] + 1
			t.pre[w] = clock
			clock++
			call = append(call, frame{w, 0})
			continue
		}
		t.post[f.v] = clock
		clock++
		call = call[:len(call)-1]
	}
}

// ControlDeps computes control dependence (Ferrante, Ottenstein and Warren,
// 1987) from a post-dominator tree: for each edge a→b of the augmented
// graph where b does not strictly post-dominate a, every node on the tree
// path from b up to, but excluding, ipdom(a) is control dependent on a
// (a self-loop a→a makes a depend on itself). deps[v] lists the nodes
// v is control dependent on, ascending, without duplicates; only nodes with
// two or more successors can appear there. A loop header whose body can
// reach it again is control dependent on itself.
func (p *PostDom) ControlDeps() [][]int {
	n := p.Exit
	deps := make([][]int, n)
	mark := make([]int, n) // mark[v] == a+1 when v already has a in deps
	for a := 0; a < n; a++ {
		if len(p.Succs[a]) < 2 {
			continue
		}
		stop := p.Idom[a]
		for _, b := range p.Succs[a] {
			if b != a && p.PostDominates(b, a) {
				continue
			}
			for r := b; r != stop && r >= 0 && r != p.Exit; r = p.Idom[r] {
				if mark[r] != a+1 {
					mark[r] = a + 1
					deps[r] = append(deps[r], a)
				}
			}
		}
	}
	for _, d := range deps {
		sort.Ints(d)
	}
	return deps
}
