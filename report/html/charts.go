package html

import (
	"fmt"
	"html/template"
	"math"
	"strconv"
	"strings"
)

// Charts are SVG strings built here, with fixed sizes and coordinates rounded to 0.1 px so that
// the page is byte-for-byte the same on every run. Values map to pixels as a fraction of their
// range times the size, never the other way round: a product of a value near the largest
// float64 and a size would overflow.

func f1(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) }

// fmtG prints v with at most prec significant digits, as %g does, without an exponent for
// everyday magnitudes.
func fmtG(v float64, prec int) string {
	if v == 0 {
		return "0"
	}
	if a := math.Abs(v); a >= 1e-4 && a < 1e15 {
		digits := prec - 1 - int(math.Floor(math.Log10(a)))
		s := strconv.FormatFloat(v, 'f', max(digits, 0), 64)
		if strings.Contains(s, ".") {
			s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
		}
		return s
	}
	return strconv.FormatFloat(v, 'g', prec, 64)
}

// num is a value as the tables print it: five significant digits.
func num(v float64) string { return fmtG(v, 5) }

func esc(s string) string { return template.HTMLEscapeString(s) }

// niceStep is a round step (1, 2 or 5 × 10^k) that cuts span into about n parts.
func niceStep(span float64, n int) float64 {
	if !(span > 0) || math.IsInf(span, 0) {
		return 1
	}
	raw := span / float64(n)
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*mag >= raw {
			return m * mag
		}
	}
	return 10 * mag
}

// maxTicks bounds the ticks of an axis, whatever its range.
const maxTicks = 50

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// axis draws a vertical axis at x from lo (at y0) to hi (at y1) with round ticks, labelled on
// the side given (left: -1, right: +1), and horizontal grid lines when grid is set.
func axis(b *strings.Builder, x, y0, y1, lo, hi float64, side int, grid bool, gridTo float64, format func(float64) string) {
	step := niceStep(hi-lo, 5)
	fmt.Fprintf(b, `<g class="axis"><line x1="%s" y1="%s" x2="%s" y2="%s"/>`, f1(x), f1(y0), f1(x), f1(y1))
	first := math.Ceil(lo / step)
	for i := 0.0; i <= maxTicks; i++ {
		v := (first + i) * step
		if v > hi+step*1e-9 {
			break
		}
		y := y0 + (v-lo)/(hi-lo)*(y1-y0)
		if grid {
			fmt.Fprintf(b, `<line class="grid" x1="%s" y1="%s" x2="%s" y2="%s"/>`, f1(x), f1(y), f1(gridTo), f1(y))
		}
		anchor, tx := "end", x-6
		if side > 0 {
			anchor, tx = "start", x+6
		}
		fmt.Fprintf(b, `<line x1="%s" y1="%s" x2="%s" y2="%s"/><text x="%s" y="%s" text-anchor="%s">%s</text>`,
			f1(x-3), f1(y), f1(x+3), f1(y), f1(tx), f1(y+4), anchor, esc(format(v)))
	}
	b.WriteString(`</g>`)
}

