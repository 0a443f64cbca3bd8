package study

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"slices"
	"sort"
	"strings"

	"github.com/augur-perf/augur/options/influence"
)

// ModelFormat names the model file's format.
const ModelFormat = "augur-options-model/1"

// ModelFile is a measured model with what it was measured on: what Measure returns,
// `augur options measure -o` writes, and predict and evaluate read.
type ModelFile struct {
	Format  string   `json:"format"`
	System  string   `json:"system,omitempty"`
	Options []string `json:"options"`
	// Time names what Model predicts: "wall", the program's wall time ("" in files written
	// before it was recorded means the same).
	Time   string            `json:"time,omitempty"`
	Model  influence.Model   `json:"model"`
	Locals []influence.Local `json:"locals,omitempty"`
	// Goroutines is the most goroutines that had regions open at once, and Summed, present
	// when that was more than one, the model of CPU time summed over the goroutines.
	Goroutines int          `json:"goroutines,omitempty"`
	Summed     *SummedModel `json:"summed,omitempty"`
	// Configs are the configurations measured (the options on in each) and Measuring the
	// seconds their measured runs took, when known.
	Configs   [][]string `json:"configurations,omitempty"`
	Measuring float64    `json:"measuring_time_s,omitempty"`
	// Numeric holds the measured values of each numeric option: predictions at values outside
	// their range are extrapolations, and say so.
	Numeric map[string][]float64 `json:"numeric,omitempty"`
	// Categorical holds the measured values of each categorical option, the first the reference
	// value the terms are coded against (influence.Model.Levels, for the options that influence
	// a region): a prediction needs one of them.
	Categorical map[string][]string `json:"categorical,omitempty"`
}

// SummedModel is the model of CPU time summed over goroutines (runner.CPU): each region's
// term is the CPU time of its code on every goroutine it ran on, read from the threads' CPU
// clocks (waiting, blocked or asleep is not CPU time), the constant the rest of the process's
// CPU time; the terms add up to the process's user and system time. Predict and evaluate use
// the wall model.
type SummedModel struct {
	Time   string            `json:"time"`
	Model  influence.Model   `json:"model"`
	Locals []influence.Local `json:"locals,omitempty"`
}

// WriteFile writes the model as indented JSON.
func (mf *ModelFile) WriteFile(path string) error {
	data, err := json.MarshalIndent(mf, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(data, '\n'), 0o644)
}

// ReadModel reads a model file, or a bare influence model ({"terms": [...]}).
func ReadModel(path string) (*ModelFile, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var probe struct {
		Format string          `json:"format"`
		Model  json.RawMessage `json:"model"`
		Summed *struct {
			Model json.RawMessage `json:"model"`
		} `json:"summed"`
	}
	if err := json.Unmarshal(data, &probe); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	mf := &ModelFile{}
	raw := data
	if probe.Format != "" {
		if probe.Format != ModelFormat {
			return nil, fmt.Errorf("%s: format %q, want %q", path, probe.Format, ModelFormat)
		}
		if err := json.Unmarshal(data, mf); err != nil {
			return nil, fmt.Errorf("%s: %v", path, err)
		}
		raw = probe.Model
	}
	m, err := influence.ParseModel(raw)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	mf.Model = m
	if probe.Summed != nil && mf.Summed != nil {
		if mf.Summed.Model, err = influence.ParseModel(probe.Summed.Model); err != nil {
			return nil, fmt.Errorf("%s: summed: %v", path, err)
		}
	}
	// Files written before the numeric terms recorded their covariances get them from their
	// local models, so that a curve is judged as the files written since are (the
	// coefficients, spreads and predictions are the file's).
	mf.Model, mf.Locals, _ = influence.RestoreCov(mf.Model, mf.Locals)
	if mf.Summed != nil {
		mf.Summed.Model, mf.Summed.Locals, _ = influence.RestoreCov(mf.Summed.Model, mf.Summed.Locals)
	}
	if len(mf.Options) == 0 {
		mf.Options = m.Options()
	}
	return mf, nil
}

// FormatOptions are the options with which `augur options measure` prints the models: three
// decimals, terms within three standard errors of zero left out (a curve judged with its
// constant at the numeric options' measured values).
func (mf *ModelFile) FormatOptions() influence.FormatOptions {
	// Three standard errors: a term that small could be the noise of the repetitions.
	return influence.FormatOptions{Precision: 3, Noise: 3, Scale: mf.Scales(), Values: mf.Numeric}
}

