package text

import (
	"fmt"
	"io"
	"math"
	"math/big"
	"slices"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/augur-perf/augur/options/compress"
	"github.com/augur-perf/augur/options/influence"
	"github.com/augur-perf/augur/options/regions"
	"github.com/augur-perf/augur/options/study"
	"github.com/augur-perf/augur/options/taint"
)

// Seconds prints a time in seconds: two decimals from 0.1 s up, three significant digits below.
func Seconds(v float64) string {
	switch a := math.Abs(v); {
	case a == 0:
		return "0"
	case a >= 0.1:
		return strconv.FormatFloat(v, 'f', 2, 64)
	default:
		return strconv.FormatFloat(v, 'g', 3, 64)
	}
}

// OptionsConfigs prints a compressed configuration space as `augur options configs` does: the
// options and influence sets, each configuration with its arguments, and the compression
// against the lower bound and brute force; took is how long the compression took.
func OptionsConfigs(w io.Writer, res *taint.Result, sp *study.Space, cr compress.Result, took time.Duration) {
	brute := sp.BruteForce()
	fmt.Fprintf(w, "Options: %d found; %d influence some decision: {%s}; irrelevant: {%s}\n",
		len(res.Options.Options), len(sp.Names), strings.Join(sp.Names, ", "), strings.Join(res.Irrelevant, ", "))
	fmt.Fprintf(w, "Influence sets (%d distinct, largest %d):", len(sp.SetNames), sp.MaxSet())
	for _, s := range sp.SetNames {
		fmt.Fprintf(w, " {%s}", strings.Join(s, ", "))
	}
	fmt.Fprintln(w)
	opt := "not proven minimal"
	if cr.Optimal {
		opt = "minimal"
	}
	fmt.Fprintf(w, "\n%d configurations (%s, %s, %s):\n", len(cr.Configs), cr.Method, opt, took.Round(time.Microsecond))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for i, cfg := range cr.Configs {
		var args []string
		for _, s := range sp.Settings(cfg) {
			args = append(args, s.String())
		}
		fmt.Fprintf(tw, "  %d\t%s\t%s\n", i+1, cfg.Format(sp.Names, sp.Values()), strings.Join(args, " "))
	}
	tw.Flush()
	var first []string
	for _, s := range sp.All(nil) {
		first = append(first, s.String())
	}
	fmt.Fprintf(w, "Every run also sets the options it does not list to their first values: %s\n", strings.Join(first, " "))
	if slices.ContainsFunc(sp.Domains, func(d int) bool { return d != 2 }) {
		// Options of more than two values: the bounds are products of their numbers of values.
		fmt.Fprintf(w, "\nLower bound: %d (the assignments of the largest influence set, %s)\n", cr.LowerBound, Plural(sp.MaxSet(), "option"))
		fmt.Fprintf(w, "Brute force: %s configurations (every assignment of %s with values)\n", brute, Plural(sp.Enumerable(), "option"))
	} else {
		fmt.Fprintf(w, "\nLower bound: %d (2^max|S| = 2^%d for boolean options)\n", cr.LowerBound, sp.MaxSet())
		fmt.Fprintf(w, "Brute force: %s configurations (2^n, n = %d options with values)\n", brute, sp.Enumerable())
	}
	ratio := new(big.Float).Quo(new(big.Float).SetInt(brute), big.NewFloat(float64(max(1, len(cr.Configs)))))
	r, _ := ratio.Float64()
	fmt.Fprintf(w, "Compression: %d of %s configurations (%.4g× fewer)\n", len(cr.Configs), brute, r)
}

