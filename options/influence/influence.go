// Package influence owns performance-influence models: T(config) = Σ_U c_U · Π_{o∈U} o over
// sets U of boolean options. It builds a region's local model from the region's measured times
// by the Möbius transform (as ConfigCrusher does), sums local models into a global one whose
// terms remember the regions they came from, predicts, prints and reads/writes JSON. Numeric
// options (numeric.go) enter as curves a + b·g(N); categorical options (categorical.go), an
// unordered set of values, enter dummy-coded against their first value, as factors [o=v].
//
// It is pure computation on numbers it is given: it must not analyse source, choose
// configurations (package compress) or run and time anything (the instrumentation does).
//
// Its size (about 1.9k lines) is three kinds of option (boolean, numeric curves, categorical
// dummies), each with its fit and its noise filter, over one term type and one model file
// format (format.go) that every kind shares.
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
	// Cat holds the values of the categorical options in this run (MixedLocalModel).
	Cat map[string]string
}

// Cell is the summary of all runs whose configurations restrict to one assignment of the
// region's options.
type Cell struct {
	// On lists the region's options that are on in this assignment, in the region's order.
	On []string `json:"on"`
	// Levels are the values of the region's categorical options in this assignment (none for
	// a region without them).
	Levels map[string]string `json:"levels,omitempty"`
	Mean   float64           `json:"mean"`
	// SD is the sample standard deviation of the runs; for a single run, its Measurement.SE
	// (0 when it has none).
	SD float64 `json:"sd"`
	N  int     `json:"n"`
}

// Local is a region's local model.
type Local struct {
	Region Region `json:"region"`
	// Levels are the values of the region's categorical options, the first of each the
	// reference value its terms are coded against; none for a region without them.
	Levels map[string][]string `json:"levels,omitempty"`
	// Table has one cell per assignment of the region's options, indexed by bit mask
	// (bit j is Region.Options[j]); with categorical options, by the mixed-radix number whose
	// digit j is the index of option j's value (0 or 1 for a boolean), the first option
	// varying fastest. Nil for a region with a numeric option, whose measurements are
	// Numeric.Points.
	Table []Cell `json:"table,omitempty"`
	// Terms are the Möbius coefficients, one per subset of the options (zeros included); with
	// categorical options, one per assignment of the options (the boolean ones on, the
	// categorical ones at a value other than their first); with a numeric option, one for the
	// constant and one per function of the curve for each of those.
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
	// Levels, when set, multiply the term by the indicator [o = v] of each categorical option o
	// at value v: dummy coding against each option's first value (Model.Levels), which no term
	// names. A term is then c·Π U·Π [o = v], "crc·[level=3]".
	Levels map[string]string `json:"levels,omitempty"`
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
	// Levels are the measured values of the model's categorical options, the first of each the
	// reference value the terms are coded against: a prediction needs each option's value,
	// one of these (an unmeasured value of a categorical option cannot be predicted).
	Levels map[string][]string `json:"levels,omitempty"`
}

// MinTraced is the smallest contribution (in seconds) for which a term records its source:
// a region whose local coefficient for a term is rounding noise did not cause that term.
const MinTraced = 1e-9

// MaxRegionOptions caps a region's options: 2^20 assignments is already far more than anyone
// measures.
const MaxRegionOptions = 20

// MaxCells caps the assignments of a region's boolean and categorical options (the product of
// their numbers of values), for the same reason.
const MaxCells = 1 << MaxRegionOptions

// LocalModel computes a region's local model from measurements of the region. Runs whose
// configurations agree on the region's options are averaged; every assignment must have at
// least one run, and the error names those that have none. Every option of the region is
// boolean: see MixedLocalModel for categorical and numeric ones.
func LocalModel(r Region, ms []Measurement) (Local, error) {
	return MixedLocalModel(r, Kinds{}, ms)
}

// Kinds says which of a region's options are not boolean.
type Kinds struct {
	// Numeric is the region's numeric option, "" for none: its time is a curve in it
	// (numeric.go).
	Numeric string
	// Levels are the values of categorical options, the first of each the reference value;
	// options the region does not have are ignored, so one map can serve every region.
	Levels map[string][]string
}

