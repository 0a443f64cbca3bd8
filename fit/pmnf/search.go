package pmnf

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"

	"gonum.org/v1/gonum/mat"
)

// Sample is one measurement: the parameters' values and the quantity measured.
type Sample struct {
	At map[string]float64
	Y  float64
}

// Options control Search.
type Options struct {
	// MaxTerms is the most non-constant terms a hypothesis has (default 2).
	MaxTerms int
	// Folds is k of the k-fold cross-validation over distinct parameter points (default 5;
	// leave-one-out when there are fewer points).
	Folds int
	// Tolerance is how much larger (relatively) than the best cross-validated error a simpler
	// hypothesis's error may be and still be preferred (default 2: a term must cut the error to a third).
	Tolerance float64
	// Penalty is the fitness added per non-constant term (default 0.002), which orders
	// hypotheses of equal standing.
	Penalty float64
	// Exponents are the powers i of p^i·log2(p)^j searched (default Extra-P's 0, 1/4, ..., 3,
	// with -1 and -1/2 added for quantities that fall with a parameter, such as a branch taken
	// once per loop).
	Exponents []float64
	// Logs are the powers j searched (default 0, 1, 2).
	Logs []int
	// Floor is the smallest denominator of a relative error (and of the weights of the least
	// squares), as a share of the mean |y| (default 0.01). Counts and times have errors
	// proportional to their size; a probability's are not, and ForSamples sets 1 for them.
	Floor float64
}

// ForSamples returns the options for a quantity: errors relative to the mean for a
// probability (every sample in [0, 1], where a relative error at 0 would judge a law by its
// points at 0 alone), relative to each value otherwise.
func ForSamples(s []Sample) Options {
	for _, x := range s {
		if x.Y < 0 || x.Y > 1 {
			return Options{}
		}
	}
	return Options{Floor: 1}
}

func (o Options) withDefaults() Options {
	if o.MaxTerms <= 0 {
		o.MaxTerms = 2
	}
	if o.Folds <= 1 {
		o.Folds = 5
	}
	if o.Penalty == 0 {
		o.Penalty = 0.002
	}
	if o.Tolerance == 0 {
		o.Tolerance = 2
	}
	if o.Exponents == nil {
		o.Exponents = []float64{-1, -0.5}
		for i := 0; i <= 12; i++ {
			o.Exponents = append(o.Exponents, float64(i)/4)
		}
	}
	if o.Floor == 0 {
		o.Floor = 0.01
	}
	if o.Logs == nil {
		o.Logs = []int{0, 1, 2}
	}
	return o
}

// Candidate is a fitted hypothesis and how well it did.
type Candidate struct {
	Expr Expr `json:"expr"`
	// CVError is the k-fold cross-validated root mean square of the relative errors at the
	// held-out points (0.01 is 1 %); Fitness adds the complexity penalty.
	CVError float64 `json:"cv_error"`
	Fitness float64 `json:"fitness"`
	// significant is set when every term's coefficient is at least three standard errors
	// from zero: a term that small is fitting the noise, and would be extrapolated with it.
	significant bool
}

// Fit is Search's answer.
type Fit struct {
	Best Candidate `json:"best"`
	// RunnersUp are the next best hypotheses of other forms, best first.
	RunnersUp []Candidate `json:"runners_up,omitempty"`
	// Range is each parameter's [min, max] in the samples: predictions outside it extrapolate.
	Range map[string][2]float64 `json:"range"`
	// Points is the number of distinct parameter points, Samples the measurements behind them.
	Points  int `json:"points"`
	Samples int `json:"samples"`
	// Warnings say what the data could not tell (a parameter that never varied).
	Warnings []string `json:"warnings,omitempty"`
}

// A TooFewError says that a parameter took too few distinct values to tell forms apart.
type TooFewError struct {
	Param       string
	Got, Needed int
}

func (e *TooFewError) Error() string {
	return fmt.Sprintf("parameter %s took %d distinct values; at least %d are needed to tell the forms of a law apart (measure more sizes)", e.Param, e.Got, e.Needed)
}

// point is the mean of the samples at one parameter point.
type point struct {
	at map[string]float64
	y  float64
	n  int
}