// OptionsConfigsJSON writes a compressed configuration space as `augur options configs --json`:
// a configuration's on and settings are its options not at their first value, its args and env
// how a run sets every option.
func OptionsConfigsJSON(w io.Writer, res *taint.Result, sp *study.Space, cr compress.Result) error {
	type cfgJSON struct {
		On       []string        `json:"on"`
		Settings []study.Setting `json:"settings"`
		Args     []string        `json:"args"`
		Env      []string        `json:"env,omitempty"`
	}
	out := struct {
		Options    []string   `json:"options"`
		Relevant   []string   `json:"relevant"`
		Irrelevant []string   `json:"irrelevant"`
		Sets       [][]string `json:"influence_sets"`
		Method     string     `json:"method"`
		Optimal    bool       `json:"optimal"`
		LowerBound int        `json:"lower_bound"`
		MaxSet     int        `json:"max_set"`
		BruteForce string     `json:"brute_force"`
		Configs    []cfgJSON  `json:"configurations"`
	}{Options: res.Options.Names(), Relevant: sp.Names, Irrelevant: res.Irrelevant, Sets: sp.SetNames,
		Method: cr.Method, Optimal: cr.Optimal, LowerBound: cr.LowerBound, MaxSet: sp.MaxSet(), BruteForce: sp.BruteForce().String()}
	if out.Irrelevant == nil {
		out.Irrelevant = []string{}
	}
	for _, cfg := range cr.Configs {
		j := cfgJSON{On: []string{}, Settings: sp.Settings(cfg), Args: []string{}}
		for _, s := range j.Settings {
			j.On = append(j.On, s.Name)
		}
		for _, s := range sp.All(cfg) {
			if s.Arg != "" {
				j.Args = append(j.Args, s.Arg)
			}
			if s.Env != "" {
				j.Env = append(j.Env, s.Env)
			}
		}
		out.Configs = append(out.Configs, j)
	}
	return JSON(w, out)
}

// OptionsExtrapolation warns, one line per numeric option, that the prediction p of model mf
// lies outside the values the model measured, as augur options predict does on stderr.
func OptionsExtrapolation(w io.Writer, mf *study.ModelFile, p study.Prediction) {
	for _, name := range p.Extrapolated {
		xs := mf.Numeric[name]
		fmt.Fprintf(w, "augur options: warning: %s=%v lies outside the measured values [%v, %v]: the prediction extrapolates\n", name, p.Values[name], slices.Min(xs), slices.Max(xs))
	}
}

