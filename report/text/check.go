package text

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/augur-perf/augur/markov/checker"
	"github.com/augur-perf/augur/markov/dtmc"
	"github.com/augur-perf/augur/markov/experiment"
)

// Check prints a model check as `augur check` does: the model, then each property with its
// constants, result, method and notes; with allStates (or a print filter) every state's value.
func Check(w io.Writer, c *experiment.Check, allStates bool) {
	m := c.Model
	fmt.Fprintf(w, "Model: %s (%d states, %d transitions, %d initial)\n", c.Path, m.N, m.NumTransitions(), len(m.Init))
	runs := c.Runs
	for i, run := range runs {
		if i == 0 || runs[i-1].Prop.Text != run.Prop.Text || runs[i-1].Prop.Line != run.Prop.Line {
			fmt.Fprintf(w, "\nProperty: %s\n", run.Prop.Text)
		}
		if len(run.Consts) > 0 {
			fmt.Fprintf(w, "Constants: %s\n", experiment.DescribeConsts(run.Consts))
		}
		if run.Err != nil {
			fmt.Fprintf(w, "Error: %v\n", run.Err)
			continue
		}
		if run.Model.N != m.N || run.Model.NumTransitions() != m.NumTransitions() || len(run.Model.Init) != len(m.Init) {
			fmt.Fprintf(w, "Model: %d states, %d transitions, %d initial\n", run.Model.N, run.Model.NumTransitions(), len(run.Model.Init))
		}
		m := run.Model
		r := run.Result
		fmt.Fprintf(w, "Result: %s\n", Result(r, m))
		fmt.Fprintf(w, "Method: %s (%s)\n", Stats(r.Stats), run.Took.Round(time.Microsecond))
		for _, n := range r.Stats.Notes {
			fmt.Fprintf(w, "Note: %s\n", n)
		}
		switch {
		case allStates:
			for s := 0; s < m.N; s++ {
				fmt.Fprintf(w, "  %d: %s\n", s, StateValue(r, s))
			}
		case r.Filter == "print" || r.Filter == "printall":
			for _, s := range r.States {
				fmt.Fprintf(w, "  %d: %s\n", s, StateValue(r, s))
			}
		}
	}
}

// Result describes a property's answer for the model's initial states (or its filter's).
func Result(r *checker.Result, m *dtmc.Model) string {
	switch r.Filter {
	case "":
	case "range":
		return fmt.Sprintf("[%s, %s] (range over the filter's states)", Float(r.Min), Float(r.Max))
	case "argmin", "argmax", "print", "printall":
		return fmt.Sprintf("%d states: %s", len(r.States), stateList(r.States))
	default:
		if filterTruth(r) {
			return strconv.FormatBool(r.Holds)
		}
		return Float(r.Value)
	}
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
	if len(m.Init) > 1 {
		fmt.Fprintf(&b, "[%s, %s] (range over the %d initial states; the initial distribution's expectation is %s)", Float(r.Min), Float(r.Max), len(m.Init), Float(r.Initial))
		return b.String()
	}
	b.WriteString(Float(r.Initial))
	switch {
	case r.InitialExact != nil:
		fmt.Fprintf(&b, " (exact: %s)", r.InitialExact.RatString())
	case r.Lo != nil:
		fmt.Fprintf(&b, " (sound bounds: [%s, %s])", Float(r.InitialLo), Float(r.InitialHi))
	}
	if r.Infinite > 0 {
		fmt.Fprintf(&b, "; infinite in %d states (they reach the target with probability < 1, or earn reward forever)", r.Infinite)
	}
	return b.String()
}

// filterTruth says whether a filter's answer is a truth value: forall and exists, and first or
// state of a state formula (count of one is a number).
func filterTruth(r *checker.Result) bool {
	switch r.Filter {
	case "forall", "exists":
		return true
	case "first", "state":
		return r.Bool
	}
	return false
}

// stateList shows up to 20 states.
func stateList(st []int) string {
	const max = 20
	parts := make([]string, 0, min(len(st), max)+1)
	for i, s := range st {
		if i == max {
			parts = append(parts, fmt.Sprintf("... (%d more)", len(st)-max))
			break
		}
		parts = append(parts, strconv.Itoa(s))
	}
	return strings.Join(parts, ", ")
}

