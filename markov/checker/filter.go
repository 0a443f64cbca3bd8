package checker

import (
	"fmt"
	"math"

	"github.com/augur-perf/augur/markov/pctl"
)

// filterResult is what filter(op, prop, states) gives: one number (Value), one truth value
// (Holds, when IsBool), a range (Min, Max), or a set of states (Which: the arg-minimisers, or
// the states to print).
type filterResult struct {
	op       string
	prop     *vec
	isBool   bool
	value    float64
	isInt    bool
	holds    bool
	min, max float64
	which    []int
}

// filter applies a filter as PRISM defines it: the operator over the values of prop in the
// states where states holds (all states when it is omitted).
func (e *evaluator) filter(f *pctl.Filter) (*filterResult, error) {
	prop, err := e.eval(f.Prop)
	if err != nil {
		return nil, err
	}
	in := e.fillBool(true)
	if f.States != nil {
		if in, err = e.sat(f.States); err != nil {
			return nil, err
		}
	}
	var states []int
	for s, ok := range in {
		if ok {
			states = append(states, s)
		}
	}
	r := &filterResult{op: f.Op, prop: prop}
	needNum := func() error {
		if prop.isBool() {
			return typeError(f.Prop, fmt.Sprintf("a number (filter %s needs numeric values)", f.Op))
		}
		return nil
	}
	if len(states) == 0 && f.Op != "count" && f.Op != "sum" && f.Op != "forall" && f.Op != "exists" && f.Op != "print" && f.Op != "printall" {
		at := pctl.Node(f)
		if f.States != nil {
			at = f.States
		}
		return nil, &PositionError{at.Pos(), fmt.Sprintf("filter %s over no states: %s holds nowhere", f.Op, f.States)}
	}
	switch f.Op {
	case "min", "max", "range", "argmin", "argmax":
		if err := needNum(); err != nil {
			return nil, err
		}
		r.min, r.max = math.Inf(1), math.Inf(-1)
		for _, s := range states {
			r.min, r.max = math.Min(r.min, prop.v.x[s]), math.Max(r.max, prop.v.x[s])
		}
		r.value, r.isInt = r.min, prop.Int
		if f.Op == "max" {
			r.value = r.max
		}
		if f.Op == "argmin" || f.Op == "argmax" {
			target := r.min
			if f.Op == "argmax" {
				target = r.max
			}
			for _, s := range states {
				if prop.v.x[s] == target {
					r.which = append(r.which, s)
				}
			}
		}
	case "count":
		if !prop.isBool() {
			return nil, typeError(f.Prop, "Boolean (filter count counts the states where it holds)")
		}
		for _, s := range states {
			if prop.b[s] {
				r.value++
			}
		}
		r.isInt = true
	case "sum", "avg":
		if err := needNum(); err != nil {
			return nil, err
		}
		for _, s := range states {
			r.value += prop.v.x[s]
		}
		r.isInt = prop.Int
		if f.Op == "avg" {
			r.value /= float64(len(states))
			r.isInt = false
		}
	case "forall", "exists":
		if !prop.isBool() {
			return nil, typeError(f.Prop, fmt.Sprintf("Boolean (filter %s needs a state formula)", f.Op))
		}
		r.isBool, r.holds = true, f.Op == "forall"
		for _, s := range states {
			if prop.b[s] != r.holds {
				r.holds = !r.holds
				break
			}
		}
	case "state", "first":
		if f.Op == "state" && len(states) != 1 {
			return nil, &PositionError{f.Pos(), fmt.Sprintf("filter state needs exactly one state, but %s holds in %d", f.States, len(states))}
		}
		s := states[0]
		if prop.isBool() {
			r.isBool, r.holds = true, prop.b[s]
		} else {
			r.value, r.isInt = prop.v.x[s], prop.Int
		}
	case "print", "printall":
		// PRISM's print leaves out zero values (false ones for a state formula).
		for _, s := range states {
			if f.Op == "printall" || (prop.isBool() && prop.b[s]) || (!prop.isBool() && prop.v.x[s] != 0) {
				r.which = append(r.which, s)
			}
		}
	default:
		return nil, &PositionError{f.Pos(), fmt.Sprintf("unknown filter operator %q", f.Op)}
	}
	return r, nil
}

// vec is a filter's value inside a larger expression: the same in every state, except for
// argmin and argmax (the set of states found) and print (the property itself).
func (r *filterResult) vec(e *evaluator, f *pctl.Filter) (*vec, error) {
	switch r.op {
	case "argmin", "argmax":
		b := make([]bool, e.m.N)
		for _, s := range r.which {
			b[s] = true
		}
		return e.boolVec(b, false), nil
	case "print", "printall":
		return r.prop, nil
	case "range":
		return nil, &PositionError{f.Pos(), "filter range gives an interval, which cannot be used inside an expression"}
	}
	if r.isBool {
		return e.boolVec(e.fillBool(r.holds), true), nil
	}
	return e.numVec(e.fill(r.value), r.isInt, true), nil
}
