package baselines

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/augur-perf/augur/options/influence"
)

// StepwiseOptions tunes Stepwise. The zero value is usable.
type StepwiseOptions struct {
	// MinImprovement stops the selection when the best candidate lowers the root mean square
	// error by less than this fraction of the constant-only model's error (default 1e-3).
	MinImprovement float64
	// MaxDegree bounds the number of options in a term (default 4).
	MaxDegree int
	// MaxTerms bounds the number of non-constant terms (default: one less than the number of
	// distinct configurations, the most a least-squares fit can determine).
	MaxTerms int
}

// Stepwise fits a performance-influence model to end-to-end times by forward feature
// selection, as SPL Conqueror does (Siegmund et al., FSE 2015): start from the constant;
// candidates are the single options and, once a term is chosen, that term combined with each
// further option; each round adds the candidate whose least-squares refit lowers the error
// most, and stops when the gain falls below the threshold or candidates run out. A backward
// pass then removes terms whose removal costs less than the threshold. Candidates
// whose column is a linear combination of the chosen ones are skipped: the sample cannot
// tell them apart (interactions in a feature-wise sample, say), and including them would make
// the fit arbitrary. This is Stepwise over a Space of boolean options only.
func Stepwise(names []string, cfgs [][]bool, times []float64, opts StepwiseOptions) (influence.Model, error) {
	idx := make([][]int, len(cfgs))
	for k, c := range cfgs {
		idx[k] = make([]int, len(c))
		for o, on := range c {
			if on {
				idx[k][o] = 1
			}
		}
	}
	return Space{Names: names}.Stepwise(idx, times, opts)
}

// candidate is a term of the regression: the product of its options' values, a numeric
// option among them (at most one) entering as form(value), a categorical one as the dummy
// variable [o = its value lv].
type candidate struct {
	opts []int
	num  int   // index into opts of the numeric option, -1 for none
	lv   []int // per option of opts, the value index of a categorical one (≥ 1), else 0
	form string
}

func (c candidate) key() string {
	k := key(c.opts)
	for _, l := range c.lv {
		if l != 0 {
			k += "=" + key(c.lv)
			break
		}
	}
	return k + "/" + c.form
}

