package influence

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"gonum.org/v1/gonum/mat"
)

// Numeric options. ConfigCrusher models boolean options; real options are levels, sizes and
// counts. A region influenced by one numeric option N (three or more measured values) and boolean
// options B gets, for every assignment of B, a curve a + Σ b_g·g(N) over the functions SPL
// Conqueror uses for numeric options (linear, logarithmic, quadratic), one of them or a linear
// one with a second. The shape is chosen per region by leave-one-value-out cross-validation, so
// unmeasured values of N are predicted; the Möbius transform over B then turns the a's and b's
// into terms c_U·Π U and d_U·Π U·g(N).

// Forms are the functions g a numeric term can carry, by name.
var Forms = []string{"x", "log2(x)", "x^2"}

// shapes are the candidate curves, simplest first: a tie keeps the simpler one. Two functions
// need four measured values (three to fit, one to check).
var shapes = [][]string{{"x"}, {"log2(x)"}, {"x^2"}, {"x", "log2(x)"}, {"x", "x^2"}}

// FormValue evaluates form at x; log2 needs x > 0.
func FormValue(form string, x float64) (float64, error) {
	switch form {
	case "x":
		return x, nil
	case "log2(x)":
		if x <= 0 {
			return 0, fmt.Errorf("log2(%v): the logarithmic form needs a positive value", x)
		}
		return math.Log2(x), nil
	case "x^2":
		return x * x, nil
	}
	return 0, fmt.Errorf("unknown form %q (want one of %s)", form, strings.Join(Forms, ", "))
}

// Point is the mean time of a region at one assignment of its boolean options (On) and
// categorical options (Levels) and one value X of its numeric option.
type Point struct {
	On     []string          `json:"on"`
	Levels map[string]string `json:"levels,omitempty"`
	X      float64           `json:"x"`
	Mean   float64           `json:"mean"`
	N      int               `json:"n"`
}

// NumericFit records how a region's numeric option was modelled.
type NumericFit struct {
	Option string `json:"option"`
	// Shape is the chosen curve's functions, "x + log2(x)".
	Shape string `json:"shape"`
	// Values are the measured values of the option: predictions outside [min, max] extrapolate.
	Values []float64 `json:"values"`
	// CV is each candidate shape's leave-one-value-out root mean square error, in seconds.
	CV     map[string]float64 `json:"cv_rmse_s"`
	Points []Point            `json:"points"`
}

// NumericLocalModel is LocalModel for a region one of whose options, numeric, is numeric: each
// measurement gives its value in Num. Every assignment of the other options must be measured at
// the same three or more values.
func NumericLocalModel(r Region, numeric string, ms []Measurement) (Local, error) {
	return MixedLocalModel(r, Kinds{Numeric: numeric}, ms)
}

