package pmnf

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// FitLogistic fits a probability — samples in [0, 1], such as the share of a branch's outcomes
// that went one way — by logistic regression: the constant alone, and each parameter p through
// one feature, p, log2(p) or 1/p, each fitted by iteratively reweighted least squares on the
// points (weighted by their samples) and cross-validated over points like Search's candidates
// (the relative error of the fitted probability). The best by fitness wins.
func FitLogistic(samples []Sample, params []string, o Options) (Candidate, error) {
	for k, s := range samples {
		if s.Y < 0 || s.Y > 1 {
			return Candidate{}, fmt.Errorf("sample %d is %v: logistic regression fits probabilities, in [0, 1]", k+1, s.Y)
		}
	}
	pts, _, varying, err := prepare(samples, params)
	if err != nil {
		return Candidate{}, err
	}
	o = o.withDefaults()
	hyps := []Hypothesis{nil}
	for _, p := range varying {
		for _, f := range []Factor{{Param: p, I: 1}, {Param: p, J: 1}, {Param: p, I: -1}} {
			hyps = append(hyps, Hypothesis{{f}})
		}
	}
	var best Candidate
	found := false
	for _, h := range hyps {
		c, ok := evaluateLogistic(h, pts, o)
		if ok && (!found || c.Fitness < best.Fitness) {
			best, found = c, true
		}
	}
	if !found {
		return Candidate{}, fmt.Errorf("no logistic law could be fitted (too few points, or outcomes separated perfectly by a parameter)")
	}
	return best, nil
}

func evaluateLogistic(h Hypothesis, pts []point, o Options) (Candidate, bool) {
	X := make([][]float64, len(pts))
	var scale float64
	for r, pt := range pts {
		row := []float64{1}
		for _, fs := range h {
			v := Term{Coef: 1, Factors: fs}.Value(pt.at)
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return Candidate{}, false
			}
			row = append(row, v)
		}
		X[r] = row
		scale += pt.y
	}
	scale /= float64(len(pts))
	if scale == 0 {
		scale = 1
	}
	if len(pts) < len(h)+2 {
		return Candidate{}, false
	}
	all := make([]int, len(pts))
	for i := range all {
		all[i] = i
	}
	beta, ok := irls(X, pts, all)
	if !ok {
		return Candidate{}, false
	}
	// Cross-validated like evaluate: the relative error of each held-out point's probability.
	k := min(o.Folds, len(pts))
	var sse float64
	for fold := 0; fold < k; fold++ {
		var train []int
		for r := range pts {
			if r%k != fold {
				train = append(train, r)
			}
		}
		b, ok := irls(X, pts, train)
		if !ok {
			return Candidate{}, false
		}
		for r := fold; r < len(pts); r += k {
			d := (sigmoid(dot(b, X[r])) - pts[r].y) / math.Max(pts[r].y, scale*o.Floor)
			sse += d * d
		}
	}
	cv := math.Sqrt(sse / float64(len(pts)))
	e := Expr{Terms: []Term{{Coef: beta[0]}}, Link: Logistic}
	for j, fs := range h {
		e.Terms = append(e.Terms, Term{Coef: beta[j+1], Factors: fs})
	}
	return Candidate{Expr: e, CVError: cv, Fitness: cv + o.Penalty*float64(len(h)), significant: true}, true
}

func sigmoid(v float64) float64 { return 1 / (1 + math.Exp(-v)) }

func dot(b, x []float64) float64 {
	var v float64
	for j := range b {
		v += b[j] * x[j]
	}
	return v
}

// irls maximises the binomial likelihood of the points rows (each weighted by its samples) by
// Newton's method, which for the logistic link is iteratively reweighted least squares. A tiny
// ridge keeps the steps defined; coefficients that run away (outcomes separated perfectly) are
// a failure, not a law.
func irls(X [][]float64, pts []point, rows []int) ([]float64, bool) {
	k := len(X[0])
	beta := make([]float64, k)
	for it := 0; it < 100; it++ {
		H := mat.NewDense(k, k, nil)
		for i := 0; i < k; i++ {
			H.Set(i, i, 1e-9)
		}
		g := mat.NewVecDense(k, nil)
		for _, r := range rows {
			mu := sigmoid(dot(beta, X[r]))
			w := float64(pts[r].n) * mu * (1 - mu)
			for i := 0; i < k; i++ {
				g.SetVec(i, g.AtVec(i)+float64(pts[r].n)*(pts[r].y-mu)*X[r][i])
				for j := 0; j < k; j++ {
					H.Set(i, j, H.At(i, j)+w*X[r][i]*X[r][j])
				}
			}
		}
		var step mat.VecDense
		if err := step.SolveVec(H, g); err != nil {
			return nil, false
		}
		var size float64
		for i := range beta {
			beta[i] += step.AtVec(i)
			size = math.Max(size, math.Abs(step.AtVec(i))/math.Max(1, math.Abs(beta[i])))
			if math.Abs(beta[i]) > 1e6 || math.IsNaN(beta[i]) {
				return nil, false
			}
		}
		if size < 1e-12 {
			return beta, true
		}
	}
	return nil, false // still moving: the likelihood has no maximum (separation)
}
