package main

import (
	"flag"

	"github.com/augur-perf/augur/markov/experiment"
	"github.com/augur-perf/augur/markov/param"
	"github.com/augur-perf/augur/report/text"
)

func paramFlags(fs *flag.FlagSet) func(*call) error {
	prop := fs.String("prop", "", "the property: P=? [ F \"label\" ] or R{\"name\"}=? [ F \"label\" ]")
	at := fs.String("at", "", "evaluate at these values instead of the model's: `name=value,...` (fractions allowed: 19/20)")
	var consts multi
	fs.Var(&consts, "const", "constants of a PRISM-language model, `name=value,...`")
	asJSON := fs.Bool("json", false, "print as JSON")
	return func(x *call) error {
		if len(x.args) != 1 || *prop == "" {
			return usagef("expected MODEL and --prop")
		}
		models, _, err := experiment.LoadModel(x.args[0], consts)
		if err != nil {
			return err
		}
		if len(models) > 1 {
			return usagef("--const: a range of a model constant makes several models; augur param takes one")
		}
		a, err := param.Query(models[0].Model, *prop, *at)
		if err != nil {
			return err
		}
		if *asJSON {
			return text.ParamJSON(x.stdout, a)
		}
		text.Param(x.stdout, a)
		return nil
	}
}