// barChart draws one property's value in every scenario as bars, with error bars.
func barChart(id int, p Property, scenarios []string) string {
	const h, top, bottom, left, barW, slot = 250.0, 30.0, 46.0, 64.0, 56.0, 120.0
	w := left + slot*float64(len(scenarios)) + 16
	lo, hi := 0.0, 0.0
	for _, c := range p.Cells {
		if !c.OK {
			continue
		}
		lo, hi = math.Min(lo, c.Value), math.Max(hi, c.Value)
		for _, e := range c.Bars {
			if finite(e.Lo) && finite(e.Hi) {
				lo, hi = math.Min(lo, e.Lo), math.Max(hi, e.Hi)
			}
		}
	}
	if !finite(hi - lo) {
		// Values too far apart to draw (±1e308): the table still has them.
		return ""
	}
	if hi == lo {
		hi = lo + 1
	}
	step := niceStep(hi-lo, 5)
	hi = math.Ceil(hi/step) * step
	lo = math.Floor(lo/step) * step
	y := func(v float64) float64 { return top + (hi-v)/(hi-lo)*(h-top-bottom) }
	var b strings.Builder
	fmt.Fprintf(&b, `<svg id="bars-%d" class="bars" role="img" width="%s" height="%s" viewBox="0 0 %s %s" data-property="%s">`,
		id, f1(w), f1(h), f1(w), f1(h), esc(p.Name))
	fmt.Fprintf(&b, `<title>%s in each scenario</title>`, esc(p.Name))
	axis(&b, left, y(lo), y(hi), lo, hi, -1, true, w-8, func(v float64) string { return fmtG(v, 4) })
	fmt.Fprintf(&b, `<line class="zero" x1="%s" y1="%s" x2="%s" y2="%s"/>`, f1(left), f1(y(0)), f1(w-8), f1(y(0)))
	for i, c := range p.Cells {
		cx := left + slot*(float64(i)+0.5)
		name := scenarios[i]
		fmt.Fprintf(&b, `<g class="scenario" data-scenario="%s">`, esc(name))
		if c.OK {
			y0, y1 := y(0), y(c.Value)
			fmt.Fprintf(&b, `<rect class="bar s%d" x="%s" y="%s" width="%s" height="%s" data-value="%s"><title>%s: %s</title></rect>`,
				i%6, f1(cx-barW/2), f1(math.Min(y0, y1)), f1(barW), f1(math.Abs(y1-y0)), num(c.Value), esc(name), num(c.Value))
			for j, e := range c.Bars {
				if !finite(e.Lo) || !finite(e.Hi) {
					continue
				}
				ex := cx
				if len(c.Bars) > 1 {
					ex = cx + (float64(j)-float64(len(c.Bars)-1)/2)*14
				}
				fmt.Fprintf(&b, `<g class="errbar %s" data-lo="%s" data-hi="%s"><title>%s: [%s, %s]</title><line x1="%s" y1="%s" x2="%s" y2="%s"/><line x1="%s" y1="%s" x2="%s" y2="%s"/><line x1="%s" y1="%s" x2="%s" y2="%s"/></g>`,
					e.Kind, num(e.Lo), num(e.Hi), esc(e.Label), num(e.Lo), num(e.Hi),
					f1(ex), f1(y(e.Lo)), f1(ex), f1(y(e.Hi)),
					f1(ex-5), f1(y(e.Lo)), f1(ex+5), f1(y(e.Lo)),
					f1(ex-5), f1(y(e.Hi)), f1(ex+5), f1(y(e.Hi)))
			}
			above := math.Min(y1, y0)
			for _, e := range c.Bars {
				if finite(e.Lo) && finite(e.Hi) {
					above = math.Min(above, y(e.Hi))
				}
			}
			fmt.Fprintf(&b, `<text class="value" x="%s" y="%s" text-anchor="middle">%s</text>`, f1(cx), f1(above-6), num(c.Value))
		} else {
			fmt.Fprintf(&b, `<text class="na" x="%s" y="%s" text-anchor="middle">n/a<title>%s</title></text>`, f1(cx), f1(y(0)-8), esc(c.Why))
		}
		fmt.Fprintf(&b, `<text class="name" x="%s" y="%s" text-anchor="middle">%s<title>%s</title></text></g>`, f1(cx), f1(h-bottom+18), esc(truncate(name, 18)), esc(name))
	}
	b.WriteString(`</svg>`)
	return b.String()
}