// OptionsPrediction prints a configuration's predicted time and each term of it, as `augur
// options predict` does.
func OptionsPrediction(w io.Writer, p study.Prediction) error {
	setting := slices.Clone(p.On)
	for name, x := range p.Values {
		setting = append(setting, fmt.Sprintf("%s=%v", name, x))
	}
	for name, v := range p.Levels {
		setting = append(setting, name+"="+v)
	}
	sort.Strings(setting)
	fmt.Fprintf(w, "T({%s}) = %s s\n", strings.Join(setting, ", "), Seconds(p.Seconds))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, term := range p.Terms {
		coef := term.Coef
		if term.Numeric != "" {
			coef *= term.Factor
		}
		name := influence.Term{Options: term.Options, Levels: term.Levels, Numeric: term.Numeric, Form: term.Form}.Name()
		if name == "" {
			name = "1"
		}
		var where []string
		for _, s := range term.Sources {
			if s.Position != "" && s.Position != s.Region {
				where = append(where, s.Region+" ("+s.Position+")")
			} else {
				where = append(where, s.Region)
			}
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\n", name, Seconds(coef), strings.Join(where, "; "))
	}
	if err := tw.Flush(); err != nil || p.CPUSeconds == nil {
		return err
	}
	_, err := fmt.Fprintf(w, "T above is wall time; CPU time summed over goroutines: %s s\n", Seconds(*p.CPUSeconds))
	return err
}

// OptionsRegions prints the regions before and after ConfigCrusher's optimisation, as `augur
// options regions` does (asJSON: {"before": [...], "after": [...]}).
func OptionsRegions(w io.Writer, before, after []regions.Region, o regions.TextOptions, asJSON bool) error {
	if asJSON {
		var b, f strings.Builder
		if err := regions.WriteJSON(&b, before, o); err != nil {
			return err
		}
		if err := regions.WriteJSON(&f, after, o); err != nil {
			return err
		}
		_, err := fmt.Fprintf(w, "{\"before\": %s,\n\"after\": %s}\n", strings.TrimSpace(b.String()), strings.TrimSpace(f.String()))
		return err
	}
	fmt.Fprintf(w, "Before optimisation (Algorithm 2): %d regions\n", len(before))
	if err := regions.WriteText(w, before, o); err != nil {
		return err
	}
	fmt.Fprintf(w, "\nAfter optimisation (Algorithms 3 and 4): %d regions\n", len(after))
	return regions.WriteText(w, after, o)
}

// OptionsModel prints a measured options model in seconds as `augur options measure` does:
// the terms beyond three standard errors of zero, each with the regions and positions that
// cause it; the model of wall time, and when regions ran on several goroutines at once the
// model of CPU time summed over goroutines after it, each saying which it is.
func OptionsModel(w io.Writer, mf *study.ModelFile) error {
	show := mf.FormatOptions()
	if err := mf.Model.WriteText(w, show, "wall time", ShortPath); err != nil || mf.Summed == nil {
		return err
	}
	fmt.Fprintf(w, "\nRegions ran on up to %d goroutines at once. CPU time summed over goroutines (each region's CPU time on every goroutine it ran on, from the threads' CPU clocks; the constant is the rest of the process's CPU time):\n", mf.Goroutines)
	return mf.Summed.Model.WriteText(w, show, "CPU time summed over goroutines", ShortPath)
}

// OptionsEvaluation prints the comparison with the black-box baselines as `augur options
// evaluate` does.
func OptionsEvaluation(w io.Writer, system string, ev *study.Evaluation) {
	if len(ev.Numeric) == 0 && len(ev.Categorical) == 0 {
		fmt.Fprintf(w, "System: %s (%d boolean options: %s)\n", system, len(ev.Options), strings.Join(ev.Options, ", "))
	} else {
		// Numeric options show the values every approach samples, categorical ones the set of
		// their values.
		shown := make([]string, len(ev.Options))
		for i, name := range ev.Options {
			shown[i] = name
			if xs, ok := ev.Numeric[name]; ok {
				vs := make([]string, len(xs))
				for k, x := range xs {
					vs[k] = strconv.FormatFloat(x, 'g', -1, 64)
				}
				shown[i] += "=" + strings.Join(vs, "|")
			} else if vs, ok := ev.Categorical[name]; ok {
				shown[i] += "∈{" + strings.Join(vs, ",") + "}"
			}
		}
		var kinds []string
		if len(ev.Numeric) > 0 {
			kinds = append(kinds, fmt.Sprintf("%d numeric", len(ev.Numeric)))
		}
		if len(ev.Categorical) > 0 {
			kinds = append(kinds, fmt.Sprintf("%d categorical", len(ev.Categorical)))
		}
		fmt.Fprintf(w, "System: %s (%d options, %s: %s)\n", system, len(ev.Options), strings.Join(kinds, ", "), strings.Join(shown, ", "))
	}
	fmt.Fprintf(w, "Ground truth: %d held-out configurations, %d run(s) each, measured end to end\n\n", ev.HeldOut, ev.Reps)
	fmt.Fprint(w, ev.String())
}

// OptionsValues prints a model's predictions at held-out numeric values against fresh runs
// (reps each), as `augur options evaluate --held-out-values` does.
func OptionsValues(w io.Writer, ev *study.ValuesEvaluation, reps int) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "configuration\tpredicted s\tmeasured s\terror")
	for _, c := range ev.Checks {
		note := ""
		if c.Extrapolated {
			note = "  (extrapolated)"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%.1f%%%s\n", c.Setting, Seconds(c.Predicted), Seconds(c.Measured), 100*c.Error, note)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintf(w, "MAPE over %d held-out configurations: %.2f%% (median of %d fresh runs each, plain program)\n", len(ev.Checks), ev.MAPE, max(reps, 1))
	return err
}