// MixedLocalModel computes a region's local model when some of its options are categorical
// (k.Levels) or one is numeric (k.Numeric); the rest are boolean. The region's time in each
// assignment of its boolean and categorical options (each measurement gives the categorical
// values in Cat) is averaged, or, with a numeric option, fitted by a curve in it; the
// generalised Möbius transform then codes every categorical option against its first value:
// with a boolean A and a categorical M of values x, y, z, T = c + a·A + b_y·[M=y] +
// b_z·[M=z] + d_y·A·[M=y] + d_z·A·[M=z], each coefficient with its standard error. Every
// assignment must be measured, and the error names those that are not.
func MixedLocalModel(r Region, k Kinds, ms []Measurement) (Local, error) {
	if err := checkOptions(r); err != nil {
		return Local{}, err
	}
	if k.Numeric != "" {
		return numericLocal(r, k, ms)
	}
	g, err := newGrid(r, r.Options, k.Levels)
	if err != nil {
		return Local{}, err
	}
	size := g.size
	sum := make([]float64, size)
	sumSq := make([]float64, size)
	se := make([]float64, size)
	n := make([]int, size)
	idx := make([]int, len(ms))
	for i, m := range ms {
		if math.IsNaN(m.Seconds) || math.IsInf(m.Seconds, 0) {
			return Local{}, fmt.Errorf("influence: region %s: non-finite time %v", r.Name, m.Seconds)
		}
		if idx[i], err = g.index(m); err != nil {
			return Local{}, err
		}
		sum[idx[i]] += m.Seconds
		se[idx[i]] = m.SE
		n[idx[i]]++
	}
	mean := make([]float64, size)
	for c := range mean {
		if n[c] > 0 {
			mean[c] = sum[c] / float64(n[c])
		}
	}
	// Two-pass variance: times are seconds with small spreads, where Σx² − n·mean² cancels.
	for i, m := range ms {
		d := m.Seconds - mean[idx[i]]
		sumSq[idx[i]] += d * d
	}
	var missing []string
	table := make([]Cell, size)
	for c := range table {
		cell := Cell{On: g.on(c), Levels: g.cellLevels(c), Mean: mean[c], N: n[c]}
		if n[c] == 0 {
			missing = append(missing, g.assignment(c))
		} else if n[c] > 1 {
			cell.SD = math.Sqrt(sumSq[c] / float64(n[c]-1))
		} else if se[c] > 0 && !math.IsInf(se[c], 0) {
			// One summarised measurement: its standard error is the cell's (SD/√N with N=1).
			cell.SD = se[c]
		}
		table[c] = cell
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
	return localFromTable(r, g, table), nil
}

// checkOptions rejects regions with unnamed or repeated options.
func checkOptions(r Region) error {
	seen := map[string]bool{}
	for _, o := range r.Options {
		if o == "" {
			return fmt.Errorf("influence: region %s has an unnamed option", r.Name)
		}
		if seen[o] {
			return fmt.Errorf("influence: region %s lists option %s twice", r.Name, o)
		}
		seen[o] = true
	}
	return nil
}

// LocalFromTable computes the local model from a complete table (indexed by bit mask over
// r.Options, as Local.Table) of a region whose options are boolean.
func LocalFromTable(r Region, table []Cell) (Local, error) {
	if len(r.Options) > MaxRegionOptions {
		return Local{}, fmt.Errorf("influence: region %s has %d options, more than %d", r.Name, len(r.Options), MaxRegionOptions)
	}
	if len(table) != 1<<len(r.Options) {
		return Local{}, fmt.Errorf("influence: region %s: table has %d cells, want %d", r.Name, len(table), 1<<len(r.Options))
	}
	g, err := newGrid(r, r.Options, nil)
	if err != nil {
		return Local{}, err
	}
	return localFromTable(r, g, table), nil
}

func localFromTable(r Region, g grid, table []Cell) Local {
	coef := make([]float64, g.size)
	variance := make([]float64, g.size)
	for c, cell := range table {
		coef[c] = cell.Mean
		if cell.N > 0 {
			variance[c] = cell.SD * cell.SD / float64(cell.N)
		}
	}
	// Möbius inversion over the subset lattice, one option at a time:
	// c_U = Σ_{W⊆U} (−1)^{|U|−|W|} T(W), in k·2^k steps instead of 3^k; a categorical option's
	// values are coded against its first (c_v = T(v) − T(first)). The variance of c_U is
	// Σ_{W⊆U} Var T(W) (signs square away), the zeta transform of the same structure.
	g.transform(func(to, from int) {
		coef[to] -= coef[from]
		variance[to] += variance[from]
	})
	terms := make([]Term, g.size)
	for c := range terms {
		opts, lv := g.factors(c)
		terms[c] = Term{
			Options: opts,
			Levels:  lv,
			Coef:    coef[c],
			Spread:  math.Sqrt(variance[c]),
			Sources: []Source{{Region: r.Name, Position: r.Position, Coef: coef[c]}},
		}
	}
	sortTerms(terms, g.regionLevels())
	return Local{Region: r, Levels: g.regionLevels(), Table: table, Terms: terms}
}

// Global sums local models: terms over the same options add, and each keeps the regions that
// contributed at least MinTraced to it. The model's Levels are the locals'.
func Global(locals ...Local) Model {
	var terms []Term
	levels := map[string][]string{}
	for _, l := range locals {
		terms = append(terms, l.Terms...)
		for o, vs := range l.Levels {
			if _, ok := levels[o]; !ok {
				levels[o] = append([]string(nil), vs...)
			}
		}
	}
	m := merge(terms)
	if len(levels) > 0 {
		m.Levels = levels
		sortTerms(m.Terms, levels)
	}
	return m
}

// Add sums models term by term; the sum's Levels are the models'. Add of one model puts its
// terms in canonical order.
func Add(models ...Model) Model {
	var terms []Term
	levels := map[string][]string{}
	for _, m := range models {
		terms = append(terms, m.Terms...)
		for o, vs := range m.Levels {
			if _, ok := levels[o]; !ok {
				levels[o] = append([]string(nil), vs...)
			}
		}
	}
	out := merge(terms)
	if len(levels) > 0 {
		out.Levels = levels
		sortTerms(out.Terms, levels)
	}
	return out
}

// NewModel builds a model from terms, normalising option order and adding duplicate terms. A
// model with categorical terms needs its Levels set too.
func NewModel(terms []Term) Model { return merge(terms) }

func merge(terms []Term) Model {
	byKey := map[string]*Term{}
	var keys []string
	for _, t := range terms {
		opts := append([]string(nil), t.Options...)
		sort.Strings(opts)
		key := strings.Join(opts, "\x00") + "\x01" + levelKey(t.Levels) + "\x01" + t.Numeric + "\x01" + t.Form
		acc, ok := byKey[key]
		if !ok {
			acc = &Term{Options: opts, Levels: cloneLevels(t.Levels), Numeric: t.Numeric, Form: t.Form}
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
	sortTerms(out, nil)
	return Model{Terms: out}
}

// Predict evaluates the model on a configuration of boolean options. A model with numeric or
// categorical options needs their values: use PredictAt or PredictSetting (Predict gives NaN
// for such a model).
func Predict(m Model, c Config) float64 {
	v, err := PredictAt(m, c, nil)
	if err != nil {
		return math.NaN()
	}
	return v
}

// PredictAt evaluates the model on a configuration: boolean options in c, numeric ones in num.
// A numeric term whose boolean options are on needs its option's value. A model with
// categorical options needs PredictSetting.
func PredictAt(m Model, c Config, num map[string]float64) (float64, error) {
	return PredictSetting(m, Setting{On: c, Num: num})
}

// Setting is a configuration of every kind of option: the boolean options on, the numeric
// options' values, the categorical options' values.
type Setting struct {
	On  Config
	Num map[string]float64
	Cat map[string]string
}

// PredictSetting evaluates the model on a configuration. Every categorical option of the model
// (Model.Levels) needs its value, one of those measured: a value never measured is an error
// naming those that were, for nothing is known of it. A numeric term whose other factors are
// on needs its option's value.
func PredictSetting(m Model, s Setting) (float64, error) {
	if err := m.CheckLevels(s.Cat); err != nil {
		return 0, err
	}
	total := 0.0
	for _, t := range m.Terms {
		if !t.active(s.On, s.Cat) {
			continue
		}
		v, err := t.factor(s.Num)
		if err != nil {
			return 0, err
		}
		total += t.Coef * v
	}
	return total, nil
}

// active reports whether every boolean option of the term is on and every categorical option
// at the term's value.
func (t Term) active(c Config, cat map[string]string) bool {
	for _, o := range t.Options {
		if !c[o] {
			return false
		}
	}
	for o, v := range t.Levels {
		if cat[o] != v {
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
		if t.Numeric == "" && len(t.Levels) == 0 && equalStrings(t.Options, key) {
			return t.Coef
		}
	}
	return 0
}

// Options lists every option the model mentions, sorted.
func (m Model) Options() []string {
	seen := map[string]bool{}
	var out []string
	add := func(o string) {
		if o != "" && !seen[o] {
			seen[o] = true
			out = append(out, o)
		}
	}
	for _, t := range m.Terms {
		for _, o := range t.Options {
			add(o)
		}
		for o := range t.Levels {
			add(o)
		}
		add(t.Numeric)
	}
	for o := range m.Levels {
		add(o)
	}
	sort.Strings(out)
	return out
}

// sortTerms orders terms by their number of factors (boolean and categorical), then by the
// factors' names, then by the categorical values, then by the numeric factor: the terms of one
// family (familyKey) are adjacent. Categorical values are in the order of levels (a model's or
// a region's Levels) where it gives them, else compared as numbers or strings.
func sortTerms(ts []Term, levels map[string][]string) {
	sort.SliceStable(ts, func(a, b int) bool {
		fa, fb := factorNames(ts[a]), factorNames(ts[b])
		if !equalStrings(fa, fb) {
			return termLess(fa, fb)
		}
		if c := compareLevels(ts[a].Levels, ts[b].Levels, levels); c != 0 {
			return c < 0
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
