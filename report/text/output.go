package text

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/augur-perf/augur/analyze/fitted"
	"github.com/augur-perf/augur/analyze/pipeline"
	"github.com/augur-perf/augur/analyze/timing"
	fieldpipe "github.com/augur-perf/augur/field/pipeline"
	"github.com/augur-perf/augur/field/plan"
	"github.com/augur-perf/augur/field/sim"
	"github.com/augur-perf/augur/fit/board"
	"github.com/augur-perf/augur/markov/experiment"
	"github.com/augur-perf/augur/markov/param"
	"github.com/augur-perf/augur/options/study"
	"github.com/augur-perf/augur/options/taint"
)

// The Output functions print what a subcommand prints from what its library call returned, as
// JSON or as text, each in one call: a program that runs a subcommand through its library gets
// the command line's output without copying it.

// AnalyzeOutput is augur analyze FUNC's output: the analysis as JSON, or as text with the hot
// spots sorted by the reward by ("": the default; every statement with all) and what error
// bars and spreads add to the means.
func AnalyzeOutput(w io.Writer, a *pipeline.Analysis, by string, all, asJSON bool) error {
	if asJSON {
		return AnalysisJSON(w, a.Fn, a.Outcomes, a.Uncertainty)
	}
	Analysis(w, a.Fn, a.Outcomes, by, all)
	Uncertainty(w, a.Uncertainty, a.Outcomes[0].Func.Invocations)
	return nil
}

// RankOutput is augur analyze PKGS's output: the packages' functions ranked (the top 20, or
// all).
func RankOutput(w io.Writer, packages string, r *pipeline.Ranking, all, asJSON bool) error {
	if asJSON {
		return RankingJSON(w, r.Profile, r.Ranking)
	}
	Ranking(w, packages, r.Profile, r.Funcs, r.Ranking, all)
	return nil
}

// FittedOutput is augur analyze --fit's output: the predictions from the laws (with the
// measured profile's, when compared), none when the model was only written.
func FittedOutput(w io.Writer, a *fitted.Analysis, profile string, asJSON bool) error {
	switch {
	case a.Inputs == "":
		return nil
	case asJSON:
		return FittedJSON(w, a.Fn.Name, a.Inputs, a.Model, a.Predictions, a.Measured)
	}
	Fitted(w, a.Fn.Name, a.Inputs, profile, a.Model, a.Predictions, a.Measured)
	return nil
}

// CheckOutput is augur check's output: every result, of the initial distribution or of every
// state.
func CheckOutput(w io.Writer, c *experiment.Check, allStates, asJSON bool) error {
	if asJSON {
		return CheckJSON(w, c, allStates)
	}
	Check(w, c, allStates)
	return nil
}

// ParamOutput is augur param's output.
func ParamOutput(w io.Writer, a *param.Answer, asJSON bool) error {
	if asJSON {
		return ParamJSON(w, a)
	}
	Param(w, a)
	return nil
}

// ValidateOutput is augur validate's output: the prediction from the time file rewards under
// the usage usage, beside the measurement.
func ValidateOutput(w io.Writer, v *timing.Validation, rewards, usage string, asJSON bool) error {
	if asJSON {
		return JSON(w, v)
	}
	Validation(w, v, rewards, usage)
	return nil
}

// FitOutput is augur fit's output: the laws as JSON, or as text with their warnings on warn;
// as text it returns the result's failure (Result.Err), which JSON carries instead.
func FitOutput(w, warn io.Writer, res board.Result, asJSON bool) error {
	if asJSON {
		return JSON(w, res)
	}
	Fit(w, res)
	FitWarnings(warn, res)
	return res.Err()
}

// FitPredictOutput is augur fit predict's output: the predictions, as text with a warning on
// warn when inputs lie outside the range the laws were fitted on.
func FitPredictOutput(w, warn io.Writer, p *board.Predicted, asJSON bool) error {
	if asJSON {
		return JSON(w, p.Predictions)
	}
	if extrap := FitPredictions(w, p.Function, p.Inputs, p.Predictions); len(extrap) > 0 {
		fmt.Fprintf(warn, "augur fit: warning: extrapolating beyond the parameters the laws were fitted on: %s\n", strings.Join(extrap, "; "))
	}
	return nil
}

// OptionsInfluenceOutput is augur options influence's output: the statement-influence map,
// positions relative to base, as text only the decisions some option influences unless all.
func OptionsInfluenceOutput(w io.Writer, res *taint.Result, base string, all, asJSON bool) error {
	if asJSON {
		return res.WriteJSON(w, base)
	}
	return res.WriteText(w, taint.TextOptions{Base: base, OnlyInfluenced: !all})
}

