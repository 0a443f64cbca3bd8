package study

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/augur-perf/augur/options/compress"
	"github.com/augur-perf/augur/options/runner"
	"github.com/augur-perf/augur/options/sources"
	"github.com/augur-perf/augur/options/taint"
)

// Configurations is a program's configuration space compressed: the analysis, the space and
// the configurations that cover every region's option combinations.
type Configurations struct {
	Analysis *taint.Result
	Space    *Space
	compress.Result
	// Took is how long the compression took.
	Took time.Duration
}

// Compressed analyses req's program (Analyse) and compresses its configuration space with
// method (Methods; "" is auto), as augur options configs does.
func Compressed(req Request, method string) (*Configurations, error) {
	res, err := Analyse(req)
	if err != nil {
		return nil, err
	}
	sp, err := NewSpace(res)
	if err != nil {
		return nil, err
	}
	if method == "" {
		method = "auto"
	}
	start := time.Now()
	cr, err := sp.Compress(method)
	if err != nil {
		return nil, err
	}
	return &Configurations{Analysis: res, Space: sp, Result: cr, Took: time.Since(start)}, nil
}

// PredictFile predicts a configuration's time from the model file at path, the configuration
// given as ModelFile.ParseSetting reads it, as augur options predict does. A configuration the
// model cannot predict is an *InputError.
func PredictFile(path, config string, args []string) (*ModelFile, Prediction, error) {
	mf, err := ReadModel(path)
	if err != nil {
		return nil, Prediction{}, err
	}
	on, num, err := mf.ParseSetting(config, args)
	if err != nil {
		return nil, Prediction{}, err
	}
	p, err := mf.PredictAt(on, num)
	if err != nil {
		return nil, Prediction{}, &InputError{err.Error()}
	}
	return mf, p, nil
}

// Program is the program a measurement builds and runs, as the command line names it.
type Program struct {
	// Run is 'PACKAGE / ARGS' (ParseTarget): the configuration's flags are appended to ARGS.
	Run string
	// ConfigTemplate is a configuration file for options set by file keys: {{key}} is replaced
	// by each run's value and CONFIG in ARGS by the written file's path ("": none).
	ConfigTemplate string
}

// target reads the program: its target, and its configuration template's text and file name.
func (p Program) target() (t Target, tmpl, name string, err error) {
	if p.Run == "" {
		return t, "", "", &sources.DeclError{Msg: "--run is required: the program to build and run, e.g. --run './examples/options / -unit=10ms'"}
	}
	if t, err = ParseTarget(p.Run); err != nil || p.ConfigTemplate == "" {
		return t, "", "", err
	}
	data, err := os.ReadFile(p.ConfigTemplate)
	if err != nil {
		return t, "", "", &sources.DeclError{Msg: fmt.Sprintf("--config-template: %v", err)}
	}
	return t, string(data), filepath.Base(p.ConfigTemplate), nil
}

// MeasureRequest is augur options measure: the program analysed (Request), its regions found,
// the compressed configurations run (Program) and the model built.
type MeasureRequest struct {
	Request
	Program
	// Method is the compression method (Methods; "" is auto).
	Method string
	// Runner says how each configuration runs: repetitions, warm-up, seed, cache, progress.
	Runner runner.Options
	// Out, when given, is the file the model is written to (augur-options-model/1).
	Out string
}

// MeasureProgram carries out r: it analyses, measures (Measure) and writes the model; the
// plan, timing warnings and a line on the runs made go to Log.
func MeasureProgram(ctx context.Context, r MeasureRequest) (*Measurement, error) {
	t, tmpl, tmplName, err := r.target()
	if err != nil {
		return nil, err
	}
	res, before, after, err := Regions(r.Request)
	if err != nil {
		return nil, err
	}
	start := time.Now()
	m, err := Measure(ctx, r.Dir, res, before, after, MeasureOptions{Target: t, Method: r.Method, ConfigTemplate: tmpl, ConfigName: tmplName,
		Log: r.Log, Run: r.Runner})
	if err != nil {
		return nil, err
	}
	if r.Log != nil {
		fmt.Fprintf(r.Log, "augur options: %d runs measured, %d from the cache, in %s\n", m.Runs.Measured, m.Runs.Cached, time.Since(start).Round(time.Millisecond))
	}
	if r.Out != "" {
		if err := m.Model.WriteFile(r.Out); err != nil {
			return nil, err
		}
	}
	return m, nil
}

// EvaluateRequest is augur options evaluate: the program analysed (Request) and run (Program)
// to compare its white-box model with black-box baselines, or the model's predictions at
// numeric values it never measured.
type EvaluateRequest struct {
	Request
	Program
	// EvaluateOptions are Evaluate's; its Target, System (the patterns), configuration
	// template and Model (read from ModelFile) are filled in from the request.
	EvaluateOptions
	// ModelFile is a model written by augur options measure -o: ConfigCrusher's row.
	ModelFile string
	// HeldOutValues, NAME=v1,v2,..., check the model's predictions at values of a numeric
	// option it never measured (EvaluateValues) instead of the baselines.
	HeldOutValues []string
}

// Evaluated is EvaluateProgram's answer: the table of approaches, or with HeldOutValues the
// checks of the model at those values.
type Evaluated struct {
	Table  *Evaluation
	Values *ValuesEvaluation
}

// EvaluateProgram carries out r.
func EvaluateProgram(ctx context.Context, r EvaluateRequest) (*Evaluated, error) {
	var err error
	o := r.EvaluateOptions
	if o.Target, o.ConfigTemplate, o.ConfigName, err = r.target(); err != nil {
		return nil, err
	}
	if o.Reps < 1 {
		return nil, inputf("--reps %d: want at least 1", o.Reps)
	}
	res, err := Analyse(r.Request)
	if err != nil {
		return nil, err
	}
	o.System = strings.Join(r.Patterns, " ")
	if r.ModelFile != "" {
		if o.Model, err = ReadModel(r.ModelFile); err != nil {
			return nil, err
		}
	}
	if len(r.HeldOutValues) == 0 {
		ev, err := Evaluate(ctx, r.Dir, res, o)
		return &Evaluated{Table: ev}, err
	}
	if o.Model == nil {
		return nil, inputf("--held-out-values needs the --model to check")
	}
	held, err := ParseHeldOut(r.HeldOutValues)
	if err != nil {
		return nil, err
	}
	ev, err := EvaluateValues(ctx, r.Dir, res, o.Model, held, o)
	return &Evaluated{Values: ev}, err
}
