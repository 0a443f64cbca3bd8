// Package inputs states a usage profile as distributions of a function's input parameters —
// "n~lognormal(8,1.2), m=5" — and computes the expectation of a law over them: exactly for
// finite distributions, by Monte Carlo with its standard error otherwise. It owns the syntax of
// input distributions and their sampling; it knows nothing of how laws were found.
package inputs

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"strconv"
	"strings"
)

// Dist is one parameter's distribution.
type Dist struct {
	Param string
	// Kind is "fixed", "choice" (finite: Values with Probs), "uniform", "normal" or
	// "lognormal" (A, B: bounds, or mean and standard deviation of the value or of its log).
	Kind   string
	Values []float64
	Probs  []float64
	A, B   float64
}

// Finite reports whether the distribution has finitely many values.
func (d Dist) Finite() bool { return d.Kind == "fixed" || d.Kind == "choice" }

// Sample draws a value.
func (d Dist) Sample(rng *rand.Rand) float64 {
	switch d.Kind {
	case "uniform":
		return d.A + (d.B-d.A)*rng.Float64()
	case "normal":
		return d.A + d.B*rng.NormFloat64()
	case "lognormal":
		return math.Exp(d.A + d.B*rng.NormFloat64())
	case "choice":
		u := rng.Float64()
		for i, p := range d.Probs {
			if u < p {
				return d.Values[i]
			}
			u -= p
		}
		return d.Values[len(d.Values)-1]
	}
	return d.Values[0]
}

// Error is a syntax error at a column (1-based) of the input specification.
type Error struct {
	Col int
	Msg string
}

func (e *Error) Error() string { return fmt.Sprintf("column %d: %s", e.Col, e.Msg) }

// Parse reads "n~lognormal(8,1.2), m=5, k~choice(1:0.5,10:0.5)". Each parameter appears once.
func Parse(spec string) ([]Dist, error) {
	var out []Dist
	seen := map[string]bool{}
	col := 1
	for _, part := range splitTop(spec) {
		text := strings.TrimSpace(part)
		at := col + strings.Index(part, text)
		col += len(part) + 1
		if text == "" {
			return nil, &Error{at, "an empty entry: want NAME=VALUE or NAME~DIST(...)"}
		}
		i := strings.IndexAny(text, "=~")
		if i <= 0 {
			return nil, &Error{at, fmt.Sprintf("%q: want NAME=VALUE or NAME~DIST(...)", text)}
		}
		name := strings.TrimSpace(text[:i])
		if seen[name] {
			return nil, &Error{at, fmt.Sprintf("parameter %s given twice", name)}
		}
		seen[name] = true
		rhs := strings.TrimSpace(text[i+1:])
		rat := at + i + 1 + strings.Index(text[i+1:], rhs)
		d := Dist{Param: name}
		if text[i] == '=' {
			v, err := number(rhs)
			if err != nil {
				return nil, &Error{rat, err.Error()}
			}
			d.Kind, d.Values, d.Probs = "fixed", []float64{v}, []float64{1}
			out = append(out, d)
			continue
		}
		open := strings.Index(rhs, "(")
		if open < 0 || !strings.HasSuffix(rhs, ")") {
			return nil, &Error{rat, fmt.Sprintf("%q: want DIST(ARGS), one of uniform(a,b), normal(mean,sd), lognormal(mu,sigma), choice(v:p,...)", rhs)}
		}
		d.Kind = rhs[:open]
		args := strings.Split(rhs[open+1:len(rhs)-1], ",")
		argAt := rat + open + 1
		switch d.Kind {
		case "uniform", "normal", "lognormal":
			if len(args) != 2 {
				return nil, &Error{argAt, fmt.Sprintf("%s takes two arguments, got %d", d.Kind, len(args))}
			}
			a, err := number(args[0])
			if err != nil {
				return nil, &Error{argAt, err.Error()}
			}
			b, err := number(args[1])
			if err != nil {
				return nil, &Error{argAt + len(args[0]) + 1, err.Error()}
			}
			d.A, d.B = a, b
			if d.Kind == "uniform" && !(a < b) || d.Kind != "uniform" && !(b > 0) {
				return nil, &Error{argAt, fmt.Sprintf("%s(%v,%v): want a < b for uniform, a positive spread otherwise", d.Kind, a, b)}
			}
		case "choice":
			var total float64
			off := argAt
			for _, a := range args {
				v, p, ok := strings.Cut(a, ":")
				if !ok {
					return nil, &Error{off, fmt.Sprintf("%q: want VALUE:PROBABILITY", strings.TrimSpace(a))}
				}
				x, err := number(v)
				if err != nil {
					return nil, &Error{off, err.Error()}
				}
				q, err := number(p)
				if err != nil || q < 0 {
					return nil, &Error{off + len(v) + 1, fmt.Sprintf("probability %q: want a number ≥ 0", strings.TrimSpace(p))}
				}
				d.Values, d.Probs = append(d.Values, x), append(d.Probs, q)
				total += q
				off += len(a) + 1
			}
			if math.Abs(total-1) > 1e-9 {
				return nil, &Error{argAt, fmt.Sprintf("probabilities sum to %v, not 1", total)}
			}
		default:
			return nil, &Error{rat, fmt.Sprintf("unknown distribution %q (uniform, normal, lognormal, choice)", d.Kind)}
		}
		out = append(out, d)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Param < out[j].Param })
	return out, nil
}