// numericLocal is MixedLocalModel with a numeric option: a curve for every assignment of the
// other options, boolean or categorical (k.Levels).
func numericLocal(r Region, k Kinds, ms []Measurement) (Local, error) {
	numeric := k.Numeric
	var others []string
	found := false
	for _, o := range r.Options {
		if o == numeric {
			found = true
		} else {
			others = append(others, o)
		}
	}
	if !found {
		return Local{}, fmt.Errorf("influence: region %s: %s is not one of its options", r.Name, numeric)
	}
	if _, ok := k.Levels[numeric]; ok {
		return Local{}, fmt.Errorf("influence: region %s: %s is both numeric and categorical", r.Name, numeric)
	}
	if len(others) > MaxRegionOptions {
		return Local{}, fmt.Errorf("influence: region %s has %d options, more than %d", r.Name, len(others), MaxRegionOptions)
	}
	g, err := newGrid(r, others, k.Levels)
	if err != nil {
		return Local{}, err
	}
	size := g.size
	type acc struct {
		sum float64
		n   int
	}
	cells := make([]map[float64]*acc, size)
	for i := range cells {
		cells[i] = map[float64]*acc{}
	}
	for _, m := range ms {
		if !finite(m.Seconds) {
			return Local{}, fmt.Errorf("influence: region %s: non-finite time %v", r.Name, m.Seconds)
		}
		x, ok := m.Num[numeric]
		if !ok || !finite(x) {
			return Local{}, fmt.Errorf("influence: region %s: a measurement has no value of %s", r.Name, numeric)
		}
		c, err := g.index(m)
		if err != nil {
			return Local{}, err
		}
		a := cells[c][x]
		if a == nil {
			a = &acc{}
			cells[c][x] = a
		}
		a.sum += m.Seconds
		a.n++
	}
	// Every assignment needs the same values, at least three of them, for one form to be chosen
	// and for the a's and b's to be comparable under the transform.
	var values []float64
	for x := range cells[0] {
		values = append(values, x)
	}
	sort.Float64s(values)
	if len(values) < 3 {
		return Local{}, fmt.Errorf("influence: region %s: numeric option %s was measured at %d values; a curve needs at least 3", r.Name, numeric, len(values))
	}
	points := make([][]Point, size)
	for c := range cells {
		if len(cells[c]) != len(values) {
			return Local{}, fmt.Errorf("influence: region %s: %s measured at %d values with %s, at %d values with %s", r.Name, numeric, len(cells[c]), g.assignment(c), len(values), g.assignment(0))
		}
		for _, x := range values {
			a := cells[c][x]
			if a == nil {
				return Local{}, fmt.Errorf("influence: region %s: no measurement of %s=%v with %s", r.Name, numeric, x, g.assignment(c))
			}
			points[c] = append(points[c], Point{On: g.on(c), Levels: g.cellLevels(c), X: x, Mean: a.sum / float64(a.n), N: a.n})
		}
	}
	fit := &NumericFit{Option: numeric, Values: values, CV: map[string]float64{}}
	// A more complex shape must beat a simpler one by more than rounding: exact data fit several
	// shapes to within a few ulps of the times.
	var scale float64
	for _, ps := range points {
		for _, pt := range ps {
			scale = math.Max(scale, math.Abs(pt.Mean))
		}
	}
	best := math.Inf(1)
	var shape []string
	for _, sh := range shapes {
		if len(values) < len(sh)+2 {
			continue
		}
		cv, err := looCV(sh, points)
		if err != nil {
			continue // log2 of a non-positive value: this shape does not apply
		}
		name := strings.Join(sh, " + ")
		fit.CV[name] = cv
		if cv < best*(1-1e-6)-1e-12*scale {
			best, shape, fit.Shape = cv, sh, name
		}
	}
	if shape == nil {
		return Local{}, fmt.Errorf("influence: region %s: no curve fits %s", r.Name, numeric)
	}
	for _, ps := range points {
		fit.Points = append(fit.Points, ps...)
	}
	return Local{Region: r, Levels: g.regionLevels(), Terms: numericTerms(r, numeric, g, shape, points), Numeric: fit}, nil
}

// numericTerms fits the shape to each assignment's points (points[c], c an assignment of the
// grid's options) and turns the curves into terms by the Möbius transform, with each
// coefficient's spread and the covariances among a family's coefficients (Term.Cov).
func numericTerms(r Region, numeric string, g grid, shape []string, points [][]Point) []Term {
	// Per assignment: the coefficients and their covariance matrix; index 0 is the constant.
	size := len(points)
	p := len(shape) + 1
	coef := make([][]float64, p)
	cov := make([][][]float64, p)
	for j := range coef {
		coef[j] = make([]float64, size)
		cov[j] = make([][]float64, p)
		for k := range cov[j] {
			cov[j][k] = make([]float64, size)
		}
	}
	for c, ps := range points {
		X, y, _ := design(shape, ps)
		cf, v := leastSquares(X, y)
		for j := range cf {
			coef[j][c] = cf[j]
			for k := range cf {
				cov[j][k][c] = v[j][k]
			}
		}
	}
	// The transform: c_U = Σ_{W⊆U} (−1)^{|U|−|W|} a_W for every coefficient alike (a
	// categorical option's values against its first). The fits of different assignments use
	// different runs, so their errors are independent and the covariances add (the signs,
	// equal for the coefficients of one W, square away).
	g.transform(func(to, from int) {
		for q := range coef {
			coef[q][to] -= coef[q][from]
			for q2 := range coef {
				cov[q][q2][to] += cov[q][q2][from]
			}
		}
	})
	var terms []Term
	for c := 0; c < size; c++ {
		opts, lv := g.factors(c)
		for q := range coef {
			t := Term{Options: opts, Levels: cloneLevels(lv), Coef: coef[q][c], Spread: math.Sqrt(cov[q][q][c]),
				Sources: []Source{{Region: r.Name, Position: r.Position, Coef: coef[q][c]}}}
			if q > 0 {
				t.Numeric, t.Form = numeric, shape[q-1]
				t.Cov = map[string]float64{CovConstant: cov[q][0][c]}
				for q2 := 1; q2 < p; q2++ {
					if q2 != q {
						t.Cov[shape[q2-1]] = cov[q][q2][c]
					}
				}
			}
			terms = append(terms, t)
		}
	}
	sortTerms(terms, g.regionLevels())
	return terms
}

