package main

import (
	"cmp"
	"flag"

	"github.com/augur-perf/augur/internal/cli"
	"github.com/augur-perf/augur/markov/experiment"
	"github.com/augur-perf/augur/markov/param"
	"github.com/augur-perf/augur/report/text"
)

func checkFlags(fs *flag.FlagSet) func(*cli.Call) error {
	var r experiment.Request
	fs.Var((*cli.Multi)(&r.Props), "prop", "a property to check (repeatable)")
	fs.Var((*cli.Multi)(&r.Consts), "const", "constant values, `name=value,...`; a range `n=1:5` or `T=0:10:100` (start:step:end) checks every value (repeatable)")
	fs.StringVar(&r.PropsFile, "props", "", "a properties file: one property per line, `//` comments, optional \"name\": prefix, const and label declarations")
	fs.StringVar(&r.Method, "method", "direct", "solution method: direct, gauss-seidel, interval, prism or exact")
	fs.Float64Var(&r.Options.Epsilon, "epsilon", 0, "convergence threshold for iterative methods (0: the method's default)")
	fs.IntVar(&r.Options.MaxIter, "max-iter", 0, "iteration limit for iterative methods (0: the method's default)")
	fs.BoolVar(&r.NoProbChecks, "no-prob-checks", false, "PRISM-language models: accept commands whose probabilities do not sum to 1 and divide each state's weights by their sum (prism -noprobchecks)")
	allStates := fs.Bool("all-states", false, "print the value of every state, not only the initial distribution's")
	asJSON := fs.Bool("json", false, "print results as JSON")
	return func(x *cli.Call) error {
		if len(x.Args) != 1 {
			return x.Usage("expected one MODEL argument, got %d", len(x.Args))
		}
		r.Model = x.Args[0]
		c, err := experiment.Do(r)
		if err != nil {
			return err
		}
		return cmp.Or(text.CheckOutput(x.Stdout, c, *allStates, *asJSON), c.Err())
	}
}

func paramFlags(fs *flag.FlagSet) func(*cli.Call) error {
	prop := fs.String("prop", "", "the property: P=? [ F \"label\" ] or R{\"name\"}=? [ F \"label\" ]")
	at := fs.String("at", "", "evaluate at these values instead of the model's: `name=value,...` (fractions allowed: 19/20)")
	var consts cli.Multi
	fs.Var(&consts, "const", "constants of a PRISM-language model, `name=value,...`")
	asJSON := fs.Bool("json", false, "print as JSON")
	return func(x *cli.Call) error {
		if len(x.Args) != 1 || *prop == "" {
			return cli.Usagef("expected MODEL and --prop")
		}
		a, err := param.QueryFile(x.Args[0], consts, *prop, *at)
		if err != nil {
			return err
		}
		return text.ParamOutput(x.Stdout, a, *asJSON)
	}
}
