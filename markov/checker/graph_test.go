package checker

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/augur-perf/augur/markov/dtmc"
)

// TestSCCSplitMatchesTarjan: above pivotMin states, sccs splits off the pivot's component by two
// searches and runs Tarjan on the rest; it must find Tarjan's components, in an order where every
// transition leads to the same or an earlier component.
func TestSCCSplitMatchesTarjan(t *testing.T) {
	m := randomChain(rand.New(rand.NewPCG(5, 6)), 2*pivotMin, 2, 0.1, true)
	g, err := newGraph(m)
	if err != nil {
		t.Fatal(err)
	}
	sub := make([]bool, m.N)
	for s := range sub {
		sub[s] = s%17 != 0 // leave some states out, so that sub matters
	}
	states, bounds := g.sccs(sub)
	want, wantBounds := newTarjan(m.N).run(g, sub, nil, []int{0})
	if len(states) != len(want) || len(bounds) != len(wantBounds) {
		t.Fatalf("%d states in %d components, Tarjan %d in %d", len(states), len(bounds)-1, len(want), len(wantBounds)-1)
	}
	label := func(states, bounds []int) (comp, canon []int) {
		comp, canon = make([]int, m.N), make([]int, m.N)
		for c := 0; c+1 < len(bounds); c++ {
			members := states[bounds[c]:bounds[c+1]]
			least := slices.Min(members)
			for _, s := range members {
				comp[s], canon[s] = c, least
			}
		}
		return comp, canon
	}
	comp, got := label(states, bounds)
	_, exp := label(want, wantBounds)
	largest := 0
	for c := 0; c+1 < len(bounds); c++ {
		largest = max(largest, bounds[c+1]-bounds[c])
	}
	if largest < m.N/2 {
		t.Fatalf("largest component has %d states: the test wants a giant one", largest)
	}
	for s := 0; s < m.N; s++ {
		if !sub[s] {
			continue
		}
		if got[s] != exp[s] {
			t.Fatalf("state %d: in the component of %d, Tarjan puts it with %d", s, got[s], exp[s])
		}
		for _, u := range m.Col[m.RowPtr[s]:m.RowPtr[s+1]] {
			if sub[u] && comp[u] > comp[s] {
				t.Fatalf("transition %d→%d leads from component %d to the later %d", s, u, comp[s], comp[u])
			}
		}
	}
}

// TestSearchMatchesQueue: the direction-optimising search finds exactly what a plain
// breadth-first search finds, forwards and backwards, from seeds inside and outside sub, with
// frontiers large enough for the scan.
func TestSearchMatchesQueue(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	m := randomChain(rng, 100000, 3, 0.1, true)
	g, err := newGraph(m)
	if err != nil {
		t.Fatal(err)
	}
	plain := func(seeds []int32, sub []bool, ptr []int, next func(int) []int) []bool {
		seen := make([]bool, m.N)
		queue := slices.Clone(seeds)
		for _, s := range seeds {
			seen[s] = true
		}
		for h := 0; h < len(queue); h++ {
			for _, u := range next(int(queue[h])) {
				if !seen[u] && sub[u] {
					seen[u] = true
					queue = append(queue, int32(u))
				}
			}
		}
		return seen
	}
	succ := func(s int) []int { return m.Col[m.RowPtr[s]:m.RowPtr[s+1]] }
	pred := func(s int) []int {
		var out []int
		for _, p := range g.pred[g.predPtr[s]:g.predPtr[s+1]] {
			out = append(out, int(p))
		}
		return out
	}
	for _, nseeds := range []int{1, 3000} {
		sub := make([]bool, m.N)
		for s := range sub {
			sub[s] = rng.Float64() < 0.9
		}
		var seeds []int32
		for len(seeds) < nseeds {
			seeds = append(seeds, int32(rng.IntN(m.N)))
		}
		for _, forward := range []bool{true, false} {
			seen := make([]bool, m.N)
			for _, s := range seeds {
				seen[s] = true
			}
			var want []bool
			if forward {
				search(seen, slices.Clone(seeds), sub, m.RowPtr, m.Col, g.predPtr, g.pred)
				want = plain(seeds, sub, m.RowPtr, succ)
			} else {
				search(seen, slices.Clone(seeds), sub, g.predPtr, g.pred, m.RowPtr, m.Col)
				want = plain(seeds, sub, g.predPtr, pred)
			}
			found := 0
			for s := range seen {
				if seen[s] != want[s] {
					t.Fatalf("%d seeds, forward %v: state %d found %v, want %v", nseeds, forward, s, seen[s], want[s])
				}
				if seen[s] {
					found++
				}
			}
			if found < m.N/2 {
				t.Fatalf("%d seeds, forward %v: only %d states found; the scan was not exercised", nseeds, forward, found)
			}
		}
	}
}