// Scales gives, for each numeric term's factor g(N), the largest |g(x)| over N's measured
// values: what influence.FormatOptions.Scale needs to judge a numeric term's size.
func (mf *ModelFile) Scales() map[string]float64 {
	out := map[string]float64{}
	for _, t := range mf.Model.Terms {
		if t.Numeric == "" {
			continue
		}
		for _, x := range mf.Numeric[t.Numeric] {
			if g, err := influence.FormValue(t.Form, x); err == nil {
				key := influence.FormString(t.Form, t.Numeric)
				out[key] = math.Max(out[key], math.Abs(g))
			}
		}
	}
	return out
}

// Prediction is a configuration's predicted time and the terms that make it up.
type Prediction struct {
	On []string `json:"on"`
	// Values are the numeric options' values; Extrapolated names those outside the measured
	// range.
	Values       map[string]float64 `json:"values,omitempty"`
	Extrapolated []string           `json:"extrapolated,omitempty"`
	// Levels are the categorical options' values.
	Levels map[string]string `json:"levels,omitempty"`
	// Seconds is the program's wall time (the model's Time); the terms are its.
	Seconds float64        `json:"seconds"`
	Terms   []Contribution `json:"terms"`
	// CPUSeconds, for a model whose regions ran on several goroutines, is the CPU time summed
	// over the goroutines (the Summed model's prediction).
	CPUSeconds *float64 `json:"cpu_seconds,omitempty"`
}

// Contribution is one active term of a prediction: Coef, times Factor = g(value) for a numeric
// term (Form of the option Numeric), 1 otherwise. Levels are the categorical values at which
// the term applies.
type Contribution struct {
	Options []string           `json:"options"`
	Levels  map[string]string  `json:"levels,omitempty"`
	Numeric string             `json:"numeric,omitempty"`
	Form    string             `json:"form,omitempty"`
	Coef    float64            `json:"coef"`
	Factor  float64            `json:"factor"`
	Sources []influence.Source `json:"sources,omitempty"`
}

// Check says whether the model knows the option, with an error naming the ones it does.
func (mf *ModelFile) Check(name string) error {
	names := slices.Clone(mf.Options)
	for _, o := range mf.Model.Options() {
		if !slices.Contains(names, o) {
			names = append(names, o)
		}
	}
	if slices.Contains(names, name) {
		return nil
	}
	sort.Strings(names)
	return fmt.Errorf("unknown option %q (the model's options: %s)", name, strings.Join(names, ", "))
}

// IsNumeric reports whether the model treats the option as numeric (a curve over its value).
func (mf *ModelFile) IsNumeric(name string) bool {
	if _, ok := mf.Numeric[name]; ok {
		return true
	}
	for _, t := range mf.Model.Terms {
		if t.Numeric == name {
			return true
		}
	}
	return false
}

// IsCategorical reports whether the model treats the option as categorical (a term for each
// of its values but the first).
func (mf *ModelFile) IsCategorical(name string) bool { return mf.Levels(name) != nil }

// Levels are the measured values of a categorical option, the first the reference value; nil
// for an option that is not categorical.
func (mf *ModelFile) Levels(name string) []string {
	if vs, ok := mf.Categorical[name]; ok {
		return vs
	}
	return mf.Model.Levels[name]
}

// Predict predicts the time of the configuration with the given boolean options on (the rest
// off); a model with numeric options needs PredictAt.
func (mf *ModelFile) Predict(on map[string]bool) (Prediction, error) { return mf.PredictAt(on, nil) }

