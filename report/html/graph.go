package html

import (
	"fmt"
	"sort"
	"strings"
)

// The graph is drawn top to bottom, as code reads: a layered (Sugiyama-style) layout, kept
// simple because models of functions are mostly chains with diamonds and loops. Back edges (the
// loops) are found by a depth-first search from the initial states and drawn as curves around
// the right of the states they span, so that the forward edges form a DAG; each state's layer is
// its longest forward path from an initial state, the exits below all others; a forward edge
// that spans several layers gets a thin dummy vertex in each layer it crosses, so that it is
// routed between the states instead of through them. Within a layer vertices are ordered by the
// mean position of their predecessors (one sweep, ties by number) and placed as near to it as
// the ones before them allow. Everything is deterministic.
const (
	nodeW, nodeH = 200.0, 34.0
	gapX, gapY   = 36.0, 58.0
	dummyW       = 10.0
	dummyGap     = 14.0
	margin       = 24.0
	labelRunes   = 27
)

type point struct{ x, y float64 }

type layout struct {
	pos  []point
	back []bool // per edge
	// route holds, for a forward edge that spans several layers, the points it passes through.
	route  [][]point
	layers int
	// right is the rightmost edge of each layer's vertices: loops pass to the right of it.
	right  []float64
	width  float64
	height float64
}

func layoutGraph(g *Graph) layout {
	n := len(g.Nodes)
	out := make([][]int, n) // edge indices by source, without self-loops
	for k, e := range g.Edges {
		if e.From != e.To {
			out[e.From] = append(out[e.From], k)
		}
	}
	l := layout{back: make([]bool, len(g.Edges)), route: make([][]point, len(g.Edges))}
	// Depth-first search: back edges and a reverse postorder (a topological order of the rest).
	const white, grey, black = 0, 1, 2
	colour := make([]int, n)
	var post []int
	var visit func(s int)
	visit = func(s int) {
		colour[s] = grey
		for _, k := range out[s] {
			t := g.Edges[k].To
			switch colour[t] {
			case white:
				visit(t)
			case grey:
				l.back[k] = true
			}
		}
		colour[s] = black
		post = append(post, s)
	}
	roots := append([]int(nil), g.Init...)
	for s := range n {
		roots = append(roots, s)
	}
	for _, s := range roots {
		if s >= 0 && s < n && colour[s] == white {
			visit(s)
		}
	}
	layer := make([]int, n)
	for i := len(post) - 1; i >= 0; i-- {
		s := post[i]
		for _, k := range out[s] {
			if !l.back[k] {
				t := g.Edges[k].To
				layer[t] = max(layer[t], layer[s]+1)
			}
		}
	}
	// The exits sit below everything else (the panic exit too when no recorded panic leads to
	// it), so that nothing is drawn beside them.
	isExit := func(s int) bool { return g.Nodes[s].Kind == "end" || g.Nodes[s].Kind == "panic" }
	last, exits := 0, false
	for s := range n {
		if isExit(s) {
			exits = true
		} else {
			last = max(last, layer[s])
		}
	}
	for s := range n {
		if isExit(s) {
			layer[s] = last + 1
		}
	}
	l.layers = last + 1
	if exits {
		l.layers++
	}
	if n == 0 {
		l.layers = 0
	}
	// Vertices: the states, then one dummy per layer crossed by each long forward edge.
	layerOf := append([]int(nil), layer...)
	width := make([]float64, n)
	for s := range width {
		width[s] = nodeW
	}
	preds := make([][]int, n)
	chain := make([][]int, len(g.Edges))
	for k, e := range g.Edges {
		if e.From == e.To || l.back[k] {
			continue
		}
		prev := e.From
		for y := layer[e.From] + 1; y < layer[e.To]; y++ {
			v := len(layerOf)
			layerOf, width, preds = append(layerOf, y), append(width, dummyW), append(preds, []int{prev})
			chain[k] = append(chain[k], v)
			prev = v
		}
		preds[e.To] = append(preds[e.To], prev)
	}
	byLayer := make([][]int, l.layers)
	for v, y := range layerOf {
		byLayer[y] = append(byLayer[y], v)
	}
	x := make([]float64, len(layerOf))
	for _, vs := range byLayer {
		want := make(map[int]float64, len(vs))
		for _, v := range vs {
			for _, p := range preds[v] {
				want[v] += x[p] / float64(len(preds[v]))
			}
		}
		sort.SliceStable(vs, func(a, b int) bool {
			if want[vs[a]] != want[vs[b]] {
				return want[vs[a]] < want[vs[b]]
			}
			return vs[a] < vs[b]
		})
		// As near to where the predecessors are as the vertices to the left allow, then the
		// whole layer shifted so that it is centred on them.
		var drift float64
		for j, v := range vs {
			x[v] = want[v]
			if j > 0 {
				u := vs[j-1]
				gap := gapX
				if u >= n || v >= n {
					gap = dummyGap
				}
				x[v] = max(x[v], x[u]+(width[u]+width[v])/2+gap)
			}
			drift += x[v] - want[v]
		}
		for _, v := range vs {
			x[v] -= drift / float64(len(vs))
		}
	}
	lo, hi := 0.0, 0.0
	for v := range x {
		lo, hi = min(lo, x[v]-width[v]/2), max(hi, x[v]+width[v]/2)
	}
	y := func(layer int) float64 { return margin + nodeH/2 + float64(layer)*(nodeH+gapY) }
	l.pos = make([]point, n)
	for s := range n {
		l.pos[s] = point{x[s] - lo + margin, y(layer[s])}
	}
	for k, c := range chain {
		for _, v := range c {
			l.route[k] = append(l.route[k], point{x[v] - lo + margin, y(layerOf[v])})
		}
	}
	l.right = make([]float64, l.layers)
	for v := range x {
		l.right[layerOf[v]] = max(l.right[layerOf[v]], x[v]-lo+margin+width[v]/2)
	}
	// Room on the right for the loops, the widest of which spans the most layers.
	span := 0
	for k, e := range g.Edges {
		if l.back[k] {
			span = max(span, layer[e.From]-layer[e.To])
		}
	}
	l.width = hi - lo + 2*margin + 60 + 14*float64(span)
	l.height = 2*margin + float64(l.layers)*nodeH + float64(max(l.layers-1, 0))*gapY
	return l
}

