package main

import (
	"io"

	"github.com/augur-perf/augur/markov/experiment"
	"github.com/augur-perf/augur/markov/param"
	"github.com/augur-perf/augur/report/text"
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
	models, _, err := experiment.LoadModel(pos[0], consts)
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
		return text.ParamJSON(stdout, a)
	}
	text.Param(stdout, a)
	return nil
}
