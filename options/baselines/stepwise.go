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
// the fit arbitrary.
func Stepwise(names []string, cfgs [][]bool, times []float64, opts StepwiseOptions) (influence.Model, error) {
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

	chosen := [][]int{{}}
	coef, rmse0, ok := fit(cfgs, chosen, y)
	if !ok {
		return influence.Model{}, fmt.Errorf("stepwise: cannot fit the constant")
	}
	rmse := rmse0
	cands := map[string][]int{}
	for o := range names {
		cands[key([]int{o})] = []int{o}
	}
	inModel := map[string]bool{key(nil): true}
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
			trial := append(append([][]int(nil), chosen...), cands[k])
			c, e, ok := fit(cfgs, trial, y)
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
		if len(term) < maxDeg {
			for o := range names {
				if contains(term, o) {
					continue
				}
				t := append(append([]int(nil), term...), o)
				sort.Ints(t)
				if k := key(t); !inModel[k] {
					cands[k] = t
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
			trial := append(append([][]int(nil), chosen[:i]...), chosen[i+1:]...)
			c, e, ok := fit(cfgs, trial, y)
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
		opts := make([]string, len(t))
		for j, o := range t {
			opts[j] = names[o]
		}
		terms[i] = influence.Term{Options: opts, Coef: coef[i]}
	}
	return influence.NewModel(terms), nil
}

// fit solves the least-squares problem for the given terms and returns the coefficients and
// the root mean square error; ok is false when the columns are linearly dependent.
func fit(cfgs [][]bool, terms [][]int, y *mat.VecDense) (coef []float64, rmse float64, ok bool) {
	m, p := len(cfgs), len(terms)
	if p > m {
		return nil, 0, false
	}
	x := mat.NewDense(m, p, nil)
	for r, c := range cfgs {
		for j, t := range terms {
			v := 1.0
			for _, o := range t {
				if !c[o] {
					v = 0
					break
				}
			}
			x.Set(r, j, v)
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
		coef[j] = beta.AtVec(j)
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
