package board_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/augur-perf/augur/fit/board"
)

// FitFile is augur fit: Beagle's loop on a recorded trace of slices.SortFunc, whose comparisons
// follow n·log2(n); PredictFile is augur fit predict: the laws written by FitFile predicted
// for a sort of a million elements.
func ExampleFitFile() {
	dir, err := os.MkdirTemp("", "augur-example-")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	laws := filepath.Join(dir, "sort.fit.json")
	f, err := board.FitFile(board.FitRequest{Trace: "../../examples/fitsort/sort.trace.jsonl", Rounds: 10, Out: laws})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, l := range f.Result.Laws {
		fmt.Printf("%s = %s\n", l.Quantity, l.Text)
	}
	p, err := board.PredictFile(board.PredictRequest{Fit: laws, Quantity: "comparisons", At: "n=1e6"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("comparisons at %s: %.3g\n", p.Inputs, p.Predictions[0].Mean)
	// Output:
	// comparisons = -175.135 + 1.04735·n·log2(n)
	// time_ns = -120.234 + 5.60061·n·log2(n)
	// comparisons at n=1e6: 2.09e+07
}
