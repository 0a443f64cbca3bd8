// Package influence owns performance-influence models: T(config) = Σ_U c_U · Π_{o∈U} o over
// sets U of boolean options. It builds a region's local model from the region's measured times
// by the Möbius transform (as ConfigCrusher does), sums local models into a global one whose
// terms remember the regions they came from, predicts, prints and reads/writes JSON.
//
// It is pure computation on numbers it is given: it must not analyse source, choose
// configurations (package compress) or run and time anything (the instrumentation does).
package influence

import (
	"fmt"
	"math"
	"sort"
	"strings"
)

// Config is a configuration of boolean options: Config[name] is true when the option is on.
// Options absent from the map are off.
type Config map[string]bool

// Region is a code region as the taint analysis reports it.
type Region struct {
	Name string `json:"name"`
	// Position is the region's source position, carried through untouched.
	Position string `json:"position,omitempty"`
	// Options are the options that influence the region.
	Options []string `json:"options"`
}

// Measurement is one measured run of a region: the configuration that ran and the time the
// region took in it, in seconds.
type Measurement struct {
	Config  Config
	Seconds float64
	// SE is the standard error of Seconds when it already summarises repeated runs (a
	// median of repetitions, say); 0 for a single run. It stands in for the spread of a
	// cell that has only this measurement.
	SE float64
	// Num holds the values of the numeric options in this run (NumericLocalModel).
	Num map[string]float64
}

// Cell is the summary of all runs whose configurations restrict to one assignment of the
// region's options.
type Cell struct {
	// On lists the region's options that are on in this assignment, in the region's order.
	On   []string `json:"on"`
	Mean float64  `json:"mean"`
	// SD is the sample standard deviation of the runs; for a single run, its Measurement.SE
	// (0 when it has none).
	SD float64 `json:"sd"`
	N  int     `json:"n"`
}

// Local is a region's local model.
type Local struct {
	Region Region `json:"region"`
	// Table has one cell per assignment of the region's options, indexed by bit mask
	// (bit j is Region.Options[j]); nil for a region with a numeric option, whose measurements
	// are Numeric.Points.
	Table []Cell `json:"table,omitempty"`
	// Terms are the Möbius coefficients, one per subset of the options (zeros included); with
	// a numeric option, two per subset of the boolean ones (constant and numeric).
	Terms []Term `json:"terms"`
	// Numeric is the fit of the region's numeric option, if it has one.
	Numeric *NumericFit `json:"numeric,omitempty"`
}

// Source is one region's contribution to a term.
type Source struct {
	Region   string  `json:"region"`
	Position string  `json:"position,omitempty"`
	Coef     float64 `json:"coef"`
}

// Term is c_U · Π_{o∈U} o.
type Term struct {
	// Options is U, sorted by name; empty for the constant term.
	Options []string `json:"options"`
	// Numeric and Form, when set, multiply the term by Form evaluated at the value of the
	// numeric option Numeric: c·Π U·g(N).
	Numeric string  `json:"numeric,omitempty"`
	Form    string  `json:"form,omitempty"`
	Coef    float64 `json:"coef"`
	// Spread is a rough standard error of Coef from the repetitions' spread (for a numeric
	// term, and the constant of a region with a curve, from the curve's residuals), assuming
	// independent measurements and regions; 0 when unknown (single runs) or for fitted models.
	Spread float64 `json:"spread,omitempty"`
	// Cov, on a numeric term, holds the covariances of Coef with the coefficients of the other
	// terms of its family (the terms over the same boolean options) that its regions' curves
	// share: under CovConstant the constant term's, under a form ("log2(x)") the term of the same
	// numeric option in that form. A region's curve a + b·g(N) is fitted by least squares, whose
	// coefficients are correlated (Cov(a, b) = σ²(XᵀX)⁻¹), so the curve's prediction at a value
	// can be precise when a and b alone are not (FormatOptions.Noise judges a family by it).
	// Absent covariances count as 0 (model files written before they were recorded; ReadModel in
	// package study recomputes them from the file's local models).
	Cov     map[string]float64 `json:"cov,omitempty"`
	Sources []Source           `json:"sources,omitempty"`
}

// CovConstant is the key of Term.Cov under which a numeric term holds its covariance with the
// constant term over the same boolean options.
const CovConstant = "1"

// Model is a performance-influence model. Terms are kept in canonical order (by size, then
// by names) with distinct option sets.
type Model struct {
	Terms []Term `json:"terms"`
}

// MinTraced is the smallest contribution (in seconds) for which a term records its source:
// a region whose local coefficient for a term is rounding noise did not cause that term.
const MinTraced = 1e-9

// MaxRegionOptions caps a region's options: 2^20 assignments is already far more than anyone
// measures.
const MaxRegionOptions = 20

