package text

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/augur-perf/augur/analyze/fitted"
)

// Fitted prints the expected rewards of a model whose loops follow fitted laws, over the
// inputs (described as given), as `augur analyze --fit` does: the laws, branches and switches used, the
// profile for the other decisions, and each reward's expectation; measured, when not nil, adds
// the profile's own prediction of each reward beside it.
func Fitted(w io.Writer, function, inputs, profile string, m *fitted.Model, preds []fitted.Prediction, measured map[string]float64) {
	fmt.Fprintf(w, "Function: %s, inputs: %s\nLoops:    ", function, inputs)
	for i, l := range m.Loops {
		if i > 0 {
			fmt.Fprint(w, "; ")
		}
		fmt.Fprintf(w, "%s = %s", strings.TrimPrefix(l.Quantity, "loop@"), l.Law)
	}
	for _, b := range m.Branches {
		if b.Prob != nil {
			fmt.Fprintf(w, "\nBranch:   %s P(true) = %s", strings.TrimPrefix(b.Quantity, "branch@"), b.Prob)
		} else {
			fmt.Fprintf(w, "\nBranch:   %s true %s, false %s", strings.TrimPrefix(b.Quantity, "branch@"), b.True, b.False)
		}
	}
	for _, sw := range m.Switches {
		fmt.Fprintf(w, "\nSwitch:   %s", sw.Quantity)
		for k, o := range sw.Outcomes {
			fmt.Fprintf(w, " %s %s;", o, sw.Laws[k])
		}
	}
	fmt.Fprintf(w, "\nProfile:  %s (every other decision)\n", profile)
	if len(m.Unfitted) > 0 {
		fmt.Fprintf(w, "Loops without a law keep the profile's probabilities: %s\n", strings.Join(m.Unfitted, ", "))
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	head := "reward\texpected\tspread (sd)\thow"
	if measured != nil {
		head += "\tmeasured profile"
	}
	fmt.Fprintln(tw, head)
	extrapolated := 0.0
	for _, pr := range preds {
		how := "exact"
		if !pr.Exact {
			how = fmt.Sprintf("Monte Carlo, %d samples, ± %.3g (se)", pr.Samples, pr.SE)
		}
		line := fmt.Sprintf("%s\t%.6g\t%.4g\t%s", pr.Reward, pr.Mean, pr.SD, how)
		if measured != nil {
			line += fmt.Sprintf("\t%.6g", measured[pr.Reward])
		}
		fmt.Fprintln(tw, line)
		extrapolated = max(extrapolated, pr.OutOfRange)
	}
	tw.Flush()
	if extrapolated > 0 {
		fmt.Fprintf(w, "\nExtrapolated: %.3g%% of the inputs lie outside the range the laws were fitted on.\n", 100*extrapolated)
	}
}

// FittedJSON writes what Fitted prints as `augur analyze --fit --json` does.
func FittedJSON(w io.Writer, function, inputs string, m *fitted.Model, preds []fitted.Prediction, measured map[string]float64) error {
	type row struct {
		Reward     string   `json:"reward"`
		Mean       float64  `json:"mean"`
		SD         float64  `json:"sd"`
		SE         float64  `json:"se,omitempty"`
		Exact      bool     `json:"exact"`
		Samples    int      `json:"samples,omitempty"`
		OutOfRange float64  `json:"extrapolated_probability"`
		Measured   *float64 `json:"measured_profile,omitempty"`
	}
	var rows []row
	for _, pr := range preds {
		r := row{Reward: pr.Reward, Mean: pr.Mean, SD: pr.SD, SE: pr.SE, Exact: pr.Exact, Samples: pr.Samples, OutOfRange: pr.OutOfRange}
		if v, ok := measured[pr.Reward]; ok {
			r.Measured = &v
		}
		rows = append(rows, r)
	}
	var loops []map[string]string
	for _, l := range m.Loops {
		loops = append(loops, map[string]string{"quantity": l.Quantity, "law": l.Law.String()})
	}
	var branches []map[string]string
	for _, b := range m.Branches {
		if b.Prob != nil {
			branches = append(branches, map[string]string{"quantity": b.Quantity, "p": b.Prob.String()})
		} else {
			branches = append(branches, map[string]string{"quantity": b.Quantity, "true": b.True.String(), "false": b.False.String()})
		}
	}
	var switches []map[string]string
	for _, sw := range m.Switches {
		row := map[string]string{"quantity": sw.Quantity}
		for k, o := range sw.Outcomes {
			row[o] = sw.Laws[k].String()
		}
		switches = append(switches, row)
	}
	return JSON(w, map[string]any{"function": function, "inputs": inputs, "loops": loops, "branches": branches, "switches": switches, "unfitted_loops": m.Unfitted, "predictions": rows})
}
