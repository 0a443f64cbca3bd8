// Package experiment owns what `augur check` does beyond one property on one model: a model
// read from any format (a PRISM-language model built with its undefined constants), properties
// from strings and a properties file, constants given as values or ranges (PRISM's -const), and
// every property checked at every point of its experiment — the combinations of the ranged
// constants it uses — with the failures collected rather than stopping the rest.
//
// It uses the markov group only (pctl, checker, prism, modelio) and knows nothing of Go source
// or of how results are printed (report/text prints them).
package experiment

import (
	"errors"
	"fmt"
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

// UsageError is a mistake in what was asked (a malformed or repeated constant, a model file
// that cannot be read, a constant left undefined), as opposed to a model or property that
// fails; a command line reports it as a usage error.
type UsageError struct{ Err error }

func (e *UsageError) Error() string { return e.Err.Error() }
func (e *UsageError) Unwrap() error { return e.Err }

// UsageError says that the caller, not the model, is at fault.
func (e *UsageError) UsageError() bool { return true }

func usagef(format string, a ...any) error { return &UsageError{fmt.Errorf(format, a...)} }

// Request is what to check.
type Request struct {
	// Model is the model's file: augur JSON, PRISM explicit or Storm explicit files (see
	// modelio.Load), or a PRISM-language model (.pm, .prism, .nm).
	Model string
	// Props are properties in PRISM's syntax; PropsFile a properties file (constants, labels,
	// named properties). Without either, DefaultProperties are checked.
	Props     []string
	PropsFile string
	// Consts are name=value,... definitions; a value start:end or start:step:end is a range,
	// every value of which is checked. The model's undefined constants are taken from them,
	// the rest go to the properties.
	Consts []string
	// NoProbChecks builds PRISM-language models whose commands' probabilities do not sum to
	// 1, each state's weights normalised (prism.Options.NoProbChecks).
	NoProbChecks bool
	Options      checker.Options
	// Method, when given, names the checker's method (checker.ParseMethod), overriding
	// Options.Method.
	Method string
}

// Const is one constant's value at a point of an experiment.
type Const struct {
	Name  string
	Value pctl.StateFormula
}

// Run is one property checked at one point of its experiment.
type Run struct {
	Prop pctl.Property
	// Model is the model checked (one per value of a ranged model constant).
	Model  *dtmc.Model
	Consts []Const
	Result *checker.Result
	Err    error
	Took   time.Duration
}

// Check is every run of a request.
type Check struct {
	// Path is the model's file; Model the first model built from it.
	Path  string
	Model *dtmc.Model
	Runs  []Run
	// Failed says why each failed run failed: an error, or a method that did not converge.
	Failed []string
}

// Err summarises the failed runs, nil when none failed.
func (c *Check) Err() error {
	if len(c.Failed) == 0 {
		return nil
	}
	return fmt.Errorf("%d of %d checks failed: %s", len(c.Failed), len(c.Runs), strings.Join(c.Failed, "; "))
}

// Do checks every property of req at every point of its experiment. An error is returned only
// when nothing can be checked (the model, the properties file or a constant is wrong); a
// property that fails is a Run with its Err, listed in Failed.
func Do(req Request) (*Check, error) {
	if req.Method != "" {
		m, err := checker.ParseMethod(req.Method)
		if err != nil {
			return nil, err
		}
		req.Options.Method = m
	}
	models, consts, err := LoadModel(req.Model, req.Consts, req.NoProbChecks)
	if err != nil {
		return nil, err
	}
	m := models[0].Model
	var list []pctl.Property
	for _, p := range req.Props {
		f, err := pctl.Parse(p)
		if err != nil {
			err = fmt.Errorf("--prop %q: %v", p, err)
		}
		list = append(list, pctl.Property{Formula: f, Text: p, Err: err})
	}
	env := &checker.Env{Consts: map[string]pctl.StateFormula{}, Props: map[string]pctl.StateFormula{}, Labels: map[string]pctl.StateFormula{}, Types: map[string]string{}}
	if req.PropsFile != "" {
		src, err := os.ReadFile(req.PropsFile)
		if err != nil {
			return nil, err
		}
		file, err := pctl.ParseFile(string(src))
		if err != nil {
			return nil, fmt.Errorf("%s: %v", req.PropsFile, err)
		}
		for _, c := range file.Consts {
			env.Consts[c.Name], env.Types[c.Name] = c.Value, c.Type
		}
		for _, l := range file.Labels {
			env.Labels[l.Name] = l.Expr
		}
		for _, p := range file.Props {
			if p.Err != nil {
				p.Err = fmt.Errorf("%s: %v", req.PropsFile, p.Err)
			}
			list = append(list, p)
		}
	}
	for _, p := range list {
		if p.Name != "" && p.Err == nil {
			env.Props[p.Name] = p.Formula
		}
	}
	ranges, err := DefineConsts(consts, env)
	if err != nil {
		return nil, err
	}
	if len(list) == 0 {
		if list, err = DefaultProperties(m); err != nil {
			return nil, err
		}
	}
	c := &Check{Path: req.Model, Model: m}
	for _, p := range list {
		if p.Err != nil {
			c.Runs = append(c.Runs, Run{Prop: p, Err: p.Err, Model: m})
			c.Failed = append(c.Failed, p.Err.Error())
			continue
		}
		for _, point := range Points(p.Formula, env, ranges) {
			for _, mp := range models {
				run := Run{Prop: p, Consts: append(slices.Clone(mp.Consts), point...), Model: mp.Model}
				e := *env
				e.Consts = maps.Clone(env.Consts)
				for _, c := range point {
					e.Consts[c.Name] = c.Value
				}
				start := time.Now()
				run.Result, run.Err = checker.CheckIn(mp.Model, p.Formula, &e, req.Options)
				run.Took = time.Since(start)
				var pe *checker.PositionError
				if p.Line > 0 && errors.As(run.Err, &pe) {
					// A properties file's columns are within the property's line.
					run.Err = fmt.Errorf("%s: line %d, %v", req.PropsFile, p.Line, run.Err)
				}
				switch {
				case run.Err != nil:
					c.Failed = append(c.Failed, fmt.Sprintf("%s: %v", p.Text, run.Err))
				case !run.Result.Stats.Converged:
					// The method stopped without meeting its criterion: printed with its bounds,
					// and the check fails.
					c.Failed = append(c.Failed, fmt.Sprintf("%s: NOT CONVERGED", p.Text))
				}
				c.Runs = append(c.Runs, run)
			}
		}
	}
	return c, nil
}

// DescribeConsts shows a point's constants as name=value, ...
func DescribeConsts(cs []Const) string {
	parts := make([]string, len(cs))
	for i, c := range cs {
		parts[i] = c.Name + "=" + c.Value.String()
	}
	return strings.Join(parts, ", ")
}

// DefineConsts reads constant definitions (name=value,...) into env and returns the ranged
// ones, whose every value is checked. A constant the properties file already defines cannot be
// redefined.
func DefineConsts(specs []string, env *checker.Env) (map[string][]pctl.StateFormula, error) {
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
			values, err := Values(val)
			if err != nil {
				return nil, usagef("--const %s: %v", name, err)
			}
			ranges[name] = values
			env.Consts[name] = values[0]
		}
	}
	return ranges, nil
}

