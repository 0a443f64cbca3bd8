package frontend

import (
	"slices"
	"strconv"
	"strings"
)

// PanicTargets gives, for every CFG node, where a panic the CFG does not show (profile.Node.Panics)
// takes the function when it happens while that node runs: the first deferred call of the panic
// chain for the defers registered at that point, or the Panic exit. Instrumentation must count
// such panics the same way for the identity to hold.
//
//   - Without defer statements: the Panic exit.
//   - Dynamic defer order: the panic chain's DeferDispatch node (instrumentation counts the
//     deferred calls it runs there), or the Panic exit when the CFG has no panic chain.
//   - Static order: for a body node, the panic chain's DeferRun for the stack registered before
//     the node (a defer statement that panics has not registered its call); for a DeferRun
//     node, the panic chain's DeferRun for the calls below it. When the CFG has no DeferRun for
//     that chain and stack (the frontend makes only those some statement needs), the Panic exit:
//     the deferred calls that would run are then not represented, an approximation.
//
// Exits map to themselves.
func PanicTargets(g *CFG) []int {
	n := len(g.Nodes)
	pt := make([]int, n)
	for id := range pt {
		pt[id] = g.Panic
	}
	pt[g.End] = g.End
	if len(g.Defers) == 0 {
		return pt
	}
	nBody := n
	for id, nd := range g.Nodes {
		if nd.Kind == KindDeferRun || nd.Kind == KindDeferDispatch || nd.IsExit() {
			nBody = id
			break
		}
	}
	if g.DynamicDefers {
		for _, nd := range g.Nodes {
			if nd.Kind == KindDeferDispatch && nd.Chain == ChainPanic {
				for id := 0; id < n; id++ {
					if !g.Nodes[id].IsExit() {
						pt[id] = nd.ID
					}
				}
			}
		}
		return pt
	}

	// The stacks of registered defers before each body node, as the frontend's data flow
	// computes them (static order: one stack per reachable node; unreachable nodes run
	// zero times, so any stack will do).
	in := make([][]int, nBody)
	seen := make([]bool, nBody)
	outOf := func(id int) []int {
		s := in[id]
		if g.Nodes[id].Kind == KindDefer {
			s = append(s[:len(s):len(s)], id)
		}
		return s
	}
	flow := func(root int, stack []int) {
		if seen[root] {
			return
		}
		in[root], seen[root] = stack, true
		work := []int{root}
		for len(work) > 0 {
			u := work[len(work)-1]
			work = work[:len(work)-1]
			for _, e := range g.Nodes[u].Succs {
				if v := e.To; v < nBody && !seen[v] {
					in[v], seen[v] = outOf(u), true
					work = append(work, v)
				}
			}
		}
	}
	flow(g.Entry, nil)
	for id := 0; id < nBody; id++ {
		flow(id, nil)
	}

	key := func(c Chain, stack []int) string {
		var b strings.Builder
		b.WriteString(c.String())
		for _, d := range stack {
			b.WriteByte(',')
			b.WriteString(strconv.Itoa(d))
		}
		return b.String()
	}
	entry := map[string]int{}
	stackOf := map[int][]int{}
	var work []int
	note := func(run int, stack []int) {
		nd := g.Nodes[run]
		if nd.Kind != KindDeferRun || len(stack) == 0 || stack[len(stack)-1] != nd.Defer {
			return
		}
		k := key(nd.Chain, stack)
		if _, ok := entry[k]; ok {
			return
		}
		entry[k] = run
		if _, ok := stackOf[run]; !ok {
			stackOf[run] = stack
			work = append(work, run)
		}
	}
	for u := 0; u < nBody; u++ {
		for _, e := range g.Nodes[u].Succs {
			if e.To >= nBody {
				note(e.To, outOf(u))
			}
		}
	}
	for len(work) > 0 {
		r := work[len(work)-1]
		work = work[:len(work)-1]
		s := stackOf[r]
		rest := s[:len(s)-1]
		for _, e := range g.Nodes[r].Succs {
			note(e.To, slices.Clip(rest))
		}
	}
	target := func(stack []int) int {
		if len(stack) == 0 {
			return g.Panic
		}
		if r, ok := entry[key(ChainPanic, stack)]; ok {
			return r
		}
		return g.Panic
	}
	for u := 0; u < nBody; u++ {
		pt[u] = target(in[u])
	}
	for r, s := range stackOf {
		pt[r] = target(s[:len(s)-1])
	}
	return pt
}