// LocalModel computes a region's local model from measurements of the region. Runs whose
// configurations agree on the region's options are averaged; every assignment must have at
// least one run, and the error names those that have none.
func LocalModel(r Region, ms []Measurement) (Local, error) {
	k := len(r.Options)
	if k > MaxRegionOptions {
		return Local{}, fmt.Errorf("influence: region %s has %d options, more than %d", r.Name, k, MaxRegionOptions)
	}
	seen := map[string]bool{}
	for _, o := range r.Options {
		if o == "" {
			return Local{}, fmt.Errorf("influence: region %s has an unnamed option", r.Name)
		}
		if seen[o] {
			return Local{}, fmt.Errorf("influence: region %s lists option %s twice", r.Name, o)
		}
		seen[o] = true
	}
	size := 1 << k
	sum := make([]float64, size)
	sumSq := make([]float64, size)
	se := make([]float64, size)
	n := make([]int, size)
	for _, m := range ms {
		if math.IsNaN(m.Seconds) || math.IsInf(m.Seconds, 0) {
			return Local{}, fmt.Errorf("influence: region %s: non-finite time %v", r.Name, m.Seconds)
		}
		mask := 0
		for j, o := range r.Options {
			if m.Config[o] {
				mask |= 1 << j
			}
		}
		sum[mask] += m.Seconds
		se[mask] = m.SE
		n[mask]++
	}
	mean := make([]float64, size)
	for mask := range mean {
		if n[mask] > 0 {
			mean[mask] = sum[mask] / float64(n[mask])
		}
	}
	// Two-pass variance: times are seconds with small spreads, where Σx² − n·mean² cancels.
	for _, m := range ms {
		mask := 0
		for j, o := range r.Options {
			if m.Config[o] {
				mask |= 1 << j
			}
		}
		d := m.Seconds - mean[mask]
		sumSq[mask] += d * d
	}
	var missing []string
	table := make([]Cell, size)
	for mask := range table {
		c := Cell{On: maskNames(r.Options, mask), Mean: mean[mask], N: n[mask]}
		if n[mask] == 0 {
			missing = append(missing, assignmentString(r.Options, mask))
		} else if n[mask] > 1 {
			c.SD = math.Sqrt(sumSq[mask] / float64(n[mask]-1))
		} else if se[mask] > 0 && !math.IsInf(se[mask], 0) {
			// One summarised measurement: its standard error is the cell's (SD/√N with N=1).
			c.SD = se[mask]
		}
		table[mask] = c
	}
	if len(missing) > 0 {
		const show = 8
		more := ""
		if len(missing) > show {
			more = fmt.Sprintf(" and %d more", len(missing)-show)
			missing = missing[:show]
		}
		return Local{}, fmt.Errorf("influence: region %s (%s): no measurement for %s%s", r.Name, r.Position, strings.Join(missing, ", "), more)
	}
	return localFromTable(r, table), nil
}

// LocalFromTable computes the local model from a complete table (indexed by bit mask over
// r.Options, as Local.Table).
func LocalFromTable(r Region, table []Cell) (Local, error) {
	if len(r.Options) > MaxRegionOptions {
		return Local{}, fmt.Errorf("influence: region %s has %d options, more than %d", r.Name, len(r.Options), MaxRegionOptions)
	}
	if len(table) != 1<<len(r.Options) {
		return Local{}, fmt.Errorf("influence: region %s: table has %d cells, want %d", r.Name, len(table), 1<<len(r.Options))
	}
	return localFromTable(r, table), nil
}

func localFromTable(r Region, table []Cell) Local {
	k := len(r.Options)
	size := 1 << k
	coef := make([]float64, size)
	variance := make([]float64, size)
	for mask, c := range table {
		coef[mask] = c.Mean
		if c.N > 0 {
			variance[mask] = c.SD * c.SD / float64(c.N)
		}
	}
	// Möbius inversion over the subset lattice, one option at a time:
	// c_U = Σ_{W⊆U} (−1)^{|U|−|W|} T(W), in k·2^k steps instead of 3^k. The variance of c_U is
	// Σ_{W⊆U} Var T(W) (signs square away), the zeta transform of the same structure.
	for j := 0; j < k; j++ {
		bit := 1 << j
		for mask := 0; mask < size; mask++ {
			if mask&bit != 0 {
				coef[mask] -= coef[mask^bit]
				variance[mask] += variance[mask^bit]
			}
		}
	}
	terms := make([]Term, size)
	for mask := range terms {
		terms[mask] = Term{
			Options: sortedNames(r.Options, mask),
			Coef:    coef[mask],
			Spread:  math.Sqrt(variance[mask]),
			Sources: []Source{{Region: r.Name, Position: r.Position, Coef: coef[mask]}},
		}
	}
	sortTerms(terms)
	return Local{Region: r, Table: table, Terms: terms}
}

// Global sums local models: terms over the same options add, and each keeps the regions that
// contributed at least MinTraced to it.
func Global(locals ...Local) Model {
	var terms []Term
	for _, l := range locals {
		terms = append(terms, l.Terms...)
	}
	return merge(terms)
}

