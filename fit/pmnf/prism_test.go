package pmnf

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/augur-perf/augur/markov/checker"
	"github.com/augur-perf/augur/markov/pctl"
	"github.com/augur-perf/augur/markov/prism"
)

// TestPRISMValues writes laws of every shape in PRISM's language and evaluates them with augur's
// PRISM parser and checker (the law as the reward of a single step) at several points: they
// must agree with Value to 1e-12.
func TestPRISMValues(t *testing.T) {
	n := Factor{Param: "len(xs)", I: 1}
	laws := []Expr{
		{Terms: []Term{{Coef: 3}, {Coef: 0.5, Factors: []Factor{{Param: "len(xs)", I: 1, J: 1}}}}},
		{Terms: []Term{{Coef: 2.5, Factors: []Factor{{Param: "len(xs)", I: 0.75, J: 2}, {Param: "m", I: 1}}}}},
		{Terms: []Term{{Coef: 0}, {Coef: 1e-3, Factors: []Factor{{Param: "len(xs)", I: 2}}}, {Coef: -0.01, Factors: []Factor{n}}, {Coef: 1000}}},
		{Link: Logistic, Terms: []Term{{Coef: 3}, {Coef: -0.5, Factors: []Factor{n}}}},
		{Tree: &Node{Op: "lt", Param: "m", Value: 4.5, Args: []*Node{{Op: "const", Value: 0.25}, {Op: "lt", Param: "len(xs)", Value: 100, Args: []*Node{{Op: "const", Value: 0.5}, {Op: "const", Value: 1}}}}}},
		{Tree: &Node{Op: "+", Args: []*Node{{Op: "/", Args: []*Node{{Op: "const", Value: 100}, {Op: "+", Args: []*Node{{Op: "param", Param: "len(xs)"}, {Op: "const", Value: 5}}}}},
			{Op: "*", Args: []*Node{{Op: "sqrt", Args: []*Node{{Op: "param", Param: "m"}}}, {Op: "log2", Args: []*Node{{Op: "-", Args: []*Node{{Op: "param", Param: "len(xs)"}, {Op: "const", Value: -1}}}}}}}}}},
	}
	ident := func(p string) string { return map[string]string{"len(xs)": "len_xs", "m": "m"}[p] }
	prop, err := pctl.Parse(`R{"law"}=? [ F s=1 ]`)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range laws {
		text := e.PRISM(ident)
		model := "dtmc\nconst double len_xs;\nconst double m;\nformula law = " + text + ";\n" +
			"module main\n  s : [0..1] init 0;\n  [] s=0 -> 1:(s'=1);\n  [] s=1 -> 1:(s'=1);\nendmodule\n" +
			"rewards \"law\"\n  s=0 : law;\nendrewards\n"
		for _, at := range []map[string]float64{{"len(xs)": 3, "m": 2}, {"len(xs)": 150, "m": 7}, {"len(xs)": 12345.5, "m": 1}} {
			res, err := prism.Parse(model, prism.Options{Consts: map[string]string{
				"len_xs": strconv.FormatFloat(at["len(xs)"], 'g', -1, 64), "m": strconv.FormatFloat(at["m"], 'g', -1, 64)}})
			if err != nil {
				t.Fatalf("%s: %v", text, err)
			}
			r, err := checker.Check(res.Model, prop, checker.Options{})
			if err != nil {
				t.Fatalf("%s at %v: %v", text, at, err)
			}
			if want := e.Value(at); math.Abs(r.Initial-want) > 1e-12*math.Max(1, math.Abs(want)) {
				t.Errorf("%s = %s at %v: PRISM %.17g, Value %.17g", e, text, at, r.Initial, want)
			}
		}
		if strings.Contains(text, "-0.0") || strings.Contains(text, "len(xs)") {
			t.Errorf("%s: %s", e, text)
		}
	}
}