// TestEliminationLikely: the sampled prediction says yes for a large loop of code (every state one
// predecessor and one successor) and no for a random expander.
func TestEliminationLikely(t *testing.T) {
	const n = 10000
	b := dtmc.NewBuilder(n + 1)
	for s := 0; s < n; s++ {
		b.Add(s, (s+1)%n, 0.9)
		b.Add(s, n, 0.1)
	}
	b.Add(n, n, 1)
	b.SetInit(0)
	ring := must(b.Build())
	g, err := newGraph(ring)
	if err != nil {
		t.Fatal(err)
	}
	comp := make([]int, n)
	loc := make([]int32, n+1)
	loc[n] = -1
	for s := range comp {
		comp[s], loc[s] = s, int32(s)
	}
	if !g.eliminationLikely(comp, loc) {
		t.Error("a loop of 10000 statements: elimination predicted to fill in")
	}
	sys, comp, loc, _ := bigComponent(t, 0)
	if sys.g.eliminationLikely(comp, loc) {
		t.Error("a random expander: elimination predicted to stay sparse")
	}
}

// TestPredecessorLists: every state's predecessor list holds the sources of the transitions into
// it, each once per transition, in increasing order, whether written straight or through blocks,
// for sizes around the blocks (a last block empty, partial or full).
func TestPredecessorLists(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for _, n := range []int{1, 2, 7, 1 << predBlockShift, 1<<predBlockShift + 1, 3<<predBlockShift - 1, 40000} {
		m := randomChain(rng, n, min(n, 3), 0.1, true)
		want := make([][]int32, n)
		for s := 0; s < n; s++ {
			for _, u := range m.Col[m.RowPtr[s]:m.RowPtr[s+1]] {
				want[u] = append(want[u], int32(s))
			}
		}
		for _, byBlock := range []bool{false, true} {
			g := &graph{m: m, predPtr: make([]int, n+1), pred: make([]int32, len(m.Col))}
			if byBlock {
				g.fillByBlock()
			} else {
				g.fillDirect()
			}
			if g.predPtr[0] != 0 || g.predPtr[n] != len(g.pred) {
				t.Fatalf("n=%d, by block %v: lists from %d to %d over %d entries", n, byBlock, g.predPtr[0], g.predPtr[n], len(g.pred))
			}
			for u := 0; u < n; u++ {
				if got := g.pred[g.predPtr[u]:g.predPtr[u+1]]; !slices.Equal(got, want[u]) {
					t.Fatalf("n=%d, by block %v: predecessors of %d are %v, want %v", n, byBlock, u, got, want[u])
				}
			}
		}
	}
}

// TestScattered: random targets across a large chain are scattered; a chain whose transitions
// lead to the next state or (most of them) to one of two exits, like the flow graph of code, and
// any chain of one block are not.
func TestScattered(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	if !scattered(randomChain(rng, 1<<17, 3, 0.1, false)) {
		t.Error("a random chain of 2^17 states is not scattered")
	}
	if scattered(randomChain(rng, 1<<predBlockShift, 3, 0.1, false)) {
		t.Error("a chain of one block is scattered")
	}
	n := 1 << 17
	b := dtmc.NewBuilder(n)
	for s := 0; s < n-8; s++ {
		b.Add(s, s+1, 0.5)
		b.Add(s, n-2, 0.25) // an error return
		b.Add(s, n-1, 0.25) // a panic
	}
	for s := n - 8; s < n; s++ {
		b.Add(s, s, 1)
	}
	b.SetInit(0)
	m, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	if scattered(m) {
		t.Error("a chain of short forward steps and exits is scattered")
	}
}
