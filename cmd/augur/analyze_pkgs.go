package main

import (
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/augur-perf/augur/analyze/calls"
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
	// The reward to rank by, and each invoked function's own expected reward per call.
	reward := *by
	if reward == "" {
		var names []string
		for _, fn := range fns {
			if sc, err := predict.Baseline(fn, p, name); err == nil {
				names = append(names, sc.Rewards.Names()...)
			}
		}
		sort.Strings(names)
		if len(names) == 0 {
			return fmt.Errorf("no function of %s has a reward annotation (// @cost=1, say) and the profile has no CPU time: nothing to rank by", strings.Join(pkgs, " "))
		}
		reward = names[0]
	}
	excl := map[string]float64{}
	for _, fn := range fns {
		pf := p.Funcs[fn.Name]
		if pf == nil || pf.Invocations == 0 {
			continue
		}
		if pf.Hash != "" {
			if h, err := instrument.FuncHash(fn); err == nil && h != pf.Hash {
				return fmt.Errorf("%s: %s was measured on other source (it changed since): profile it again", name, fn.Name)
			}
		}
		sc, err := predict.Baseline(fn, p, name)
		if err != nil {
			return err
		}
		if _, ok := sc.Rewards[reward]; !ok {
			continue // no statement of fn carries the reward: its own share is 0
		}
		out, err := sc.Predict(fn, predict.Options{Checker: checker.Options{Method: meth}})
		if err != nil {
			return err
		}
		for i, r := range out.Rewards {
			if r == reward {
				excl[fn.Name] = out.Values[i].Initial
			}
		}
	}
	g := calls.Build(fns)
	rows, err := calls.Compose(g, p, excl)
	if err != nil {
		return err
	}
	var invoked []calls.Row
	for _, r := range rows {
		if r.Invocations > 0 {
			invoked = append(invoked, r)
		}
	}
	if htmlOut != "" {
		r := reporthtml.BuildRanking(strings.Join(pkgs, " "), name, reward, invoked, positions(g))
		if err := writeHTML(htmlOut, open, r, stderr); err != nil {
			return err
		}
	}
	if *asJSON {
		return text.JSON(stdout, struct {
			Reward  string      `json:"reward"`
			Profile string      `json:"profile"`
			Funcs   []calls.Row `json:"functions"`
			Dynamic []string    `json:"dynamic_call_sites,omitempty"`
		}{reward, name, invoked, positions(g)})
	}
	fmt.Fprintf(stdout, "Packages: %s (%d functions, %d invoked)\nProfile:  %s\nReward:   %s per call, exclusive (own statements) and inclusive (callees composed)\n\n",
		strings.Join(pkgs, " "), len(fns), len(invoked), name, reward)
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "function\tcalls\texclusive\tinclusive")
	shown := invoked
	if !*all && len(shown) > 20 {
		shown = shown[:20]
	}
	for _, r := range shown {
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\n", r.Func, r.Invocations, text.Num(r.Exclusive), text.Num(r.Inclusive))
	}
	tw.Flush()
	if len(shown) < len(invoked) {
		fmt.Fprintf(stdout, "(%d more; --all lists them)\n", len(invoked)-len(shown))
	}
	if n := len(g.Dynamic); n > 0 {
		what := fmt.Sprintf("%d call sites through interfaces or function values are", n)
		if n == 1 {
			what = "1 call site through an interface or a function value is"
		}
		fmt.Fprintf(stdout, "\n%s not composed (the callee is not known statically): %s\n", what, relPosition(g.Dynamic[0].String()))
	}
	return nil
}

func positions(g *calls.Graph) []string {
	var out []string
	for _, p := range g.Dynamic {
		out = append(out, relPosition(p.String()))
	}
	return out
}

// relPosition shortens a file:line:col under the working directory.
func relPosition(pos string) string {
	if wd, err := os.Getwd(); err == nil {
		if rel, ok := strings.CutPrefix(pos, wd+string(os.PathSeparator)); ok {
			return rel
		}
	}
	return pos
}

// loadAll loads the packages and selects every function of them.
func loadAll(dir string, pkgs []string) (*frontend.Program, []*frontend.Func, error) {
	prog, err := frontend.Load(dir, pkgs...)
	if err != nil {
		return nil, nil, usageError{err}
	}
	var fns []*frontend.Func
	for _, p := range prog.Packages {
		sel, err := prog.Select(p.PkgPath)
		if err != nil {
			return nil, nil, usageError{err}
		}
		fns = append(fns, sel...)
	}
	return prog, fns, nil
}
