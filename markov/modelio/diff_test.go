package modelio

import (
	"fmt"
	"strings"

	"github.com/augur-perf/augur/markov/dtmc"
)

// diffModels describes the first difference between two models, field by field; "" if none.
// Exact values are compared as numbers, since equal rationals may differ in representation.
func diffModels(a, b *dtmc.Model) string {
	var d []string
	add := func(format string, args ...any) { d = append(d, fmt.Sprintf(format, args...)) }
	if a.N != b.N {
		return fmt.Sprintf("N %d != %d", a.N, b.N)
	}
	if !eqInts(a.RowPtr, b.RowPtr) || !eqInts(a.Col, b.Col) {
		return fmt.Sprintf("structure %v %v != %v %v", a.RowPtr, a.Col, b.RowPtr, b.Col)
	}
	if !eqFloats(a.Prob, b.Prob) {
		add("Prob %v != %v", a.Prob, b.Prob)
	}
	if (a.Exact == nil) != (b.Exact == nil) {
		add("Exact nil %v != %v", a.Exact == nil, b.Exact == nil)
	} else {
		for k := range a.Exact {
			x, y := a.Exact[k], b.Exact[k]
			if (x == nil) != (y == nil) || (x != nil && x.Cmp(y) != 0) {
				add("Exact[%d] %v != %v", k, x, y)
			}
		}
	}
	if !eqStrings(a.Action, b.Action) {
		add("Action %q != %q", a.Action, b.Action)
	}
	if !eqStrings(a.Param, b.Param) {
		add("Param %q != %q", a.Param, b.Param)
	}
	if fmt.Sprint(a.Init) != fmt.Sprint(b.Init) {
		add("Init %v != %v", a.Init, b.Init)
	}
	if len(a.Labels) != len(b.Labels) {
		add("Labels %v != %v", a.Labels, b.Labels)
	}
	for name, st := range a.Labels {
		if other, ok := b.Labels[name]; !ok || !eqInts(st, other) {
			add("label %q %v != %v", name, st, other)
		}
	}
	if len(a.Rewards) != len(b.Rewards) {
		add("%d rewards != %d", len(a.Rewards), len(b.Rewards))
	} else {
		for i, r := range a.Rewards {
			o := b.Rewards[i]
			if r.Name != o.Name || !eqFloats(r.State, o.State) || !eqFloats(r.Trans, o.Trans) {
				add("reward %d: %q %v %v != %q %v %v", i, r.Name, r.State, r.Trans, o.Name, o.State, o.Trans)
			}
		}
	}
	if !eqInts(a.Line, b.Line) {
		add("Line %v != %v", a.Line, b.Line)
	}
	return strings.Join(d, "; ")
}

func eqInts(a, b []int) bool {
	if (a == nil) != (b == nil) || len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func eqFloats(a, b []float64) bool {
	if (a == nil) != (b == nil) || len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func eqStrings(a, b []string) bool {
	if (a == nil) != (b == nil) || len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
