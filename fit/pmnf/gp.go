package pmnf

import (
	"fmt"
	"math"
	"math/rand/v2"
	"time"
)

// GPOptions bound symbolic regression.
type GPOptions struct {
	Seed uint64
	// Population and Generations bound the search (defaults 300 and 40): the same seed gives
	// the same law.
	Population, Generations int
	// Budget stops the search early when it has run this long (default 2 s); a search cut
	// short by it depends on the machine's speed, and says so.
	Budget time.Duration
}

// FitGP searches for a law by genetic programming (Koza's symbolic regression): a population of
// expression trees over the parameters, constants, + − · / log2 and sqrt, evolved by tournament
// selection, subtree crossover and mutation; each tree is linearly scaled (y ≈ a + b·tree, by
// least squares: Keijzer's scaling, so that the search looks for shapes, not coefficients) and
// judged by its error cross-validated over points like Search's candidates, plus a penalty per
// node. It is for what the normal form cannot say, such as 100/(n + 5). The second result is
// true when the budget cut the search short.
func FitGP(samples []Sample, params []string, o Options, g GPOptions) (Candidate, bool, error) {
	pts, _, varying, err := prepare(samples, params)
	if err != nil {
		return Candidate{}, false, err
	}
	if len(varying) == 0 || len(pts) < 5 {
		return Candidate{}, false, fmt.Errorf("symbolic regression needs a varying parameter and at least 5 points")
	}
	o = o.withDefaults()
	if g.Population == 0 {
		g.Population = 300
	}
	if g.Generations == 0 {
		g.Generations = 40
	}
	if g.Budget == 0 {
		g.Budget = 2 * time.Second
	}
	var scale float64
	for _, pt := range pts {
		scale += math.Abs(pt.y)
	}
	scale /= float64(len(pts))
	if scale == 0 {
		scale = 1
	}
	rng := rand.New(rand.NewPCG(g.Seed, 0x9e3779b97f4a7c15))
	gp := &gpSearch{rng: rng, params: varying, pts: pts, o: o, scale: scale}
	pop := make([]scored, g.Population)
	for i := range pop {
		pop[i] = gp.score(gp.random(2 + i%4))
	}
	start := time.Now()
	cut := false
	for gen := 0; gen < g.Generations; gen++ {
		if time.Since(start) > g.Budget {
			cut = true
			break
		}
		next := make([]scored, 0, len(pop))
		next = append(next, gp.best(pop)) // elitism: the best survives unchanged
		for len(next) < len(pop) {
			a := gp.tournament(pop)
			var child *Node
			switch r := rng.Float64(); {
			case r < 0.7:
				child = gp.crossover(a.tree, gp.tournament(pop).tree)
			case r < 0.9:
				child = gp.mutate(a.tree)
			default:
				child = a.tree
			}
			if child.size() > 40 {
				child = a.tree
			}
			next = append(next, gp.score(child))
		}
		pop = next
	}
	best := gp.best(pop)
	if math.IsInf(best.fitness, 1) {
		return Candidate{}, cut, fmt.Errorf("symbolic regression found no law defined at every point")
	}
	law := &Node{Op: "+", Args: []*Node{{Op: "const", Value: best.a}, {Op: "*", Args: []*Node{{Op: "const", Value: best.b}, best.tree}}}}
	return Candidate{Expr: Expr{Tree: law}, CVError: best.cv, Fitness: best.fitness, significant: true}, cut, nil
}

type scored struct {
	tree        *Node
	a, b        float64
	cv, fitness float64
}

type gpSearch struct {
	rng    *rand.Rand
	params []string
	pts    []point
	o      Options
	scale  float64
}

func (n *Node) size() int {
	k := 1
	for _, a := range n.Args {
		k += a.size()
	}
	return k
}

func (n *Node) clone() *Node {
	c := *n
	c.Args = make([]*Node, len(n.Args))
	for i, a := range n.Args {
		c.Args[i] = a.clone()
	}
	return &c
}

// nodes lists the tree's nodes in preorder (for picking one at random).
func (n *Node) nodes(out []*Node) []*Node {
	out = append(out, n)
	for _, a := range n.Args {
		out = a.nodes(out)
	}
	return out
}

