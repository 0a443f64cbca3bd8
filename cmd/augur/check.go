package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"math/big"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/augur-perf/augur/markov/checker"
	"github.com/augur-perf/augur/markov/dtmc"
	"github.com/augur-perf/augur/markov/modelio"
	"github.com/augur-perf/augur/markov/pctl"
	"github.com/augur-perf/augur/markov/prism"
)

func init() {
	register(&command{
		name:    "check",
		summary: "check PCTL and LTL properties of a Markov chain (PRISM models, augur JSON, PRISM or Storm explicit files)",
		usage:   "MODEL [--prop 'PROPERTY']... [--props FILE] [--const name=value,...] [options]",
		help:    helpText("check"),
		run:     runCheck,
	})
}

func runCheck(args []string, stdout, stderr io.Writer) error {
	c := commandNamed("check")
	fs := c.flags(stderr)
	var props, consts multi
	fs.Var(&props, "prop", "a property to check (repeatable)")
	fs.Var(&consts, "const", "constant values, `name=value,...`; a range `n=1:5` or `T=0:10:100` (start:step:end) checks every value (repeatable)")
	propsFile := fs.String("props", "", "a properties file: one property per line, `//` comments, optional \"name\": prefix, const and label declarations")
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
	models, consts, err := loadModel(pos[0], consts)
	if err != nil {
		return err
	}
	m := models[0].m
	var list []pctl.Property
	for _, p := range props {
		f, err := pctl.Parse(p)
		if err != nil {
			err = fmt.Errorf("--prop %q: %v", p, err)
		}
		list = append(list, pctl.Property{Formula: f, Text: p, Err: err})
	}
	env := &checker.Env{Consts: map[string]pctl.StateFormula{}, Props: map[string]pctl.StateFormula{}, Labels: map[string]pctl.StateFormula{}, Types: map[string]string{}}
	if *propsFile != "" {
		src, err := os.ReadFile(*propsFile)
		if err != nil {
			return err
		}
		file, err := pctl.ParseFile(string(src))
		if err != nil {
			return fmt.Errorf("%s: %v", *propsFile, err)
		}
		for _, c := range file.Consts {
			env.Consts[c.Name], env.Types[c.Name] = c.Value, c.Type
		}
		for _, l := range file.Labels {
			env.Labels[l.Name] = l.Expr
		}
		for _, p := range file.Props {
			if p.Err != nil {
				p.Err = fmt.Errorf("%s: %v", *propsFile, p.Err)
			}
			list = append(list, p)
		}
	}
	for _, p := range list {
		if p.Name != "" && p.Err == nil {
			env.Props[p.Name] = p.Formula
		}
	}
	ranges, err := defineConsts(consts, env)
	if err != nil {
		return err
	}
	if len(list) == 0 {
		if list, err = defaultProperties(m); err != nil {
			return err
		}
	}
	opt := checker.Options{Method: meth, Epsilon: *eps, MaxIter: *maxIter}
	var runs []checkRun
	var failed []string
	for _, p := range list {
		if p.Err != nil {
			runs = append(runs, checkRun{prop: p, err: p.Err, m: m})
			failed = append(failed, p.Err.Error())
			continue
		}
		for _, point := range experiment(p.Formula, env, ranges) {
			for _, mp := range models {
				m := mp.m
				run := checkRun{prop: p, consts: append(slices.Clone(mp.consts), point...), m: m}
				e := *env
				e.Consts = maps.Clone(env.Consts)
				for _, c := range point {
					e.Consts[c.name] = c.value
				}
				start := time.Now()
				run.res, run.err = checker.CheckIn(m, p.Formula, &e, opt)
				run.took = time.Since(start)
				var pe *checker.PositionError
				if p.Line > 0 && errors.As(run.err, &pe) {
					// A properties file's columns are within the property's line.
					run.err = fmt.Errorf("%s: line %d, %v", *propsFile, p.Line, run.err)
				}
				switch {
				case run.err != nil:
					failed = append(failed, fmt.Sprintf("%s: %v", p.Text, run.err))
				case !run.res.Stats.Converged:
					// The method stopped without meeting its criterion: printed with its bounds,
					// and the command fails.
					failed = append(failed, fmt.Sprintf("%s: NOT CONVERGED", p.Text))
				}
				runs = append(runs, run)
			}
		}
	}
	if *asJSON {
		if err := writeCheckJSON(stdout, pos[0], m, runs, *allStates); err != nil {
			return err
		}
	} else {
		writeCheckText(stdout, pos[0], m, runs, *allStates)
	}
	if len(failed) > 0 {
		return fmt.Errorf("%d of %d checks failed: %s", len(failed), len(runs), strings.Join(failed, "; "))
	}
	return nil
}

