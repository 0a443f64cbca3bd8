package timing

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/augur-perf/augur/analyze/predict"
	"github.com/augur-perf/augur/probe/instrument"
	"github.com/augur-perf/augur/probe/profile"
	"github.com/augur-perf/augur/source/frontend"
)

// Estimate is a time per call with its standard error and 95 % interval.
type Estimate struct {
	NS     float64    `json:"ns_per_call"`
	StdErr float64    `json:"std_error"`
	CI95   [2]float64 `json:"ci95"`
	From   string     `json:"from"`
}

// NewEstimate is ns ± se with its 95 % interval, from what it says.
func NewEstimate(ns, se float64, from string) Estimate {
	return Estimate{NS: ns, StdErr: se, CI95: [2]float64{ns - z95*se, ns + z95*se}, From: from}
}

// Validation is a prediction set against a measurement.
type Validation struct {
	Function  string   `json:"function"`
	What      string   `json:"what"`
	Workload  []string `json:"workload"`
	Predicted Estimate `json:"predicted"`
	Measured  Estimate `json:"measured"`
	// RelErr is (predicted − measured) / measured.
	RelErr float64 `json:"relative_error"`
}

// Within says whether the difference lies within the 95 % interval of the difference of two
// independent estimates.
func (v *Validation) Within() bool {
	return math.Abs(v.Predicted.NS-v.Measured.NS) <= z95*math.Hypot(v.Predicted.StdErr, v.Measured.StdErr)
}

// Validate closes the loop of time prediction: it predicts fn's time per call under the
// workload's counts (counted, named countedName) from a time measured once (tf, read from
// tfName), then times the workload itself with o and sets the two side by side. Progress goes
// to log.
func Validate(prog *frontend.Program, fn *frontend.Func, tf *profile.TimeFile, tfName string, counted *profile.Profile, countedName string,
	w instrument.Workload, o Options, log io.Writer) (*Validation, error) {
	t, err := tf.For(fn)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", tfName, err)
	}
	sc, err := predict.Baseline(fn, counted, countedName)
	if err != nil {
		return nil, err
	}
	sc.SetMeasured(t)
	out, err := sc.Predict(fn, predict.Options{})
	if err != nil {
		return nil, err
	}
	if why := out.Unanswered[sc.MeasuredName]; why != "" {
		return nil, fmt.Errorf("%s cannot be predicted from %s: %s", fn.Name, tfName, why)
	}
	ns := out.Values[slices.Index(out.Rewards, sc.MeasuredName)].Initial
	v := &Validation{Function: fn.Name, What: profile.TimeWhat, Workload: w.Args,
		Predicted: NewEstimate(ns, out.StdErr[sc.MeasuredName], fmt.Sprintf("%s (timed under %s), usage %s", tfName, strings.Join(tf.Measured.Workload, " "), countedName))}
	tm, err := Measure(prog, []*frontend.Func{fn}, counted, w, o, []Target{{Fn: fn, F: counted.Funcs[fn.Name], Label: "measured"}}, log)
	if err != nil {
		return nil, err
	}
	tot := tm.CPU.Funcs[fn.Name].Total()
	mns, mse := tm.PerCall(fn, counted.Funcs[fn.Name])
	v.Measured = NewEstimate(mns, mse, fmt.Sprintf("%d CPU samples in %d calls, %s", tot.Samples, tm.Inv[fn.Name], plural(tm.Runs, "run")))
	v.RelErr = (ns - mns) / mns
	return v, nil
}
