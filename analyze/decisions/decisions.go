// Package decisions shows what a function's model is made of: its decisions (the statements
// where control branches) with their source positions and, given a measured or stated profile,
// how often each outcome was taken; and the whole statement-level control-flow graph as DOT.
//
// It owns presentation of the frontend's graph and a profile's counts only. It must not build
// models (analyze/synth does) nor measure anything (probe/ does); it imports source and probe.
package decisions

import (
	"fmt"
	"go/token"
	"io"
	"strconv"
	"strings"

	"github.com/augur-perf/augur/probe/profile"
	"github.com/augur-perf/augur/source/frontend"
)

// Decision is one node of the graph with more than one successor.
type Decision struct {
	Node int
	// Pos is where the usage-profile format (augur-usage/1) places the decision: the condition
	// of an if or for, the keyword of a range or select, the tag of a switch.
	Pos  token.Position
	Kind string
	Text string
	// Count is how often the decision was reached; Counted is set when a profile gave counts.
	Count    uint64
	Counted  bool
	Outcomes []Outcome
}

// Outcome is one successor of a decision.
type Outcome struct {
	Name string
	To   int
	// Count is how often the outcome was taken (when the decision is Counted).
	Count uint64
}

// List returns fn's reachable decisions in node order. counts may be nil (no profile); when it
// is given it must belong to fn (as profile.Profile.Funcs[fn.Name] does).
func List(fn *frontend.Func, counts *profile.Func) ([]Decision, error) {
	g := fn.CFG
	if counts != nil && len(counts.Nodes) != len(g.Nodes) {
		return nil, fmt.Errorf("%s: the profile has %d nodes, the function's graph %d: was it measured on other source?", fn.Name, len(counts.Nodes), len(g.Nodes))
	}
	var ds []Decision
	for _, n := range g.Nodes {
		if !n.IsDecision() || n.Unreachable {
			continue
		}
		d := Decision{Node: n.ID, Pos: n.Pos, Kind: n.Kind.String(), Text: n.Text}
		for _, e := range n.Succs {
			d.Outcomes = append(d.Outcomes, Outcome{Name: e.Outcome, To: e.To})
		}
		if counts != nil {
			c := counts.Nodes[n.ID]
			d.Count, d.Counted = c.Count, true
			for i := range d.Outcomes {
				if i < len(c.Outcomes) {
					d.Outcomes[i].Count = c.Outcomes[i]
				}
			}
		}
		ds = append(ds, d)
	}
	return ds, nil
}

// Probability is the measured probability of outcome o of d, and false when d was never reached
// (or not counted).
func (d Decision) Probability(o Outcome) (float64, bool) {
	var sum uint64
	for _, x := range d.Outcomes {
		sum += x.Count
	}
	if !d.Counted || sum == 0 {
		return 0, false
	}
	return float64(o.Count) / float64(sum), true
}

// Counts are fn's counts in the profile p, for List and WriteDOT: nil without a profile, an
// error when p holds none for fn.
func Counts(fn *frontend.Func, p *profile.Profile) (*profile.Func, error) {
	if p == nil {
		return nil, nil
	}
	if c := p.Funcs[fn.Name]; c != nil {
		return c, nil
	}
	return nil, fmt.Errorf("the profile has no counts for %s", fn.Name)
}

// WriteText writes decisions as a table: position, kind, source, and each outcome with its
// count and share when counted. Positions are shown relative to base (a directory) when they lie
// under it.
func WriteText(w io.Writer, ds []Decision, base string) error {
	var b strings.Builder
	if len(ds) == 0 {
		b.WriteString("no decisions: every path through the function is straight-line\n")
	}
	for _, d := range ds {
		fmt.Fprintf(&b, "%s  %s  %s", relPos(d.Pos, base), d.Kind, d.Text)
		if d.Counted {
			fmt.Fprintf(&b, "  (reached %d times)", d.Count)
		}
		b.WriteByte('\n')
		for _, o := range d.Outcomes {
			fmt.Fprintf(&b, "    %-12s -> node %d", o.Name, o.To)
			if p, ok := d.Probability(o); ok {
				fmt.Fprintf(&b, "  %d  (%.4g%%)", o.Count, 100*p)
			} else if d.Counted {
				fmt.Fprintf(&b, "  %d", o.Count)
			}
			b.WriteByte('\n')
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteDOT writes fn's whole graph in Graphviz's DOT language: one box per statement (line and
// source), diamonds for decisions, the exits as double circles, edges labelled with their outcome
// and, when counts are given, the number of times they were taken and their probability.
func WriteDOT(w io.Writer, fn *frontend.Func, counts *profile.Func) error {
	g := fn.CFG
	if counts != nil && len(counts.Nodes) != len(g.Nodes) {
		return fmt.Errorf("%s: the profile has %d nodes, the function's graph %d: was it measured on other source?", fn.Name, len(counts.Nodes), len(g.Nodes))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "digraph %s {\n", strconv.Quote(fn.Name))
	b.WriteString("  node [fontname=\"monospace\"];\n")
	for _, n := range g.Nodes {
		if n.Unreachable {
			continue
		}
		shape := "box"
		switch {
		case n.IsExit():
			shape = "doublecircle"
		case n.IsDecision():
			shape = "diamond"
		}
		label := n.Text
		if n.IsExit() {
			label = n.Kind.String()
		} else if n.Pos.IsValid() {
			label = fmt.Sprintf("%d: %s", n.Pos.Line, n.Text)
		}
		if counts != nil {
			label += fmt.Sprintf("\n×%d", counts.Nodes[n.ID].Count)
		}
		fmt.Fprintf(&b, "  n%d [shape=%s, label=%s];\n", n.ID, shape, strconv.Quote(label))
	}
	for _, n := range g.Nodes {
		if n.Unreachable {
			continue
		}
		var total uint64
		if counts != nil {
			for _, c := range counts.Nodes[n.ID].Outcomes {
				total += c
			}
		}
		for i, e := range n.Succs {
			var label []string
			if e.Outcome != "" {
				label = append(label, e.Outcome)
			}
			if counts != nil && n.IsDecision() && i < len(counts.Nodes[n.ID].Outcomes) {
				c := counts.Nodes[n.ID].Outcomes[i]
				s := strconv.FormatUint(c, 10)
				if total > 0 {
					s += fmt.Sprintf(" (%.4g)", float64(c)/float64(total))
				}
				label = append(label, s)
			}
			attrs := ""
			if len(label) > 0 {
				attrs = fmt.Sprintf(" [label=%s]", strconv.Quote(strings.Join(label, "\n")))
			}
			if e.Back {
				attrs = strings.TrimSuffix(attrs, "]")
				if attrs == "" {
					attrs = " [style=dashed]"
				} else {
					attrs += ", style=dashed]"
				}
			}
			fmt.Fprintf(&b, "  n%d -> n%d%s;\n", n.ID, e.To, attrs)
		}
	}
	b.WriteString("}\n")
	_, err := io.WriteString(w, b.String())
	return err
}

func relPos(p token.Position, base string) string {
	if base != "" && strings.HasPrefix(p.Filename, base+"/") {
		p.Filename = p.Filename[len(base)+1:]
	}
	return p.String()
}
