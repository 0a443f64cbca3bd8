package checker

import (
	"errors"
	"testing"

	"github.com/augur-perf/augur/markov/dtmc"
	"github.com/augur-perf/augur/markov/pctl"
)

// fuzzModel is small but has everything a property may name: labels, a Boolean and an integer
// variable, two reward structures, a transient part and two bottom components.
func fuzzModel() *dtmc.Model {
	b := dtmc.NewBuilder(5)
	b.Add(0, 1, 0.5)
	b.Add(0, 2, 0.25)
	b.Add(0, 0, 0.25)
	b.Add(1, 3, 1)
	b.Add(2, 2, 1)
	b.Add(3, 4, 1)
	b.Add(4, 3, 1)
	b.Label("a", 0)
	b.Label("a", 3)
	b.Label("b", 2)
	b.AddStateReward("r", 0, 1)
	b.AddStateReward("r", 3, 2)
	b.AddTransReward("t", 1, 3, 5)
	b.AddInit(0, 0.5)
	b.AddInit(1, 0.5)
	m := must(b.Build())
	m.Vars = &dtmc.Vars{Names: []string{"x", "on"}, Bool: []bool{false, true}, Values: []int{0, 1, 1, 0, 2, 1, 3, 0, 4, 1}}
	return m
}

// FuzzCheck: no property makes the checker panic, and every failure is an error it returns.
// Step bounds are kept small so that each input checks quickly.
func FuzzCheck(f *testing.F) {
	for _, tc := range roundTripSeeds {
		f.Add(tc)
	}
	m := fuzzModel()
	env := &Env{
		Consts: map[string]pctl.StateFormula{"k": &pctl.Num{Value: 2, Int: true}, "p": &pctl.Num{Value: 0.5}},
		Props:  map[string]pctl.StateFormula{"named": &pctl.Prob{Bound: pctl.Bound{Op: pctl.Query}, Path: &pctl.Eventually{F: &pctl.Label{Name: "b"}}}},
		Labels: map[string]pctl.StateFormula{"even": &pctl.Compare{Op: pctl.EQ, L: &pctl.Call{Name: "mod", Args: []pctl.StateFormula{&pctl.Ident{Name: "x"}, &pctl.Num{Value: 2, Int: true}}}, R: &pctl.Num{Value: 0, Int: true}}},
	}
	f.Fuzz(func(t *testing.T, src string) {
		prop, err := pctl.Parse(src)
		if err != nil {
			return
		}
		big := false
		pctl.Walk(prop, func(n pctl.Node) {
			if num, ok := n.(*pctl.Num); ok && (num.Value > 50 || num.Value < -50) {
				big = true
			}
		})
		if big {
			return
		}
		for _, meth := range []Method{Direct, Interval, Exact} {
			r, err := CheckIn(m, prop, env, Options{Method: meth})
			if err != nil {
				var pe *PositionError
				if errors.As(err, &pe) && (pe.Col < 1 || pe.Col > len([]rune(src))) {
					t.Fatalf("%q: error column %d outside the text: %v", src, pe.Col, err)
				}
				continue
			}
			if r.Bool != (r.Sat != nil) || (!r.Bool && len(r.Values) != m.N) {
				t.Fatalf("%q: malformed result %+v", src, r)
			}
		}
	})
}

// roundTripSeeds are properties over the fuzz model's names, one of each construct.
var roundTripSeeds = []string{
	`P=? [ F "b" ]`, `P>=p [ "a" U<=k "b" ]`, `P=? [ "a" W[1,3] "b" ]`, `P=? [ "a" R "b" ]`,
	`P=? [ G>=1 !"b" ]`, `P=? [ X on ]`, `R{"r"}=? [ F "b" ]`, `R{"t"}=? [ C<=k ]`, `R=? [ C ]`,
	`R=? [ I=3 ]`, `R{"r"}=? [ S ]`, `S=? [ x>2 ]`, `E [ F "b" ]`, `A [ G "a" ]`,
	`filter(max, P=? [ F "b" ], x<3)`, `filter(argmin, R=? [ F "b" ])`, `filter(count, "even")`,
	`filter(state, x, #s=2)`, `filter(range, P=? [ F "b" ])`, `filter(print, on)`,
	`1 - "named" * 2 + min(x, 3) / pow(2, k)`, `x = 1 ? log(8, 2) : floor(p)`,
	`P=? [ G F "a" ]`, `P=? [ (F "b") & !(G "a") ]`, `A [ F G "a" ]`, `R{"r"}=? [ (X "a") | F "b" ]`,
	`R=? [ "a" U ("b" & (X "b")) ]`, `P=? [ F "a" {"init"}{max} ]`, `mod(x, 0)`, `1/0`,
}
