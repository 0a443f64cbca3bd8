package checker

import (
	"errors"
	"math"
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/augur-perf/augur/markov/dtmc"
	"github.com/augur-perf/augur/markov/pctl"
)

// Semantic tests of the property language beyond plain PCTL, each against a closed form.

// choice: from 0 the chain stays (s), moves to 1 "a","b" (p), to 2 (q) or to 3 "a" (r); 1, 2, 3
// are absorbing. State 0 is labelled "a" and "a0".
const cs, cp, cq, cr = 0.4, 0.2, 0.3, 0.1

func choice() *dtmc.Model {
	b := dtmc.NewBuilder(4)
	b.AddExact(0, 0, big.NewRat(2, 5))
	b.AddExact(0, 1, big.NewRat(1, 5))
	b.AddExact(0, 2, big.NewRat(3, 10))
	b.AddExact(0, 3, big.NewRat(1, 10))
	for s := 1; s <= 3; s++ {
		b.Add(s, s, 1)
	}
	b.Label("a", 0)
	b.Label("a", 1)
	b.Label("a", 3)
	b.Label("a0", 0)
	b.Label("b", 1)
	b.SetInit(0)
	return must(b.Build())
}

// cycle is 0 -> 1 -> 2 -> 0 deterministically, with "z" in state 0 only.
func cycle() *dtmc.Model {
	b := dtmc.NewBuilder(3)
	for s := 0; s < 3; s++ {
		b.Add(s, (s+1)%3, 1)
	}
	b.Label("z", 0)
	b.SetInit(0)
	return must(b.Build())
}

// checkEnv parses and checks prop with env, failing the test on any error.
func checkEnv(t *testing.T, m *dtmc.Model, prop string, env *Env, opt Options) *Result {
	t.Helper()
	f, err := pctl.Parse(prop)
	if err != nil {
		t.Fatalf("parse %q: %v", prop, err)
	}
	r, err := CheckIn(m, f, env, opt)
	if err != nil {
		t.Fatalf("check %q (%v): %v", prop, opt.Method, err)
	}
	return r
}

func TestTemporalOperators(t *testing.T) {
	m := choice()
	reach := func(k int) float64 { // P(reach 2 within k steps)
		return cq * (1 - math.Pow(cs, float64(k))) / (1 - cs)
	}
	all := cp + cq + cr
	cases := []struct {
		prop string
		want float64
	}{
		{`P=? [ "a" U "b" ]`, cp / all},
		{`P=? [ "a" W "b" ]`, (cp + cr) / all},
		{`P=? [ G "a" ]`, (cp + cr) / all},
		{`P=? [ "b" R "a" ]`, (cp + cr) / all},
		{`P=? [ "a" W<=3 "b" ]`, 1 - reach(3)},
		{`P=? [ "a" W<4 "b" ]`, 1 - reach(3)},
		{`P=? [ G<=5 "a" ]`, 1 - reach(5)},
		{`P=? [ "b" R<=2 "a" ]`, 1 - reach(2)},
		{`P=? [ "a0" U>=2 "b" ]`, cp * cs / (1 - cs)}, // first "b" at step n >= 2: Σ s^(n-1)·p
		{`P=? [ "a0" U>1 "b" ]`, cp * cs / (1 - cs)},
		{`P=? [ "a0" U[1,3] "b" ]`, cp * (1 + cs + cs*cs)},
		{`P=? [ "a0" U=2 "b" ]`, cs * cp},
		{`P=? [ F=2 "b" ]`, cp * (1 + cs)},
		{`P=? [ F[2,2] "b" ]`, cp * (1 + cs)},
		{`P=? [ F>=3 "b" ]`, cp / (1 - cs)},
		{`P=? [ F<2 "b" ]`, cp},
		{`P=? [ G>=1 "a" ]`, (cp + cr) / all},
		{`P=? [ G[1,2] !"b" ]`, 1 - cp*(1+cs)},
	}
	for _, meth := range allMethods {
		for _, c := range cases {
			r := check(t, m, c.prop, Options{Method: meth})
			if !near(r.Initial, c.want, tolerance(meth)) {
				t.Errorf("%v %s = %.17g, want %.17g", meth, c.prop, r.Initial, c.want)
			}
			if r.Lo != nil && (r.InitialLo > c.want*(1+1e-12) || r.InitialHi < c.want*(1-1e-12)) {
				t.Errorf("%v %s: bounds [%v, %v] miss %v", meth, c.prop, r.InitialLo, r.InitialHi, c.want)
			}
		}
	}
	// On a deterministic cycle every bounded operator is exactly 0 or 1, state by state.
	cyc := cycle()
	for _, c := range []struct {
		prop string
		want [3]float64
	}{
		{`P=? [ F=2 "z" ]`, [3]float64{0, 1, 0}},
		{`P=? [ F<2 "z" ]`, [3]float64{1, 0, 1}},
		{`P=? [ F>3 "z" ]`, [3]float64{1, 1, 1}},
		{`P=? [ F[4,5] "z" ]`, [3]float64{0, 1, 1}},
		{`P=? [ G[1,2] !"z" ]`, [3]float64{1, 0, 0}},
		{`P=? [ !"z" U[1,1] "z" ]`, [3]float64{0, 0, 1}},
	} {
		for _, meth := range allMethods {
			r := check(t, cyc, c.prop, Options{Method: meth})
			for s, w := range c.want {
				got := r.Values[s]
				// The interval method rounds its bounds outward: its point may sit a few
				// subnormal ulps off an exact 0, inside bounds that contain the truth.
				if meth == Interval && math.Abs(got-w) <= 1e-300 && r.Lo[s] <= w && w <= r.Hi[s] {
					continue
				}
				if got != w {
					t.Errorf("%v %s in state %d = %v, want %v", meth, c.prop, s, got, w)
				}
			}
		}
	}
}

