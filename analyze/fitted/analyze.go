package fitted

import (
	"fmt"
	"io"
	"strings"

	"github.com/augur-perf/augur/analyze/predict"
	"github.com/augur-perf/augur/fit/inputs"
)

// Request is augur analyze --fit: a function's model whose loops follow the laws of a fit file
// and whose other decisions a measured profile gives, predicted over an input distribution or
// at one point, written as a parametric PRISM model, or both.
type Request struct {
	// Dir is the module directory Func (import/path.Func) is loaded from.
	Dir, Func string
	// Fit is the laws (augur-fit/1), Profile a measured profile of Func.
	Fit, Profile string
	// Inputs is the input distribution ('n~lognormal(8,1.2), m=5'), At one point instead
	// ('n=1e6'): one of them, unless the model is only written (Emit).
	Inputs, At string
	// Samples is the number of Monte Carlo samples for continuous distributions (0: 2000),
	// drawn from Seed.
	Samples int
	Seed    uint64
	// Compare also predicts under the measured profile itself.
	Compare bool
	// Emit "prism" writes the model with its laws as a parametric DTMC to Out.pm and Out.props
	// (Out "": the function's name).
	Emit, Out string
	// Log receives the names of the files written.
	Log io.Writer
}

// RequestError is a request that contradicts itself: the caller's mistake, a usage error.
type RequestError struct{ msg string }

func (e *RequestError) Error() string { return e.msg }

// UsageError says that the caller is at fault.
func (e *RequestError) UsageError() bool { return true }

// Analysis is Analyze's answer.
type Analysis struct {
	*Loaded
	// Inputs is the text of the inputs predicted for, and Predictions each reward's
	// expectation over them; both are empty when the model was only written.
	Inputs      string
	Predictions []Prediction
	// Measured is each reward's expectation under the measured profile (with Compare).
	Measured map[string]float64
}

// Analyze carries out r: it loads the function, its laws and its profile (Load), writes the
// parametric model when asked, and predicts the expected rewards over the inputs.
func Analyze(r Request) (*Analysis, error) {
	switch {
	case r.Profile == "":
		return nil, &RequestError{fmt.Sprintf("--fit needs --profile: a measured profile of %s gives the decisions the laws do not cover", r.Func)}
	case r.Emit != "" && r.Emit != "prism":
		return nil, &RequestError{fmt.Sprintf("--emit %q: with --fit, the parametric model is written as prism", r.Emit)}
	case r.Out != "" && r.Emit == "":
		return nil, &RequestError{fmt.Sprintf("-o %s names the files --emit writes: give --emit prism", r.Out)}
	}
	a := &Analysis{}
	var ds []inputs.Dist
	var err error
	onlyEmit := r.Emit != "" && r.Inputs == "" && r.At == ""
	if !onlyEmit {
		if a.Inputs, ds, err = inputs.FromFlags(r.Inputs, r.At); err != nil {
			return nil, err
		}
	}
	if a.Loaded, err = Load(r.Dir, r.Func, r.Fit, r.Profile); err != nil {
		return nil, err
	}
	if r.Emit != "" {
		out := r.Out
		if out == "" {
			out = a.Fn.Decl.Name.Name
		}
		files, err := a.Model.WritePRISM(out)
		if err != nil {
			return nil, err
		}
		if r.Log != nil {
			fmt.Fprintf(r.Log, "wrote %s\n", strings.Join(files, ", "))
		}
		if onlyEmit {
			return a, nil
		}
	}
	if err := a.Model.CheckInputs(ds); err != nil {
		return nil, err
	}
	n := r.Samples
	if n == 0 {
		n = 2000
	}
	if a.Predictions, err = a.Model.Expect(ds, n, r.Seed); err != nil {
		return nil, err
	}
	if r.Compare {
		out, err := a.Base.Predict(a.Fn, predict.Options{})
		if err != nil {
			return nil, err
		}
		a.Measured = out.Expected()
	}
	return a, nil
}
