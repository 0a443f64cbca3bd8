package html

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/augur-perf/augur/fit/board"
	"github.com/augur-perf/augur/fit/pmnf"
)

// FitReport is the laws augur fit learnt for a function, each beside the measurements it was
// fitted to.
type FitReport struct {
	Function string
	Params   []string
	Samples  int
	Laws     []FitLaw
}

// FitLaw is one quantity's law and what it was fitted on.
type FitLaw struct {
	Quantity, Law, Analyser string
	// Error says why no law was found.
	Error                string
	CV, MeanCV, LinearCV float64
	Range                string
	// X names the parameter on the chart's axis (the first the law uses, else the first).
	X string
	// Points are the measurements' means at each value of X; Curve the law along X (other
	// parameters at their measured medians).
	Points, Curve [][2]float64
}

// BuildFit turns a fit result and its samples into a report.
func BuildFit(res *board.Result, samples map[string][]pmnf.Sample) *Report {
	r := &FitReport{Function: res.Function, Params: res.Params, Samples: res.Samples}
	for _, l := range res.Laws {
		fl := FitLaw{Quantity: l.Quantity, Law: l.Text, Analyser: l.Analyser, Error: l.Error, CV: l.CVError, MeanCV: l.Baselines["mean"], LinearCV: l.Baselines["linear"]}
		var rs []string
		for p, b := range l.Range {
			rs = append(rs, fmt.Sprintf("%s in [%s, %s]", p, num(b[0]), num(b[1])))
		}
		sort.Strings(rs)
		fl.Range = strings.Join(rs, ", ")
		fl.X = firstOf(l.Law.Params(), res.Params)
		if fl.X != "" {
			fl.Points, fl.Curve = series(samples[l.Quantity], fl.X, l.Law, l.Error == "")
		}
		r.Laws = append(r.Laws, fl)
	}
	return &Report{Title: "augur fit: laws of " + res.Function, Fit: r}
}

func firstOf(a, b []string) string {
	if len(a) > 0 {
		return a[0]
	}
	if len(b) > 0 {
		return b[0]
	}
	return ""
}

// series averages the samples at each value of x and evaluates the law along x, the other
// parameters at their medians.
func series(s []pmnf.Sample, x string, law pmnf.Expr, fitted bool) (points, curve [][2]float64) {
	sums := map[float64][2]float64{}
	others := map[string][]float64{}
	for _, smp := range s {
		v, ok := smp.At[x]
		if !ok || !finite(smp.Y) {
			continue
		}
		c := sums[v]
		sums[v] = [2]float64{c[0] + smp.Y, c[1] + 1}
		for p, w := range smp.At {
			if p != x {
				others[p] = append(others[p], w)
			}
		}
	}
	for v, c := range sums {
		points = append(points, [2]float64{v, c[0] / c[1]})
	}
	sort.Slice(points, func(a, b int) bool { return points[a][0] < points[b][0] })
	if !fitted || len(points) == 0 {
		return points, nil
	}
	at := map[string]float64{}
	for p, ws := range others {
		sort.Float64s(ws)
		at[p] = ws[len(ws)/2]
	}
	lo, hi := points[0][0], points[len(points)-1][0]
	for i := 0; i <= 60; i++ {
		at[x] = lo + (hi-lo)*float64(i)/60
		if y := law.Value(at); finite(y) {
			curve = append(curve, [2]float64{at[x], y})
		}
	}
	return points, curve
}

// lawChart draws a law's measurements as dots and the law as a line.
func lawChart(i int, l FitLaw) string {
	const w, h, left, right, top, bottom = 620.0, 280.0, 70.0, 20.0, 14.0, 40.0
	if len(l.Points) == 0 {
		return ""
	}
	xlo, xhi := l.Points[0][0], l.Points[len(l.Points)-1][0]
	ylo, yhi := math.Inf(1), math.Inf(-1)
	for _, set := range [][][2]float64{l.Points, l.Curve} {
		for _, p := range set {
			ylo, yhi = math.Min(ylo, p[1]), math.Max(yhi, p[1])
		}
	}
	ylo = math.Min(ylo, 0)
	if xhi == xlo {
		xhi = xlo + 1
	}
	if yhi == ylo {
		yhi = ylo + 1
	}
	px := func(v float64) float64 { return left + (v-xlo)/(xhi-xlo)*(w-left-right) }
	py := func(v float64) float64 { return h - bottom - (v-ylo)/(yhi-ylo)*(h-top-bottom) }
	var b strings.Builder
	fmt.Fprintf(&b, `<svg id="law-%d" class="law" role="img" width="%s" height="%s" viewBox="0 0 %s %s" data-quantity="%s">`, i, f1(w), f1(h), f1(w), f1(h), esc(l.Quantity))
	fmt.Fprintf(&b, `<title>%s against %s: measured means (dots) and the law (line)</title>`, esc(l.Quantity), esc(l.X))
	fmt.Fprintf(&b, `<line class="axis" x1="%s" y1="%s" x2="%s" y2="%s"/>`, f1(left), f1(h-bottom), f1(w-right), f1(h-bottom))
	fmt.Fprintf(&b, `<line class="axis" x1="%s" y1="%s" x2="%s" y2="%s"/>`, f1(left), f1(top), f1(left), f1(h-bottom))
	fmt.Fprintf(&b, `<text class="label" x="%s" y="%s" text-anchor="middle">%s</text>`, f1((left+w-right)/2), f1(h-8), esc(l.X))
	for _, v := range []float64{xlo, xhi} {
		fmt.Fprintf(&b, `<text class="tick" x="%s" y="%s" text-anchor="middle">%s</text>`, f1(px(v)), f1(h-bottom+14), num(v))
	}
	for _, v := range []float64{ylo, yhi} {
		fmt.Fprintf(&b, `<text class="tick" x="%s" y="%s" text-anchor="end">%s</text>`, f1(left-6), f1(py(v)+4), num(v))
	}
	if len(l.Curve) > 1 {
		var d strings.Builder
		for k, p := range l.Curve {
			cmd := "L"
			if k == 0 {
				cmd = "M"
			}
			fmt.Fprintf(&d, "%s%s %s ", cmd, f1(px(p[0])), f1(py(p[1])))
		}
		fmt.Fprintf(&b, `<path class="curve" d="%s"/>`, strings.TrimSpace(d.String()))
	}
	for _, p := range l.Points {
		fmt.Fprintf(&b, `<circle class="point" cx="%s" cy="%s" r="3"><title>%s = %s: %s</title></circle>`, f1(px(p[0])), f1(py(p[1])), esc(l.X), num(p[0]), num(p[1]))
	}
	b.WriteString(`</svg>`)
	return b.String()
}
