package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/augur-perf/augur/markov/checker"
	"github.com/augur-perf/augur/markov/dtmc"
	"github.com/augur-perf/augur/markov/modelio"
	"github.com/augur-perf/augur/markov/pctl"
)

func init() {
	register(&command{
		name:    "check",
		summary: "check PCTL properties of a Markov chain (augur JSON, PRISM or Storm explicit files)",
		usage:   "MODEL [--prop 'PROPERTY']... [--props FILE] [options]",
		help: `Checks PCTL properties of a discrete-time Markov chain with PRISM's semantics.

MODEL is augur's JSON model (model.json), PRISM's -exportmodel files (give the .tra; the .lab,
.srew and .trew files beside it are found by name), or Storm's explicit files (a .tra beginning
with "dtmc"; the .lab and .rew/.srew/.trew beside it).

Properties use PRISM's syntax: P=? [ F "end" ], P>=0.9 [ "a" U<=10 "b" ], R{"time"}=? [ F "end" ],
R=? [ C<=100 ], R=? [ I=5 ], R=? [ C ], S=? [ "up" ], with true, false, "label", s=3, !, &, |,
=>, <=> and nesting. Without --prop or --props, every reward structure is checked with
R{"name"}=? [ F "end" ] when the model has an "end" label.

Methods (--method):
  direct        (default) SCC decomposition; each component solved by sparse Gaussian
                elimination with additive pivots (exact to rounding), dense LU when elimination
                fills in, Gauss-Seidel only for components too large for both
  gauss-seidel  iterate each component until the relative change is below --epsilon (1e-12);
                reports the last relative change — not an error bound
  interval      sound lower and upper bounds on the exact value (each component's solution
                verified, rounding outward), to relative --epsilon (1e-6)

A method that stops without meeting its criterion prints NOT CONVERGED with what it has and
exits with status 1.
  prism         PRISM's default: Jacobi from 0, relative change below 1e-6, at most 10000
                iterations — to reproduce published PRISM numbers
  exact         rational arithmetic (small models); prints the fraction

Examples:
  augur check examples/die/die.json --prop 'P=? [ F "six" ]' --method exact
  augur check out.tra --prop 'R{"time"}=? [ F "end" ]' --all-states
  augur check model.json --props model.props --json`,
		run: runCheck,
	})
}

func runCheck(args []string, stdout, stderr io.Writer) error {
	c := commandNamed("check")
	fs := c.flags(stderr)
	var props multi
	fs.Var(&props, "prop", "a property to check (repeatable)")
	propsFile := fs.String("props", "", "a properties file: one property per line, `//` comments, optional \"name\": prefix")
	method := fs.String("method", "direct", "solution method: direct, gauss-seidel, interval, prism or exact")
	eps := fs.Float64("epsilon", 0, "convergence threshold for iterative methods (0: the method's default)")
	maxIter := fs.Int("max-iter", 0, "iteration limit for iterative methods (0: the method's default)")
	allStates := fs.Bool("all-states", false, "print the value of every state, not only the initial distribution's")
	asJSON := fs.Bool("json", false, "print results as JSON")
	pos, err := parse(fs, args, stdout)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		fmt.Fprintf(stderr, "augur check: expected one MODEL argument, got %d\n", len(pos))
		fs.Usage()
		return errUsage
	}
	meth, err := checker.ParseMethod(*method)
	if err != nil {
		return err
	}
	m, err := modelio.Load(pos[0])
	if err != nil {
		return err
	}
	var list []pctl.Property
	for _, p := range props {
		f, err := pctl.Parse(p)
		if err != nil {
			return fmt.Errorf("--prop %q: %v", p, err)
		}
		list = append(list, pctl.Property{Formula: f, Text: p})
	}
	if *propsFile != "" {
		src, err := os.ReadFile(*propsFile)
		if err != nil {
			return err
		}
		fromFile, err := pctl.ParseFile(string(src))
		if err != nil {
			return fmt.Errorf("%s: %v", *propsFile, err)
		}
		list = append(list, fromFile...)
	}
	if len(list) == 0 {
		if list, err = defaultProperties(m); err != nil {
			return err
		}
	}
	opt := checker.Options{Method: meth, Epsilon: *eps, MaxIter: *maxIter}
	var results []*checker.Result
	var took []time.Duration
	for _, p := range list {
		start := time.Now()
		r, err := checker.Check(m, p.Formula, opt)
		if err != nil {
			return fmt.Errorf("%s: %v", p.Text, err)
		}
		results = append(results, r)
		took = append(took, time.Since(start))
	}
	if *asJSON {
		if err := writeCheckJSON(stdout, pos[0], m, list, results, *allStates); err != nil {
			return err
		}
		return notConverged(list, results)
	}
	fmt.Fprintf(stdout, "Model: %s (%d states, %d transitions, %d initial)\n", pos[0], m.N, m.NumTransitions(), len(m.Init))
	for i, r := range results {
		fmt.Fprintf(stdout, "\nProperty: %s\n", list[i].Text)
		fmt.Fprintf(stdout, "Result: %s\n", describeResult(r))
		fmt.Fprintf(stdout, "Method: %s (%s)\n", describeStats(r.Stats), took[i].Round(time.Microsecond))
		for _, n := range r.Stats.Notes {
			fmt.Fprintf(stdout, "Note: %s\n", n)
		}
		if *allStates {
			for s := 0; s < m.N; s++ {
				fmt.Fprintf(stdout, "  %d: %s\n", s, stateValue(r, s))
			}
		}
	}
	return notConverged(list, results)
}