func TestQualitative(t *testing.T) {
	m := choice()
	cases := map[string][4]bool{
		`E [ F "b" ]`:                {true, true, false, false},
		`A [ F "b" ]`:                {false, true, false, false},
		`E [ G "a" ]`:                {true, true, false, true},
		`A [ G "a" ]`:                {false, true, false, true},
		`A [ F !"a0" ]`:              {true, true, true, true}, // the path staying in 0 has probability 0
		`E [ X "b" ]`:                {true, true, false, false},
		`A [ X "a" ]`:                {false, true, false, true},
		`E [ "a0" U<=0 "b" ]`:        {false, true, false, false},
		`A [ "a" W "b" ]`:            {false, true, false, true},
		`E [ "a" W<=2 "b" ]`:         {true, true, false, true},
		`A [ F>=2 !"a0" ]`:           {true, true, true, true},
		`E [ "a0" U[2,3] "b" ]`:      {true, false, false, false},
		`A [ "a0" U[2,3] "b" ]`:      {false, false, false, false},
		`E [ F "b" ] & !A [ F "b" ]`: {true, false, false, false},
	}
	for prop, want := range cases {
		r := check(t, m, prop, Options{})
		for s, w := range want {
			if r.Sat[s] != w {
				t.Errorf("%s in state %d = %v, want %v", prop, s, r.Sat[s], w)
			}
		}
	}
}

// TestLongRunReward: a two-state chain 0 <-> 1 (0 -> 1 with a, 1 -> 0 with b) has π = (b, a)/(a+b);
// with state rewards 1 and 3 and reward 5 on 0 -> 1 the long-run average is (b + 3a + 5ab)/(a+b).
// A transient state 2 goes to it or to an absorbing state 3 (reward 2) with probability 1/2 each.
func TestLongRunReward(t *testing.T) {
	a, bb := big.NewRat(1, 4), big.NewRat(1, 3)
	one := big.NewRat(1, 1)
	b := dtmc.NewBuilder(4)
	b.AddExact(0, 1, a)
	b.AddExact(0, 0, new(big.Rat).Sub(one, a))
	b.AddExact(1, 0, bb)
	b.AddExact(1, 1, new(big.Rat).Sub(one, bb))
	b.AddExact(2, 0, big.NewRat(1, 2))
	b.AddExact(2, 3, big.NewRat(1, 2))
	b.Add(3, 3, 1)
	b.AddStateReward("r", 0, 1)
	b.AddStateReward("r", 1, 3)
	b.AddStateReward("r", 3, 2)
	b.AddTransReward("r", 0, 1, 5)
	b.SetInit(2)
	m := must(b.Build())
	af, bf := 0.25, 1.0/3
	cycleAvg := (bf + 3*af + 5*af*bf) / (af + bf)
	want := []float64{cycleAvg, cycleAvg, (cycleAvg + 2) / 2, 2}
	for _, meth := range allMethods {
		r := check(t, m, `R=? [ S ]`, Options{Method: meth})
		for s, w := range want {
			if !near(r.Values[s], w, tolerance(meth)) {
				t.Errorf("%v: state %d = %.17g, want %.17g", meth, s, r.Values[s], w)
			}
		}
		if meth == Exact && (r.InitialExact == nil || r.InitialExact.RatString() != "16/7") {
			t.Errorf("exact long-run reward %v, want 16/7 (= (18/7 + 2)/2)", r.InitialExact)
		}
	}
	// S=? [ φ ] is the long-run average of φ's indicator: π(1) in the cycle.
	r := check(t, m, `S=? [ #s=1 ]`, Options{})
	if !near(r.Values[0], af/(af+bf), 1e-12) {
		t.Errorf("S=? [ #s=1 ] = %v", r.Values[0])
	}
}