// Stats describes how a result was computed: the method, the components and how each was
// solved, iterations and what is known of the error.
func Stats(st checker.Stats) string {
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

// StateValue is a result's value in state s, with its exact fraction or sound bounds when the
// method gave them.
func StateValue(r *checker.Result, s int) string {
	switch {
	case r.Bool:
		return strconv.FormatBool(r.Sat[s])
	case r.Exact != nil && r.Exact[s] != nil:
		return Float(r.Values[s]) + " (" + r.Exact[s].RatString() + ")"
	case r.Lo != nil:
		return fmt.Sprintf("%s [%s, %s]", Float(r.Values[s]), Float(r.Lo[s]), Float(r.Hi[s]))
	}
	return Float(r.Values[s])
}

// CheckJSON writes a model check as `augur check --json` does; with all, every state's value.
func CheckJSON(w io.Writer, c *experiment.Check, all bool) error {
	type jsonResult struct {
		Property  string            `json:"property"`
		Name      string            `json:"name,omitempty"`
		Constants map[string]string `json:"constants,omitempty"`
		Error     string            `json:"error,omitempty"`
		Filter    string            `json:"filter,omitempty"`
		Value     *Number           `json:"value,omitempty"`
		Min       *Number           `json:"min,omitempty"`
		Max       *Number           `json:"max,omitempty"`
		Exact     string            `json:"exact,omitempty"`
		Lower     *Number           `json:"lower,omitempty"`
		Upper     *Number           `json:"upper,omitempty"`
		Holds     *bool             `json:"holds,omitempty"`
		Which     []int             `json:"filter_states,omitempty"`
		Infinite  int               `json:"infinite_states"`
		States    []Number          `json:"states,omitempty"`
		Sat       []bool            `json:"satisfied,omitempty"`
		Stats     *checker.Stats    `json:"stats,omitempty"`
		ErrEst    *Number           `json:"error_estimate,omitempty"`
	}
	out := struct {
		Model       string       `json:"model"`
		States      int          `json:"states"`
		Transitions int          `json:"transitions"`
		Results     []jsonResult `json:"results"`
	}{Model: c.Path, States: c.Model.N, Transitions: c.Model.NumTransitions()}
	for _, run := range c.Runs {
		jr := jsonResult{Property: run.Prop.Text, Name: run.Prop.Name}
		if len(run.Consts) > 0 {
			jr.Constants = map[string]string{}
			for _, c := range run.Consts {
				jr.Constants[c.Name] = c.Value.String()
			}
		}
		if run.Err != nil {
			jr.Error = run.Err.Error()
			out.Results = append(out.Results, jr)
			continue
		}
		r, m := run.Result, run.Model
		jr.Infinite, jr.Stats, jr.ErrEst, jr.Filter = r.Infinite, &r.Stats, ptr(r.Stats.ErrEstimate), r.Filter
		switch {
		case r.Filter == "range":
			jr.Min, jr.Max = ptr(r.Min), ptr(r.Max)
		case r.Filter == "argmin" || r.Filter == "argmax" || r.Filter == "print" || r.Filter == "printall":
			jr.Which = r.States
			if jr.Which == nil {
				jr.Which = []int{}
			}
		case r.Filter != "" && filterTruth(r):
			jr.Holds = &r.Holds
		case r.Filter != "":
			jr.Value = ptr(r.Value)
		case r.Bool:
			jr.Holds = &r.Holds
		default:
			jr.Value = ptr(r.Initial)
			if len(m.Init) > 1 {
				jr.Min, jr.Max = ptr(r.Min), ptr(r.Max)
			}
			if r.InitialExact != nil {
				jr.Exact = r.InitialExact.RatString()
			}
			if r.Lo != nil {
				jr.Lower, jr.Upper = ptr(r.InitialLo), ptr(r.InitialHi)
			}
		}
		if all {
			if r.Bool {
				jr.Sat = r.Sat
			} else {
				jr.States = Numbers(r.Values)
			}
		}
		out.Results = append(out.Results, jr)
	}
	return JSON(w, out)
}
