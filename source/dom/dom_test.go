package dom

import (
	"fmt"
	"math/rand"
	"reflect"
	"testing"
)

// reaches reports whether to is reachable from from in g without passing
// through removed.
func reaches(g [][]int, from, to, removed int) bool {
	if from == removed {
		return false
	}
	seen := make([]bool, len(g))
	stack := []int{from}
	seen[from] = true
	for len(stack) > 0 {
		v := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if v == to {
			return true
		}
		for _, w := range g[v] {
			if w != removed && !seen[w] {
				seen[w] = true
				stack = append(stack, w)
			}
		}
	}
	return false
}

func randomGraph(r *rand.Rand, n int) [][]int {
	g := make([][]int, n)
	for v := range g {
		k := r.Intn(4) // 0 successors makes a return, >1 a branch
		for i := 0; i < k; i++ {
			g[v] = append(g[v], r.Intn(n))
		}
	}
	return g
}

// bruteControlDeps follows the definition: v is control dependent on a iff
// a has a successor s such that v post-dominates s (or v == s) and v does
// not strictly post-dominate a.
func bruteControlDeps(g [][]int, pdom func(a, b int) bool, n int) [][]int {
	deps := make([][]int, n)
	for v := 0; v < n; v++ {
		for a := 0; a < n; a++ {
			if len(g[a]) < 2 {
				continue
			}
			if pdom(v, a) && v != a {
				continue
			}
			for _, s := range g[a] {
				if s < n && pdom(v, s) {
					deps[v] = append(deps[v], a)
					break
				}
			}
		}
	}
	return deps
}

func TestPostDominatorsRandom(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	for iter := 0; iter < 400; iter++ {
		n := 1 + r.Intn(14)
		g := randomGraph(r, n)
		pd := PostDominators(g)
		aug := pd.Succs
		exit := pd.Exit
		brute := func(p, v int) bool {
			if p == v {
				return true
			}
			return !reaches(aug, v, exit, p)
		}
		for v := 0; v <= n; v++ {
			if !reaches(aug, v, exit, -1) {
				t.Fatalf("graph %v: node %d cannot reach the exit after Augment", g, v)
			}
			for p := 0; p <= n; p++ {
				if got, want := pd.PostDominates(p, v), brute(p, v); got != want {
					t.Fatalf("graph %v: PostDominates(%d, %d) = %v, brute force %v", g, p, v, got, want)
				}
			}
			// ipdom is the strict post-dominator that every other strict
			// post-dominator post-dominates.
			if v != exit {
				ip := pd.IPDom(v)
				if ip == v || !brute(ip, v) {
					t.Fatalf("graph %v: ipdom(%d)=%d is not a strict post-dominator", g, v, ip)
				}
				for p := 0; p <= n; p++ {
					if p != v && brute(p, v) && !brute(p, ip) {
						t.Fatalf("graph %v: ipdom(%d)=%d but %d is a closer post-dominator", g, v, ip, p)
					}
				}
			}
		}
		got := pd.ControlDeps()
		want := bruteControlDeps(aug, brute, n)
		for v := range want {
			if len(got[v]) == 0 && len(want[v]) == 0 {
				continue
			}
			if !reflect.DeepEqual(got[v], want[v]) {
				t.Fatalf("graph %v: control deps of %d = %v, brute force %v", g, v, got[v], want[v])
			}
		}
	}
}

func TestDominatorsRandom(t *testing.T) {
	r := rand.New(rand.NewSource(2))
	for iter := 0; iter < 400; iter++ {
		n := 1 + r.Intn(14)
		g := randomGraph(r, n)
		d := Dominators(g, 0)
		for v := 0; v < n; v++ {
			reach := reaches(g, 0, v, -1)
			if d.Reachable(v) != reach {
				t.Fatalf("graph %v: Reachable(%d)=%v want %v", g, v, d.Reachable(v), reach)
			}
			for a := 0; a < n; a++ {
				want := reach && (a == v || !reaches(g, 0, v, a))
				if got := d.Dominates(a, v); got != want {
					t.Fatalf("graph %v: Dominates(%d, %d) = %v, brute force %v", g, a, v, got, want)
				}
			}
		}
	}
}

func TestHandExamples(t *testing.T) {
	// if-then-else: 0 → {1, 2} → 3 (return).
	diamond := [][]int{{1, 2}, {3}, {3}, {}}
	pd := PostDominators(diamond)
	if got := pd.IPDom(0); got != 3 {
		t.Errorf("diamond ipdom(0) = %d, want 3", got)
	}
	cd := pd.ControlDeps()
	if fmt.Sprint(cd) != "[[] [0] [0] []]" {
		t.Errorf("diamond control deps = %v", cd)
	}

	// while loop: 0 → 1 (header) → {2 body, 3 exit}; 2 → 1.
	loop := [][]int{{1}, {2, 3}, {1}, {}}
	pd = PostDominators(loop)
	cd = pd.ControlDeps()
	if fmt.Sprint(cd) != "[[] [1] [1] []]" {
		t.Errorf("loop control deps = %v (header depends on itself, body on header)", cd)
	}
	if pd.IPDom(2) != 1 || pd.IPDom(1) != 3 {
		t.Errorf("loop ipdoms: ipdom(2)=%d ipdom(1)=%d", pd.IPDom(2), pd.IPDom(1))
	}

	// Infinite loop with a branch inside: 0 → 1 → {2, 3} → 1, never exits.
	inf := [][]int{{1}, {2, 3}, {1}, {1}}
	pd = PostDominators(inf)
	if got := pd.Succs[1]; fmt.Sprint(got) != "[2 3 4]" {
		t.Errorf("infinite loop: header successors after Augment = %v, want the exit added to 1", got)
	}
	cd = pd.ControlDeps()
	if fmt.Sprint(cd[2]) != "[1]" || fmt.Sprint(cd[3]) != "[1]" {
		t.Errorf("infinite loop control deps = %v", cd)
	}

	// Running example of the ConfigCrusher paper, reduced: 0: if a → 1
	// (then) → 2 join; 2: if b → 3 → 4; 4 returns.
	ex := [][]int{{1, 2}, {2}, {3, 4}, {4}, {}}
	pd = PostDominators(ex)
	cd = pd.ControlDeps()
	if fmt.Sprint(cd) != "[[] [0] [] [2] []]" {
		t.Errorf("example control deps = %v", cd)
	}
	if !pd.PostDominates(2, 0) || pd.PostDominates(1, 0) {
		t.Errorf("example post-dominance wrong")
	}
	if got := pd.LCA(1, 3); got != 4 {
		t.Errorf("LCA(1,3) = %d, want 4", got)
	}
}

func BenchmarkPostDominators(b *testing.B) {
	r := rand.New(rand.NewSource(3))
	g := randomGraph(r, 5000)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		PostDominators(g).ControlDeps()
	}
}