func TestFilters(t *testing.T) {
	m := choice()
	reachB := cp / (1 - cs)
	cases := []struct {
		prop   string
		value  float64
		holds  bool
		states []int
	}{
		{`filter(max, P=? [ F "b" ])`, 1, false, nil},
		{`filter(min, P=? [ F "b" ], "a")`, 0, false, nil},
		{`filter(sum, P=? [ F "b" ])`, reachB + 1, false, nil},
		{`filter(+, P=? [ F "b" ])`, reachB + 1, false, nil},
		{`filter(avg, P=? [ F "b" ])`, (reachB + 1) / 4, false, nil},
		{`filter(count, "a")`, 3, false, nil},
		{`filter(count, P>0.5 [ F "b" ])`, 1, false, nil},
		{`filter(first, P=? [ F "b" ], !"a0")`, 1, false, nil},
		{`filter(state, P=? [ F "b" ], #s=0)`, reachB, false, nil},
		{`filter(forall, "a")`, 0, false, nil},
		{`filter(forall, "a", "b")`, 0, true, nil},
		{`filter(&, "a" | !"a")`, 0, true, nil},
		{`filter(exists, "b")`, 0, true, nil},
		{`filter(argmax, P=? [ F "b" ])`, 0, false, []int{1}},
		{`filter(argmin, P=? [ F "b" ])`, 0, false, []int{2, 3}},
		{`filter(print, P=? [ F "b" ])`, 0, false, []int{0, 1}},
		{`filter(printall, P=? [ F "b" ], "a")`, 0, false, []int{0, 1, 3}},
		{`filter(print, "a")`, 0, false, []int{0, 1, 3}},
	}
	for _, c := range cases {
		r := check(t, m, c.prop, Options{})
		if !near(r.Value, c.value, 1e-12) || r.Holds != c.holds || !equalInts(r.States, c.states) {
			t.Errorf("%s = value %v holds %v states %v, want %v %v %v", c.prop, r.Value, r.Holds, r.States, c.value, c.holds, c.states)
		}
	}
	r := check(t, m, `filter(range, P=? [ F "b" ])`, Options{})
	if r.Filter != "range" || r.Min != 0 || r.Max != 1 {
		t.Errorf("range = [%v, %v]", r.Min, r.Max)
	}
	// A filter inside an expression is a constant; argmax is a set of states.
	r = check(t, m, `2 * filter(max, P=? [ F "b" ], "a0") + 1`, Options{})
	if !near(r.Initial, 2*reachB+1, 1e-12) {
		t.Errorf("arithmetic over a filter = %v", r.Initial)
	}
	r = check(t, m, `P>0 [ F filter(argmax, P=? [ F "b" ]) ]`, Options{})
	if !r.Holds {
		t.Errorf("reaching the argmax: %v", r.Sat)
	}
}

