package decisions

import (
	"encoding/json"
	"io"

	"github.com/augur-perf/augur/source/frontend"
)

// WriteJSON writes fn's decisions as `augur cfg --json` does: each with its position, kind and
// text, and each outcome with its target node and, when counted, its count and probability.
func WriteJSON(w io.Writer, fn *frontend.Func, ds []Decision) error {
	type outcome struct {
		Name        string   `json:"outcome"`
		To          int      `json:"to"`
		Count       *uint64  `json:"count,omitempty"`
		Probability *float64 `json:"probability,omitempty"`
	}
	type decision struct {
		Node     int       `json:"node"`
		Pos      string    `json:"pos"`
		Kind     string    `json:"kind"`
		Text     string    `json:"text"`
		Count    *uint64   `json:"count,omitempty"`
		Outcomes []outcome `json:"outcomes"`
	}
	out := struct {
		Func      string     `json:"function"`
		Nodes     int        `json:"nodes"`
		Decisions []decision `json:"decisions"`
	}{Func: fn.Name, Nodes: len(fn.CFG.Nodes), Decisions: []decision{}}
	for _, d := range ds {
		jd := decision{Node: d.Node, Pos: d.Pos.String(), Kind: d.Kind, Text: d.Text}
		if d.Counted {
			jd.Count = &d.Count
		}
		for _, o := range d.Outcomes {
			jo := outcome{Name: o.Name, To: o.To}
			if d.Counted {
				jo.Count = &o.Count
			}
			if pr, ok := d.Probability(o); ok {
				jo.Probability = &pr
			}
			jd.Outcomes = append(jd.Outcomes, jo)
		}
		out.Decisions = append(out.Decisions, jd)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}
