package fitted_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/augur-perf/augur/analyze/fitted"
	"github.com/augur-perf/augur/analyze/pipeline"
	"github.com/augur-perf/augur/fit/board"
	"github.com/augur-perf/augur/fit/record"
	"github.com/augur-perf/augur/probe/instrument"
)

// Analyze is augur analyze --fit, here at the end of Beagle's loop run as a library: Pairs is
// profiled and recorded on sizes 1..20 by its tests, the laws of its loops are fitted, and its
// expected cost per call is predicted for a size never run, 100: its annotations' closed form
// 1.5·n(n+1) + 3n + 3.
func ExampleAnalyze() {
	dir, err := os.MkdirTemp("", "augur-example-")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	prof, trace, laws := filepath.Join(dir, "p.json"), filepath.Join(dir, "t.jsonl"), filepath.Join(dir, "fit.json")
	tests := instrument.Workload{Args: []string{"go", "test", "./pairs"}}
	if _, err := pipeline.Profile(pipeline.ProfileRequest{Dir: "testdata", Patterns: []string{"./pairs"}, Job: pipeline.Job{Workload: tests}, Out: prof}); err != nil {
		fmt.Println(err)
		return
	}
	if _, err := record.Run(record.Request{Dir: "testdata", Func: "example.com/pairs/pairs.Pairs", Workload: tests, Out: trace}); err != nil {
		fmt.Println(err)
		return
	}
	if _, err := board.FitFile(board.FitRequest{Trace: trace, Rounds: 10, Out: laws}); err != nil {
		fmt.Println(err)
		return
	}
	a, err := fitted.Analyze(fitted.Request{Dir: "testdata", Func: "example.com/pairs/pairs.Pairs", Fit: laws, Profile: prof, At: "len(xs)=100"})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, l := range a.Model.Loops {
		fmt.Printf("%s iterates %.6g times at len(xs)=100\n", l.Quantity, l.Law.Value(map[string]float64{"len(xs)": 100}))
	}
	for _, p := range a.Predictions {
		fmt.Printf("%s per call at %s: %.6g\n", p.Reward, a.Inputs, p.Mean)
	}
	// Output:
	// loop@pairs.go:8 iterates 100 times at len(xs)=100
	// loop@pairs.go:9 iterates 5050 times at len(xs)=100
	// cost per call at len(xs)=100: 15453
}