func equalInts(a, b []int) bool {
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

// TestSeveralInitialStates: PRISM answers a numeric property over several initial states with
// the range of values, and a Boolean one with whether it holds in all of them.
func TestSeveralInitialStates(t *testing.T) {
	b := dtmc.NewBuilder(4)
	b.AddExact(0, 0, big.NewRat(2, 5))
	b.AddExact(0, 1, big.NewRat(1, 5))
	b.AddExact(0, 2, big.NewRat(3, 10))
	b.AddExact(0, 3, big.NewRat(1, 10))
	for s := 1; s <= 3; s++ {
		b.Add(s, s, 1)
	}
	b.Label("b", 1)
	b.AddInit(0, 0.5)
	b.AddInit(1, 0.25)
	b.AddInit(2, 0.25)
	m := must(b.Build())
	r := check(t, m, `P=? [ F "b" ]`, Options{})
	reachB := cp / (1 - cs)
	if r.Min != 0 || r.Max != 1 || !near(r.Initial, 0.5*reachB+0.25, 1e-12) {
		t.Errorf("range [%v, %v], expectation %v", r.Min, r.Max, r.Initial)
	}
	if r := check(t, m, `P>0 [ F "b" ]`, Options{}); r.Holds {
		t.Error("P>0 [ F \"b\" ] holds in every initial state, but not in 2")
	}
	if r := check(t, m, `filter(forall, P>0 [ F "b" ], "init" & !#s=2)`, Options{}); !r.Holds {
		t.Error(`"init" label: the filter over initial states 0 and 1 should hold`)
	}
	if r := check(t, m, `filter(count, "init")`, Options{}); r.Value != 3 {
		t.Errorf(`"init" holds in %v states, want 3`, r.Value)
	}
}

func TestExpressionsConstantsAndReferences(t *testing.T) {
	reachB := cp / (1 - cs)
	env := &Env{
		Consts: map[string]pctl.StateFormula{},
		Props:  map[string]pctl.StateFormula{},
		Labels: map[string]pctl.StateFormula{},
	}
	def := func(dst map[string]pctl.StateFormula, name, src string) {
		f, err := pctl.Parse(src)
		if err != nil {
			t.Fatal(err)
		}
		dst[name] = f
	}
	def(env.Consts, "k", "2")
	def(env.Consts, "p", "0.25")
	def(env.Consts, "twice", "2*k")
	def(env.Props, "reach", `P=? [ F "b" ]`)
	def(env.Props, "double", `2 * "reach"`)
	def(env.Labels, "start", `#s=0`)
	cases := []struct {
		prop string
		want float64
	}{
		{`1 - P=? [ F "b" ]`, 1 - reachB},
		{`"double"`, 2 * reachB},
		{`"reach" / 2 + min(1, 2, 0.5) * max(3, 4)`, reachB/2 + 2},
		{`pow(2, twice) + mod(-7, 3) + mod(7, -3) + floor(2.5) + ceil(2.1) + round(-1.5) + log(8, 2)`, 16 + 2 + 1 + 2 + 3 - 1 + 3}, // mod as PRISM: Java's % plus the divisor when negative
		{`P>=p+0.05 [ F<=k "b" ] ? 10 : 20`, 20},
		{`P>=p [ F<=k+1 "b" ] ? 10 : 20`, 10},
		{`P=? [ F<=twice "b" ]`, cp * (1 + cs + cs*cs + cs*cs*cs)},
		{`R=? [ I=k ]`, cp * (1 + cs)},
		{`P=? [ X "start" ]`, cs},
		{`22 / 7`, 22.0 / 7},
		{`-(#s + 1)`, -1},
		{`s = 0 ? 1 : 0`, 1},
	}
	r0 := must(func() (*dtmc.Model, error) {
		bl := dtmc.NewBuilder(4)
		bl.AddExact(0, 0, big.NewRat(2, 5))
		bl.AddExact(0, 1, big.NewRat(1, 5))
		bl.AddExact(0, 2, big.NewRat(3, 10))
		bl.AddExact(0, 3, big.NewRat(1, 10))
		for s := 1; s <= 3; s++ {
			bl.Add(s, s, 1)
		}
		bl.Label("b", 1)
		bl.AddStateReward("r", 1, 1)
		bl.SetInit(0)
		return bl.Build()
	}())
	for _, c := range cases {
		r := checkEnv(t, r0, c.prop, env, Options{})
		if !near(r.Initial, c.want, 1e-12) {
			t.Errorf("%s = %.17g, want %.17g", c.prop, r.Initial, c.want)
		}
	}
	errs := map[string]string{
		`P=? [ F<=n "b" ]`:             `column 10: unknown variable or constant "n"`,
		`P=? [ F<=p "b" ]`:             `column 10: the step bound p is 0.25, not an integer`,
		`P=? [ F<=#s "b" ]`:            `column 10: the step bound #s depends on the state`,
		`P>=2*p+1 [ F "b" ]`:           `column 4: the bound 2*p+1 is 1.5, not a probability in [0,1]`,
		`"reach" & true`:               `column 1: "reach" is not Boolean`,
		`"loop"`:                       `column 1: unknown label "loop"`,
		`P=? [ F[3,2] "b" ]`:           `column 7: the step interval [3,2] is empty`,
		`P=? [ F<0 "b" ]`:              `column 7: the step bound <0 admits no step`,
		`filter(state, 1, "b" | #s=0)`: `column 1: filter state needs exactly one state, but "b" | #s=0 holds in 2`,
		`filter(max, 1, false)`:        `column 16: filter max over no states: false holds nowhere`,
		`filter(range, 1) + 1`:         `column 1: filter range gives an interval`,
		`filter(count, 1)`:             `column 15: 1 is not Boolean (filter count counts the states where it holds)`,
		`mod(1.5, 2)`:                  `column 1: mod(1.5, 2) needs integer arguments`,
		`mod(1, 0)`:                    `column 1: mod(1, 0) divides by zero`,
		`true ? 1 : "b"`:               `column 1: the branches of true ? 1 : "b" are not of one type`,
		`1 + "b"`:                      `column 5: "b" is not a number`,
		// Path formulas of an LTL formula where a number belongs, in the user's words (the
		// fuzzer found the product's atom named in the message, at column 0).
		`P=?[(X"b")*("b")]`:               `column 6: (X "b") is not a number (it holds a path formula)`,
		`P=? [ 2*(1+(X "b")) > 0 ]`:       `column 13: (X "b") is not a number (it holds a path formula)`,
		`P=? [ ((X "b") & "b") + 1 > 0 ]`: `column 8: (X "b") & "b" is not a number (it holds a path formula)`,
		`P=? [ -(F "b") > 0 ]`:            `column 9: (F "b") is not a number (it holds a path formula)`,
		`P=? [ (X "b") = 1 ]`:             `column 7: (X "b")=1 compares a path formula with a number`,
		// A path formula as a step bound is no LTL formula (the fuzzer found a reduction that
		// never ended: the bound kept the formula LTL).
		`P=? [ F>(G "b") "b" ]`:              `column 10: the path formula (G "b") can only be an argument of P, E or A`,
		`P=? [ (F<=(F "b") "b") & (G "b") ]`: `column 12: the path formula (F "b") can only be an argument of P, E or A`,
	}
	for prop, want := range errs {
		f, err := pctl.Parse(prop)
		if err != nil {
			t.Fatalf("parse %q: %v", prop, err)
		}
		_, err = CheckIn(r0, f, env, Options{})
		var pe *PositionError
		if err == nil || !errors.As(err, &pe) || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%s: error %v, want prefix %q", prop, err, want)
		}
	}
	// A cycle of references is an error, not a hang.
	loop := &Env{Props: map[string]pctl.StateFormula{}}
	def(loop.Props, "x", `"y" + 1`)
	def(loop.Props, "y", `"x" + 1`)
	f, _ := pctl.Parse(`"x"`)
	if _, err := CheckIn(r0, f, loop, Options{}); err == nil || !strings.Contains(err.Error(), "cycle") {
		t.Errorf("cyclic references: %v", err)
	}
}

// TestStateVariables: with variables from a .sta file, s is the variable s, not the state index,
// and #s is the index (issue 13, item 5: PRISM's suite has 16 properties that were silently wrong).
func TestStateVariables(t *testing.T) {
	b := dtmc.NewBuilder(3)
	b.Add(0, 1, 0.5)
	b.Add(0, 2, 0.5)
	b.Add(1, 1, 1)
	b.Add(2, 2, 1)
	b.SetInit(0)
	m := must(b.Build())
	// State 1 has s=7 and state 2 has s=1: the index and the variable disagree everywhere but 0.
	m.Vars = &dtmc.Vars{Names: []string{"s", "done"}, Bool: []bool{false, true}, Values: []int{0, 0, 7, 1, 1, 0}}
	cases := map[string]float64{
		`P=? [ F s=7 ]`:        0.5,
		`P=? [ F #s=2 ]`:       0.5,
		`P=? [ F s=1 ]`:        0.5,
		`P=? [ F s=1 & done ]`: 0,
		`P=? [ F done ]`:       0.5,
		`P=? [ F s+#s=3 ]`:     0.5,
		`filter(sum, s)`:       8,
		`P=? [ F G s=7 ]`:      0.5, // variables survive the LTL construction
	}
	for prop, want := range cases {
		r := check(t, m, prop, Options{})
		got := r.Initial
		if r.Filter != "" {
			got = r.Value
		}
		if got != want {
			t.Errorf("%s = %v, want %v", prop, got, want)
		}
	}
	f, _ := pctl.Parse(`P=? [ F x=1 ]`)
	if _, err := Check(m, f, Options{}); err == nil || !strings.Contains(err.Error(), `unknown variable or constant "x" (the model's variables are s, done; #s is the state index)`) {
		t.Errorf("unknown variable: %v", err)
	}
	env := &Env{Consts: map[string]pctl.StateFormula{"s": &pctl.Num{Value: 1, Int: true}}}
	f, _ = pctl.Parse(`s=1`)
	if _, err := CheckIn(m, f, env, Options{}); err == nil || !strings.Contains(err.Error(), "both a state variable") {
		t.Errorf("variable and constant of one name: %v", err)
	}
}