// notConverged fails the command (exit 1) when a method stopped without meeting its criterion,
// after every result, bounds included, has been printed.
func notConverged(list []pctl.Property, results []*checker.Result) error {
	var bad []string
	for i, r := range results {
		if !r.Stats.Converged {
			bad = append(bad, list[i].Text)
		}
	}
	if len(bad) > 0 {
		return fmt.Errorf("NOT CONVERGED: %s", strings.Join(bad, "; "))
	}
	return nil
}

func commandNamed(name string) *command {
	for _, c := range commands {
		if c.name == name {
			return c
		}
	}
	panic("no command " + name)
}

// defaultProperties asks for every reward structure's expected total until "end".
func defaultProperties(m *dtmc.Model) ([]pctl.Property, error) {
	if _, ok := m.Labels["end"]; !ok || len(m.Rewards) == 0 {
		return nil, fmt.Errorf("no properties given (use --prop or --props); the model has no \"end\" label and reward structure to check by default")
	}
	var list []pctl.Property
	for _, r := range m.Rewards {
		text := fmt.Sprintf("R{%q}=? [ F \"end\" ]", r.Name)
		f, err := pctl.Parse(text)
		if err != nil {
			return nil, err
		}
		list = append(list, pctl.Property{Formula: f, Text: text})
	}
	return list, nil
}