// histogram draws a distribution as a histogram (probability per bin, left axis) with its CDF
// (right axis) and its percentiles. The x range ends at the 99.9th percentile so that a long
// tail does not squash the body; what lies beyond is said in the title.
func histogram(id int, d Distribution) string {
	const w, h, top, bottom, left, right, maxBins = 640.0, 260.0, 20.0, 40.0, 64.0, 56.0, 40
	// Only finite values with a probability can be drawn (the distributions of package dist are
	// such, sorted).
	var vals, probs []float64
	for i, v := range d.Values {
		if i < len(d.Probs) && finite(v) && d.Probs[i] > 0 && finite(d.Probs[i]) && (len(vals) == 0 || v > vals[len(vals)-1]) {
			vals, probs = append(vals, v), append(probs, d.Probs[i])
		}
	}
	d.Values, d.Probs = vals, probs
	if len(d.Values) == 0 || !finite(d.Values[len(d.Values)-1]-d.Values[0]) {
		return ""
	}
	lo, hi := d.Values[0], d.Values[len(d.Values)-1]
	var c float64
	for i, v := range d.Values {
		c += d.Probs[i]
		if c >= 0.999 {
			hi = v
			break
		}
	}
	var inRange int
	for _, v := range d.Values {
		if v <= hi {
			inRange++
		}
	}
	// One bar per value when there are few, else equal bins.
	var edges []float64
	if inRange <= maxBins {
		for _, v := range d.Values[:inRange] {
			edges = append(edges, v)
		}
	} else {
		for i := 0; i < maxBins; i++ {
			edges = append(edges, lo+(hi-lo)*float64(i)/maxBins)
		}
	}
	mass := make([]float64, len(edges))
	var beyond float64
	for i, v := range d.Values {
		if v > hi {
			beyond += d.Probs[i]
			continue
		}
		k := len(edges) - 1
		for k > 0 && edges[k] > v {
			k--
		}
		mass[k] += d.Probs[i]
	}
	width := (hi - lo) / float64(len(edges))
	if inRange <= maxBins {
		// One bar per value: as wide as the closest two values allow, and no wider than a
		// tenth of the range, so that a few scattered values stay thin bars.
		width = (hi - lo) / 10
		for i := 1; i < len(edges); i++ {
			width = math.Min(width, 0.8*(edges[i]-edges[i-1]))
		}
	}
	if width <= 0 {
		width = math.Max(math.Abs(lo)/10, 1)
	}
	xlo, xhi := lo, hi+width
	if inRange <= maxBins {
		xlo, xhi = lo-width, hi+width
	}
	// Near ±MaxFloat64 the margins overflow: the range then ends at the values themselves.
	if !finite(xlo) {
		xlo = lo
	}
	if !finite(xhi) {
		xhi = hi
	}
	x := func(v float64) float64 {
		f := (v - xlo) / (xhi - xlo)
		if math.IsNaN(f) { // a range of one value that no margin can widen: its middle
			f = 0.5
		}
		return left + math.Max(0, math.Min(1, f))*(w-left-right)
	}
	var most float64
	for _, m := range mass {
		most = math.Max(most, m)
	}
	step := niceStep(most, 4)
	pmax := math.Ceil(most/step) * step
	if !(pmax > 0) {
		pmax = 1
	}
	y := func(p float64) float64 { return top + (1-p/pmax)*(h-top-bottom) }
	yc := func(p float64) float64 { return top + (h-top-bottom)*(1-p) }
	var b strings.Builder
	fmt.Fprintf(&b, `<svg id="dist-%d" class="dist" role="img" width="%s" height="%s" viewBox="0 0 %s %s" data-reward="%s" data-bins="%d">`,
		id, f1(w), f1(h), f1(w), f1(h), esc(d.Reward), len(edges))
	title := fmt.Sprintf("Distribution of %s per call: histogram (left axis) and CDF (right axis)", d.Reward)
	if beyond > 0 || d.Truncated > 0 {
		title += fmt.Sprintf("; %s of the probability lies beyond %s and is not drawn", fmtG(beyond+d.Truncated, 3), num(hi))
	}
	fmt.Fprintf(&b, `<title>%s</title>`, esc(title))
	axis(&b, left, y(0), y(pmax), 0, pmax, -1, true, w-right, func(v float64) string { return fmtG(v, 3) })
	axis(&b, w-right, yc(0), yc(1), 0, 1, 1, false, 0, func(v float64) string { return fmtG(v, 2) })
	// The x axis: round ticks across the range.
	xs := niceStep(xhi-xlo, 6)
	fmt.Fprintf(&b, `<g class="axis x"><line x1="%s" y1="%s" x2="%s" y2="%s"/>`, f1(left), f1(h-bottom), f1(w-right), f1(h-bottom))
	for i, first := 0.0, math.Ceil(xlo/xs); i <= maxTicks; i++ {
		v := (first + i) * xs
		if v > xhi {
			break
		}
		fmt.Fprintf(&b, `<line x1="%s" y1="%s" x2="%s" y2="%s"/><text x="%s" y="%s" text-anchor="middle">%s</text>`,
			f1(x(v)), f1(h-bottom), f1(x(v)), f1(h-bottom+4), f1(x(v)), f1(h-bottom+17), fmtG(v, 4))
	}
	fmt.Fprintf(&b, `<text class="label" x="%s" y="%s" text-anchor="middle">%s per call</text></g>`, f1((left+w-right)/2), f1(h-6), esc(d.Reward))
	b.WriteString(`<g class="hist">`)
	for i, e := range edges {
		if mass[i] == 0 {
			continue
		}
		x0, x1 := x(e), x(e+width)
		if inRange <= maxBins {
			x0, x1 = x(e-width/2), x(e+width/2)
		}
		fmt.Fprintf(&b, `<rect class="bin" x="%s" y="%s" width="%s" height="%s" data-from="%s" data-p="%s"><title>%s: %s</title></rect>`,
			f1(x0+0.5), f1(y(mass[i])), f1(math.Max(x1-x0-1, 0.5)), f1(y(0)-y(mass[i])), num(e), fmtG(mass[i], 4), num(e), fmtG(mass[i], 4))
	}
	b.WriteString(`</g>`)
	// The CDF as a step function over every value in range.
	var path strings.Builder
	cum := 0.0
	fmt.Fprintf(&path, "M%s,%s", f1(x(xlo)), f1(yc(0)))
	for i, v := range d.Values {
		if v > hi {
			break
		}
		fmt.Fprintf(&path, " H%s V%s", f1(x(v)), f1(yc(cum+d.Probs[i])))
		cum += d.Probs[i]
	}
	fmt.Fprintf(&path, " H%s", f1(x(xhi)))
	fmt.Fprintf(&b, `<path class="cdf" d="%s"/>`, path.String())
	for i, p := range d.Percentiles {
		if !(p.Value >= xlo && p.Value <= xhi) { // NaN too
			continue
		}
		// Labels step down, so that close percentiles stay legible.
		fmt.Fprintf(&b, `<g class="percentile" data-name="%s" data-value="%s"><line x1="%s" y1="%s" x2="%s" y2="%s"/><text x="%s" y="%s">%s</text></g>`,
			esc(p.Name), num(p.Value), f1(x(p.Value)), f1(top), f1(x(p.Value)), f1(h-bottom), f1(x(p.Value)+3), f1(top+10+13*float64(i%4)), esc(p.Name+" "+num(p.Value)))
	}
	b.WriteString(`</svg>`)
	return b.String()
}