// TestLTL checks LTL formulas, reduced by the Courcoubetis-Yannakakis construction, against
// closed forms on the choice chain (which ends in 1 "b", 2, or 3 with probabilities p, q, r over
// p+q+r) and on the deterministic cycle.
func TestLTL(t *testing.T) {
	all := cp + cq + cr
	cases := []struct {
		m    *dtmc.Model
		prop string
		want []float64
	}{
		{choice(), `P=? [ G F "b" ]`, []float64{cp / all, 1, 0, 0}},
		{choice(), `P=? [ F G "a" ]`, []float64{(cp + cr) / all, 1, 0, 1}},
		{choice(), `P=? [ !(G F "b") ]`, []float64{1 - cp/all, 0, 1, 1}},
		{choice(), `P=? [ (F "b") | (F !"a") ]`, []float64{(cp + cq) / all, 1, 1, 0}},
		{choice(), `P=? [ X X "b" ]`, []float64{cp * (1 + cs), 1, 0, 0}},
		{choice(), `P=? [ (X "a0") U "b" ]`, []float64{0, 1, 0, 0}},
		{choice(), `P=? [ "a0" U (X "b") ]`, []float64{cp / all, 1, 0, 0}},
		{choice(), `P=? [ G ("a0" => (X "a0")) ]`, []float64{0, 1, 1, 1}},
		{choice(), `P=? [ F<=2 (G "b") ]`, []float64{cp * (1 + cs), 1, 0, 0}},
		{choice(), `P=? [ (G F "b") & (F G "a") ]`, []float64{cp / all, 1, 0, 0}},
		{choice(), `P=? [ ((F "b") => (G "a")) & !(X "a0") ]`, []float64{1 - cs, 1, 1, 1}},
		{cycle(), `P=? [ G F "z" ]`, []float64{1, 1, 1}},
		{cycle(), `P=? [ "z" ]`, []float64{1, 0, 0}}, // a state formula as a path formula: its first state
		{cycle(), `P=? [ F G "z" ]`, []float64{0, 0, 0}},
		{cycle(), `P=? [ G ("z" => (X X X "z")) ]`, []float64{1, 1, 1}},
	}
	for _, meth := range []Method{Direct, GaussSeidel, Interval, Exact} {
		for _, c := range cases {
			r := check(t, c.m, c.prop, Options{Method: meth})
			if meth == Exact && r.Exact == nil {
				t.Errorf("exact %s: no rationals (the product must carry the model's)", c.prop)
			}
			for s, w := range c.want {
				if meth == Exact && r.Exact != nil {
					if x, _ := r.Exact[s].Float64(); !near(x, w, 1e-12) {
						t.Errorf("exact %s in state %d = %s, want %.17g", c.prop, s, r.Exact[s].RatString(), w)
					}
				}
				// The interval method's outward rounding may leave its point a few subnormal
				// ulps off an exact 0.
				if !near(r.Values[s], w, 1e-9) && !(meth == Interval && math.Abs(r.Values[s]-w) <= 1e-300) {
					t.Errorf("%v %s in state %d = %.17g, want %.17g", meth, c.prop, s, r.Values[s], w)
				}
			}
		}
	}
	quals := map[string][4]bool{
		`E [ F G "a" ]`:             {true, true, false, true},
		`A [ F G "a" ]`:             {false, true, false, true},
		`A [ G F !"a0" ]`:           {true, true, true, true},
		`E [ (G F "b") & (X "a") ]`: {true, true, false, false},
		`A [ !(G F "b") ]`:          {false, false, true, true},
	}
	for prop, want := range quals {
		r := check(t, choice(), prop, Options{})
		for s, w := range want {
			if r.Sat[s] != w {
				t.Errorf("%s in state %d = %v, want %v", prop, s, r.Sat[s], w)
			}
		}
	}
	f, _ := pctl.Parse(`P=? [ F (G<=2 "a") ]`)
	if _, err := Check(choice(), f, Options{}); err == nil || !strings.Contains(err.Error(), "outermost temporal operator only") {
		t.Errorf("bounded inner operator: %v", err)
	}
}