// Hypothesis is a set of non-constant terms (coefficients ignored); the constant is always
// fitted too.
type Hypothesis [][]Factor

// Search finds the expression of the quantity in params that cross-validates best, among the
// constant, every single term and the best pairs of terms of the normal form. Samples at the same
// point are averaged first, and folds hold out whole points, so repeated measurements of one size
// never judge themselves.
func Search(samples []Sample, params []string, o Options) (*Fit, error) {
	o = o.withDefaults()
	pts, fit, varying, err := prepare(samples, params)
	if err != nil {
		return nil, err
	}
	needed := max(5, o.MaxTerms+3)
	for _, p := range varying {
		if d := distinct(pts, p); d < needed {
			return nil, &TooFewError{Param: p, Got: d, Needed: needed}
		}
	}
	var terms [][]Factor
	for _, p := range varying {
		for _, i := range o.Exponents {
			for _, j := range o.Logs {
				if i == 0 && j == 0 {
					continue
				}
				terms = append(terms, []Factor{{Param: p, I: i, J: j}})
			}
		}
	}
	// Products of two parameters, over the exponents real code shows (n·m, n·log m, √n·m²).
	for a := 0; a < len(varying); a++ {
		for b := a + 1; b < len(varying); b++ {
			for _, fa := range productFactors(varying[a]) {
				for _, fb := range productFactors(varying[b]) {
					terms = append(terms, []Factor{fa, fb})
				}
			}
		}
	}
	var cands []Candidate
	try := func(h Hypothesis) {
		if c, ok := evaluate(h, pts, o); ok {
			cands = append(cands, c)
		}
	}
	try(nil)
	for _, t := range terms {
		try(Hypothesis{t})
	}
	if o.MaxTerms >= 2 {
		singles := append([]Candidate(nil), cands...)
		sort.SliceStable(singles, func(a, b int) bool { return singles[a].Fitness < singles[b].Fitness })
		const top = 12
		tried := map[[2]string]bool{}
		for k := 0; k < len(singles) && k < top; k++ {
			first := singles[k].Expr
			if len(first.Terms) < 2 {
				continue
			}
			f0 := first.Terms[1].Factors
			for _, t := range terms {
				key := [2]string{fmt.Sprint(f0), fmt.Sprint(t)}
				if key[1] < key[0] {
					key[0], key[1] = key[1], key[0]
				}
				if sameFactors(t, f0) || tried[key] {
					continue
				}
				tried[key] = true
				try(Hypothesis{f0, t})
			}
		}
	}
	if len(cands) == 0 {
		return nil, errors.New("no hypothesis could be fitted (parameters at 0 or below rule out logarithms and negative powers)")
	}
	// Occam's judge: of the hypotheses whose cross-validated error is within Tolerance of the
	// best one's, the one with the fewest terms (then the lowest fitness). Exact data keep every
	// term that removes error; on noisy data a term must beat the noise to stay.
	bestCV := math.Inf(1)
	for _, c := range cands {
		bestCV = math.Min(bestCV, c.CVError)
	}
	// The tolerance is relative, capped at 5 points of error: among laws that all fit badly, the
	// one that fits least badly is kept.
	limit := bestCV + math.Min(o.Tolerance*bestCV, 0.05) + 1e-9
	rank := func(c Candidate) int {
		if c.CVError <= limit && c.significant {
			return len(c.Expr.Terms)
		}
		return math.MaxInt
	}
	sort.SliceStable(cands, func(a, b int) bool {
		if ra, rb := rank(cands[a]), rank(cands[b]); ra != rb {
			return ra < rb
		}
		return cands[a].Fitness < cands[b].Fitness
	})
	fit.Best = cands[0]
	seen := map[string]bool{cands[0].Expr.Form(): true}
	for _, c := range cands[1:] {
		if f := c.Expr.Form(); !seen[f] && len(fit.RunnersUp) < 4 {
			seen[f] = true
			fit.RunnersUp = append(fit.RunnersUp, c)
		}
	}
	return fit, nil
}

func productFactors(p string) []Factor {
	return []Factor{{p, 0.5, 0}, {p, 1, 0}, {p, 2, 0}, {p, 0, 1}, {p, 1, 1}}
}