// Values reads a value (an integer, a decimal, a fraction p/q, true or false) or a range
// start:end or start:step:end, as PRISM's -const does.
func Values(s string) ([]pctl.StateFormula, error) {
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

// Points lists the points at which a property is checked: every combination of the values of
// the ranged constants it uses (through named properties, labels and other constants too),
// the constants sorted by name; one empty point when it uses none.
func Points(f pctl.StateFormula, env *checker.Env, ranges map[string][]pctl.StateFormula) [][]Const {
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
	points := [][]Const{nil}
	for _, name := range names {
		var next [][]Const
		for _, p := range points {
			for _, v := range ranges[name] {
				next = append(next, append(slices.Clone(p), Const{name, v}))
			}
		}
		points = next
	}
	return points
}

// DefaultProperties asks for every reward structure's expected total until "end".
func DefaultProperties(m *dtmc.Model) ([]pctl.Property, error) {
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

// ModelPoint is a model built with one value of each of its ranged constants.
type ModelPoint struct {
	Model  *dtmc.Model
	Consts []Const
}

// LoadModel reads a model: a PRISM-language model (.pm, .prism, .nm; its undefined constants
// taken from consts, the rest of which it returns for the properties) or any format modelio
// reads. A range of a model constant (N=2:4) builds one model per value, every combination of
// the ranged constants in the order they were given. noProbChecks: see
// Request.NoProbChecks.
func LoadModel(path string, consts []string, noProbChecks bool) ([]ModelPoint, []string, error) {
	switch filepath.Ext(path) {
	case ".pm", ".prism", ".nm":
	default:
		m, err := modelio.Load(path)
		return []ModelPoint{{Model: m}}, consts, err
	}
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, &UsageError{err}
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
					vs, err := Values(val)
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
	var models []ModelPoint
	var build func(k int, point []Const) error
	build = func(k int, point []Const) error {
		if k == len(ranged) {
			r, err := prism.Parse(string(src), prism.Options{Consts: given, NoProbChecks: noProbChecks})
			if err != nil {
				var pe *prism.Error
				if errors.As(err, &pe) {
					return fmt.Errorf("%s:%v", path, err)
				}
				return fmt.Errorf("%s: %v", path, err)
			}
			models = append(models, ModelPoint{Model: r.Model, Consts: slices.Clone(point)})
			return nil
		}
		name := ranged[k]
		for _, v := range values[name] {
			given[name] = v.String()
			if err := build(k+1, append(point, Const{name, v})); err != nil {
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
