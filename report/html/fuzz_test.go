package html

import (
	"bytes"
	"math"
	"regexp"
	"testing"

	"github.com/augur-perf/augur/analyze/calls"
)

// badCoordinate finds a geometry attribute that is not a number a browser can draw.
var badCoordinate = regexp.MustCompile(`\b(x|y|x1|y1|x2|y2|cx|cy|rx|ry|width|height|d|points)="[^"]*(NaN|Inf)`)

// FuzzWrite renders reports of arbitrary values and graphs: whatever the numbers (NaN, ±Inf,
// ±1e308, negative probabilities) and whatever the edges (cycles, self-loops, unreachable
// states), rendering ends, does not panic and draws no NaN or Inf coordinate.
func FuzzWrite(f *testing.F) {
	f.Add(22.5, 16.2, 21.0, 24.1, 0.9, 2.5, "baseline", []byte{0, 1, 1, 2, 2, 1, 2, 3})
	f.Add(math.NaN(), math.Inf(1), math.Inf(-1), -1e308, -0.5, 1e308, "<b>x</b>", []byte{3, 3, 0, 0})
	f.Add(0.0, 0.0, 0.0, 0.0, 0.0, 0.0, "", []byte{})
	f.Fuzz(func(t *testing.T, a, b, lo, hi, p, v float64, name string, edges []byte) {
		const n = 8
		g := &Graph{States: n, Init: []int{0}}
		for s := range n {
			g.Nodes = append(g.Nodes, Node{State: s, Kind: []string{"entry", "statement", "decision", "end", "panic"}[s%5], Text: name, Line: s})
		}
		for i := 0; i+1 < len(edges) && i < 64; i += 2 {
			g.Edges = append(g.Edges, Edge{From: int(edges[i]) % n, To: int(edges[i+1]) % n, P: p})
		}
		g.Transitions = len(g.Edges)
		fn := &Function{Name: name, Graph: g, Scenarios: []string{name, "b"},
			Heat: []HeatMap{{Reward: name, Lines: []Line{{Number: 1, Text: name, Statements: true, Executions: a, Reward: b, Share: p, Level: 9}}}},
			Properties: []Property{{Name: name, Cells: []Cell{
				{OK: true, Value: a, Bars: []ErrorBar{{Kind: "bayesian", Lo: lo, Hi: hi}, {Kind: "stderr", Lo: a - v, Hi: a + v}}},
				{OK: true, Value: b}}}},
			Distributions: []Distribution{{Reward: name, Values: []float64{a, b, lo, hi, v}, Probs: []float64{p, 1 - p, p, p, 1}, Truncated: p,
				Percentiles: []Percentile{{"p50", a}, {"p90", v}}}},
		}
		for _, r := range []*Report{{Title: name, Function: fn},
			BuildRanking(name, name, name, []calls.Row{{Func: name, Inclusive: a, Exclusive: b}, {Func: "f", Inclusive: v, Exclusive: lo}}, []string{name})} {
			var out bytes.Buffer
			if err := Write(&out, r); err != nil {
				t.Fatal(err)
			}
			if m := badCoordinate.Find(out.Bytes()); m != nil {
				i := bytes.Index(out.Bytes(), m)
				t.Fatalf("drawn at %s", out.Bytes()[max(0, i-300):i+40])
			}
		}
	})
}
