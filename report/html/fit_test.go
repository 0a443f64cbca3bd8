package html

import (
	"bytes"
	"strings"
	"testing"

	"github.com/augur-perf/augur/fit/board"
	"github.com/augur-perf/augur/fit/pmnf"
	"github.com/augur-perf/augur/fit/trace"
)

// fitResult is a board run on a loop of n² iterations measured at n = 1..8, twice each, and a
// quantity no analyser can fit (one size only).
func fitResult() (*board.Result, map[string][]pmnf.Sample) {
	h := trace.Header{Format: trace.Format, Function: "p.F", Params: []string{"n"}, Quantities: []string{"loop@f.go:3"}, Rate: 1}
	var recs []trace.Record
	for n := 1.0; n <= 8; n++ {
		for range 2 {
			recs = append(recs, trace.Record{P: []float64{n}, Q: []float64{n * n}})
		}
	}
	samples := board.Samples(h, recs)
	st := board.New(h, len(recs))
	board.Run(st, samples, []board.Analyser{board.Mean{}, board.Linear{}, board.PMNF{Max: 2}}, 5)
	res := st.Result(samples)
	res.Laws = append(res.Laws, board.Law{Quantity: "time_ns", Error: "parameter n took 1 distinct values"})
	return &res, samples
}

// TestFitPage: a row per law (a failed one says why), and per fitted law a chart of the
// measurements' means at each size (8 dots) and the law's curve through them.
func TestFitPage(t *testing.T) {
	r := BuildFit(fitResult())
	var b bytes.Buffer
	if err := Write(&b, r); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	for _, want := range []string{
		`<h1 id="fit-function">Laws of p.F</h1>`,
		`<tr data-quantity="loop@f.go:3"><td class="prop">loop@f.go:3</td><td class="code">n^2</td>`,
		`<td colspan="6">none: parameter n took 1 distinct values</td>`,
		`<svg id="law-0" class="law"`,
		`<path class="curve" d="M`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %s", want)
		}
	}
	if n := strings.Count(page, `class="point"`); n != 8 {
		t.Errorf("%d measured points drawn, want 8", n)
	}
	if strings.Contains(page, `id="law-1"`) {
		t.Error("a chart for the quantity without a law")
	}
}
