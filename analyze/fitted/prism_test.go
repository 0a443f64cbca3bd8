package fitted_test

import (
	"math"
	"strconv"
	"testing"

	"github.com/augur-perf/augur/analyze/fitted"
	"github.com/augur-perf/augur/markov/checker"
	"github.com/augur-perf/augur/markov/pctl"
	"github.com/augur-perf/augur/markov/prism"
)

// checkExport parses the export with augur's PRISM parser at each point, checks its
// properties and compares them with the model's own At.
func checkExport(t *testing.T, m *fitted.Model, param string, points []float64) *fitted.Export {
	t.Helper()
	ex, err := m.PRISM()
	if err != nil {
		t.Fatal(err)
	}
	id := ex.Params[param]
	for _, x := range points {
		want, err := m.At(map[string]float64{param: x})
		if err != nil {
			t.Fatalf("%s=%v: %v", param, x, err)
		}
		res, err := prism.Parse(ex.Text, prism.Options{Consts: map[string]string{id: strconv.FormatFloat(x, 'g', -1, 64)}})
		if err != nil {
			t.Fatalf("%s=%v: %v\n%s", param, x, err, ex.Text)
		}
		for _, p := range ex.Props {
			f, err := pctl.Parse(p)
			if err != nil {
				t.Fatal(err)
			}
			r, err := checker.Check(res.Model, f, checker.Options{})
			if err != nil {
				t.Fatalf("%s=%v: %s: %v", param, x, p, err)
			}
			w := want["cost"]
			if math.Abs(r.Initial-w) > 1e-9*math.Max(1, math.Abs(w)) {
				t.Errorf("%s=%v: %s = %.15g in the export, %.15g by At", param, x, p, r.Initial, w)
			}
		}
	}
	return ex
}