func sameFactors(a, b []Factor) bool {
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

// prepare averages samples per point and records ranges; parameters that never vary are
// reported and left out of the search.
func prepare(samples []Sample, params []string) ([]point, *Fit, []string, error) {
	if len(samples) == 0 {
		return nil, nil, nil, errors.New("no samples")
	}
	fit := &Fit{Range: map[string][2]float64{}, Samples: len(samples)}
	byKey := map[string]*point{}
	var keys []string
	for k, s := range samples {
		if math.IsNaN(s.Y) || math.IsInf(s.Y, 0) {
			return nil, nil, nil, fmt.Errorf("sample %d: the quantity is %v", k+1, s.Y)
		}
		var key strings.Builder
		for _, p := range params {
			x, ok := s.At[p]
			if !ok || math.IsNaN(x) || math.IsInf(x, 0) {
				return nil, nil, nil, fmt.Errorf("sample %d: no finite value of parameter %s", k+1, p)
			}
			fmt.Fprintf(&key, "%v\x00", x)
			r, seen := fit.Range[p]
			if !seen {
				r = [2]float64{x, x}
			}
			fit.Range[p] = [2]float64{math.Min(r[0], x), math.Max(r[1], x)}
		}
		pt := byKey[key.String()]
		if pt == nil {
			pt = &point{at: map[string]float64{}}
			for _, p := range params {
				pt.at[p] = s.At[p]
			}
			byKey[key.String()] = pt
			keys = append(keys, key.String())
		}
		pt.y += s.Y
		pt.n++
	}
	pts := make([]point, len(keys))
	for i, k := range keys {
		pts[i] = *byKey[k]
		pts[i].y /= float64(pts[i].n)
	}
	fit.Points = len(pts)
	var varying []string
	for _, p := range params {
		if r := fit.Range[p]; r[0] == r[1] {
			fit.Warnings = append(fit.Warnings, fmt.Sprintf("parameter %s never varied (always %v): the law cannot depend on it here", p, r[0]))
			continue
		}
		varying = append(varying, p)
	}
	if len(varying) == 0 && len(params) > 0 {
		fit.Warnings = append(fit.Warnings, "no parameter varied: the fit is a constant")
	}
	return pts, fit, varying, nil
}

func distinct(pts []point, p string) int {
	seen := map[float64]bool{}
	for _, pt := range pts {
		seen[pt.at[p]] = true
	}
	return len(seen)
}

// FitHypothesis fits one hypothesis — the constant alone (nil: Beagle's mean), plain linear
// regression ({{n}}, {{m}}), any set of terms — to the samples and cross-validates it exactly as
// Search judges its own candidates, so that baselines and search compare in one table.
func FitHypothesis(samples []Sample, params []string, h Hypothesis, o Options) (Candidate, error) {
	pts, _, _, err := prepare(samples, params)
	if err != nil {
		return Candidate{}, err
	}
	c, ok := evaluate(h, pts, o.withDefaults())
	if !ok {
		return Candidate{}, fmt.Errorf("the hypothesis cannot be fitted to these samples (too few points, dependent terms, or a logarithm of 0)")
	}
	return c, nil
}

// evaluate fits a hypothesis to points by least squares and cross-validates it. It reports false
// when the hypothesis cannot be evaluated at some point (a logarithm of 0) or its columns are
// dependent there.
func evaluate(h Hypothesis, pts []point, o Options) (Candidate, bool) {
	X := make([][]float64, len(pts))
	y := make([]float64, len(pts))
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
		X[r], y[r] = row, pt.y
		scale += math.Abs(pt.y)
	}
	scale /= float64(len(pts))
	if scale == 0 {
		scale = 1
	}
	if len(h) == 0 && len(pts) == 1 {
		// One point: the constant is all there is, and nothing is left to validate it on.
		return Candidate{Expr: Expr{Terms: []Term{{Coef: pts[0].y}}}, significant: true}, true
	}
	if len(pts) < len(h)+2 {
		return Candidate{}, false
	}
	// Relative least squares: measurements of loop counts and times have errors proportional to
	// their size, and plain least squares would let the largest sizes decide everything. Each
	// point is weighted by 1/|y| (a hundredth of the mean for points at 0).
	w := make([]float64, len(pts))
	wX := make([][]float64, len(pts))
	wy := make([]float64, len(pts))
	for r := range X {
		w[r] = 1 / math.Max(math.Abs(y[r]), scale*o.Floor)
		wX[r] = make([]float64, len(X[r]))
		for j, v := range X[r] {
			wX[r][j] = v * w[r]
		}
		wy[r] = y[r] * w[r]
	}
	coef, se, ok := leastSquares(wX, wy)
	if !ok {
		return Candidate{}, false
	}
	significant := true
	for j := 1; j < len(coef); j++ {
		significant = significant && math.Abs(coef[j]) >= 3*se[j]
	}
	// k-fold over points, assigned round-robin in a fixed order: deterministic.
	k := min(o.Folds, len(pts))
	var sse float64
	for fold := 0; fold < k; fold++ {
		var tx [][]float64
		var ty []float64
		for r := range X {
			if r%k != fold {
				tx, ty = append(tx, wX[r]), append(ty, wy[r])
			}
		}
		c, _, ok := leastSquares(tx, ty)
		if !ok {
			return Candidate{}, false
		}
		for r := fold; r < len(X); r += k {
			d := -y[r]
			for j, v := range X[r] {
				d += c[j] * v
			}
			sse += d * d * w[r] * w[r]
		}
	}
	cv := math.Sqrt(sse / float64(len(pts)))
	e := Expr{Terms: []Term{{Coef: coef[0]}}}
	for j, fs := range h {
		e.Terms = append(e.Terms, Term{Coef: coef[j+1], Factors: fs})
	}
	// Ties go to the simpler form: fewer terms, then integer exponents and fewer logarithms.
	fitness := cv + o.Penalty*float64(len(h))
	for _, fs := range h {
		for _, f := range fs {
			if f.I != math.Trunc(f.I) {
				fitness += o.Penalty / 100
			}
			fitness += float64(f.J) * o.Penalty / 200
		}
	}
	return Candidate{Expr: e, CVError: cv, Fitness: fitness, significant: significant}, true
}