// splitTop splits at commas outside parentheses.
func splitTop(s string) []string {
	var parts []string
	depth, start := 0, 0
	for i, c := range s {
		switch c {
		case '(':
			depth++
		case ')':
			depth--
		case ',':
			if depth == 0 {
				parts = append(parts, s[start:i])
				start = i + 1
			}
		}
	}
	return append(parts, s[start:])
}

func number(s string) (float64, error) {
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, fmt.Errorf("%q is not a finite number", strings.TrimSpace(s))
	}
	return v, nil
}

// Expectation is E[f] over the inputs.
type Expectation struct {
	Mean float64
	// SD is the standard deviation of f over the inputs (its spread), SE the standard error of
	// Mean (0 when exact).
	SD, SE float64
	Exact  bool
	// Samples is the number of Monte Carlo samples (0 when exact).
	Samples int
	// OutOfRange is the probability mass where some parameter lies outside the range its law
	// was fitted on: predictions there extrapolate.
	OutOfRange float64
}

// Expect computes E[f(X)] for independent inputs: by enumeration when every distribution is
// finite (up to a million combinations), else by Monte Carlo with n samples from seed.
// ranges, when given, are the fitted ranges per parameter.
func Expect(ds []Dist, f func(map[string]float64) float64, ranges map[string][2]float64, n int, seed uint64) (Expectation, error) {
	outside := func(at map[string]float64) bool {
		for p, x := range at {
			if r, ok := ranges[p]; ok && (x < r[0] || x > r[1]) {
				return true
			}
		}
		return false
	}
	finite, combos := true, 1
	for _, d := range ds {
		finite = finite && d.Finite()
		combos *= len(d.Values)
		if combos > 1e6 {
			finite = false
		}
	}
	if finite {
		var e Expectation
		e.Exact = true
		var m2 float64
		at := map[string]float64{}
		var walk func(k int, p float64)
		walk = func(k int, p float64) {
			if k == len(ds) {
				v := f(at)
				e.Mean += p * v
				m2 += p * v * v
				if outside(at) {
					e.OutOfRange += p
				}
				return
			}
			for i, x := range ds[k].Values {
				at[ds[k].Param] = x
				walk(k+1, p*ds[k].Probs[i])
			}
		}
		walk(0, 1)
		e.SD = math.Sqrt(math.Max(0, m2-e.Mean*e.Mean))
		return e, nil
	}
	if n <= 0 {
		n = 100000
	}
	rng := rand.New(rand.NewPCG(seed, seed^0x5851f42d4c957f2d))
	var mean, m2 float64
	var out int
	at := map[string]float64{}
	for i := 1; i <= n; i++ {
		for _, d := range ds {
			at[d.Param] = d.Sample(rng)
		}
		v := f(at)
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return Expectation{}, fmt.Errorf("the law is undefined at %v", at)
		}
		if outside(at) {
			out++
		}
		// Welford's update: one pass, no cancellation.
		d := v - mean
		mean += d / float64(i)
		m2 += d * (v - mean)
	}
	sd := math.Sqrt(m2 / float64(n-1))
	return Expectation{Mean: mean, SD: sd, SE: sd / math.Sqrt(float64(n)), Samples: n, OutOfRange: float64(out) / float64(n)}, nil
}

// FlagError is a command line's inputs given wrong (both or neither of --inputs and --at, a
// distribution for --at, a syntax error): the caller's mistake, a usage error.
type FlagError struct{ msg string }

func (e *FlagError) Error() string { return e.msg }

// UsageError says that the caller is at fault.
func (e *FlagError) UsageError() bool { return true }

// FromFlags reads the inputs as a command line gives them: a distribution (spec, --inputs) or
// one point (at, --at, values only), exactly one of them. It returns the text it read and its
// distributions; a mistake is a *FlagError.
func FromFlags(spec, at string) (string, []Dist, error) {
	if (spec == "") == (at == "") {
		return "", nil, &FlagError{"give --inputs or --at (one of them)"}
	}
	text := spec
	if at != "" {
		if text = at; strings.Contains(text, "~") {
			return "", nil, &FlagError{"--at takes values (n=1e6), not distributions"}
		}
	}
	ds, err := Parse(text)
	if err != nil {
		return "", nil, &FlagError{fmt.Sprintf("--inputs %q: %v", text, err)}
	}
	return text, ds, nil
}
