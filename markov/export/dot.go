package export

import (
	"fmt"
	"strings"

	"github.com/augur-perf/augur/markov/dtmc"
)

// DOT renders m as a Graphviz digraph: a node per state labelled with its number, its labels,
// its source line and its non-zero state rewards; an edge per transition labelled with its
// action, its probability (exact where known) and its non-zero transition rewards; and a point
// with an arrow into each initial state (marked with its probability when there are several).
// The text depends only on the model.
func DOT(m *dtmc.Model) string {
	var b strings.Builder
	b.WriteString("digraph dtmc {\n  rankdir=LR;\n  node [shape=circle];\n")
	b.WriteString("  init [shape=point, label=\"\"];\n")
	for _, e := range m.Init {
		if len(m.Init) == 1 {
			fmt.Fprintf(&b, "  init -> %d;\n", e.State)
		} else {
			fmt.Fprintf(&b, "  init -> %d [label=%s];\n", e.State, dotString([]string{formatFloat(e.P)}))
		}
	}
	labelsOf := make([][]string, m.N)
	for _, name := range m.LabelNames() {
		for _, s := range m.Labels[name] {
			labelsOf[s] = append(labelsOf[s], name)
		}
	}
	for s := 0; s < m.N; s++ {
		lines := []string{fmt.Sprint(s)}
		if len(labelsOf[s]) > 0 {
			lines = append(lines, "{"+strings.Join(labelsOf[s], ", ")+"}")
		}
		if m.Line != nil && m.Line[s] != 0 {
			lines = append(lines, fmt.Sprintf("line %d", m.Line[s]))
		}
		for _, r := range m.Rewards {
			if r.State != nil && r.State[s] != 0 {
				lines = append(lines, r.Name+"="+formatFloat(r.State[s]))
			}
		}
		fmt.Fprintf(&b, "  %d [label=%s];\n", s, dotString(lines))
	}
	for s := 0; s < m.N; s++ {
		for k := m.RowPtr[s]; k < m.RowPtr[s+1]; k++ {
			p := formatFloat(m.Prob[k])
			if m.Exact != nil && m.Exact[k] != nil {
				p = formatRat(m.Exact[k])
			}
			if m.Action != nil && m.Action[k] != "" {
				p = "[" + m.Action[k] + "] " + p
			}
			lines := []string{p}
			for _, r := range m.Rewards {
				if r.Trans != nil && r.Trans[k] != 0 {
					lines = append(lines, r.Name+"="+formatFloat(r.Trans[k]))
				}
			}
			fmt.Fprintf(&b, "  %d -> %d [label=%s];\n", s, m.Col[k], dotString(lines))
		}
	}
	b.WriteString("}\n")
	return b.String()
}

// dotString quotes lines as one DOT string, one line each (centred, as Graphviz does for \n).
func dotString(lines []string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`, "\r", "")
	esc := make([]string, len(lines))
	for i, l := range lines {
		esc[i] = r.Replace(l)
	}
	return `"` + strings.Join(esc, `\n`) + `"`
}