// leastSquares solves min ‖Xc − y‖ by QR on unit-norm columns (powers of n up to n³ differ by
// many orders of magnitude) and gives each coefficient's standard error from the residuals (0
// when none are left); false when the columns are numerically dependent.
func leastSquares(X [][]float64, y []float64) (c, se []float64, ok bool) {
	n, p := len(X), len(X[0])
	if n < p {
		return nil, nil, false
	}
	norms := make([]float64, p)
	for j := 0; j < p; j++ {
		for i := 0; i < n; i++ {
			norms[j] = math.Hypot(norms[j], X[i][j])
		}
		if norms[j] == 0 {
			return nil, nil, false
		}
	}
	A := mat.NewDense(n, p, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < p; j++ {
			A.Set(i, j, X[i][j]/norms[j])
		}
	}
	var qr mat.QR
	qr.Factorize(A)
	var R mat.Dense
	qr.RTo(&R)
	for j := 0; j < p; j++ {
		if math.Abs(R.At(j, j)) < 1e-9 {
			return nil, nil, false
		}
	}
	var sol mat.Dense
	if err := qr.SolveTo(&sol, false, mat.NewDense(n, 1, y)); err != nil {
		return nil, nil, false
	}
	c, se = make([]float64, p), make([]float64, p)
	for j := range c {
		c[j] = sol.At(j, 0) / norms[j]
	}
	if n > p {
		var sse float64
		for i := 0; i < n; i++ {
			d := -y[i]
			for j := 0; j < p; j++ {
				d += c[j] * X[i][j]
			}
			sse += d * d
		}
		// Var(c) = s²·(RᵀR)⁻¹ = s²·R⁻¹R⁻ᵀ, in the scaled coordinates.
		var Rinv mat.Dense
		if err := Rinv.Inverse(R.Slice(0, p, 0, p)); err == nil {
			s2 := sse / float64(n-p)
			for j := 0; j < p; j++ {
				var v float64
				for k := 0; k < p; k++ {
					v += Rinv.At(j, k) * Rinv.At(j, k)
				}
				se[j] = math.Sqrt(s2*v) / norms[j]
			}
		}
	}
	return c, se, true
}
