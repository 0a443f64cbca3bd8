package main

import (
	"fmt"
	"io"
	"math/big"
	"strings"

	"github.com/augur-perf/augur/markov/param"
	"github.com/augur-perf/augur/markov/pctl"
)

func init() {
	register(&command{
		name:    "param",
		summary: "a property as a rational function of the model's branch probabilities, its value anywhere and its sensitivities",
		usage:   "MODEL --prop 'R{\"time\"}=? [ F \"end\" ]' [--at name=value,...] [--json]",
		help:    helpText("param"),
		run:     runParam,
	})
}

func runParam(args []string, stdout, stderr io.Writer) error {
	c := commandNamed("param")
	fs := c.flags(stderr)
	prop := fs.String("prop", "", "the property: P=? [ F \"label\" ] or R{\"name\"}=? [ F \"label\" ]")
	at := fs.String("at", "", "evaluate at these values instead of the model's: `name=value,...` (fractions allowed: 19/20)")
	var consts multi
	fs.Var(&consts, "const", "constants of a PRISM-language model, `name=value,...`")
	asJSON := fs.Bool("json", false, "print as JSON")
	pos, err := parse(fs, args, stdout)
	if err != nil {
		return err
	}
	if len(pos) != 1 || *prop == "" {
		return usagef("expected MODEL and --prop")
	}
	models, _, err := loadModel(pos[0], consts)
	if err != nil {
		return err
	}
	if len(models) > 1 {
		return usagef("--const: a range of a model constant makes several models; augur param takes one")
	}
	m := models[0].m
	f, err := pctl.Parse(*prop)
	if err != nil {
		return usagef("--prop %q: %v", *prop, err)
	}
	target, reward, err := reachShape(f)
	if err != nil {
		return usagef("--prop %q: %v", *prop, err)
	}
	pm, err := param.FromDTMC(m)
	if err != nil {
		return err
	}
	fn, err := pm.Reach(target, reward)
	if err != nil {
		return err
	}
	values := pm.Values
	if *at != "" {
		values = map[string]*big.Rat{}
		for k, v := range pm.Values {
			values[k] = v
		}
		for _, def := range strings.Split(*at, ",") {
			name, val, ok := strings.Cut(strings.TrimSpace(def), "=")
			r, okr := new(big.Rat).SetString(strings.TrimSpace(val))
			if !ok || !okr {
				return usagef("--at %q: want name=value (a decimal or a fraction)", def)
			}
			if _, known := pm.Values[name]; !known {
				return usagef("--at: unknown parameter %s (the model's: %s)", name, strings.Join(pm.Names, ", "))
			}
			values[name] = r
		}
	}
	v, err := fn.Eval(values)
	if err != nil {
		return err
	}
	type sens struct {
		Param string `json:"param"`
		Value string `json:"value"`
		Exact string `json:"derivative"`
		Float string `json:"derivative_float"`
	}
	var ss []sens
	for _, name := range pm.Names {
		d, err := fn.Derivative(name)
		if err != nil {
			return err
		}
		dv, err := d.Eval(values)
		if err != nil {
			return fmt.Errorf("∂/∂%s: %v", name, err)
		}
		ss = append(ss, sens{Param: name, Value: values[name].RatString(), Exact: dv.RatString(), Float: dv.FloatString(6)})
	}
	if *asJSON {
		return writeJSON(stdout, struct {
			Property    string `json:"property"`
			Function    string `json:"function"`
			Value       string `json:"value"`
			ValueFloat  string `json:"value_float"`
			Sensitivity []sens `json:"sensitivities"`
		}{*prop, fn.String(), v.RatString(), v.FloatString(10), ss})
	}
	fmt.Fprintf(stdout, "Property: %s\nFunction: %s\nValue:    %s = %s\n", *prop, fn.String(), v.RatString(), v.FloatString(10))
	if len(ss) > 0 {
		fmt.Fprintln(stdout, "\nparameter  value  derivative there")
		for _, s := range ss {
			fmt.Fprintf(stdout, "%-10s %s  %s (%s)\n", s.Param, s.Value, s.Float, s.Exact)
		}
	}
	return nil
}

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