// TestLTLRandomAgainstBSCCs: on random chains, P[G F goal] is the probability of reaching a
// bottom component with a goal state and P[F G goal] of reaching one made of goal states only,
// computed here from the components directly.
func TestLTLRandomAgainstBSCCs(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 4))
	for trial := 0; trial < 20; trial++ {
		m := randomChain(r, 30+r.IntN(30), 1+r.IntN(3), 0.6, true)
		g, _ := newGraph(m)
		goal := make([]bool, m.N)
		for _, s := range m.Labels["goal"] {
			goal[s] = true
		}
		some, every := make([]bool, m.N), make([]bool, m.N)
		for _, b := range g.bsccs() {
			any, all := false, true
			for _, s := range b {
				any, all = any || goal[s], all && goal[s]
			}
			for _, s := range b {
				some[s], every[s] = any, all
			}
		}
		e := &evaluator{m: m, g: g, opt: &Options{}, env: &Env{}}
		for _, c := range []struct {
			prop   string
			target []bool
		}{{`P=? [ G F "goal" ]`, some}, {`P=? [ F G "goal" ]`, every}} {
			want, err := e.until(e.fillBool(true), c.target)
			if err != nil {
				t.Fatal(err)
			}
			got := check(t, m, c.prop, Options{})
			for s := range want.x {
				if !near(got.Values[s], want.x[s], 1e-9) {
					t.Fatalf("trial %d, %s in state %d = %.17g, want %.17g", trial, c.prop, s, got.Values[s], want.x[s])
				}
			}
		}
	}
}

func TestConstantTypes(t *testing.T) {
	m := choice()
	env := &Env{
		Consts: map[string]pctl.StateFormula{"k": &pctl.Num{Value: 2, Int: true}, "d": &pctl.Num{Value: 2, Int: true}, "h": &pctl.Num{Value: 0.5}, "b": &pctl.Bool{Value: true}},
		Types:  map[string]string{"k": "int", "d": "double", "h": "int", "b": "double"},
	}
	if r := checkEnv(t, m, `P=? [ F<=k "b" ]`, env, Options{}); !near(r.Initial, cp*(1+cs), 1e-12) {
		t.Errorf("int constant as a step bound: %v", r.Initial)
	}
	for prop, want := range map[string]string{
		`P=? [ F<=d "b" ]`: "the step bound d is 2, not an integer",
		`h + 1`:            "constant h is declared int but its value is 0.5",
		`b + 1`:            "constant b is declared double but its value is true",
	} {
		f, _ := pctl.Parse(prop)
		if _, err := CheckIn(m, f, env, Options{}); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", prop, err, want)
		}
	}
}

// BenchmarkLTL measures the Courcoubetis-Yannakakis construction against the PCTL property it
// ends in: G F "goal" splits the chain twice (F, then G of the new proposition) and solves three
// reachability problems; F "goal" solves one.
func BenchmarkLTL(b *testing.B) {
	m := randomChain(rand.New(rand.NewPCG(1, 2)), 100000, 3, 0.5, true)
	for _, prop := range []string{`P=? [ F "goal" ]`, `P=? [ G F "goal" ]`, `P=? [ (F "goal") & (X !"goal") ]`} {
		b.Run(prop, func(b *testing.B) { benchCheck(b, m, prop, Options{}) })
	}
}

