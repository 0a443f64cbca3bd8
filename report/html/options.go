package html

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/augur-perf/augur/options/influence"
	"github.com/augur-perf/augur/options/study"
)

// OptionsModel is a performance-influence model of a configurable program (augur options):
// its terms, largest first, the regions they come from, and the configurations measured.
type OptionsModel struct {
	System  string
	Options []string
	Terms   []OptionTerm
	Regions []OptionRegion
	Configs [][]string
	// Measuring is the seconds the measured runs took (0 when unknown).
	Measuring float64
	// Goroutines is the most goroutines that ran regions at once; when more than one,
	// Summed are the terms of the model of CPU time summed over goroutines (Terms are wall time).
	Goroutines int
	Summed     []OptionTerm
}

// OptionTerm is one term of the global model.
type OptionTerm struct {
	// Label is the term as the model prints it: "c", "A·B", "A·log2(size)", "crc·[level=3]".
	Label string
	Coef  float64
	// Spread is the coefficient's standard error (0 when unknown).
	Spread float64
	// Sources are the regions behind the term, with their positions.
	Sources []string
}

// OptionRegion is a region of the program and the options that influence it.
type OptionRegion struct {
	Name, Position string
	Options        []string
	// Terms are the region's own non-zero terms, labelled as OptionTerm's.
	Terms []OptionTerm
}

// BuildOptions turns an options model file into a report.
func BuildOptions(mf *study.ModelFile) *Report {
	m := &OptionsModel{System: mf.System, Options: mf.Options, Configs: mf.Configs, Measuring: mf.Measuring}
	m.Terms = optionTerms(mf.Model.Terms, true)
	if mf.Summed != nil {
		m.Goroutines, m.Summed = mf.Goroutines, optionTerms(mf.Summed.Model.Terms, true)
	}
	for _, l := range mf.Locals {
		m.Regions = append(m.Regions, OptionRegion{Name: l.Region.Name, Position: l.Region.Position, Options: l.Region.Options, Terms: optionTerms(l.Terms, false)})
	}
	title := "augur options: performance-influence model"
	if mf.System != "" {
		title += " of " + mf.System
	}
	return &Report{Title: title, Options: m}
}

func optionTerms(ts []influence.Term, sources bool) []OptionTerm {
	var out []OptionTerm
	for _, t := range ts {
		if t.Coef == 0 && (len(t.Options) > 0 || len(t.Levels) > 0) {
			continue
		}
		label := t.Name() // "A·[mode=fast]·log2(N)"
		if label == "" {
			label = "c"
		}
		ot := OptionTerm{Label: label, Coef: t.Coef, Spread: t.Spread}
		if sources {
			for _, s := range t.Sources {
				src := s.Region
				if s.Position != "" {
					src += " (" + s.Position + ")"
				}
				ot.Sources = append(ot.Sources, src)
			}
		}
		out = append(out, ot)
	}
	// The constant first, then by magnitude.
	sort.SliceStable(out, func(a, b int) bool {
		if (out[a].Label == "c") != (out[b].Label == "c") {
			return out[a].Label == "c"
		}
		return math.Abs(out[a].Coef) > math.Abs(out[b].Coef)
	})
	return out
}

// termsChart draws the terms as horizontal bars from zero (negative ones to the left), with
// their standard errors as whiskers.
func termsChart(m *OptionsModel) string {
	const w, rowH, left, right, top = 960.0, 22.0, 260.0, 110.0, 12.0
	h := top + rowH*float64(len(m.Terms)) + 10
	var most float64
	for _, t := range m.Terms {
		if finite(t.Coef) {
			most = math.Max(most, math.Abs(t.Coef)+t.Spread)
		}
	}
	if most <= 0 {
		most = 1
	}
	zero, span := left+(w-left-right)/2, (w-left-right)/2
	x := func(v float64) float64 {
		if !finite(v) {
			return zero
		}
		return zero + v/most*span
	}
	var b strings.Builder
	fmt.Fprintf(&b, `<svg id="terms-chart" class="terms" role="img" width="%s" height="%s" viewBox="0 0 %s %s">`, f1(w), f1(h), f1(w), f1(h))
	b.WriteString(`<title>The model's terms, in seconds: bars from zero, whiskers one standard error</title>`)
	fmt.Fprintf(&b, `<line class="axis" x1="%s" y1="%s" x2="%s" y2="%s"/>`, f1(zero), f1(top-4), f1(zero), f1(h-6))
	for i, t := range m.Terms {
		y := top + rowH*float64(i)
		lo, hi := math.Min(x(0), x(t.Coef)), math.Max(x(0), x(t.Coef))
		fmt.Fprintf(&b, `<g class="term" data-term="%s" data-coef="%s"><title>%s: %s s</title>`, esc(t.Label), num(t.Coef), esc(t.Label), num(t.Coef))
		fmt.Fprintf(&b, `<text class="name" x="%s" y="%s" text-anchor="end">%s</text>`, f1(left-8), f1(y+15), esc(truncate(t.Label, 36)))
		class := "pos"
		if t.Coef < 0 {
			class = "neg"
		}
		fmt.Fprintf(&b, `<rect class="%s" x="%s" y="%s" width="%s" height="%s"/>`, class, f1(lo), f1(y+4), f1(hi-lo), f1(rowH-8))
		if t.Spread > 0 && finite(t.Spread) {
			fmt.Fprintf(&b, `<line class="whisker" x1="%s" y1="%s" x2="%s" y2="%s"/>`, f1(x(t.Coef-t.Spread)), f1(y+11), f1(x(t.Coef+t.Spread)), f1(y+11))
		}
		fmt.Fprintf(&b, `<text class="value" x="%s" y="%s">%s</text></g>`, f1(math.Max(hi, zero)+6), f1(y+15), num(t.Coef))
	}
	b.WriteString(`</svg>`)
	return b.String()
}
