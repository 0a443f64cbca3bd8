package board

import (
	"fmt"
	"io"
	"os"

	"github.com/augur-perf/augur/fit/inputs"
	"github.com/augur-perf/augur/fit/pmnf"
	"github.com/augur-perf/augur/fit/trace"
)

// FitTrace reads an augur-trace/1 trace (name says where from, in errors) and runs the loop on
// it for at most rounds rounds, from a new board or from the board saved at resume. It returns
// the board, its result and the samples it was fitted on.
func FitTrace(r io.Reader, name, resume string, rounds int) (*State, Result, map[string][]pmnf.Sample, error) {
	tr, err := trace.NewReader(r)
	if err != nil {
		return nil, Result{}, nil, fmt.Errorf("%s: %v", name, err)
	}
	recs, err := tr.ReadAll()
	if err != nil {
		return nil, Result{}, nil, fmt.Errorf("%s: %v", name, err)
	}
	samples := Samples(tr.Header, recs)
	st := New(tr.Header, len(recs))
	if resume != "" {
		if st, err = ReadState(resume); err != nil {
			return nil, Result{}, nil, err
		}
		if st.Function != tr.Header.Function || st.Samples != len(recs) {
			return nil, Result{}, nil, fmt.Errorf("%s is the board of %s with %d samples, the trace has %s with %d", resume, st.Function, st.Samples, tr.Header.Function, len(recs))
		}
	}
	Run(st, samples, nil, rounds)
	return st, st.Result(samples), samples, nil
}

// Prediction is one quantity's expectation over an input distribution.
type Prediction struct {
	Quantity string  `json:"quantity"`
	Law      string  `json:"law"`
	Mean     float64 `json:"mean"`
	SD       float64 `json:"sd"`
	SE       float64 `json:"se,omitempty"`
	Exact    bool    `json:"exact"`
	Samples  int     `json:"samples,omitempty"`
	// OutOfRange is the probability that an input lies outside the fitted range.
	OutOfRange float64 `json:"extrapolated_probability"`
}

// Predict gives the expectation of each law (of quantity only, when not "") over the input
// distributions ds: exactly for finite distributions, else by n Monte Carlo samples from seed.
// A law whose parameter ds leaves out is an *InputError; no law of quantity, no prediction.
func (res *Result) Predict(ds []inputs.Dist, quantity string, n int, seed uint64) ([]Prediction, error) {
	given := map[string]bool{}
	for _, d := range ds {
		given[d.Param] = true
	}
	var preds []Prediction
	for _, l := range res.Laws {
		if quantity != "" && l.Quantity != quantity || l.Error != "" {
			continue
		}
		for _, p := range l.Law.Params() {
			if !given[p] {
				return nil, &InputError{fmt.Sprintf("the law of %s needs parameter %s: give it in --inputs", l.Quantity, p)}
			}
		}
		law := l.Law
		e, err := inputs.Expect(ds, func(at map[string]float64) float64 { return law.Value(at) }, l.Range, n, seed)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", l.Quantity, err)
		}
		preds = append(preds, Prediction{Quantity: l.Quantity, Law: l.Text, Mean: e.Mean, SD: e.SD, SE: e.SE, Exact: e.Exact, Samples: e.Samples, OutOfRange: e.OutOfRange})
	}
	return preds, nil
}

// InputError is a question the laws cannot answer because of how it was asked (a parameter
// left out, a quantity that has no law); a command line reports it as a usage error.
type InputError struct{ msg string }

func (e *InputError) Error() string { return e.msg }

// UsageError says that the caller, not the laws, is at fault.
func (e *InputError) UsageError() bool { return true }

// FitRequest is augur fit: Beagle's loop on a trace file, from a new board or a saved one,
// the board and the laws written to files when named.
type FitRequest struct {
	// Trace is the augur-trace/1 file; Resume, when given, the board saved to continue.
	Trace, Resume string
	// Rounds is the most rounds of the loop.
	Rounds int
	// State and Out, when given, are the files the board (augur-fit-board/1) and the laws
	// (augur-fit/1) are written to.
	State, Out string
}

// Fitted is what FitFile found: the board, its laws and the samples they were fitted on.
type Fitted struct {
	State   *State
	Result  Result
	Samples map[string][]pmnf.Sample
}

// FitFile carries out r (FitTrace on the file). A trace file that cannot be opened is an
// *InputError.
func FitFile(r FitRequest) (*Fitted, error) {
	f, err := os.Open(r.Trace)
	if err != nil {
		return nil, &InputError{err.Error()}
	}
	defer f.Close()
	st, res, samples, err := FitTrace(f, r.Trace, r.Resume, r.Rounds)
	if err != nil {
		return nil, err
	}
	if r.State != "" {
		if err := WriteJSON(r.State, st); err != nil {
			return nil, err
		}
	}
	if r.Out != "" {
		if err := WriteJSON(r.Out, res); err != nil {
			return nil, err
		}
	}
	return &Fitted{State: st, Result: res, Samples: samples}, nil
}

// PredictRequest is augur fit predict: the laws of a fit file predicted over inputs given as
// the command line gives them (inputs.FromFlags: a distribution or one point).
type PredictRequest struct {
	// Fit is the augur-fit/1 file; Quantity, when given, the only quantity predicted.
	Fit, Quantity string
	Inputs, At    string
	// Samples is the number of Monte Carlo samples for continuous distributions, from Seed.
	Samples int
	Seed    uint64
}

// Predicted is PredictFile's answer: the laws, the text of the inputs and each prediction.
type Predicted struct {
	*Result
	Inputs      string
	Predictions []Prediction
}

// PredictFile carries out r. No law of the quantity asked for is an *InputError.
func PredictFile(r PredictRequest) (*Predicted, error) {
	desc, ds, err := inputs.FromFlags(r.Inputs, r.At)
	if err != nil {
		return nil, err
	}
	res, err := ReadResult(r.Fit)
	if err != nil {
		return nil, err
	}
	preds, err := res.Predict(ds, r.Quantity, r.Samples, r.Seed)
	if err != nil {
		return nil, err
	}
	if len(preds) == 0 {
		return nil, &InputError{fmt.Sprintf("no law of quantity %q in %s", r.Quantity, r.Fit)}
	}
	return &Predicted{Result: res, Inputs: desc, Predictions: preds}, nil
}