// checkRun is one property checked at one point of its experiment (its ranged constants' values).
type checkRun struct {
	prop pctl.Property
	// m is the model checked (one per value of a ranged model constant).
	m      *dtmc.Model
	consts []constValue
	res    *checker.Result
	err    error
	took   time.Duration
}

type constValue struct {
	name  string
	value pctl.StateFormula
}

func writeCheckText(w io.Writer, path string, m *dtmc.Model, runs []checkRun, allStates bool) {
	fmt.Fprintf(w, "Model: %s (%d states, %d transitions, %d initial)\n", path, m.N, m.NumTransitions(), len(m.Init))
	for i, run := range runs {
		if i == 0 || runs[i-1].prop.Text != run.prop.Text || runs[i-1].prop.Line != run.prop.Line {
			fmt.Fprintf(w, "\nProperty: %s\n", run.prop.Text)
		}
		if len(run.consts) > 0 {
			fmt.Fprintf(w, "Constants: %s\n", describeConsts(run.consts))
		}
		if run.err != nil {
			fmt.Fprintf(w, "Error: %v\n", run.err)
			continue
		}
		if run.m.N != m.N || run.m.NumTransitions() != m.NumTransitions() || len(run.m.Init) != len(m.Init) {
			fmt.Fprintf(w, "Model: %d states, %d transitions, %d initial\n", run.m.N, run.m.NumTransitions(), len(run.m.Init))
		}
		m := run.m
		r := run.res
		fmt.Fprintf(w, "Result: %s\n", describeResult(r, m))
		fmt.Fprintf(w, "Method: %s (%s)\n", describeStats(r.Stats), run.took.Round(time.Microsecond))
		for _, n := range r.Stats.Notes {
			fmt.Fprintf(w, "Note: %s\n", n)
		}
		switch {
		case allStates:
			for s := 0; s < m.N; s++ {
				fmt.Fprintf(w, "  %d: %s\n", s, stateValue(r, s))
			}
		case r.Filter == "print" || r.Filter == "printall":
			for _, s := range r.States {
				fmt.Fprintf(w, "  %d: %s\n", s, stateValue(r, s))
			}
		}
	}
}

func describeConsts(cs []constValue) string {
	parts := make([]string, len(cs))
	for i, c := range cs {
		parts[i] = c.name + "=" + c.value.String()
	}
	return strings.Join(parts, ", ")
}

// defineConsts reads --const values into env and returns the ranged ones, whose every value is
// checked. A constant the properties file already defines cannot be redefined.
func defineConsts(specs []string, env *checker.Env) (map[string][]pctl.StateFormula, error) {
	ranges := map[string][]pctl.StateFormula{}
	for _, spec := range specs {
		for _, def := range strings.Split(spec, ",") {
			name, val, ok := strings.Cut(strings.TrimSpace(def), "=")
			if !ok || name == "" {
				return nil, usagef("--const %q: expected name=value", def)
			}
			if v, declared := env.Consts[name]; declared && v != nil {
				return nil, usagef("--const %s: the properties file already defines %s = %s", name, name, v)
			}
			if _, seen := ranges[name]; seen {
				return nil, usagef("--const %s: given twice", name)
			}
			values, err := constValues(val)
			if err != nil {
				return nil, usagef("--const %s: %v", name, err)
			}
			ranges[name] = values
			env.Consts[name] = values[0]
		}
	}
	return ranges, nil
}

