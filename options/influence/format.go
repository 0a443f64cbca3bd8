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
	// known spread are kept.
	Noise float64
	// Spread prints "(c ± s)" for terms with a known spread.
	Spread bool
	// Scale gives, for a numeric term's factor (by its FormString, "log2(N)"), the largest
	// |g(x)| over the values that matter: Threshold and Noise then apply to c·g rather than to
	// c, which for N in the thousands is tiny. Numeric terms without a scale are always shown.
	Scale map[string]float64
}

// String formats the model with the default options, e.g.
// "T = 1.00 + 2.00·A + 4.00·A·B + 7.00·A·C".
func (m Model) String() string { return m.Format(FormatOptions{}) }

// Format writes the model as "T = c0 + c1·A + ..." in seconds, terms by size then name.
func (m Model) Format(o FormatOptions) string {
	prec := o.precision()
	terms := append([]Term(nil), m.Terms...)
	sortTerms(terms)
	var b strings.Builder
	b.WriteString("T =")
	first := true
	for _, t := range terms {
		if !o.Shows(t) {
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
		for _, opt := range t.Options {
			b.WriteString("·")
			b.WriteString(opt)
		}
		if t.Numeric != "" {
			b.WriteString("·")
			b.WriteString(FormString(t.Form, t.Numeric))
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

// Shows reports whether Format prints the term: it is not below the threshold, nor (with
// Noise) within noise of zero.
func (o FormatOptions) Shows(t Term) bool {
	if o.KeepSmall {
		return true
	}
	thr := o.Threshold
	if thr <= 0 {
		thr = 0.5 * math.Pow(10, -float64(o.precision()))
	}
	c, spread := math.Abs(t.Coef), t.Spread
	if t.Numeric != "" {
		scale, ok := o.Scale[FormString(t.Form, t.Numeric)]
		if !ok {
			return t.Coef != 0
		}
		c, spread = c*scale, spread*scale
	}
	return c >= thr && !(o.Noise > 0 && c < o.Noise*spread)
}

// Name is the term's product of options, "A·B·log2(N)"; "" for the constant.
func (t Term) Name() string {
	parts := append([]string(nil), t.Options...)
	if t.Numeric != "" {
		parts = append(parts, FormString(t.Form, t.Numeric))
	}
	return strings.Join(parts, "·")
}

// MarshalJSON writes the terms in canonical order.
func (m Model) MarshalJSON() ([]byte, error) {
	terms := append([]Term(nil), m.Terms...)
	for i := range terms {
		if terms[i].Options == nil {
			terms[i].Options = []string{}
		}
	}
	sortTerms(terms)
	return json.Marshal(struct {
		Terms []Term `json:"terms"`
	}{terms})
}

// ParseModel reads a model written by MarshalJSON and validates it: finite coefficients,
// non-empty option names, no option twice in a term, no term twice.
func ParseModel(data []byte) (Model, error) {
	var raw struct {
		Terms []Term `json:"terms"`
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&raw); err != nil {
		return Model{}, fmt.Errorf("influence: %w", err)
	}
	if dec.More() {
		return Model{}, fmt.Errorf("influence: trailing data after the model")
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
		if t.Numeric != "" && slices.Contains(opts, t.Numeric) {
			return Model{}, fmt.Errorf("influence: term %d: %s is both a boolean and the numeric option", i, t.Numeric)
		}
		key := strings.Join(opts, "\x00") + "\x01" + t.Numeric + "\x01" + t.Form
		if seen[key] {
			return Model{}, fmt.Errorf("influence: term over {%s} appears twice", strings.Join(opts, ","))
		}
		seen[key] = true
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
	sortTerms(raw.Terms)
	return Model{Terms: raw.Terms}, nil
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// WriteText prints the model for people: the formula as Format writes it with o, followed by
// "(seconds of TIME)", the terms o leaves out as noise that it would show without o.Noise, and
// a table of the shown terms with their regions (positions through short, which may shorten
// file names).
func (m Model) WriteText(w io.Writer, o FormatOptions, time string, short func(string) string) error {
	fmt.Fprintf(w, "%s  (seconds of %s)\n", m.Format(o), time)
	var noise []string
	plain := FormatOptions{Precision: o.Precision, Scale: o.Scale}
	for _, term := range m.Terms {
		if !o.Shows(term) && plain.Shows(term) {
			name := term.Name()
			if name == "" {
				name = "the constant"
			}
			noise = append(noise, name)
		}
	}
	if len(noise) > 0 {
		fmt.Fprintf(w, "(left out, within %g standard errors of zero: %s; -o keeps every term)\n", o.Noise, strings.Join(noise, ", "))
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "term\tseconds\tregions")
	for _, term := range m.Terms {
		if !o.Shows(term) {
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
