package study

import (
	"encoding/json"
	"fmt"
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
	Format  string            `json:"format"`
	System  string            `json:"system,omitempty"`
	Options []string          `json:"options"`
	Model   influence.Model   `json:"model"`
	Locals  []influence.Local `json:"locals,omitempty"`
	// Configs are the configurations measured (the options on in each) and Measuring the
	// seconds their measured runs took, when known.
	Configs   [][]string `json:"configurations,omitempty"`
	Measuring float64    `json:"measuring_time_s,omitempty"`
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
	if len(mf.Options) == 0 {
		mf.Options = m.Options()
	}
	return mf, nil
}

// Prediction is a configuration's predicted time and the terms that make it up.
type Prediction struct {
	On      []string       `json:"on"`
	Seconds float64        `json:"seconds"`
	Terms   []Contribution `json:"terms"`
}

// Contribution is one active term of a prediction.
type Contribution struct {
	Options []string           `json:"options"`
	Coef    float64            `json:"coef"`
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

// Predict predicts the time of the configuration with the given options on (the rest off).
// An option the model does not know is an error (Check).
func (mf *ModelFile) Predict(on map[string]bool) (Prediction, error) {
	cfg := influence.Config{}
	p := Prediction{On: []string{}}
	for name, v := range on {
		if err := mf.Check(name); err != nil {
			return Prediction{}, err
		}
		cfg[name] = v
		if v {
			p.On = append(p.On, name)
		}
	}
	sort.Strings(p.On)
	p.Seconds = influence.Predict(mf.Model, cfg)
	for _, term := range mf.Model.Terms {
		active := true
		for _, o := range term.Options {
			active = active && cfg[o]
		}
		if active {
			p.Terms = append(p.Terms, Contribution{Options: term.Options, Coef: term.Coef, Sources: term.Sources})
		}
	}
	return p, nil
}