// Add sums models term by term.
func Add(models ...Model) Model {
	var terms []Term
	for _, m := range models {
		terms = append(terms, m.Terms...)
	}
	return merge(terms)
}

// NewModel builds a model from terms, normalising option order and adding duplicate terms.
func NewModel(terms []Term) Model { return merge(terms) }

func merge(terms []Term) Model {
	byKey := map[string]*Term{}
	var keys []string
	for _, t := range terms {
		opts := append([]string(nil), t.Options...)
		sort.Strings(opts)
		key := strings.Join(opts, "\x00") + "\x01" + t.Numeric + "\x01" + t.Form
		acc, ok := byKey[key]
		if !ok {
			acc = &Term{Options: opts, Numeric: t.Numeric, Form: t.Form}
			if acc.Options == nil {
				acc.Options = []string{}
			}
			byKey[key] = acc
			keys = append(keys, key)
		}
		acc.Coef += t.Coef
		// Independent errors add in quadrature, and so do covariances: the regions' errors
		// are taken to be independent.
		acc.Spread = math.Hypot(acc.Spread, t.Spread)
		for k, v := range t.Cov {
			if acc.Cov == nil {
				acc.Cov = map[string]float64{}
			}
			acc.Cov[k] += v
		}
		for _, src := range t.Sources {
			if math.Abs(src.Coef) >= MinTraced {
				acc.Sources = append(acc.Sources, src)
			}
		}
	}
	out := make([]Term, 0, len(keys))
	for _, k := range keys {
		out = append(out, *byKey[k])
	}
	sortTerms(out)
	return Model{Terms: out}
}

// Predict evaluates the model on a configuration of boolean options. A model with numeric terms
// needs their values: use PredictAt (Predict gives NaN for such a model).
func Predict(m Model, c Config) float64 {
	v, err := PredictAt(m, c, nil)
	if err != nil {
		return math.NaN()
	}
	return v
}

// PredictAt evaluates the model on a configuration: boolean options in c, numeric ones in num.
// A numeric term whose boolean options are on needs its option's value.
func PredictAt(m Model, c Config, num map[string]float64) (float64, error) {
	total := 0.0
	for _, t := range m.Terms {
		if !t.active(c) {
			continue
		}
		v, err := t.factor(num)
		if err != nil {
			return 0, err
		}
		total += t.Coef * v
	}
	return total, nil
}

// active reports whether every boolean option of the term is on.
func (t Term) active(c Config) bool {
	for _, o := range t.Options {
		if !c[o] {
			return false
		}
	}
	return true
}

// factor is g(N) for a numeric term, 1 otherwise.
func (t Term) factor(num map[string]float64) (float64, error) {
	if t.Numeric == "" {
		return 1, nil
	}
	x, ok := num[t.Numeric]
	if !ok {
		return 0, fmt.Errorf("the model needs a value of the numeric option %s", t.Numeric)
	}
	v, err := FormValue(t.Form, x)
	if err != nil {
		return 0, fmt.Errorf("%s: %v", t.Numeric, err)
	}
	return v, nil
}

// Coef returns the coefficient of the constant term over exactly the given boolean options (0 if
// absent).
func (m Model) Coef(options ...string) float64 {
	key := append([]string(nil), options...)
	sort.Strings(key)
	for _, t := range m.Terms {
		if t.Numeric == "" && equalStrings(t.Options, key) {
			return t.Coef
		}
	}
	return 0
}

// Options lists every option the model mentions, sorted.
func (m Model) Options() []string {
	seen := map[string]bool{}
	var out []string
	for _, t := range m.Terms {
		for _, o := range append(t.Options, t.Numeric) {
			if o != "" && !seen[o] {
				seen[o] = true
				out = append(out, o)
			}
		}
	}
	sort.Strings(out)
	return out
}

func sortTerms(ts []Term) {
	sort.SliceStable(ts, func(a, b int) bool {
		if !equalStrings(ts[a].Options, ts[b].Options) {
			return termLess(ts[a].Options, ts[b].Options)
		}
		return ts[a].Numeric+"\x00"+ts[a].Form < ts[b].Numeric+"\x00"+ts[b].Form
	})
}

func termLess(a, b []string) bool {
	if len(a) != len(b) {
		return len(a) < len(b)
	}
	for i := range a {
		if a[i] != b[i] {
			return a[i] < b[i]
		}
	}
	return false
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func maskNames(opts []string, mask int) []string {
	out := []string{}
	for j, o := range opts {
		if mask&(1<<j) != 0 {
			out = append(out, o)
		}
	}
	return out
}

func sortedNames(opts []string, mask int) []string {
	out := maskNames(opts, mask)
	sort.Strings(out)
	return out
}

func assignmentString(opts []string, mask int) string {
	parts := make([]string, len(opts))
	for j, o := range opts {
		parts[j] = fmt.Sprintf("%s=%t", o, mask&(1<<j) != 0)
	}
	return "{" + strings.Join(parts, " ") + "}"
}