// Stepwise is the package-level Stepwise over a Space whose numeric options enter as SPL
// Conqueror's functions of their values (influence.Forms: linear, logarithmic where every
// value is positive, quadratic), alone or times boolean options; a term holds at most one
// numeric option, as influence.Term does. A categorical option enters as dummy variables, one
// per value but the first, [o = v], each a candidate of its own (alone or times other
// options, one value of the option in a term), so the model is coded against the first value
// as the white-box model is, and its Levels are the space's.
func (s Space) Stepwise(cfgs [][]int, times []float64, opts StepwiseOptions) (influence.Model, error) {
	names := s.Names
	m := len(cfgs)
	if m == 0 {
		return influence.Model{}, fmt.Errorf("stepwise: no measurements")
	}
	if len(times) != m {
		return influence.Model{}, fmt.Errorf("stepwise: %d configurations but %d times", m, len(times))
	}
	for k, c := range cfgs {
		if len(c) != len(names) {
			return influence.Model{}, fmt.Errorf("stepwise: configuration %d has %d options, want %d", k, len(c), len(names))
		}
		for o, v := range c {
			if v < 0 || v >= s.Domain(o) {
				return influence.Model{}, fmt.Errorf("stepwise: configuration %d gives %s value index %d of %d", k, names[o], v, s.Domain(o))
			}
		}
	}
	minImp := opts.MinImprovement
	if minImp <= 0 {
		minImp = 1e-3
	}
	maxDeg := opts.MaxDegree
	if maxDeg <= 0 {
		maxDeg = 4
	}
	maxTerms := opts.MaxTerms
	if maxTerms <= 0 {
		maxTerms = m - 1
	}
	y := mat.NewVecDense(m, append([]float64(nil), times...))
	// forms of each numeric option: log2 only where every value is positive.
	forms := map[int][]string{}
	for o, name := range names {
		xs, ok := s.Values[name]
		if !ok {
			continue
		}
		positive := true
		for _, x := range xs {
			positive = positive && x > 0
		}
		for _, f := range influence.Forms {
			if f != "log2(x)" || positive {
				forms[o] = append(forms[o], f)
			}
		}
	}
	// with adds option o to term t: every form of it when it is numeric and t has none, every
	// value but the first when it is categorical.
	with := func(t candidate, o int) []candidate {
		if contains(t.opts, o) {
			return nil
		}
		base := append(append([]int(nil), t.opts...), o)
		sort.Ints(base)
		pos := func(x int) int { return sort.SearchInts(base, x) }
		levels := func(l int) []int {
			lv := make([]int, len(base))
			for j, x := range t.opts {
				if j < len(t.lv) {
					lv[pos(x)] = t.lv[j]
				}
			}
			lv[pos(o)] = l
			return lv
		}
		num := -1
		if t.num >= 0 {
			num = pos(t.opts[t.num])
		}
		if s.categorical(o) {
			var out []candidate
			for l := 1; l < s.Domain(o); l++ {
				out = append(out, candidate{opts: base, num: num, lv: levels(l), form: t.form})
			}
			return out
		}
		fs, numeric := forms[o]
		if !numeric {
			return []candidate{{opts: base, num: num, lv: levels(0), form: t.form}}
		}
		if t.num >= 0 {
			return nil
		}
		var out []candidate
		for _, f := range fs {
			out = append(out, candidate{opts: base, num: pos(o), lv: levels(0), form: f})
		}
		return out
	}
	col := func(t candidate) []float64 {
		v := make([]float64, m)
		for r, c := range cfgs {
			x := 1.0
			for j, o := range t.opts {
				if s.categorical(o) {
					if c[o] != t.lv[j] {
						x = 0
					}
					continue
				}
				val := s.value(o, c[o])
				if j == t.num {
					// The forms are defined on every value offered (log2 only on positive ones).
					val, _ = influence.FormValue(t.form, val)
				}
				x *= val
			}
			v[r] = x
		}
		return v
	}

	chosen := []candidate{{num: -1}}
	coef, rmse0, ok := fit(col, chosen, y)
	if !ok {
		return influence.Model{}, fmt.Errorf("stepwise: cannot fit the constant")
	}
	rmse := rmse0
	cands := map[string]candidate{}
	for o := range names {
		for _, c := range with(candidate{num: -1}, o) {
			cands[c.key()] = c
		}
	}
	inModel := map[string]bool{chosen[0].key(): true}
	for len(chosen)-1 < maxTerms && len(cands) > 0 && rmse > 1e-12*math.Max(1, math.Abs(coef[0])) {
		keys := make([]string, 0, len(cands))
		for k := range cands {
			keys = append(keys, k)
		}
		// Map order is random; sorting keeps ties, and so the model, reproducible.
		sort.Strings(keys)
		bestKey, bestErr := "", math.Inf(1)
		var bestCoef []float64
		for _, k := range keys {
			trial := append(append([]candidate(nil), chosen...), cands[k])
			c, e, ok := fit(col, trial, y)
			if !ok {
				delete(cands, k)
				continue
			}
			if e < bestErr-1e-15 {
				bestKey, bestErr, bestCoef = k, e, c
			}
		}
		if bestKey == "" || rmse-bestErr < minImp*rmse0 {
			break
		}
		term := cands[bestKey]
		delete(cands, bestKey)
		inModel[bestKey] = true
		chosen = append(chosen, term)
		coef, rmse = bestCoef, bestErr
		if len(term.opts) < maxDeg {
			for o := range names {
				for _, c := range with(term, o) {
					if k := c.key(); !inModel[k] {
						cands[k] = c
					}
				}
			}
		}
	}
	// Backward elimination: forward selection must pick C before it can reach C·D, and once
	// C·D is in, C may explain nothing. Drop such terms while the error barely moves.
	for len(chosen) > 1 {
		drop, dropErr := -1, math.Inf(1)
		var dropCoef []float64
		for i := 1; i < len(chosen); i++ {
			trial := append(append([]candidate(nil), chosen[:i]...), chosen[i+1:]...)
			c, e, ok := fit(col, trial, y)
			if ok && e < dropErr {
				drop, dropErr, dropCoef = i, e, c
			}
		}
		if drop < 0 || dropErr-rmse >= minImp*rmse0 {
			break
		}
		chosen = append(chosen[:drop], chosen[drop+1:]...)
		coef, rmse = dropCoef, dropErr
	}
	terms := make([]influence.Term, len(chosen))
	for i, t := range chosen {
		term := influence.Term{Options: []string{}, Coef: coef[i]}
		for j, o := range t.opts {
			switch {
			case j == t.num:
				term.Numeric, term.Form = names[o], t.form
			case s.categorical(o):
				if term.Levels == nil {
					term.Levels = map[string]string{}
				}
				term.Levels[names[o]] = s.Levels[names[o]][t.lv[j]]
			default:
				term.Options = append(term.Options, names[o])
			}
		}
		terms[i] = term
	}
	var levels map[string][]string
	for _, name := range names {
		if vs, ok := s.Levels[name]; ok {
			if levels == nil {
				levels = map[string][]string{}
			}
			levels[name] = append([]string(nil), vs...)
		}
	}
	// Add orders the terms with the categorical values in the space's order.
	return influence.Add(influence.Model{Terms: terms, Levels: levels}), nil
}

// fit solves the least-squares problem for the given terms (col gives each one's column) and
// returns the coefficients and the root mean square error; ok is false when the columns are
// linearly dependent.
func fit(col func(candidate) []float64, terms []candidate, y *mat.VecDense) (coef []float64, rmse float64, ok bool) {
	m, p := y.Len(), len(terms)
	if p > m {
		return nil, 0, false
	}
	x := mat.NewDense(m, p, nil)
	for j, t := range terms {
		for r, v := range col(t) {
			x.Set(r, j, v)
		}
	}
	// Columns of very different scales (a size squared next to a 0/1 option) would make the
	// rank test meaningless and the solution inaccurate: both are done on the columns scaled
	// to unit length, and the coefficients scaled back.
	norms := make([]float64, p)
	for j := 0; j < p; j++ {
		norms[j] = mat.Norm(x.ColView(j), 2)
		if norms[j] == 0 {
			return nil, 0, false
		}
		for r := 0; r < m; r++ {
			x.Set(r, j, x.At(r, j)/norms[j])
		}
	}
	var svd mat.SVD
	if !svd.Factorize(x, mat.SVDThin) {
		return nil, 0, false
	}
	if svd.Rank(1e-9) < p {
		return nil, 0, false
	}
	var beta mat.VecDense
	svd.SolveVecTo(&beta, y, p)
	var pred mat.VecDense
	pred.MulVec(x, &beta)
	ss := 0.0
	for r := 0; r < m; r++ {
		d := pred.AtVec(r) - y.AtVec(r)
		ss += d * d
	}
	coef = make([]float64, p)
	for j := range coef {
		coef[j] = beta.AtVec(j) / norms[j]
	}
	return coef, math.Sqrt(ss / float64(m)), true
}

func key(t []int) string {
	parts := make([]string, len(t))
	for i, o := range t {
		parts[i] = fmt.Sprint(o)
	}
	return strings.Join(parts, ",")
}

func contains(t []int, o int) bool {
	for _, x := range t {
		if x == o {
			return true
		}
	}
	return false
}
