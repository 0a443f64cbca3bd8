package main

import (
	"flag"

	"github.com/augur-perf/augur/markov/checker"
	"github.com/augur-perf/augur/markov/experiment"
	"github.com/augur-perf/augur/report/text"
)

func checkFlags(fs *flag.FlagSet) func(*call) error {
	var req experiment.Request
	fs.Var((*multi)(&req.Props), "prop", "a property to check (repeatable)")
	fs.Var((*multi)(&req.Consts), "const", "constant values, `name=value,...`; a range `n=1:5` or `T=0:10:100` (start:step:end) checks every value (repeatable)")
	fs.StringVar(&req.PropsFile, "props", "", "a properties file: one property per line, `//` comments, optional \"name\": prefix, const and label declarations")
	method := fs.String("method", "direct", "solution method: direct, gauss-seidel, interval, prism or exact")
	fs.Float64Var(&req.Options.Epsilon, "epsilon", 0, "convergence threshold for iterative methods (0: the method's default)")
	fs.IntVar(&req.Options.MaxIter, "max-iter", 0, "iteration limit for iterative methods (0: the method's default)")
	allStates := fs.Bool("all-states", false, "print the value of every state, not only the initial distribution's")
	asJSON := fs.Bool("json", false, "print results as JSON")
	return func(x *call) error {
		if len(x.args) != 1 {
			return x.usage("expected one MODEL argument, got %d", len(x.args))
		}
		var err error
		if req.Options.Method, err = checker.ParseMethod(*method); err != nil {
			return err
		}
		req.Model = x.args[0]
		res, err := experiment.Do(req)
		if err != nil {
			return err
		}
		if *asJSON {
			if err := text.CheckJSON(x.stdout, res, *allStates); err != nil {
				return err
			}
		} else {
			text.Check(x.stdout, res, *allStates)
		}
		return res.Err()
	}
}