func (s *gpSearch) leaf() *Node {
	if s.rng.Float64() < 0.6 {
		return &Node{Op: "param", Param: s.params[s.rng.IntN(len(s.params))]}
	}
	return &Node{Op: "const", Value: float64(s.rng.IntN(10) + 1)}
}

func (s *gpSearch) random(depth int) *Node {
	if depth == 0 || s.rng.Float64() < 0.3 {
		return s.leaf()
	}
	ops := []string{"+", "-", "*", "/", "log2", "sqrt"}
	op := ops[s.rng.IntN(len(ops))]
	if op == "log2" || op == "sqrt" {
		return &Node{Op: op, Args: []*Node{s.random(depth - 1)}}
	}
	return &Node{Op: op, Args: []*Node{s.random(depth - 1), s.random(depth - 1)}}
}

func (s *gpSearch) crossover(a, b *Node) *Node {
	child := a.clone()
	ns := child.nodes(nil)
	donor := b.nodes(nil)
	*ns[s.rng.IntN(len(ns))] = *donor[s.rng.IntN(len(donor))].clone()
	return child
}

func (s *gpSearch) mutate(a *Node) *Node {
	child := a.clone()
	ns := child.nodes(nil)
	n := ns[s.rng.IntN(len(ns))]
	if n.Op == "const" && s.rng.Float64() < 0.5 {
		n.Value *= math.Exp(s.rng.NormFloat64() * 0.5)
		return child
	}
	*n = *s.random(2)
	return child
}

func (s *gpSearch) tournament(pop []scored) scored {
	best := pop[s.rng.IntN(len(pop))]
	for range 3 {
		if c := pop[s.rng.IntN(len(pop))]; c.fitness < best.fitness {
			best = c
		}
	}
	return best
}

func (s *gpSearch) best(pop []scored) scored {
	b := pop[0]
	for _, c := range pop[1:] {
		if c.fitness < b.fitness {
			b = c
		}
	}
	return b
}

// score scales the tree linearly on all points, then cross-validates the scaling over folds of
// points with the relative errors Search uses.
func (s *gpSearch) score(t *Node) scored {
	bad := scored{tree: t, fitness: math.Inf(1), cv: math.Inf(1)}
	x := make([]float64, len(s.pts))
	for i, pt := range s.pts {
		x[i] = t.Eval(pt.at)
		if math.IsNaN(x[i]) || math.IsInf(x[i], 0) {
			return bad
		}
	}
	w := func(r int) float64 { return 1 / math.Max(math.Abs(s.pts[r].y), s.scale*s.o.Floor) }
	fitAB := func(rows func(int) bool) (a, b float64, ok bool) {
		var sw, sx, sy, sxx, sxy float64
		for r := range s.pts {
			if !rows(r) {
				continue
			}
			ww := w(r) * w(r)
			sw += ww
			sx += ww * x[r]
			sy += ww * s.pts[r].y
			sxx += ww * x[r] * x[r]
			sxy += ww * x[r] * s.pts[r].y
		}
		den := sw*sxx - sx*sx
		if sw == 0 || math.Abs(den) < 1e-12*math.Max(1, sw*sxx) {
			return 0, 0, false // a constant tree: the mean's job, not ours
		}
		b = (sw*sxy - sx*sy) / den
		return (sy - b*sx) / sw, b, true
	}
	a, b, ok := fitAB(func(int) bool { return true })
	if !ok {
		return bad
	}
	k := min(s.o.Folds, len(s.pts))
	var sse float64
	for fold := 0; fold < k; fold++ {
		fa, fb, ok := fitAB(func(r int) bool { return r%k != fold })
		if !ok {
			return bad
		}
		for r := fold; r < len(s.pts); r += k {
			d := (fa + fb*x[r] - s.pts[r].y) * w(r)
			sse += d * d
		}
	}
	cv := math.Sqrt(sse / float64(len(s.pts)))
	return scored{tree: t, a: a, b: b, cv: cv, fitness: cv + s.o.Penalty*float64(t.size())}
}
