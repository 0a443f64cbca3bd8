package influence

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strings"
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
		b.WriteString(num)
		for _, opt := range t.Options {
			b.WriteString("·")
			b.WriteString(opt)
		}
	}
	if first {
		fmt.Fprintf(&b, " %.*f", prec, 0.0)
	}
	return b.String()
}

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
	c := math.Abs(t.Coef)
	return c >= thr && !(o.Noise > 0 && c < o.Noise*t.Spread)
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
		key := strings.Join(opts, "\x00")
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
