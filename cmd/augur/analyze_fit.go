package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/augur-perf/augur/analyze/fitted"
	"github.com/augur-perf/augur/analyze/predict"
	"github.com/augur-perf/augur/fit/board"
	"github.com/augur-perf/augur/fit/inputs"
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

// runAnalyzeFit is analyze FUNC --fit FIT --profile P (--inputs SPEC | --at POINT): the expected
// rewards for inputs never run, the loops following the laws, the other decisions the profile.
func runAnalyzeFit(args []string, stdout, stderr io.Writer) error {
	c := commandNamed("analyze")
	fs := c.flags(stderr)
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
	pos, err := parse(fs, args, stdout)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("expected one FUNC")
	}
	if *prof == "" {
		return usagef("--fit needs --profile: a measured profile of %s gives the decisions the laws do not cover", pos[0])
	}
	if *emitKind != "" && *emitKind != "prism" {
		return usagef("--emit %q: with --fit, the parametric model is written as prism", *emitKind)
	}
	onlyEmit := *emitKind != "" && *spec == "" && *at == ""
	var text string
	var ds []inputs.Dist
	if !onlyEmit {
		if text, ds, err = parseInputs(*spec, *at); err != nil {
			return err
		}
	}
	res, err := board.ReadResult(*fitFile)
	if err != nil {
		return usageError{err}
	}
	_, fn, err := predict.LoadFunc(*dir, pos[0])
	if err != nil {
		return usageError{err}
	}
	p, err := predict.ReadProfile(*prof, fn)
	if err != nil {
		return usageError{err}
	}
	base, err := predict.Baseline(fn, p, *prof)
	if err != nil {
		return err
	}
	model, err := fitted.New(fn, res, p, base.Rewards)
	if err != nil {
		return err
	}
	if *emitKind != "" {
		if *out == "" {
			*out = fn.Decl.Name.Name
		}
		files, err := model.WritePRISM(*out)
		if err != nil {
			return err
		}
		fmt.Fprintf(stderr, "wrote %s\n", strings.Join(files, ", "))
		if onlyEmit {
			return nil
		}
	}
	given := map[string]bool{}
	for _, d := range ds {
		given[d.Param] = true
	}
	for _, l := range model.Loops {
		for _, q := range l.Law.Params() {
			if !given[q] {
				return usagef("the law of %s needs parameter %s: give it in --inputs", l.Quantity, q)
			}
		}
	}
	preds, err := model.Expect(ds, *n, *seed)
	if err != nil {
		return err
	}
	measured := map[string]float64{}
	if *compare {
		out, err := base.Predict(fn, predict.Options{})
		if err != nil {
			return err
		}
		for k, name := range out.Rewards {
			if out.Values[k] != nil {
				measured[name] = out.Values[k].Initial
			}
		}
	}
	if *asJSON {
		type row struct {
			Reward     string   `json:"reward"`
			Mean       float64  `json:"mean"`
			SD         float64  `json:"sd"`
			SE         float64  `json:"se,omitempty"`
			Exact      bool     `json:"exact"`
			Samples    int      `json:"samples,omitempty"`
			OutOfRange float64  `json:"extrapolated_probability"`
			Measured   *float64 `json:"measured_profile,omitempty"`
		}
		var rows []row
		for _, pr := range preds {
			r := row{Reward: pr.Reward, Mean: pr.Mean, SD: pr.SD, SE: pr.SE, Exact: pr.Exact, Samples: pr.Samples, OutOfRange: pr.OutOfRange}
			if v, ok := measured[pr.Reward]; ok {
				r.Measured = &v
			}
			rows = append(rows, r)
		}
		var loops []map[string]string
		for _, l := range model.Loops {
			loops = append(loops, map[string]string{"quantity": l.Quantity, "law": l.Law.String()})
		}
		var branches []map[string]string
		for _, b := range model.Branches {
			if b.Prob != nil {
				branches = append(branches, map[string]string{"quantity": b.Quantity, "p": b.Prob.String()})
			} else {
				branches = append(branches, map[string]string{"quantity": b.Quantity, "true": b.True.String(), "false": b.False.String()})
			}
		}
		var switches []map[string]string
		for _, sw := range model.Switches {
			row := map[string]string{"quantity": sw.Quantity}
			for k, o := range sw.Outcomes {
				row[o] = sw.Laws[k].String()
			}
			switches = append(switches, row)
		}
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(map[string]any{"function": fn.Name, "inputs": text, "loops": loops, "branches": branches, "switches": switches, "unfitted_loops": model.Unfitted, "predictions": rows})
	}
	fmt.Fprintf(stdout, "Function: %s, inputs: %s\nLoops:    ", fn.Name, text)
	for i, l := range model.Loops {
		if i > 0 {
			fmt.Fprint(stdout, "; ")
		}
		fmt.Fprintf(stdout, "%s = %s", strings.TrimPrefix(l.Quantity, "loop@"), l.Law)
	}
	for _, b := range model.Branches {
		if b.Prob != nil {
			fmt.Fprintf(stdout, "\nBranch:   %s P(true) = %s", strings.TrimPrefix(b.Quantity, "branch@"), b.Prob)
		} else {
			fmt.Fprintf(stdout, "\nBranch:   %s true %s, false %s", strings.TrimPrefix(b.Quantity, "branch@"), b.True, b.False)
		}
	}
	for _, sw := range model.Switches {
		fmt.Fprintf(stdout, "\nSwitch:   %s", sw.Quantity)
		for k, o := range sw.Outcomes {
			fmt.Fprintf(stdout, " %s %s;", o, sw.Laws[k])
		}
	}
	fmt.Fprintf(stdout, "\nProfile:  %s (every other decision)\n", *prof)
	if len(model.Unfitted) > 0 {
		fmt.Fprintf(stdout, "Loops without a law keep the profile's probabilities: %s\n", strings.Join(model.Unfitted, ", "))
	}
	fmt.Fprintln(stdout)
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	head := "reward\texpected\tspread (sd)\thow"
	if *compare {
		head += "\tmeasured profile"
	}
	fmt.Fprintln(tw, head)
	extrapolated := 0.0
	for _, pr := range preds {
		how := "exact"
		if !pr.Exact {
			how = fmt.Sprintf("Monte Carlo, %d samples, ± %.3g (se)", pr.Samples, pr.SE)
		}
		line := fmt.Sprintf("%s\t%.6g\t%.4g\t%s", pr.Reward, pr.Mean, pr.SD, how)
		if *compare {
			line += fmt.Sprintf("\t%.6g", measured[pr.Reward])
		}
		fmt.Fprintln(tw, line)
		extrapolated = max(extrapolated, pr.OutOfRange)
	}
	tw.Flush()
	if extrapolated > 0 {
		fmt.Fprintf(stdout, "\nExtrapolated: %.3g%% of the inputs lie outside the range the laws were fitted on.\n", 100*extrapolated)
	}
	return nil
}
