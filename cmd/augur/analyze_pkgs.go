package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/augur-perf/augur/analyze/predict"
	"github.com/augur-perf/augur/markov/checker"
	"github.com/augur-perf/augur/probe/instrument"
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

// runAnalyzePkgs is analyze PKGS: every function's expected reward per call, exclusive (its own
// statements) and inclusive (with its callees', composed over the call graph).
func runAnalyzePkgs(args []string, stdout, stderr io.Writer) error {
	c := commandNamed("analyze")
	fs := c.flags(stderr)
	dir := fs.String("dir", "", "the module directory PKGS are loaded from and the workload runs in")
	prof := fs.String("profile", "", "a measured profile of the packages (augur profile PKGS -- WORKLOAD)")
	by := fs.String("by", "", "the reward to rank by (default: the first annotated reward, by name)")
	all := fs.Bool("all", false, "list every function, not only the top 20")
	method := fs.String("method", "direct", "checker method for each function's model")
	asJSON := fs.Bool("json", false, "print the ranking as JSON")
	var htmlOut string
	var open bool
	registerHTML(fs, &htmlOut, &open)
	flagArgs, workload := splitWorkload(args)
	pkgs, err := parse(fs, flagArgs, stdout)
	if err != nil {
		return err
	}
	if open && htmlOut == "" {
		return usagef("--open opens the --html report: give --html FILE")
	}
	if (*prof == "") == (len(workload) == 0) {
		return usagef("give a measured --profile of the packages or a workload after \"--\" (one of them)")
	}
	meth, err := checker.ParseMethod(*method)
	if err != nil {
		return usageError{err}
	}
	prog, fns, err := loadAll(*dir, pkgs)
	if err != nil {
		return err
	}
	var p *profile.Profile
	name := *prof
	if len(workload) > 0 {
		if p, err = runWorkload(prog, fns, instrument.Workload{Args: workload, Dir: *dir, Stdin: os.Stdin, Stdout: stderr, Stderr: stderr}, stderr); err != nil {
			return err
		}
		name = "workload: " + strings.Join(workload, " ")
	} else if p, err = profile.Read(*prof); err != nil {
		return err
	}
	r, err := predict.Rank(fns, p, name, *by, checker.Options{Method: meth})
	if errors.Is(err, predict.ErrNoReward) {
		return fmt.Errorf("%s: %w", strings.Join(pkgs, " "), err)
	}
	if err != nil {
		return err
	}
	if htmlOut != "" {
		rep := reporthtml.BuildRanking(strings.Join(pkgs, " "), name, r.Reward, r.Invoked, text.DynamicSites(r))
		if err := writeHTML(htmlOut, open, rep, stderr); err != nil {
			return err
		}
	}
	if *asJSON {
		return text.RankingJSON(stdout, name, r)
	}
	text.Ranking(stdout, strings.Join(pkgs, " "), name, len(fns), r, *all)
	return nil
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
