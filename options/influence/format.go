package influence

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"
)

// FormatOptions controls Model.Format.
type FormatOptions struct {
	// Precision is the number of decimals (default 2).
	Precision int
	// Threshold drops terms with |coef| below it (default half the last printed digit), so
	// that rounding noise from the transform does not show up as spurious interactions.
	Threshold float64
	// KeepSmall prints every term, however small.
	KeepSmall bool
	// Noise, when positive, also drops terms whose |coef| is below Noise times their
	// spread: at that many standard errors they cannot be told from zero. Terms without a
	// known spread are kept. A family of terms with a curve (the constant and the numeric
	// terms over the same boolean options) is judged as one when Values gives its numeric
	// options' values: it is dropped, all of it, when its prediction at every measured value
	// is within Noise standard errors of zero (the terms' covariances, Term.Cov, included).
	// The coefficients of a curve a + b·g(N) are correlated, so each alone can be within noise
	// of zero while the curve is not.
	Noise float64
	// Spread prints "(c ± s)" for terms with a known spread.
	Spread bool
	// Scale gives, for a numeric term's factor (by its FormString, "log2(N)"), the largest
	// |g(x)| over the values that matter: Threshold and Noise then apply to c·g rather than to
	// c, which for N in the thousands is tiny. Numeric terms without a scale are always shown.
	// Without it, the scale comes from Values.
	Scale map[string]float64
	// Values gives each numeric option's measured values, at which Noise judges a family of
	// terms with a curve (ModelFile.Numeric in package study).
	Values map[string][]float64
}

// String formats the model with the default options, e.g.
// "T = 1.00 + 2.00·A + 4.00·A·B + 7.00·A·C".
func (m Model) String() string { return m.Format(FormatOptions{}) }

// Format writes the model as "T = c0 + c1·A + ..." in seconds, terms by size then name.
func (m Model) Format(o FormatOptions) string {
	prec := o.precision()
	terms := append([]Term(nil), m.Terms...)
	sortTerms(terms, m.Levels)
	shown := o.Shown(Model{Terms: terms})
	var b strings.Builder
	b.WriteString("T =")
	first := true
	for i, t := range terms {
		if !shown[i] {
			continue
		}
		c := t.Coef
		switch {
		case first && c < 0:
			b.WriteString(" -")
			c = -c
		case first:
			b.WriteByte(' ')
		case c < 0:
			b.WriteString(" - ")
			c = -c
		default:
			b.WriteString(" + ")
		}
		first = false
		num := fmt.Sprintf("%.*f", prec, c)
		if o.Spread && t.Spread > 0 {
			num = fmt.Sprintf("(%.*f ± %.*f)", prec, c, prec, t.Spread)
		}
		if t.Numeric != "" {
			// Per unit of g(N): significant digits, not decimals.
			num = strconv.FormatFloat(c, 'g', prec, 64)
			if o.Spread && t.Spread > 0 {
				num = fmt.Sprintf("(%s ± %s)", num, strconv.FormatFloat(t.Spread, 'g', prec, 64))
			}
		}
		b.WriteString(num)
		for _, f := range t.factors() {
			b.WriteString("·")
			b.WriteString(f)
		}
	}
	if first {
		fmt.Fprintf(&b, " %.*f", prec, 0.0)
	}
	return b.String()
}

// FormString writes form with the option's name for x: log2(N), N^2.
func FormString(form, name string) string { return strings.ReplaceAll(form, "x", name) }

func (o FormatOptions) precision() int {
	if o.Precision <= 0 {
		return 2
	}
	return o.Precision
}

// Shows reports whether the term, judged alone, is printed: it is not below the threshold,
// nor (with Noise) within noise of zero. Format judges the terms with a curve by family:
// Shown.
func (o FormatOptions) Shows(t Term) bool {
	if o.KeepSmall {
		return true
	}
	c, spread, ok := o.scaled(t)
	if !ok {
		return t.Coef != 0
	}
	return c >= o.threshold() && !(o.Noise > 0 && c < o.Noise*spread)
}

func (o FormatOptions) threshold() float64 {
	if o.Threshold > 0 {
		return o.Threshold
	}
	return 0.5 * math.Pow(10, -float64(o.precision()))
}

// scaled is the term's |coef| and spread, times the largest |g(x)| for a numeric term (ok
// false when that is unknown).
func (o FormatOptions) scaled(t Term) (c, spread float64, ok bool) {
	c, spread = math.Abs(t.Coef), t.Spread
	if t.Numeric == "" {
		return c, spread, true
	}
	scale, ok := o.Scale[FormString(t.Form, t.Numeric)]
	if !ok {
		xs, have := o.Values[t.Numeric]
		for _, x := range xs {
			if g, err := FormValue(t.Form, x); err == nil {
				scale, ok = math.Max(scale, math.Abs(g)), true
			}
		}
		if !have {
			ok = false
		}
	}
	if !ok {
		return 0, 0, false
	}
	return c * scale, spread * scale, true
}