// TestCoSafeRewards runs PRISM's own co-safe reward tests (prism-tests,
// functionality/verify/dtmcs/rewards/dtmc_rewards.pm.cosafety.props, with their RESULTs) on the
// model they are written for: 0 -> 1 -> 2 -> 3 -> 3 with variable s the state.
func TestCoSafeRewards(t *testing.T) {
	b := dtmc.NewBuilder(4)
	for s := 0; s < 3; s++ {
		b.Add(s, s+1, 1)
	}
	b.Add(3, 3, 1)
	b.SetInit(0)
	for _, r := range []struct {
		name         string
		state, trans []float64
	}{
		{"a", []float64{2, 5, 11, 0}, []float64{3, 7, 0, 0}},
		{"a_state", []float64{5, 12, 11, 0}, nil},
		{"b", []float64{2, 5, 11, 17}, []float64{3, 7, 0, 13}},
		{"b_state", []float64{5, 12, 11, 30}, nil},
	} {
		b.DeclareReward(r.name)
		for s, v := range r.state {
			if v != 0 {
				b.AddStateReward(r.name, s, v)
			}
		}
		for s, v := range r.trans {
			if v != 0 {
				b.AddTransReward(r.name, s, min(s+1, 3), v)
			}
		}
	}
	m := must(b.Build())
	m.Vars = &dtmc.Vars{Names: []string{"s"}, Bool: []bool{false}, Values: []int{0, 1, 2, 3}}
	inf := math.Inf(1)
	// All of the file's properties with their RESULTs, in order.
	cases := []struct {
		prop string
		want float64
	}{
		{`R{"a"}=? [ s>=0 ]`, 0.0},
		{`R{"a"}=? [ true ]`, 0.0},
		{`R{"a"}=? [ !false ]`, 0.0},
		{`R{"a"}=? [ s>0 | s=0 ]`, 0.0},
		{`R{"a"}=? [ s=0 ]`, 0.0},
		{`R{"a"}=? [ F s=0 ]`, 0.0},
		{`R{"a"}=? [ F s=1 ]`, 5.0},
		{`R{"a"}=? [ F s=2 ]`, 17.0},
		{`R{"a"}=? [ F s=3 ]`, 28.0},
		{`R{"a"}=? [ X s>=0 ]`, 5.0},
		{`R{"a"}=? [ X true ]`, 5.0},
		{`R{"a"}=? [ ! (X true) ]`, inf},
		{`R{"a"}=? [ ! (X false) ]`, 5.0},
		{`R{"a"}=? [ X X s>=0 ]`, 17.0},
		{`R{"a"}=? [ X X true ]`, 17.0},
		{`R{"a"}=? [ X X X s>=0 ]`, 28.0},
		{`R{"a"}=? [ X X X true ]`, 28.0},
		{`R{"a"}=? [ X X X (true ? true : s>=0) ]`, 28.0},
		{`R{"a"}=? [ X X X (false ? true : s>=0) ]`, 28.0},
		{`R{"a"}=? [ X X X false ]`, inf},
		{`R{"a"}=? [ (X X true) U s=0 ]`, 0.0},
		{`R{"a"}=? [ (X X true) U s=1 ]`, 17.0},
		{`R{"a"}=? [ (X X true) U s=2 ]`, 28.0},
		{`R{"a"}=? [ (X X true) U s=3 ]`, 28.0},
		{`R{"b"}=? [ (X X true) U s=3 ]`, 58.0},
		{`R{"a"}=? [ s=0 | (X true) ]`, 0.0},
		{`filter(state, R{"a"}=? [ s=0 | (X true) ], s=1)`, 12.0},
		{`filter(state, R{"a"}=? [ s=0 | (X true) ], s=2)`, 11.0},
		{`filter(state, R{"a"}=? [ s=0 | (X true) ], s=3)`, 0.0},
		{`filter(state, R{"a"}=? [ (X s=1) | (X s=2) ], s=0)`, 5.0},
		{`filter(state, R{"a"}=? [ (X s=1) | (X s=2) ], s=1)`, 12.0},
		{`filter(state, R{"a"}=? [ (X s=1) | (X s=2) ], s=2)`, inf},
		{`R{"a"}=? [ F (X s=1) ]`, 5.0},
		{`R{"a"}=? [ F (X s=2) ]`, 17.0},
		{`R{"a"}=? [ F (X s=3) ]`, 28.0},
		{`R{"a"}=? [ F (s=0 & (X s=1)) ]`, 5.0},
		{`R{"a"}=? [ F (s=1 & (X s=2)) ]`, 17.0},
		{`R{"a"}=? [ F (s=2 & (X s=3)) ]`, 28.0},
		{`R{"a_state"}=? [ s>=0 ]`, 0.0},
		{`R{"a_state"}=? [ true ]`, 0.0},
		{`R{"a_state"}=? [ !false ]`, 0.0},
		{`R{"a_state"}=? [ s>0 | s=0 ]`, 0.0},
		{`R{"a_state"}=? [ s=0 ]`, 0.0},
		{`R{"a_state"}=? [ F s=0 ]`, 0.0},
		{`R{"a_state"}=? [ F s=1 ]`, 5.0},
		{`R{"a_state"}=? [ F s=2 ]`, 17.0},
		{`R{"a_state"}=? [ F s=3 ]`, 28.0},
		{`R{"a_state"}=? [ X s>=0 ]`, 5.0},
		{`R{"a_state"}=? [ X true ]`, 5.0},
		{`R{"a_state"}=? [ ! (X true) ]`, inf},
		{`R{"a_state"}=? [ ! (X false) ]`, 5.0},
		{`R{"a_state"}=? [ X X s>=0 ]`, 17.0},
		{`R{"a_state"}=? [ X X true ]`, 17.0},
		{`R{"a_state"}=? [ X X X s>=0 ]`, 28.0},
		{`R{"a_state"}=? [ X X X true ]`, 28.0},
		{`R{"a_state"}=? [ X X X (true ? true : s>=0) ]`, 28.0},
		{`R{"a_state"}=? [ X X X (false ? true : s>=0) ]`, 28.0},
		{`R{"a_state"}=? [ X X X false ]`, inf},
		{`R{"a_state"}=? [ (X X true) U s=0 ]`, 0.0},
		{`R{"a_state"}=? [ (X X true) U s=1 ]`, 17.0},
		{`R{"a_state"}=? [ (X X true) U s=2 ]`, 28.0},
		{`R{"a_state"}=? [ (X X true) U s=3 ]`, 28.0},
		{`R{"b_state"}=? [ (X X true) U s=3 ]`, 58.0},
		{`R{"a_state"}=? [ (X X true) U s=0 ]`, 0.0},
		{`R{"a_state"}=? [ (X X true) U s=1 ]`, 17.0},
		{`R{"a_state"}=? [ (X X true) U s=2 ]`, 28.0},
		{`R{"a_state"}=? [ (X X true) U s=3 ]`, 28.0},
		{`R{"b_state"}=? [ (X X true) U s=3 ]`, 58.0},
		{`R{"a_state"}=? [ s=0 | (X true) ]`, 0.0},
		{`filter(state, R{"a_state"}=? [ s=0 | (X true) ], s=1)`, 12.0},
		{`filter(state, R{"a_state"}=? [ s=0 | (X true) ], s=2)`, 11.0},
		{`filter(state, R{"a_state"}=? [ s=0 | (X true) ], s=3)`, 0.0},
		{`filter(state, R{"a_state"}=? [ (X s=1) | (X s=2) ], s=0)`, 5.0},
		{`filter(state, R{"a_state"}=? [ (X s=1) | (X s=2) ], s=1)`, 12.0},
		{`filter(state, R{"a_state"}=? [ (X s=1) | (X s=2) ], s=2)`, inf},
		{`R{"a_state"}=? [ F (X s=1) ]`, 5.0},
		{`R{"a_state"}=? [ F (X s=2) ]`, 17.0},
		{`R{"a_state"}=? [ F (X s=3) ]`, 28.0},
		{`R{"a_state"}=? [ F (s=0 & (X s=1)) ]`, 5.0},
		{`R{"a_state"}=? [ F (s=1 & (X s=2)) ]`, 17.0},
		{`R{"a_state"}=? [ F (s=2 & (X s=3)) ]`, 28.0},
	}
	for _, c := range cases {
		for _, meth := range []Method{Direct, Exact} {
			r := check(t, m, c.prop, Options{Method: meth})
			got := r.Initial
			if r.Filter != "" {
				got = r.Value
			}
			if got != c.want {
				t.Errorf("%v: %s = %v, want %v (PRISM's RESULT)", meth, c.prop, got, c.want)
			}
			// Exact mode stays exact through the co-safe product: a rational, or none where
			// the value is infinite.
			if meth == Exact && r.Filter == "" && !math.IsInf(c.want, 1) && (r.InitialExact == nil || r.InitialExact.Cmp(new(big.Rat).SetFloat64(c.want)) != 0) {
				t.Errorf("exact: %s = %v, want the rational %v", c.prop, r.InitialExact, c.want)
			}
		}
	}
	// On a random walk: 0 stays with 0.4 and goes to 1 "b" otherwise; 1 returns to 0. The first
	// move into "b" guarantees F (!"b" & X "b") once the "b" state is read: the expected number of
	// visits to 0 before it, 1/0.6.
	g := dtmc.NewBuilder(2)
	g.Add(0, 0, 0.4)
	g.Add(0, 1, 0.6)
	g.Add(1, 0, 1)
	g.Label("b", 1)
	g.AddStateReward("steps", 0, 1)
	g.SetInit(0)
	walk := must(g.Build())
	for _, meth := range []Method{Direct, Exact} {
		if r := check(t, walk, `R=? [ F (!"b" & (X "b")) ]`, Options{Method: meth}); !near(r.Initial, 1/0.6, 1e-12) {
			t.Errorf("%v: walk = %v, want %v", meth, r.Initial, 1/0.6)
		}
	}
	if r := check(t, walk, `R=? [ F ("b" & (X "b")) ]`, Options{}); !math.IsInf(r.Initial, 1) {
		t.Errorf("never satisfied: %v, want +Inf", r.Initial)
	}
	f, _ := pctl.Parse(`R{"a"}=? [ G s<3 ]`)
	if _, err := Check(m, f, Options{}); err == nil || !strings.Contains(err.Error(), "is not co-safe LTL") {
		t.Errorf("G in a co-safe reward: %v", err)
	}
}

