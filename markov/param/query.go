package param

import (
	"fmt"
	"math/big"
	"strings"

	"github.com/augur-perf/augur/markov/dtmc"
	"github.com/augur-perf/augur/markov/experiment"
	"github.com/augur-perf/augur/markov/pctl"
)

// Answer is a property of a parametric model: its rational function, its value at a point and
// the partial derivative there in each parameter.
type Answer struct {
	Property string
	Func     *Func
	Value    *big.Rat
	// At holds every parameter's value at the point (the model's own unless overridden).
	At            map[string]*big.Rat
	Sensitivities []Sensitivity
}

// Sensitivity is ∂property/∂parameter at the point.
type Sensitivity struct {
	Param      string
	Derivative *big.Rat
}

// Query computes prop, which must be P=? [ F "label" ] or R{"name"}=? [ F "label" ], on m's
// parametric form, evaluated at the model's own probabilities overridden by at
// ("p3_true=1/2,p7_false=0.25", "" for none). A malformed or unknown prop or at is an *InputError.
func Query(m *dtmc.Model, prop, at string) (*Answer, error) {
	f, err := pctl.Parse(prop)
	if err != nil {
		return nil, inputf("--prop %q: %v", prop, err)
	}
	target, reward, err := reachShape(f)
	if err != nil {
		return nil, inputf("--prop %q: %v", prop, err)
	}
	pm, err := FromDTMC(m)
	if err != nil {
		return nil, err
	}
	fn, err := pm.Reach(target, reward)
	if err != nil {
		return nil, err
	}
	values := pm.Values
	if at != "" {
		values = map[string]*big.Rat{}
		for k, v := range pm.Values {
			values[k] = v
		}
		for _, def := range strings.Split(at, ",") {
			name, val, ok := strings.Cut(strings.TrimSpace(def), "=")
			r, okr := new(big.Rat).SetString(strings.TrimSpace(val))
			if !ok || !okr {
				return nil, inputf("--at %q: want name=value (a decimal or a fraction)", def)
			}
			if _, known := pm.Values[name]; !known {
				return nil, inputf("--at: unknown parameter %s (the model's: %s)", name, strings.Join(pm.Names, ", "))
			}
			values[name] = r
		}
	}
	v, err := fn.Eval(values)
	if err != nil {
		return nil, err
	}
	a := &Answer{Property: prop, Func: fn, Value: v, At: values}
	for _, name := range pm.Names {
		d, err := fn.Derivative(name)
		if err != nil {
			return nil, err
		}
		dv, err := d.Eval(values)
		if err != nil {
			return nil, fmt.Errorf("∂/∂%s: %v", name, err)
		}
		a.Sensitivities = append(a.Sensitivities, Sensitivity{Param: name, Derivative: dv})
	}
	return a, nil
}

// QueryFile is augur param: Query on the model in the file at path (any format
// experiment.LoadModel reads, a PRISM-language model built with its constants consts). A range
// of a model constant, which makes several models, is an *InputError.
func QueryFile(path string, consts []string, prop, at string) (*Answer, error) {
	models, _, err := experiment.LoadModel(path, consts, false)
	if err != nil {
		return nil, err
	}
	if len(models) > 1 {
		return nil, inputf("--const: a range of a model constant makes several models; augur param takes one")
	}
	return Query(models[0].Model, prop, at)
}

// InputError is a property or a point that Query cannot take, as opposed to a model it cannot
// solve; a command line reports it as a usage error.
type InputError struct{ msg string }

func (e *InputError) Error() string { return e.msg }

// UsageError says that the caller, not the model, is at fault.
func (e *InputError) UsageError() bool { return true }

func inputf(format string, a ...any) error { return &InputError{fmt.Sprintf(format, a...)} }

// reachShape matches P=? [ F "label" ] and R{"r"}=? [ F "label" ].
func reachShape(f pctl.StateFormula) (target, reward string, err error) {
	switch f := f.(type) {
	case *pctl.Prob:
		if ev, ok := f.Path.(*pctl.Eventually); ok && ev.Steps == nil {
			if l, ok := ev.F.(*pctl.Label); ok {
				return l.Name, "", nil
			}
		}
	case *pctl.Reward:
		if r, ok := f.Kind.(*pctl.Reach); ok {
			if l, ok := r.Target.(*pctl.Label); ok {
				if f.RewardName == "" {
					return "", "", fmt.Errorf("name the reward structure: R{\"name\"}=? [ F \"label\" ]")
				}
				return l.Name, f.RewardName, nil
			}
		}
	}
	return "", "", fmt.Errorf("parametric checking takes P=? [ F \"label\" ] or R{\"name\"}=? [ F \"label\" ]")
}