func formatFloat(v float64) string {
	if math.IsInf(v, 1) {
		return "Infinity"
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

func describeResult(r *checker.Result) string {
	if r.Bool {
		if r.Holds {
			return "true (in every initial state)"
		}
		return "false (not in every initial state)"
	}
	var b strings.Builder
	if !r.Stats.Converged {
		// The method stopped without meeting its criterion: the value is not claimed.
		b.WriteString("NOT CONVERGED, last iterate ")
	}
	b.WriteString(formatFloat(r.Initial))
	switch {
	case r.InitialExact != nil:
		fmt.Fprintf(&b, " (exact: %s)", r.InitialExact.RatString())
	case r.Lo != nil:
		fmt.Fprintf(&b, " (sound bounds: [%s, %s])", formatFloat(r.InitialLo), formatFloat(r.InitialHi))
	}
	if r.Infinite > 0 {
		fmt.Fprintf(&b, "; infinite in %d states (they reach the target with probability < 1, or earn reward forever)", r.Infinite)
	}
	return b.String()
}

func describeStats(st checker.Stats) string {
	parts := []string{st.Method}
	if st.SCCs > 0 {
		parts = append(parts, fmt.Sprintf("%d unknown states in %d components: %d by elimination, %d dense LU, %d iterative", st.Unknowns, st.SCCs, st.DirectSCCs, st.DenseSCCs, st.IterSCCs))
	} else if st.Unknowns > 0 {
		parts = append(parts, fmt.Sprintf("%d unknown states", st.Unknowns))
	}
	if st.Iterations > 0 {
		parts = append(parts, fmt.Sprintf("%d iterations", st.Iterations))
	}
	if st.ErrEstimate > 0 {
		parts = append(parts, fmt.Sprintf("relative error at most %.2g (from the bounds)", st.ErrEstimate))
	}
	if st.LastChange > 0 {
		parts = append(parts, fmt.Sprintf("last relative change between iterations %.2g (not an error bound)", st.LastChange))
	}
	if !st.Converged {
		parts = append(parts, "NOT CONVERGED")
	}
	return strings.Join(parts, ", ")
}

func stateValue(r *checker.Result, s int) string {
	switch {
	case r.Bool:
		return strconv.FormatBool(r.Sat[s])
	case r.Exact != nil && r.Exact[s] != nil:
		return formatFloat(r.Values[s]) + " (" + r.Exact[s].RatString() + ")"
	case r.Lo != nil:
		return fmt.Sprintf("%s [%s, %s]", formatFloat(r.Values[s]), formatFloat(r.Lo[s]), formatFloat(r.Hi[s]))
	}
	return formatFloat(r.Values[s])
}

// jsonNumber writes +Inf as the string "Infinity", which JSON has no number for.
type jsonNumber float64

func (n jsonNumber) MarshalJSON() ([]byte, error) {
	if math.IsInf(float64(n), 0) || math.IsNaN(float64(n)) {
		return json.Marshal(formatFloat(float64(n)))
	}
	return []byte(strconv.FormatFloat(float64(n), 'g', -1, 64)), nil
}

func jsonNumbers(v []float64) []jsonNumber {
	if v == nil {
		return nil
	}
	out := make([]jsonNumber, len(v))
	for i, x := range v {
		out[i] = jsonNumber(x)
	}
	return out
}

func writeCheckJSON(w io.Writer, path string, m *dtmc.Model, list []pctl.Property, results []*checker.Result, all bool) error {
	type jsonResult struct {
		Property string        `json:"property"`
		Name     string        `json:"name,omitempty"`
		Value    *jsonNumber   `json:"value,omitempty"`
		Exact    string        `json:"exact,omitempty"`
		Lower    *jsonNumber   `json:"lower,omitempty"`
		Upper    *jsonNumber   `json:"upper,omitempty"`
		Holds    *bool         `json:"holds,omitempty"`
		Infinite int           `json:"infinite_states"`
		States   []jsonNumber  `json:"states,omitempty"`
		Sat      []bool        `json:"satisfied,omitempty"`
		Stats    checker.Stats `json:"stats"`
		ErrEst   jsonNumber    `json:"error_estimate"`
	}
	out := struct {
		Model       string       `json:"model"`
		States      int          `json:"states"`
		Transitions int          `json:"transitions"`
		Results     []jsonResult `json:"results"`
	}{Model: path, States: m.N, Transitions: m.NumTransitions()}
	for i, r := range results {
		jr := jsonResult{Property: list[i].Text, Name: list[i].Name, Infinite: r.Infinite, Stats: r.Stats, ErrEst: jsonNumber(r.Stats.ErrEstimate)}
		if r.Bool {
			jr.Holds = &r.Holds
			if all {
				jr.Sat = r.Sat
			}
		} else {
			v := jsonNumber(r.Initial)
			jr.Value = &v
			if r.InitialExact != nil {
				jr.Exact = r.InitialExact.RatString()
			}
			if r.Lo != nil {
				lo, hi := jsonNumber(r.InitialLo), jsonNumber(r.InitialHi)
				jr.Lower, jr.Upper = &lo, &hi
			}
			if all {
				jr.States = jsonNumbers(r.Values)
			}
		}
		out.Results = append(out.Results, jr)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}