// TestExactArithmetic: under the exact method, arithmetic over operators stays rational.
func TestExactArithmetic(t *testing.T) {
	m := knuthDie()
	for prop, want := range map[string]string{
		`1 - P=? [ F "six" ]`:                       "5/6",
		`P=? [ F "six" ] * 3 + 0.5`:                 "1",
		`-P=? [ F "one" ] / 2`:                      "-1/12",
		`R{"flips"}=? [ F "done" ] - 1/3`:           "10/3",
		`P=? [ F "six" ] / (P=? [ F "six" ] - 1/6)`: "", // division by zero: no exact value
	} {
		r := check(t, m, prop, Options{Method: Exact})
		got := ""
		if r.InitialExact != nil {
			got = r.InitialExact.RatString()
		}
		if got != want {
			t.Errorf("%s = %s (%v), want %q", prop, got, r.Initial, want)
		}
	}
}

// A state index compared with a state that does not exist is an error at its column, not a
// property that is false everywhere.
func TestStateIndexOutOfRange(t *testing.T) {
	m := cycle()
	for _, prop := range []string{`P=? [ F #s=99 ]`, `P=? [ F s=3 ]`, `P=? [ F 1.5=#s ]`} {
		f, err := pctl.Parse(prop)
		if err != nil {
			t.Fatal(err)
		}
		_, err = Check(m, f, Options{})
		var pe *PositionError
		if !errors.As(err, &pe) || !strings.Contains(err.Error(), "does not exist: the model's states are 0..2") {
			t.Errorf("%s: %v", prop, err)
		}
	}
	f, _ := pctl.Parse(`P=? [ F #s=2 ]`)
	if _, err := Check(m, f, Options{}); err != nil {
		t.Errorf("an existing state: %v", err)
	}
}

// A bounded PCTL operator around a P whose argument is LTL is PCTL, not LTL (PRISM's
// bugfixes/supersimple.pm.boundedltl.props): it used to recurse without end.
func TestNestedLTLArgument(t *testing.T) {
	b := dtmc.NewBuilder(4)
	b.Add(0, 1, 0.6)
	b.Add(0, 2, 0.4)
	b.Add(1, 1, 1)
	b.Add(2, 2, 1)
	b.Add(3, 3, 1)
	b.SetInit(0)
	b.Label("a", 1)
	m, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	for _, prop := range []string{`P>=1 [ F<=1 P>0 [ X F "a" ] ]`, `P>0.5 [ F>=1 P>0 [ X F "a" ] ]`, `P>0.5 [ X F P>0 [ F<=4 "a" ] ]`} {
		f, err := pctl.Parse(prop)
		if err != nil {
			t.Fatal(err)
		}
		r, err := Check(m, f, Options{})
		if err != nil || !r.Holds {
			t.Errorf("%s: %+v, %v; PRISM says true", prop, r, err)
		}
	}
}
