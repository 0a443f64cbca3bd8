package text

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/augur-perf/augur/analyze/predict"
	"github.com/augur-perf/augur/source/frontend"
)

// Ranking prints the functions of packages ranked by a reward as `augur analyze PKGS` does:
// calls, exclusive and inclusive reward per call, the top 20 unless all, and the call sites
// not composed; funcs is how many functions were analysed, profile where the counts came from.
func Ranking(w io.Writer, packages, profile string, funcs int, r *predict.Ranking, all bool) {
	fmt.Fprintf(w, "Packages: %s (%d functions, %d invoked)\nProfile:  %s\nReward:   %s per call, exclusive (own statements) and inclusive (callees composed)\n\n",
		packages, funcs, len(r.Invoked), profile, r.Reward)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "function\tcalls\texclusive\tinclusive")
	shown := r.Invoked
	if !all && len(shown) > 20 {
		shown = shown[:20]
	}
	for _, row := range shown {
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\n", row.Func, row.Invocations, Num(row.Exclusive), Num(row.Inclusive))
	}
	tw.Flush()
	if len(shown) < len(r.Invoked) {
		fmt.Fprintf(w, "(%d more; --all lists them)\n", len(r.Invoked)-len(shown))
	}
	if n := len(r.Graph.Dynamic); n > 0 {
		what := fmt.Sprintf("%d call sites through interfaces or function values are", n)
		if n == 1 {
			what = "1 call site through an interface or a function value is"
		}
		fmt.Fprintf(w, "\n%s not composed (the callee is not known statically): %s\n", what, frontend.RelPosition(r.Graph.Dynamic[0].String()))
	}
}

// RankingJSON writes the ranking as `augur analyze PKGS --json` does.
func RankingJSON(w io.Writer, profile string, r *predict.Ranking) error {
	return JSON(w, struct {
		Reward  string   `json:"reward"`
		Profile string   `json:"profile"`
		Funcs   any      `json:"functions"`
		Dynamic []string `json:"dynamic_call_sites,omitempty"`
	}{r.Reward, profile, r.Invoked, DynamicSites(r)})
}

// DynamicSites are the positions of the call sites the ranking could not compose, relative to
// the working directory.
func DynamicSites(r *predict.Ranking) []string {
	var out []string
	for _, p := range r.Graph.Dynamic {
		out = append(out, frontend.RelPosition(p.String()))
	}
	return out
}