// rightOf is the rightmost edge of the states in the layers from y0 to y1 (centres).
func (l layout) rightOf(y0, y1 float64) float64 {
	var r float64
	for i, x := range l.right {
		y := margin + nodeH/2 + float64(i)*(nodeH+gapY)
		if y >= min(y0, y1)-1 && y <= max(y0, y1)+1 {
			r = max(r, x)
		}
	}
	return r
}

// graphSVG draws the graph: nodes as <g class="node KIND heat-N" data-state=…>, edges as <g
// class="edge [back|self]" data-from data-to data-p> with the probability as their label.
func graphSVG(g *Graph) string {
	l := layoutGraph(g)
	var b strings.Builder
	fmt.Fprintf(&b, `<svg id="graph" class="graph" role="img" width="%s" height="%s" viewBox="0 0 %s %s" data-states="%d" data-transitions="%d">`,
		f1(l.width), f1(l.height), f1(l.width), f1(l.height), g.States, g.Transitions)
	b.WriteString(`<title>The Markov model: one state per statement and decision, edges labelled with their probabilities</title>`)
	b.WriteString(`<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0L10,5L0,10z" class="arrowhead"/></marker></defs>`)
	b.WriteString(`<g class="edges">`)
	for k, e := range g.Edges {
		from, to := l.pos[e.From], l.pos[e.To]
		var d string
		var lab point
		class := "edge"
		switch {
		case e.From == e.To:
			class += " self"
			// On the top edge, right: the space between layers is free, beside a node may not be.
			x, y := from.x+nodeW/2, from.y-nodeH/2
			d = fmt.Sprintf("M%s,%s C%s,%s %s,%s %s,%s", f1(x-36), f1(y), f1(x-40), f1(y-26), f1(x), f1(y-26), f1(x-12), f1(y))
			lab = point{x - 4, y - 18}
		case l.back[k]:
			// Around the right of every state the loop spans, so that it crosses none.
			class += " back"
			span := (from.y - to.y) / (nodeH + gapY)
			x1, x2 := from.x+nodeW/2, to.x+nodeW/2
			// The curve's rightmost point is (x1 + 6·cx + x2)/8: it clears the states by 24 px
			// and more for longer loops, so that nested loops do not overlap.
			reach := l.rightOf(from.y, to.y) + 24 + 12*span
			cx := (8*reach - x1 - x2) / 6
			d = fmt.Sprintf("M%s,%s C%s,%s %s,%s %s,%s", f1(x1), f1(from.y), f1(cx), f1(from.y), f1(cx), f1(to.y), f1(x2), f1(to.y))
			lab = point{(x1 + 3*cx + 3*cx + x2) / 8, (from.y + to.y) / 2}
		default:
			// Through the dummies of a long edge, in vertical S-curves; labelled on the first.
			pts := append(append([]point{{from.x, from.y + nodeH/2}}, l.route[k]...), point{to.x, to.y - nodeH/2})
			var path strings.Builder
			fmt.Fprintf(&path, "M%s,%s", f1(pts[0].x), f1(pts[0].y))
			for i := 1; i < len(pts); i++ {
				p, q := pts[i-1], pts[i]
				if p.x == q.x {
					fmt.Fprintf(&path, " L%s,%s", f1(q.x), f1(q.y))
					continue
				}
				m := (p.y + q.y) / 2
				fmt.Fprintf(&path, " C%s,%s %s,%s %s,%s", f1(p.x), f1(m), f1(q.x), f1(m), f1(q.x), f1(q.y))
			}
			d = path.String()
			lab = point{(pts[0].x + pts[1].x) / 2, (pts[0].y + pts[1].y) / 2}
		}
		p := prob(e.P)
		title := fmt.Sprintf("state %d → state %d: probability %s", e.From, e.To, p)
		if e.Exact != "" {
			title += " (" + e.Exact + ")"
		}
		if e.Label != "" {
			p = e.Label
			title = fmt.Sprintf("%s → %s: %s calls per invocation", g.Nodes[e.From].Text, g.Nodes[e.To].Text, num(e.P))
		}
		fmt.Fprintf(&b, `<g class="%s" data-from="%d" data-to="%d" data-p="%s"><title>%s</title><path d="%s" marker-end="url(#arrow)"/><text x="%s" y="%s" class="p">%s</text></g>`,
			class, e.From, e.To, num(e.P), esc(title), d, f1(lab.x+4), f1(lab.y+4), esc(p))
	}
	b.WriteString(`</g><g class="nodes">`)
	for _, nd := range g.Nodes {
		c := l.pos[nd.State]
		class := fmt.Sprintf("node %s heat-%d", nd.Kind, nd.Level)
		if nd.LoopHead {
			class += " loop-head"
		}
		fmt.Fprintf(&b, `<g class="%s" id="state-%d" data-state="%d" data-line="%d" data-visits="%s">`, class, nd.State, nd.State, nd.Line, num(nd.Visits))
		title := fmt.Sprintf("state %d", nd.State)
		if nd.Line > 0 {
			title += fmt.Sprintf(", line %d", nd.Line)
		}
		title += ": " + nd.Text + "\nexpected visits per call: " + num(nd.Visits)
		if nd.Title != "" {
			title = nd.Title
		}
		fmt.Fprintf(&b, `<title>%s</title>`, esc(title))
		if nd.Line > 0 && nd.Kind != "end" && nd.Kind != "panic" {
			// A click on a statement shows its line in the heat map.
			fmt.Fprintf(&b, `<a href="#L%d">`, nd.Line)
		}
		x0, y0 := c.x-nodeW/2, c.y-nodeH/2
		switch nd.Kind {
		case "decision":
			const s = 14.0
			fmt.Fprintf(&b, `<polygon points="%s,%s %s,%s %s,%s %s,%s %s,%s %s,%s"/>`,
				f1(x0), f1(c.y), f1(x0+s), f1(y0), f1(x0+nodeW-s), f1(y0), f1(x0+nodeW), f1(c.y), f1(x0+nodeW-s), f1(y0+nodeH), f1(x0+s), f1(y0+nodeH))
		case "end", "panic":
			fmt.Fprintf(&b, `<ellipse cx="%s" cy="%s" rx="%s" ry="%s"/>`, f1(c.x), f1(c.y), f1(nodeW/3), f1(nodeH/2))
		default:
			fmt.Fprintf(&b, `<rect x="%s" y="%s" width="%s" height="%s" rx="6"/>`, f1(x0), f1(y0), f1(nodeW), f1(nodeH))
		}
		label := nd.Text
		if nd.Line > 0 {
			label = fmt.Sprintf("%d: %s", nd.Line, nd.Text)
		}
		fmt.Fprintf(&b, `<text x="%s" y="%s">%s</text>`, f1(c.x), f1(c.y+4), esc(truncate(label, labelRunes)))
		if nd.Line > 0 && nd.Kind != "end" && nd.Kind != "panic" {
			b.WriteString(`</a>`)
		}
		b.WriteString(`</g>`)
	}
	b.WriteString(`</g></svg>`)
	return b.String()
}

func truncate(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// prob prints a probability as people read it: 0.9, 0.0991, 1.
func prob(p float64) string { return fmtG(p, 3) }
