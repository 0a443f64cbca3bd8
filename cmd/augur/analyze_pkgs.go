package main

import (
	"errors"
	"flag"
	"fmt"
	"strings"

	"github.com/augur-perf/augur/analyze/predict"
	"github.com/augur-perf/augur/markov/checker"
	"github.com/augur-perf/augur/probe/profile"
	reporthtml "github.com/augur-perf/augur/report/html"
	"github.com/augur-perf/augur/report/text"
	"github.com/augur-perf/augur/source/frontend"
)

// isPackageArgs reports whether analyze was given package patterns (./pkg/...) rather than one
// function: then every function is ranked, callees included.
func isPackageArgs(args []string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		if strings.HasPrefix(a, "-") {
			continue
		}
		return a == "." || strings.HasPrefix(a, "./") || strings.HasPrefix(a, "../") || strings.HasSuffix(a, "/...")
	}
	return false
}

// analyzePkgsFlags is analyze PKGS: every function's expected reward per call, exclusive (its
// own statements) and inclusive (with its callees', composed over the call graph).
func analyzePkgsFlags(fs *flag.FlagSet) func(*call) error {
	dir := fs.String("dir", "", "the module directory PKGS are loaded from and the workload runs in")
	prof := fs.String("profile", "", "a measured profile of the packages (augur profile PKGS -- WORKLOAD)")
	by := fs.String("by", "", "the reward to rank by (default: the first annotated reward, by name)")
	all := fs.Bool("all", false, "list every function, not only the top 20")
	method := fs.String("method", "direct", "checker method for each function's model")
	asJSON := fs.Bool("json", false, "print the ranking as JSON")
	htmlOut, open := htmlFlags(fs)
	return func(x *call) error {
		if *open && *htmlOut == "" {
			return usagef("--open opens the --html report: give --html FILE")
		}
		if (*prof == "") == (len(x.workload) == 0) {
			return usagef("give a measured --profile of the packages or a workload after \"--\" (one of them)")
		}
		meth, err := checker.ParseMethod(*method)
		if err != nil {
			return usageError{err}
		}
		prog, fns, err := loadAll(*dir, x.args)
		if err != nil {
			return err
		}
		var p *profile.Profile
		name := *prof
		if len(x.workload) > 0 {
			if p, err = runWorkload(prog, fns, x.job(*dir, x.stderr), x.stderr); err != nil {
				return err
			}
			name = "workload: " + strings.Join(x.workload, " ")
		} else if p, err = profile.Read(*prof); err != nil {
			return err
		}
		pkgs := strings.Join(x.args, " ")
		r, err := predict.Rank(fns, p, name, *by, checker.Options{Method: meth})
		if errors.Is(err, predict.ErrNoReward) {
			return fmt.Errorf("%s: %w", pkgs, err)
		}
		if err != nil {
			return err
		}
		if *htmlOut != "" {
			rep := reporthtml.BuildRanking(pkgs, name, r.Reward, r.Invoked, text.DynamicSites(r))
			if err := writeHTML(*htmlOut, *open, rep, x.stderr); err != nil {
				return err
			}
		}
		if *asJSON {
			return text.RankingJSON(x.stdout, name, r)
		}
		text.Ranking(x.stdout, pkgs, name, len(fns), r, *all)
		return nil
	}
}

// loadAll loads the packages and selects every function of them.
func loadAll(dir string, pkgs []string) (*frontend.Program, []*frontend.Func, error) {
	prog, err := frontend.Load(dir, pkgs...)
	if err != nil {
		return nil, nil, usageError{err}
	}
	fns, _, err := prog.SelectAll(nil)
	if err != nil {
		return nil, nil, usageError{err}
	}
	return prog, fns, nil
}