// Shown reports, for each of m.Terms in order, whether Format prints it: a term is printed when
// it is not below the threshold and, with Noise, its family is not within noise of zero. A
// family with a curve whose numeric options have Values, or of a categorical option's values,
// is judged as one (FamilyNoise); other terms are judged alone (Shows).
func (o FormatOptions) Shown(m Model) []bool {
	out := make([]bool, len(m.Terms))
	families := map[string][]int{}
	for i, t := range m.Terms {
		k := familyKey(t)
		families[k] = append(families[k], i)
	}
	noisy := map[string]bool{}
	if o.Noise > 0 && !o.KeepSmall {
		for k, idx := range families {
			fam := make([]Term, len(idx))
			for j, i := range idx {
				fam[j] = m.Terms[i]
			}
			if n, ok := FamilyNoise(fam, o.Values, o.Noise); ok {
				noisy[k] = n
			}
		}
	}
	for i, t := range m.Terms {
		n, together := noisy[familyKey(t)]
		if !together {
			out[i] = o.Shows(t)
			continue
		}
		c, _, ok := o.scaled(t)
		out[i] = !n && (!ok && t.Coef != 0 || ok && c >= o.threshold())
	}
	return out
}

// FamilyNoise judges a family of terms as one: the terms over one set of boolean options and
// one set of categorical options (familyKey), at any of the categorical options' values, with
// a constant and numeric terms for each of those. For every choice of categorical values the
// family's terms at exactly those values make a prediction f = c + Σ d·g(x), judged at every
// combination of the measured values of its numeric options (values) against its standard error
// √(vᵀΣv), Σ the covariance matrix of the coefficients (Spread², Term.Cov; absent covariances
// are 0); without numeric terms f is the coefficient, its standard error its Spread. noisy is
// true when |f| < k·SE everywhere: a categorical option's values are left out together, or
// shown together, so a step that stands out at one value is printed with the others. judged is
// false when the family has neither numeric nor categorical terms, or lacks the values of a
// numeric option (the terms are then judged alone).
func FamilyNoise(fam []Term, values map[string][]float64, k float64) (noisy, judged bool) {
	var keys []string
	byLevels := map[string][]Term{}
	numeric, categorical := false, false
	for _, t := range fam {
		key := levelKey(t.Levels)
		if _, ok := byLevels[key]; !ok {
			keys = append(keys, key)
		}
		byLevels[key] = append(byLevels[key], t)
		numeric = numeric || t.Numeric != ""
		categorical = categorical || len(t.Levels) > 0
	}
	if !numeric && !categorical {
		return false, false
	}
	noisy = true
	for _, key := range keys {
		n, ok := curveNoise(byLevels[key], values, k)
		if !ok {
			return false, false
		}
		noisy = noisy && n
	}
	return noisy, true
}

// maxGrid bounds the measured points at which curveNoise evaluates a family.
const maxGrid = 1 << 16

// curveNoise is FamilyNoise for the terms of a family at one choice of categorical values: a
// constant and its curve's terms, or a constant alone.
func curveNoise(fam []Term, values map[string][]float64, k float64) (noisy, judged bool) {
	var nums []string
	for _, t := range fam {
		if t.Numeric != "" && !slices.Contains(nums, t.Numeric) {
			nums = append(nums, t.Numeric)
		}
	}
	sort.Strings(nums)
	grid := 1
	for _, n := range nums {
		if len(values[n]) == 0 {
			return false, false
		}
		grid *= len(values[n])
		if grid > maxGrid {
			return false, false
		}
	}
	// The symmetric covariance of the family's coefficients.
	p := len(fam)
	cov := make([][]float64, p)
	for i := range cov {
		cov[i] = make([]float64, p)
		cov[i][i] = fam[i].Spread * fam[i].Spread
	}
	for i, t := range fam {
		for key, v := range t.Cov {
			for j, u := range fam {
				if j == i {
					continue
				}
				match := key == CovConstant && u.Numeric == "" ||
					key != CovConstant && u.Numeric == t.Numeric && u.Form == key
				if !match {
					continue
				}
				w := v
				if back, ok := u.Cov[t.Form]; ok && u.Numeric != "" {
					w = (v + back) / 2 // recorded on both sides
				}
				cov[i][j], cov[j][i] = w, w
			}
		}
	}
	at := map[string]float64{}
	idx := make([]int, len(nums))
	g := make([]float64, p)
	for {
		for j, n := range nums {
			at[n] = values[n][idx[j]]
		}
		var f float64
		for i, t := range fam {
			v, err := t.factor(at)
			if err != nil {
				return false, false
			}
			g[i] = v
			f += t.Coef * v
		}
		var variance float64
		for i := range fam {
			for j := range fam {
				variance += g[i] * cov[i][j] * g[j]
			}
		}
		if !(math.Abs(f) < k*math.Sqrt(math.Max(variance, 0))) {
			return false, true
		}
		j := 0
		for ; j < len(nums); j++ {
			idx[j]++
			if idx[j] < len(values[nums[j]]) {
				break
			}
			idx[j] = 0
		}
		if j == len(nums) {
			return true, true
		}
	}
}

