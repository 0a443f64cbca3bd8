package board

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"testing"
)

// FitFile fits the sort example's trace and writes the laws and the board; PredictFile reads
// the laws back and predicts at a point: comparisons of a sort of n elements, about n·log2(n).
func TestFitAndPredictFile(t *testing.T) {
	tmp := t.TempDir()
	out, state := filepath.Join(tmp, "fit.json"), filepath.Join(tmp, "board.json")
	f, err := FitFile(FitRequest{Trace: "../../examples/fitsort/sort.trace.jsonl", Rounds: 10, Out: out, State: state})
	if err != nil {
		t.Fatal(err)
	}
	if f.Result.Function != "slices.SortFunc" || len(f.Samples) == 0 || f.State == nil {
		t.Errorf("fitted %s on %d quantities", f.Result.Function, len(f.Samples))
	}
	if _, err := os.Stat(state); err != nil {
		t.Error(err)
	}
	p, err := PredictFile(PredictRequest{Fit: out, Quantity: "comparisons", At: "n=4000", Samples: 1000, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if n := 4000.0; len(p.Predictions) != 1 || p.Inputs != "n=4000" || math.Abs(p.Predictions[0].Mean/(n*math.Log2(n))-1) > 0.2 {
		t.Errorf("%q: %+v", p.Inputs, p.Predictions)
	}
	var ie *InputError
	if _, err := FitFile(FitRequest{Trace: filepath.Join(tmp, "none.jsonl")}); !errors.As(err, &ie) {
		t.Errorf("no trace: %v", err)
	}
	if _, err := PredictFile(PredictRequest{Fit: out, Quantity: "nope", At: "n=5"}); !errors.As(err, &ie) || err.Error() != `no law of quantity "nope" in `+out {
		t.Errorf("no such quantity: %v", err)
	}
}