// constValues reads a value (an integer, a decimal, a fraction p/q, true or false) or a range
// start:end or start:step:end, as PRISM's -const does.
func constValues(s string) ([]pctl.StateFormula, error) {
	parts := strings.Split(s, ":")
	if len(parts) == 1 {
		v, err := parseConst(s)
		if err != nil {
			return nil, err
		}
		return []pctl.StateFormula{v}, nil
	}
	if len(parts) > 3 {
		return nil, fmt.Errorf("range %q: expected start:end or start:step:end", s)
	}
	nums := make([]*pctl.Num, len(parts))
	for i, p := range parts {
		v, err := parseConst(p)
		if err != nil {
			return nil, err
		}
		n, ok := v.(*pctl.Num)
		if !ok {
			return nil, fmt.Errorf("range %q: %s is not a number", s, p)
		}
		nums[i] = n
	}
	start, step, end := nums[0], &pctl.Num{Value: 1, Int: true}, nums[len(nums)-1]
	if len(nums) == 3 {
		step = nums[1]
	}
	if step.Value <= 0 || end.Value < start.Value {
		return nil, fmt.Errorf("range %q: expected a positive step from a start up to an end", s)
	}
	isInt := start.Int && step.Int && end.Int
	var out []pctl.StateFormula
	// Count steps rather than add them up, so that 0:0.1:1 ends at 1 and not just short of it.
	n := int(math.Floor((end.Value-start.Value)/step.Value + 1e-9))
	if n >= 100000 {
		return nil, fmt.Errorf("range %q has %d values; at most 100000", s, n+1)
	}
	// Exactly, from the decimals as written, so that 0.2:0.2:0.6 ends at 0.6 and not at
	// 0.6000000000000001.
	exact := make([]*big.Rat, len(parts))
	for i, p := range parts {
		if r, ok := new(big.Rat).SetString(strings.TrimSpace(p)); ok {
			exact[i] = r
		}
	}
	for i := 0; i <= n; i++ {
		v := start.Value + float64(i)*step.Value
		if exact[0] != nil && exact[len(exact)-1] != nil && (len(exact) == 2 || exact[1] != nil) {
			st := big.NewRat(1, 1)
			if len(exact) == 3 {
				st = exact[1]
			}
			v, _ = new(big.Rat).Add(exact[0], new(big.Rat).Mul(big.NewRat(int64(i), 1), st)).Float64()
		}
		out = append(out, &pctl.Num{Value: v, Int: isInt})
	}
	return out, nil
}