// PredictAt predicts the time of the configuration with the given boolean options on (the rest
// off) and the numeric options at the given values. A categorical option's value is given in on
// by the key NAME=VALUE, set to true (the dummy variable [NAME=VALUE] is on), as ParseSetting
// writes it. An option the model does not know is an error (Check), and so is a numeric option
// without a value that an active term needs, a categorical option without its value, and a
// categorical value never measured.
func (mf *ModelFile) PredictAt(on map[string]bool, num map[string]float64) (Prediction, error) {
	s := influence.Setting{On: influence.Config{}, Num: num}
	for name, v := range on {
		opt, val, isLevel := strings.Cut(name, "=")
		if !isLevel {
			s.On[name] = v
			continue
		}
		if err := mf.Check(opt); err != nil {
			return Prediction{}, err
		}
		if !mf.IsCategorical(opt) {
			return Prediction{}, fmt.Errorf("%s: option %s is not categorical", name, opt)
		}
		if !v {
			return Prediction{}, fmt.Errorf("%s: a categorical option is set by its value (%s=VALUE), not switched off", name, opt)
		}
		if prev, ok := s.Cat[opt]; ok && prev != val {
			return Prediction{}, fmt.Errorf("option %s given two values, %s and %s", opt, prev, val)
		}
		if s.Cat == nil {
			s.Cat = map[string]string{}
		}
		s.Cat[opt] = val
	}
	return mf.PredictSetting(s)
}

// PredictSetting predicts the time of a configuration: the boolean options on in s.On (the rest
// off), the numeric options' values in s.Num and the categorical options' in s.Cat. An option
// the model does not know is an error (Check), and so is a numeric option without a value that
// an active term needs, a categorical option without its value, and a categorical value never
// measured (the error names those that were).
func (mf *ModelFile) PredictSetting(s influence.Setting) (Prediction, error) {
	cfg := influence.Config{}
	p := Prediction{On: []string{}}
	for name, v := range s.On {
		if err := mf.Check(name); err != nil {
			return Prediction{}, err
		}
		if mf.IsNumeric(name) {
			return Prediction{}, fmt.Errorf("option %s is numeric: give its value (%s=VALUE)", name, name)
		}
		if vs := mf.Levels(name); vs != nil {
			return Prediction{}, fmt.Errorf("option %s is categorical: give its value (%s=VALUE, one of %s)", name, name, strings.Join(vs, ", "))
		}
		cfg[name] = v
		if v {
			p.On = append(p.On, name)
		}
	}
	sort.Strings(p.On)
	for name, x := range s.Num {
		if err := mf.Check(name); err != nil {
			return Prediction{}, err
		}
		if !mf.IsNumeric(name) {
			return Prediction{}, fmt.Errorf("option %s is not numeric: give it as %s=0 or %s=1", name, name, name)
		}
		if p.Values == nil {
			p.Values = map[string]float64{}
		}
		p.Values[name] = x
		if xs := mf.Numeric[name]; len(xs) > 0 && (x < slices.Min(xs) || x > slices.Max(xs)) {
			p.Extrapolated = append(p.Extrapolated, name)
		}
	}
	sort.Strings(p.Extrapolated)
	names := make([]string, 0, len(s.Cat))
	for name := range s.Cat {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if err := mf.Check(name); err != nil {
			return Prediction{}, err
		}
		vs := mf.Levels(name)
		if vs == nil {
			return Prediction{}, fmt.Errorf("option %s is not categorical", name)
		}
		if v := s.Cat[name]; !slices.Contains(vs, v) {
			return Prediction{}, fmt.Errorf("%s=%s was never measured: the categorical option %s was measured at %s only, and the time of a value is not inferred from the others'", name, v, name, strings.Join(vs, ", "))
		}
		if p.Levels == nil {
			p.Levels = map[string]string{}
		}
		p.Levels[name] = s.Cat[name]
	}
	set := influence.Setting{On: cfg, Num: s.Num, Cat: s.Cat}
	secs, err := influence.PredictSetting(mf.Model, set)
	if err != nil {
		return Prediction{}, err
	}
	p.Seconds = secs
	if mf.Summed != nil {
		cpu, err := influence.PredictSetting(mf.Summed.Model, set)
		if err != nil {
			return Prediction{}, fmt.Errorf("%s: %v", mf.Summed.Time, err)
		}
		p.CPUSeconds = &cpu
	}
	for _, term := range mf.Model.Terms {
		active := true
		for _, o := range term.Options {
			active = active && cfg[o]
		}
		for o, v := range term.Levels {
			active = active && s.Cat[o] == v
		}
		if !active {
			continue
		}
		f := 1.0
		if term.Numeric != "" {
			f, _ = influence.FormValue(term.Form, s.Num[term.Numeric]) // PredictSetting checked it
		}
		p.Terms = append(p.Terms, Contribution{Options: term.Options, Levels: term.Levels, Numeric: term.Numeric, Form: term.Form, Coef: term.Coef, Factor: f, Sources: term.Sources})
	}
	return p, nil
}