// OptionsConfigsOutput is augur options configs's output: the compressed configurations.
func OptionsConfigsOutput(w io.Writer, c *study.Configurations, asJSON bool) error {
	if asJSON {
		return OptionsConfigsJSON(w, c.Analysis, c.Space, c.Result)
	}
	OptionsConfigs(w, c.Analysis, c.Space, c.Result, c.Took)
	return nil
}

// OptionsPredictOutput is augur options predict's output: the prediction p of the model mf,
// as text with a warning on warn for each numeric option it extrapolates.
func OptionsPredictOutput(w, warn io.Writer, mf *study.ModelFile, p study.Prediction, asJSON bool) error {
	if asJSON {
		return JSON(w, p)
	}
	OptionsExtrapolation(warn, mf, p)
	return OptionsPrediction(w, p)
}

// OptionsMeasureOutput is augur options measure's output: the model measured.
func OptionsMeasureOutput(w io.Writer, mf *study.ModelFile, asJSON bool) error {
	if asJSON {
		return JSON(w, mf)
	}
	return OptionsModel(w, mf)
}

// OptionsEvaluateOutput is augur options evaluate's output: the table of approaches, or the
// checks at held-out values (of reps runs each).
func OptionsEvaluateOutput(w io.Writer, ev *study.Evaluated, reps int, asJSON bool) error {
	switch {
	case asJSON && ev.Values != nil:
		return JSON(w, ev.Values)
	case asJSON:
		return JSON(w, ev.Table)
	case ev.Values != nil:
		return OptionsValues(w, ev.Values, reps)
	}
	OptionsEvaluation(w, ev.Table.System, ev.Table)
	return nil
}

// FieldPlanOutput is augur field plan's output for the request r: the calibration, when one
// was made, and the release planned.
func FieldPlanOutput(w io.Writer, p *fieldpipe.Planned, r fieldpipe.PlanRequest) error {
	if c := p.Calibrated; c != nil {
		fmt.Fprintf(w, "Calibrated: %d probes per variant cost at most %s on the workload (uninstrumented %.3f CPU-s)\n", c.Bound, r.Overhead, c.Plain)
	}
	FieldPlan(w, p.Manifest, p.Strategy, r.Seed, p.Units, strings.Join(r.Patterns, " "), r.Out)
	return nil
}

// FieldSimulateOutput is augur field simulate's output: the coverage study's rows as JSON or
// CSV, or as text with the other studies the simulation asks for.
func FieldSimulateOutput(w io.Writer, s *fieldpipe.Simulation, asJSON, asCSV bool) error {
	switch {
	case asJSON:
		return JSON(w, s.Rows)
	case asCSV:
		_, err := io.WriteString(w, sim.CSV(s.Rows))
		return err
	}
	return s.Report(w, s.Traces, s.Rows)
}

// FieldTokenOutput is augur field token's output: the token revoked or the tokens listed, or
// the token issued on w (for a script to capture) with what it is on note.
func FieldTokenOutput(w, note io.Writer, t *fieldpipe.Tokens) error {
	switch {
	case t.Revoked != "":
		fmt.Fprintf(w, "token %s revoked\n", t.Revoked)
	case t.Listed:
		FieldTokens(w, t.List)
	default:
		fmt.Fprintf(note, "token %s for release %s (shown once: only its hash is stored; revoke with --revoke %s)\n", t.ID, t.Release, t.ID)
		fmt.Fprintln(w, t.Token)
	}
	return nil
}

// FieldReleaseOutput is augur field release add's output: the release m registered.
func FieldReleaseOutput(w io.Writer, m *plan.Manifest) error {
	_, err := fmt.Fprintf(w, "release %s registered (%d variants, %d units)\n", m.Release, len(m.Variants), len(m.Units))
	return err
}

// FieldReportOutput is augur field report's output: the report as JSON to the file jsonFile
// when one is named, then as text on w (against the reference profile named reference, when
// there is one), saying where the JSON went.
func FieldReportOutput(w io.Writer, e *fieldpipe.Estimated, reference, jsonFile string) error {
	if jsonFile != "" {
		var b bytes.Buffer
		if err := FieldReportJSON(&b, e.Manifest, e.Estimates, e.Reference); err != nil {
			return err
		}
		if err := os.WriteFile(jsonFile, b.Bytes(), 0o644); err != nil {
			return err
		}
	}
	FieldReport(w, e.Manifest, e.Estimates, e.Reference, reference)
	if jsonFile != "" {
		fmt.Fprintf(w, "wrote %s\n", jsonFile)
	}
	return nil
}

// FieldProfileOutput is augur field profile's output for the request r: what the field
// profile holds and lacks, and where it was written.
func FieldProfileOutput(w io.Writer, p *fieldpipe.FieldProfile, r fieldpipe.ProfileRequest) error {
	FieldProfile(w, p.Manifest, p.Estimates, p.Profile, p.Notes, r.Base)
	_, err := fmt.Fprintf(w, "wrote %s\n", r.Out)
	return err
}