func parseConst(s string) (pctl.StateFormula, error) {
	s = strings.TrimSpace(s)
	switch s {
	case "true", "false":
		return &pctl.Bool{Value: s == "true"}, nil
	}
	if num, den, ok := strings.Cut(s, "/"); ok {
		a, err1 := strconv.ParseFloat(num, 64)
		b, err2 := strconv.ParseFloat(den, 64)
		if err1 != nil || err2 != nil || b == 0 {
			return nil, fmt.Errorf("value %q is not a number, a fraction p/q, true or false", s)
		}
		return &pctl.Num{Value: a / b}, nil
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(v, 0) || math.IsNaN(v) {
		return nil, fmt.Errorf("value %q is not a number, a fraction p/q, true or false", s)
	}
	return &pctl.Num{Value: v, Int: !strings.ContainsAny(s, ".eE")}, nil
}

// experiment lists the points at which a property is checked: every combination of the values
// of the ranged constants it uses (through named properties, labels and other constants too), in
// the order the constants were given; one empty point when it uses none.
func experiment(f pctl.StateFormula, env *checker.Env, ranges map[string][]pctl.StateFormula) [][]constValue {
	used := map[string]bool{}
	seen := map[pctl.Node]bool{}
	var visit func(n pctl.Node)
	visit = func(root pctl.Node) {
		pctl.Walk(root, func(n pctl.Node) {
			switch n := n.(type) {
			case *pctl.Ident:
				used[n.Name] = true
				if c := env.Consts[n.Name]; c != nil && !seen[c] {
					seen[c] = true
					visit(c)
				}
			case *pctl.Label:
				for _, g := range []pctl.StateFormula{env.Props[n.Name], env.Labels[n.Name]} {
					if g != nil && !seen[g] {
						seen[g] = true
						visit(g)
					}
				}
			}
		})
	}
	visit(f)
	names := make([]string, 0, len(ranges))
	for name := range ranges {
		if used[name] {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	points := [][]constValue{nil}
	for _, name := range names {
		var next [][]constValue
		for _, p := range points {
			for _, v := range ranges[name] {
				next = append(next, append(slices.Clone(p), constValue{name, v}))
			}
		}
		points = next
	}
	return points
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

func describeResult(r *checker.Result, m *dtmc.Model) string {
	switch r.Filter {
	case "":
	case "range":
		return fmt.Sprintf("[%s, %s] (range over the filter's states)", formatFloat(r.Min), formatFloat(r.Max))
	case "argmin", "argmax", "print", "printall":
		return fmt.Sprintf("%d states: %s", len(r.States), stateList(r.States))
	default:
		if filterTruth(r) {
			return strconv.FormatBool(r.Holds)
		}
		return formatFloat(r.Value)
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
		fmt.Fprintf(&b, "[%s, %s] (range over the %d initial states; the initial distribution's expectation is %s)", formatFloat(r.Min), formatFloat(r.Max), len(m.Init), formatFloat(r.Initial))
		return b.String()
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

func writeCheckJSON(w io.Writer, path string, m *dtmc.Model, runs []checkRun, all bool) error {
	type jsonResult struct {
		Property  string            `json:"property"`
		Name      string            `json:"name,omitempty"`
		Constants map[string]string `json:"constants,omitempty"`
		Error     string            `json:"error,omitempty"`
		Filter    string            `json:"filter,omitempty"`
		Value     *jsonNumber       `json:"value,omitempty"`
		Min       *jsonNumber       `json:"min,omitempty"`
		Max       *jsonNumber       `json:"max,omitempty"`
		Exact     string            `json:"exact,omitempty"`
		Lower     *jsonNumber       `json:"lower,omitempty"`
		Upper     *jsonNumber       `json:"upper,omitempty"`
		Holds     *bool             `json:"holds,omitempty"`
		Which     []int             `json:"filter_states,omitempty"`
		Infinite  int               `json:"infinite_states"`
		States    []jsonNumber      `json:"states,omitempty"`
		Sat       []bool            `json:"satisfied,omitempty"`
		Stats     *checker.Stats    `json:"stats,omitempty"`
		ErrEst    *jsonNumber       `json:"error_estimate,omitempty"`
	}
	out := struct {
		Model       string       `json:"model"`
		States      int          `json:"states"`
		Transitions int          `json:"transitions"`
		Results     []jsonResult `json:"results"`
	}{Model: path, States: m.N, Transitions: m.NumTransitions()}
	num := func(v float64) *jsonNumber {
		n := jsonNumber(v)
		return &n
	}
	for _, run := range runs {
		jr := jsonResult{Property: run.prop.Text, Name: run.prop.Name}
		if len(run.consts) > 0 {
			jr.Constants = map[string]string{}
			for _, c := range run.consts {
				jr.Constants[c.name] = c.value.String()
			}
		}
		if run.err != nil {
			jr.Error = run.err.Error()
			out.Results = append(out.Results, jr)
			continue
		}
		r, m := run.res, run.m
		jr.Infinite, jr.Stats, jr.ErrEst, jr.Filter = r.Infinite, &r.Stats, num(r.Stats.ErrEstimate), r.Filter
		switch {
		case r.Filter == "range":
			jr.Min, jr.Max = num(r.Min), num(r.Max)
		case r.Filter == "argmin" || r.Filter == "argmax" || r.Filter == "print" || r.Filter == "printall":
			jr.Which = r.States
			if jr.Which == nil {
				jr.Which = []int{}
			}
		case r.Filter != "" && filterTruth(r):
			jr.Holds = &r.Holds
		case r.Filter != "":
			jr.Value = num(r.Value)
		case r.Bool:
			jr.Holds = &r.Holds
		default:
			jr.Value = num(r.Initial)
			if len(m.Init) > 1 {
				jr.Min, jr.Max = num(r.Min), num(r.Max)
			}
			if r.InitialExact != nil {
				jr.Exact = r.InitialExact.RatString()
			}
			if r.Lo != nil {
				jr.Lower, jr.Upper = num(r.InitialLo), num(r.InitialHi)
			}
		}
		if all {
			if r.Bool {
				jr.Sat = r.Sat
			} else {
				jr.States = jsonNumbers(r.Values)
			}
		}
		out.Results = append(out.Results, jr)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

// modelPoint is a model built with one value of each of its ranged constants.
type modelPoint struct {
	m      *dtmc.Model
	consts []constValue
}

// loadModel reads MODEL: a PRISM-language model (.pm, .prism, .nm; its undefined constants taken
// from --const, which keeps the rest for the properties) or any format modelio reads. A range
// of a model constant (N=2:4) builds one model per value, every combination of the ranged
// constants in the order they were given.
func loadModel(path string, consts []string) ([]modelPoint, []string, error) {
	switch filepath.Ext(path) {
	case ".pm", ".prism", ".nm":
	default:
		m, err := modelio.Load(path)
		return []modelPoint{{m: m}}, consts, err
	}
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, usageError{err}
	}
	undefined, err := prism.Undefined(string(src))
	if err != nil {
		return nil, nil, fmt.Errorf("%s:%v", path, err)
	}
	given := map[string]string{}
	var ranged []string
	values := map[string][]pctl.StateFormula{}
	var rest []string
	for _, spec := range consts {
		var keep []string
		for _, def := range strings.Split(spec, ",") {
			name, val, _ := strings.Cut(strings.TrimSpace(def), "=")
			if slices.Contains(undefined, name) {
				if strings.Contains(val, ":") {
					vs, err := constValues(val)
					if err != nil {
						return nil, nil, usagef("--const %s: %v", def, err)
					}
					if _, twice := values[name]; !twice {
						ranged = append(ranged, name)
					}
					values[name] = vs
				}
				given[name] = val
				continue
			}
			keep = append(keep, def)
		}
		if len(keep) > 0 {
			rest = append(rest, strings.Join(keep, ","))
		}
	}
	var missing []string
	for _, name := range undefined {
		if _, ok := given[name]; !ok {
			missing = append(missing, name)
		}
	}
	if len(missing) > 0 {
		return nil, nil, usagef("%s leaves constants %s undefined: give them with --const %s=...", path, strings.Join(missing, ", "), missing[0])
	}
	var models []modelPoint
	var build func(k int, point []constValue) error
	build = func(k int, point []constValue) error {
		if k == len(ranged) {
			r, err := prism.Parse(string(src), prism.Options{Consts: given})
			if err != nil {
				var pe *prism.Error
				if errors.As(err, &pe) {
					return fmt.Errorf("%s:%v", path, err)
				}
				return fmt.Errorf("%s: %v", path, err)
			}
			models = append(models, modelPoint{m: r.Model, consts: slices.Clone(point)})
			return nil
		}
		name := ranged[k]
		for _, v := range values[name] {
			given[name] = v.String()
			if err := build(k+1, append(point, constValue{name, v})); err != nil {
				return err
			}
		}
		return nil
	}
	if err := build(0, nil); err != nil {
		return nil, nil, err
	}
	return models, rest, nil
}