// looCV is the root mean square error of predicting each point from the curve through the other
// points of its assignment.
func looCV(shape []string, points [][]Point) (float64, error) {
	var sse float64
	var n int
	for _, ps := range points {
		X, y, err := design(shape, ps)
		if err != nil {
			return 0, err
		}
		for i := range X {
			tx := append(append([][]float64(nil), X[:i]...), X[i+1:]...)
			ty := append(append([]float64(nil), y[:i]...), y[i+1:]...)
			c, _ := leastSquares(tx, ty)
			d := -y[i]
			for j, v := range X[i] {
				d += c[j] * v
			}
			sse += d * d
			n++
		}
	}
	return math.Sqrt(sse / float64(n)), nil
}

// design is the least-squares design matrix of the points for the shape: a column of ones, then
// one per function.
func design(shape []string, ps []Point) (X [][]float64, y []float64, err error) {
	for _, pt := range ps {
		row := []float64{1}
		for _, f := range shape {
			g, err := FormValue(f, pt.X)
			if err != nil {
				return nil, nil, err
			}
			row = append(row, g)
		}
		X = append(X, row)
		y = append(y, pt.Mean)
	}
	return X, y, nil
}

// leastSquares solves min ‖Xc − y‖ through a QR factorisation (the functions' columns differ in
// scale by orders of magnitude, which the normal equations would square) and gives the
// coefficients' covariance matrix s²·(XᵀX)⁻¹, s² the residuals' variance (all 0 without degrees
// of freedom left). Columns that are numerically dependent get coefficient 0.
func leastSquares(X [][]float64, y []float64) (c []float64, cov [][]float64) {
	n, p := len(X), len(X[0])
	c, cov = make([]float64, p), make([][]float64, p)
	for j := range cov {
		cov[j] = make([]float64, p)
	}
	// Scale the columns to unit norm so that the rank test is relative.
	norms := make([]float64, p)
	for j := 0; j < p; j++ {
		for i := 0; i < n; i++ {
			norms[j] = math.Hypot(norms[j], X[i][j])
		}
		if norms[j] == 0 {
			norms[j] = 1
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
		if math.Abs(R.At(j, j)) < 1e-10 {
			return c, cov // dependent columns: fewer values than the shape needs
		}
	}
	var sol mat.Dense
	if err := qr.SolveTo(&sol, false, mat.NewDense(n, 1, y)); err != nil {
		return c, cov
	}
	for j := 0; j < p; j++ {
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
		s2 := sse / float64(n-p)
		// Cov(c) = s²·(RᵀR)⁻¹ = s²·R⁻¹R⁻ᵀ in the scaled coordinates.
		var Rinv mat.Dense
		if err := Rinv.Inverse(R.Slice(0, p, 0, p)); err == nil {
			for j := 0; j < p; j++ {
				for l := 0; l < p; l++ {
					var v float64
					for k := 0; k < p; k++ {
						v += Rinv.At(j, k) * Rinv.At(l, k)
					}
					cov[j][l] = s2 * v / (norms[j] * norms[l])
				}
			}
		}
	}
	return c, cov
}

// RestoreCov gives a model written before numeric terms recorded their covariances (Term.Cov)
// those covariances, recomputed from its local models: each numeric region's curves are fitted
// again to its recorded points with its recorded shape. It returns the model and locals
// unchanged, and ok false, when the model has no numeric term, already has covariances, or the
// refitted coefficients differ from the recorded ones (locals that are not the model's).
// Coefficients and spreads stay as recorded.
func RestoreCov(m Model, locals []Local) (Model, []Local, bool) {
	numeric := false
	for _, t := range m.Terms {
		if t.Cov != nil {
			return m, locals, false
		}
		numeric = numeric || t.Numeric != ""
	}
	if !numeric || len(locals) == 0 {
		return m, locals, false
	}
	refit := make([]Local, len(locals))
	for i, l := range locals {
		refit[i] = l
		if l.Numeric == nil {
			continue
		}
		terms, err := refitNumeric(l)
		if err != nil {
			return m, locals, false
		}
		refit[i].Terms = terms
		for j := range refit[i].Terms {
			if j >= len(l.Terms) || !sameCoef(refit[i].Terms[j], l.Terms[j]) {
				return m, locals, false
			}
			refit[i].Terms[j].Spread = l.Terms[j].Spread
		}
	}
	g := Global(refit...)
	byKey := map[string]Term{}
	for _, t := range g.Terms {
		byKey[termKey(t)] = t
	}
	out := Model{Terms: append([]Term(nil), m.Terms...)}
	for i, t := range out.Terms {
		r, ok := byKey[termKey(t)]
		if !ok || !sameCoef(r, t) {
			return m, locals, false
		}
		out.Terms[i].Cov = r.Cov
	}
	return out, refit, true
}

func termKey(t Term) string {
	return familyKey(t) + "\x01" + levelKey(t.Levels) + "\x01" + t.Numeric + "\x01" + t.Form
}

// sameCoef reports whether two terms are the same term with the same coefficient, up to the
// rounding of a different order of summation.
func sameCoef(a, b Term) bool {
	return termKey(a) == termKey(b) && math.Abs(a.Coef-b.Coef) <= 1e-9*math.Max(math.Abs(a.Coef), math.Abs(b.Coef))+1e-15
}

// refitNumeric fits a numeric local's recorded points again with its recorded shape.
func refitNumeric(l Local) ([]Term, error) {
	fit := l.Numeric
	var others []string
	for _, o := range l.Region.Options {
		if o != fit.Option {
			others = append(others, o)
		}
	}
	shape := strings.Split(fit.Shape, " + ")
	for _, f := range shape {
		if !slices.Contains(Forms, f) {
			return nil, fmt.Errorf("influence: region %s: unknown shape %q", l.Region.Name, fit.Shape)
		}
	}
	if len(others) > MaxRegionOptions {
		return nil, fmt.Errorf("influence: region %s has %d options, more than %d", l.Region.Name, len(others), MaxRegionOptions)
	}
	g, err := newGrid(l.Region, others, l.Levels)
	if err != nil {
		return nil, err
	}
	points := make([][]Point, g.size)
	for _, pt := range fit.Points {
		on := Config{}
		for _, o := range pt.On {
			j := slices.Index(others, o)
			if j < 0 || g.levels[j] != nil {
				return nil, fmt.Errorf("influence: region %s: a point has option %s on, not one of its boolean options", l.Region.Name, o)
			}
			on[o] = true
		}
		c, err := g.index(Measurement{Config: on, Cat: pt.Levels})
		if err != nil {
			return nil, err
		}
		points[c] = append(points[c], pt)
	}
	for c, ps := range points {
		if len(ps) < len(shape)+1 {
			return nil, fmt.Errorf("influence: region %s: %d points with %s", l.Region.Name, len(ps), g.assignment(c))
		}
		sort.SliceStable(ps, func(a, b int) bool { return ps[a].X < ps[b].X })
		if _, _, err := design(shape, ps); err != nil {
			return nil, err
		}
	}
	return numericTerms(l.Region, fit.Option, g, shape, points), nil
}
