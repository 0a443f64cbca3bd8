package text

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/augur-perf/augur/fit/board"
	"github.com/augur-perf/augur/fit/record"
)

// FitWarnings writes the warnings of each law (a law fitted on few distinct values, say), one
// a line, as augur fit prints them to stderr.
func FitWarnings(w io.Writer, res board.Result) {
	for _, l := range res.Laws {
		for _, warn := range l.Warnings {
			fmt.Fprintf(w, "augur fit: warning: %s: %s\n", l.Quantity, warn)
		}
	}
}

// Fit prints a function's laws as `augur fit` does: each quantity's law with its
// cross-validated error, the mean's and linear regression's for comparison, and the range it
// was fitted on (or why none was found).
func Fit(w io.Writer, res board.Result) {
	fmt.Fprintf(w, "Function: %s (%d invocations, parameters %s; %d rounds)\n\n", res.Function, res.Samples, strings.Join(res.Params, ", "), res.Rounds)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "quantity\tlaw\tcv error\tmean's\tlinear's\tfitted on")
	for _, l := range res.Laws {
		if l.Error != "" {
			fmt.Fprintf(tw, "%s\tnone: %s\t\t\t\t\n", l.Quantity, l.Error)
			continue
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", l.Quantity, l.Text, cvPct(l.CVError), cvPct(l.Baselines["mean"]), cvPct(l.Baselines["linear"]), ranges(l.Range))
	}
	tw.Flush()
}

// cvPct prints a cross-validated relative error to three significant digits.
func cvPct(x float64) string {
	if x < 1e-9 {
		return "0%"
	}
	return fmt.Sprintf("%.3g%%", 100*x)
}

func ranges(r map[string][2]float64) string {
	var ps []string
	for p, b := range r {
		ps = append(ps, fmt.Sprintf("%s in [%g, %g]", p, b[0], b[1]))
	}
	sort.Strings(ps)
	return strings.Join(ps, ", ")
}

// FitPredictions prints laws' expectations over inputs (described as given) as `augur fit
// predict` does, and returns the quantities whose inputs lie partly outside the fitted range
// (with how much of them), for a warning.
func FitPredictions(w io.Writer, function, inputs string, preds []board.Prediction) (extrapolated []string) {
	fmt.Fprintf(w, "Function: %s, inputs: %s\n\n", function, inputs)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "quantity\texpected\tspread (sd)\thow\tlaw")
	for _, p := range preds {
		how := "exact"
		if !p.Exact {
			how = fmt.Sprintf("Monte Carlo, %d samples, ±%.3g (95%%)", p.Samples, 1.96*p.SE)
		}
		fmt.Fprintf(tw, "%s\t%.6g\t%.4g\t%s\t%s\n", p.Quantity, p.Mean, p.SD, how, p.Law)
		if p.OutOfRange > 0 {
			extrapolated = append(extrapolated, fmt.Sprintf("%s (%.3g%% of the inputs)", p.Quantity, 100*p.OutOfRange))
		}
	}
	tw.Flush()
	return extrapolated
}

// FitRecorded prints what `augur fit record` recorded into the trace at path: how many
// invocations of which function, with its parameters and quantities.
func FitRecorded(w io.Writer, r *record.Recorded, path string) error {
	_, err := fmt.Fprintf(w, "recorded %d invocations of %s: parameters %s; quantities %s\nwrote %s\n", r.Invocations, r.Fn.Name,
		strings.Join(r.Plan.Header.Params, ", "), strings.Join(r.Plan.Header.Quantities, ", "), path)
	return err
}