// rankingChart draws the top functions' inclusive (light) and exclusive (dark) expected reward
// per call as horizontal bars.
func rankingChart(r *Ranking, rows int) string {
	const w, rowH, left, right, top = 960.0, 22.0, 360.0, 90.0, 26.0
	fs := r.Funcs[:min(rows, len(r.Funcs))]
	h := top + rowH*float64(len(fs)) + 10
	var most float64
	for _, f := range fs {
		for _, v := range []float64{f.Inclusive, f.Exclusive} {
			if finite(v) {
				most = math.Max(most, v)
			}
		}
	}
	if most <= 0 {
		most = 1
	}
	// Bars start at zero; a value that is not finite gets none.
	x := func(v float64) float64 {
		if !finite(v) {
			return left
		}
		return left + math.Max(v, 0)/most*(w-left-right)
	}
	var b strings.Builder
	fmt.Fprintf(&b, `<svg id="ranking-chart" class="ranking" role="img" width="%s" height="%s" viewBox="0 0 %s %s">`,
		f1(w), f1(h), f1(w), f1(h))
	fmt.Fprintf(&b, `<title>Expected %s per call: inclusive (light) and exclusive (dark)</title>`, esc(r.Reward))
	fmt.Fprintf(&b, `<g class="legend"><rect class="inclusive" x="%s" y="6" width="12" height="12"/><text x="%s" y="16">inclusive</text><rect class="exclusive" x="%s" y="6" width="12" height="12"/><text x="%s" y="16">exclusive</text></g>`,
		f1(left), f1(left+16), f1(left+90), f1(left+106))
	for i, f := range fs {
		y := top + rowH*float64(i)
		fmt.Fprintf(&b, `<g class="func" data-function="%s" data-inclusive="%s" data-exclusive="%s"><title>%s: inclusive %s, exclusive %s, %d calls</title>`,
			esc(f.Func), num(f.Inclusive), num(f.Exclusive), esc(f.Func), num(f.Inclusive), num(f.Exclusive), f.Invocations)
		fmt.Fprintf(&b, `<text class="name" x="%s" y="%s" text-anchor="end">%s</text>`, f1(left-8), f1(y+15), esc(truncate(shortFunc(f.Func), 48)))
		fmt.Fprintf(&b, `<rect class="inclusive" x="%s" y="%s" width="%s" height="%s"/>`, f1(left), f1(y+3), f1(x(f.Inclusive)-left), f1(rowH-6))
		fmt.Fprintf(&b, `<rect class="exclusive" x="%s" y="%s" width="%s" height="%s"/>`, f1(left), f1(y+7), f1(x(f.Exclusive)-left), f1(rowH-14))
		fmt.Fprintf(&b, `<text class="value" x="%s" y="%s">%s</text></g>`, f1(x(f.Inclusive)+6), f1(y+15), num(f.Inclusive))
	}
	b.WriteString(`</svg>`)
	return b.String()
}

// shortFunc drops the import path's directories: example.com/m/pkg.F is pkg.F.
func shortFunc(name string) string {
	if i := strings.LastIndex(name, "/"); i >= 0 {
		return name[i+1:]
	}
	return name
}