// Name is the term's product of options, "A·B·[mode=fast]·log2(N)"; "" for the constant.
func (t Term) Name() string { return strings.Join(t.factors(), "·") }

// factors are the term's factors as printed: its boolean options and categorical indicators
// ([o=v]) in the order of the options' names, then g(N) for a numeric term.
func (t Term) factors() []string {
	var out []string
	for _, o := range factorNames(t) {
		if v, ok := t.Levels[o]; ok {
			out = append(out, LevelString(o, v))
		} else {
			out = append(out, o)
		}
	}
	if t.Numeric != "" {
		out = append(out, FormString(t.Form, t.Numeric))
	}
	return out
}

// MarshalJSON writes the terms in canonical order.
func (m Model) MarshalJSON() ([]byte, error) {
	terms := append([]Term(nil), m.Terms...)
	for i := range terms {
		if terms[i].Options == nil {
			terms[i].Options = []string{}
		}
	}
	sortTerms(terms, m.Levels)
	return json.Marshal(struct {
		Terms  []Term              `json:"terms"`
		Levels map[string][]string `json:"levels,omitempty"`
	}{terms, m.Levels})
}

// ParseModel reads a model written by MarshalJSON and validates it: finite coefficients,
// non-empty option names, no option twice in a term, no term twice.
func ParseModel(data []byte) (Model, error) {
	var raw struct {
		Terms  []Term              `json:"terms"`
		Levels map[string][]string `json:"levels"`
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&raw); err != nil {
		return Model{}, fmt.Errorf("influence: %w", err)
	}
	if dec.More() {
		return Model{}, fmt.Errorf("influence: trailing data after the model")
	}
	for o, vs := range raw.Levels {
		if o == "" {
			return Model{}, fmt.Errorf("influence: levels of an unnamed option")
		}
		if err := checkLevels(o, vs); err != nil {
			return Model{}, fmt.Errorf("influence: %v", err)
		}
	}
	if len(raw.Levels) == 0 {
		raw.Levels = nil
	}
	seen := map[string]bool{}
	for i, t := range raw.Terms {
		if !finite(t.Coef) || !finite(t.Spread) || t.Spread < 0 {
			return Model{}, fmt.Errorf("influence: term %d: coefficient %v ± %v is not a finite number with a non-negative spread", i, t.Coef, t.Spread)
		}
		opts := append([]string(nil), t.Options...)
		sort.Strings(opts)
		for j, o := range opts {
			if o == "" {
				return Model{}, fmt.Errorf("influence: term %d has an empty option name", i)
			}
			if j > 0 && opts[j-1] == o {
				return Model{}, fmt.Errorf("influence: term %d lists option %s twice", i, o)
			}
		}
		if (t.Numeric == "") != (t.Form == "") {
			return Model{}, fmt.Errorf("influence: term %d: a numeric term needs both its option and its form", i)
		}
		if t.Form != "" && !slices.Contains(Forms, t.Form) {
			return Model{}, fmt.Errorf("influence: term %d: unknown form %q (want one of %s)", i, t.Form, strings.Join(Forms, ", "))
		}
		for _, o := range append(slices.Clone(opts), t.Numeric) {
			if _, categorical := raw.Levels[o]; categorical {
				return Model{}, fmt.Errorf("influence: term %d: %s is categorical (the model's levels) and another kind of option", i, o)
			}
		}
		if t.Numeric != "" && slices.Contains(opts, t.Numeric) {
			return Model{}, fmt.Errorf("influence: term %d: %s is both a boolean and the numeric option", i, t.Numeric)
		}
		for o, v := range t.Levels {
			vs, ok := raw.Levels[o]
			switch {
			case !ok:
				return Model{}, fmt.Errorf("influence: term %d: categorical option %s has no levels in the model", i, o)
			case !slices.Contains(vs[1:], v):
				return Model{}, fmt.Errorf("influence: term %d: %s=%s is not one of the option's values after the first, %s (the first is the reference no term names)", i, o, v, strings.Join(vs, ", "))
			case slices.Contains(opts, o) || o == t.Numeric:
				return Model{}, fmt.Errorf("influence: term %d: %s is both categorical and another kind of option", i, o)
			}
		}
		if len(t.Levels) == 0 {
			raw.Terms[i].Levels = nil
		}
		key := strings.Join(opts, "\x00") + "\x01" + levelKey(t.Levels) + "\x01" + t.Numeric + "\x01" + t.Form
		if seen[key] {
			return Model{}, fmt.Errorf("influence: term %s appears twice", Term{Options: opts, Levels: t.Levels, Numeric: t.Numeric, Form: t.Form}.Name())
		}
		seen[key] = true
		if len(t.Cov) > 0 && t.Numeric == "" {
			return Model{}, fmt.Errorf("influence: term %d: covariances belong to numeric terms", i)
		}
		for k, v := range t.Cov {
			if k != CovConstant && (!slices.Contains(Forms, k) || k == t.Form) {
				return Model{}, fmt.Errorf("influence: term %d: covariance with %q (want %q or another form: %s)", i, k, CovConstant, strings.Join(Forms, ", "))
			}
			if !finite(v) {
				return Model{}, fmt.Errorf("influence: term %d: covariance %v with %q", i, v, k)
			}
		}
		for _, s := range t.Sources {
			if !finite(s.Coef) {
				return Model{}, fmt.Errorf("influence: term %d: source %s has coefficient %v", i, s.Region, s.Coef)
			}
		}
		if opts == nil {
			opts = []string{}
		}
		raw.Terms[i].Options = opts
	}
	sortTerms(raw.Terms, raw.Levels)
	return Model{Terms: raw.Terms, Levels: raw.Levels}, nil
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// WriteText prints the model for people: the formula as Format writes it with o, followed by
// "(seconds of TIME)", the terms o leaves out as noise that it would show without o.Noise (a
// family judged as one, FamilyNoise, in braces), and a table of the shown terms with their
// regions (positions through short, which may shorten file names).
func (m Model) WriteText(w io.Writer, o FormatOptions, time string, short func(string) string) error {
	terms := append([]Term(nil), m.Terms...)
	sortTerms(terms, m.Levels)
	m = Model{Terms: terms, Levels: m.Levels}
	fmt.Fprintf(w, "%s  (seconds of %s)\n", m.Format(o), time)
	shown := o.Shown(m)
	plain := FormatOptions{Precision: o.Precision, Threshold: o.Threshold, Scale: o.Scale, Values: o.Values}
	all := plain.Shown(m)
	var noise, curves, cats []string
	for i := 0; i < len(terms); {
		// sortTerms keeps a family's terms together.
		j := i
		for j < len(terms) && familyKey(terms[j]) == familyKey(terms[i]) {
			j++
		}
		var names []string
		for q := i; q < j; q++ {
			if !shown[q] && all[q] {
				name := terms[q].Name()
				if name == "" {
					name = "the constant"
				}
				names = append(names, name)
			}
		}
		if _, together := FamilyNoise(terms[i:j], o.Values, o.Noise); together && len(names) > 0 && o.Noise > 0 {
			noise = append(noise, "{"+strings.Join(names, ", ")+"}")
			for q := i; q < j; q++ {
				if n := terms[q].Numeric; n != "" && !slices.Contains(curves, n) {
					curves = append(curves, n)
				}
				for _, c := range levelNames(terms[q].Levels) {
					if !slices.Contains(cats, c) {
						cats = append(cats, c)
					}
				}
			}
		} else {
			noise = append(noise, names...)
		}
		i = j
	}
	if len(noise) > 0 {
		var hows []string
		if len(curves) > 0 {
			sort.Strings(curves)
			hows = append(hows, fmt.Sprintf("a constant and its curve in %s at every measured value", strings.Join(curves, " and ")))
		}
		if len(cats) > 0 {
			sort.Strings(cats)
			hows = append(hows, fmt.Sprintf("the terms of every value of %s together", strings.Join(cats, " and ")))
		}
		how := ""
		if len(hows) > 0 {
			how = ", each brace " + strings.Join(hows, " or ")
		}
		fmt.Fprintf(w, "(left out, within %g standard errors of zero%s: %s; -o keeps every term)\n", o.Noise, how, strings.Join(noise, ", "))
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "term\tseconds\tregions")
	for i, term := range m.Terms {
		if !shown[i] {
			continue
		}
		var where []string
		for _, src := range term.Sources {
			if src.Position == "" {
				where = append(where, src.Region)
				continue
			}
			where = append(where, fmt.Sprintf("%s (%s)", short(src.Position), src.Region))
		}
		name := term.Name()
		if name == "" {
			name = "1"
		}
		fmt.Fprintf(tw, "%s\t%.4g\t%s\n", name, term.Coef, strings.Join(where, ", "))
	}
	return tw.Flush()
}
