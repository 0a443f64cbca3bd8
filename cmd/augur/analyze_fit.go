package main

import (
	"flag"
	"fmt"
	"strings"

	"github.com/augur-perf/augur/analyze/fitted"
	"github.com/augur-perf/augur/analyze/predict"
	"github.com/augur-perf/augur/fit/inputs"
	"github.com/augur-perf/augur/report/text"
)

// hasFitFlag reports whether analyze was given --fit: then the model's loops follow fitted laws.
func hasFitFlag(args []string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		if a == "--fit" || a == "-fit" || strings.HasPrefix(a, "--fit=") || strings.HasPrefix(a, "-fit=") {
			return true
		}
	}
	return false
}

// analyzeFitFlags is analyze FUNC --fit FIT --profile P (--inputs SPEC | --at POINT): the
// expected rewards for inputs never run, the loops following the laws, the other decisions the
// profile.
func analyzeFitFlags(fs *flag.FlagSet) func(*call) error {
	dir := fs.String("dir", "", "the module directory FUNC is loaded from")
	fitFile := fs.String("fit", "", "the laws of FUNC's loops (augur-fit/1, from augur fit)")
	prof := fs.String("profile", "", "a measured profile of FUNC: the probabilities of its other decisions")
	spec := fs.String("inputs", "", "the input distribution: 'n~lognormal(8,1.2), m=5'")
	at := fs.String("at", "", "one point instead: 'n=1e6, m=5'")
	compare := fs.Bool("compare", false, "also show the prediction of the measured profile itself")
	n := fs.Int("samples", 2000, "Monte Carlo samples for continuous distributions (one model solved per sample)")
	seed := fs.Uint64("seed", 1, "seed of the Monte Carlo samples")
	asJSON := fs.Bool("json", false, "print the predictions as JSON")
	emitKind := fs.String("emit", "", "write the model with its laws as a parametric DTMC: prism (BASE.pm, BASE.props)")
	out := fs.String("o", "", "base path for --emit (default: the function's name)")
	return func(x *call) error {
		switch {
		case len(x.args) != 1:
			return usagef("expected one FUNC")
		case *prof == "":
			return usagef("--fit needs --profile: a measured profile of %s gives the decisions the laws do not cover", x.args[0])
		case *emitKind != "" && *emitKind != "prism":
			return usagef("--emit %q: with --fit, the parametric model is written as prism", *emitKind)
		case *out != "" && *emitKind == "":
			return usagef("-o %s names the files --emit writes: give --emit prism", *out)
		}
		onlyEmit := *emitKind != "" && *spec == "" && *at == ""
		var desc string
		var ds []inputs.Dist
		var err error
		if !onlyEmit {
			if desc, ds, err = parseInputs(*spec, *at); err != nil {
				return err
			}
		}
		l, err := fitted.Load(*dir, x.args[0], *fitFile, *prof)
		if err != nil {
			return err
		}
		if *emitKind != "" {
			if *out == "" {
				*out = l.Fn.Decl.Name.Name
			}
			files, err := l.Model.WritePRISM(*out)
			if err != nil {
				return err
			}
			fmt.Fprintf(x.stderr, "wrote %s\n", strings.Join(files, ", "))
			if onlyEmit {
				return nil
			}
		}
		if err := l.Model.CheckInputs(ds); err != nil {
			return err
		}
		preds, err := l.Model.Expect(ds, *n, *seed)
		if err != nil {
			return err
		}
		var measured map[string]float64
		if *compare {
			out, err := l.Base.Predict(l.Fn, predict.Options{})
			if err != nil {
				return err
			}
			measured = out.Expected()
		}
		if *asJSON {
			return text.FittedJSON(x.stdout, l.Fn.Name, desc, l.Model, preds, measured)
		}
		text.Fitted(x.stdout, l.Fn.Name, desc, *prof, l.Model, preds, measured)
		return nil
	}
}
