package text

import (
	"fmt"
	"io"

	"github.com/augur-perf/augur/markov/param"
)

// Param prints a parametric property as `augur param` does: the property, its rational
// function, its value exactly and to ten decimals, then each parameter's value and the
// derivative there.
func Param(w io.Writer, a *param.Answer) {
	fmt.Fprintf(w, "Property: %s\nFunction: %s\nValue:    %s = %s\n", a.Property, a.Func.String(), a.Value.RatString(), a.Value.FloatString(10))
	if len(a.Sensitivities) > 0 {
		fmt.Fprintln(w, "\nparameter  value  derivative there")
		for _, s := range a.Sensitivities {
			fmt.Fprintf(w, "%-10s %s  %s (%s)\n", s.Param, a.At[s.Param].RatString(), s.Derivative.FloatString(6), s.Derivative.RatString())
		}
	}
}

// ParamJSON writes a parametric property as `augur param --json` does.
func ParamJSON(w io.Writer, a *param.Answer) error {
	type sens struct {
		Param string `json:"param"`
		Value string `json:"value"`
		Exact string `json:"derivative"`
		Float string `json:"derivative_float"`
	}
	var ss []sens
	for _, s := range a.Sensitivities {
		ss = append(ss, sens{Param: s.Param, Value: a.At[s.Param].RatString(), Exact: s.Derivative.RatString(), Float: s.Derivative.FloatString(6)})
	}
	return JSON(w, struct {
		Property    string `json:"property"`
		Function    string `json:"function"`
		Value       string `json:"value"`
		ValueFloat  string `json:"value_float"`
		Sensitivity []sens `json:"sensitivities"`
	}{a.Property, a.Func.String(), a.Value.RatString(), a.Value.FloatString(10), ss})
}
