package html

import (
	"fmt"
	"sort"
	"strings"
)

// The graph is drawn top to bottom, as code reads: a layered (Sugiyama-style) layout, kept
// simple because models of functions are mostly chains with diamonds and loops. Back edges (the
// loops) are found by a depth-first search from the initial states and drawn as curves on the
// right, so that the forward edges form a DAG; each state's layer is its longest forward path
// from an initial state; within a layer states are ordered by the mean position of their
// predecessors (one sweep, ties by state number). Everything is deterministic.
const (
	nodeW, nodeH = 200.0, 34.0
	gapX, gapY   = 36.0, 58.0
	margin       = 24.0
	gutter       = 60.0
	labelRunes   = 27
)

type point struct{ x, y float64 }

type layout struct {
	pos    []point
	back   []bool // per edge
	layers int
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
	l := layout{pos: make([]point, n), back: make([]bool, len(g.Edges))}
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
	for _, v := range layer {
		l.layers = max(l.layers, v+1)
	}
	// The exits sit at the bottom, the panic exit too when no recorded panic leads to it.
	for s, nd := range g.Nodes {
		if nd.Kind == "end" || nd.Kind == "panic" {
			layer[s] = l.layers - 1
		}
	}
	byLayer := make([][]int, l.layers)
	for s := range n {
		byLayer[layer[s]] = append(byLayer[layer[s]], s)
	}
	preds := make([][]int, n)
	for k, e := range g.Edges {
		if e.From != e.To && !l.back[k] {
			preds[e.To] = append(preds[e.To], e.From)
		}
	}
	widest := 0
	for _, states := range byLayer {
		widest = max(widest, len(states))
	}
	// Room on the left for long forward edges, on the right for loops.
	l.width = 2*margin + gutter + float64(widest)*nodeW + float64(widest-1)*gapX + 140
	centre := margin + gutter + (float64(widest)*nodeW+float64(widest-1)*gapX)/2
	for i, states := range byLayer {
		bary := map[int]float64{}
		for _, s := range states {
			if len(preds[s]) == 0 {
				bary[s] = centre
				continue
			}
			var sum float64
			for _, p := range preds[s] {
				sum += l.pos[p].x
			}
			bary[s] = sum / float64(len(preds[s]))
		}
		sort.SliceStable(states, func(a, b int) bool {
			if bary[states[a]] != bary[states[b]] {
				return bary[states[a]] < bary[states[b]]
			}
			return states[a] < states[b]
		})
		for j, s := range states {
			off := (float64(j) - float64(len(states)-1)/2) * (nodeW + gapX)
			l.pos[s] = point{centre + off, margin + nodeH/2 + float64(i)*(nodeH+gapY)}
		}
	}
	l.height = 2*margin + float64(l.layers)*nodeH + float64(max(l.layers-1, 0))*gapY
	return l
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
			class += " back"
			span := (from.y - to.y) / (nodeH + gapY)
			off := 46 + 18*span
			x1, x2 := from.x+nodeW/2, to.x+nodeW/2
			cx := max(x1, x2) + off
			d = fmt.Sprintf("M%s,%s C%s,%s %s,%s %s,%s", f1(x1), f1(from.y), f1(cx), f1(from.y), f1(cx), f1(to.y), f1(x2), f1(to.y))
			lab = point{(x1 + 3*cx + 3*cx + x2) / 8, (from.y + to.y) / 2}
		default:
			y1, y2 := from.y+nodeH/2, to.y-nodeH/2
			span := (to.y - from.y) / (nodeH + gapY)
			if span <= 1.01 {
				d = fmt.Sprintf("M%s,%s L%s,%s", f1(from.x), f1(y1), f1(to.x), f1(y2))
				lab = point{(from.x + to.x) / 2, (y1 + y2) / 2}
			} else {
				// A long edge bends left around the states between.
				off := nodeW/2 + 16 + 10*span
				cx := min(from.x, to.x) - off
				d = fmt.Sprintf("M%s,%s C%s,%s %s,%s %s,%s", f1(from.x-nodeW/2), f1(from.y), f1(cx), f1(from.y), f1(cx), f1(to.y), f1(to.x-nodeW/2), f1(to.y))
				lab = point{(from.x - nodeW/2 + 6*cx + to.x - nodeW/2) / 8, (from.y + to.y) / 2}
			}
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
