package pipeline_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/augur-perf/augur/analyze/pipeline"
	"github.com/augur-perf/augur/probe/instrument"
)

// Analyze is augur analyze in one call, from names and files: the function is loaded, its
// usage profile read, the baseline and a what-if scenario predicted side by side, and the
// baseline's error bars computed from the counts the model was estimated on.
func ExampleAnalyze() {
	a, err := pipeline.Analyze(pipeline.Request{
		Dir:      "../..",
		Func:     "github.com/augur-perf/augur/examples/distance.L1",
		Profiles: []string{"../../examples/distance/usage.json"},
		Sets:     []string{"time@distance.go:21=1.8"},
		Compare:  true,
		CI:       0.95,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, o := range a.Outcomes {
		fmt.Printf("%s: time %.4g per call\n", o.Scenario.Name, o.Values[slices.Index(o.Props, `R{"time"}=? [ F "end" ]`)].Initial)
	}
	fmt.Printf("%d intervals of the baseline at 95%%\n", len(a.Uncertainty.Intervals))
	// Output:
	// baseline: time 22.5 per call
	// time@distance.go:21=1.8: time 16.2 per call
	// 2 intervals of the baseline at 95%
}

// Decisions is augur cfg: a function's decisions with the counts of a stated profile, written
// as text (positions relative to Dir).
func ExampleDecisions() {
	g, err := pipeline.Decisions(pipeline.DecisionsRequest{Dir: "../..", Func: "github.com/augur-perf/augur/examples/distance.L1",
		Profile: "../../examples/distance/usage.json"})
	if err != nil {
		fmt.Println(err)
		return
	}
	if err := g.Write(os.Stdout); err != nil {
		fmt.Println(err)
	}
	// Output:
	// Function: github.com/augur-perf/augur/examples/distance.L1 (10 nodes, 2 decisions)
	// examples/distance/distance.go:15:5  decision  if len(a) != len(b)  (reached 1000 times)
	//     true         -> node 1  100  (10%)
	//     false        -> node 2  900  (90%)
	// examples/distance/distance.go:19:14  decision  for i := 0; i < len(a); i++ (cond)  (reached 9900 times)
	//     true         -> node 6  9000  (90.91%)
	//     false        -> node 7  900  (9.091%)
}

// Rank is augur analyze PKGS: every function of the router example ranked by its measured
// time per call, its callees' included, under a saved profile.
func ExampleRank() {
	r, err := pipeline.Rank(pipeline.RankRequest{Dir: "../..", Patterns: []string{"./examples/router"},
		Profile: "../../examples/router/mixA.json", By: "time"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d of %d functions invoked, ranked by %s; the first: %s\n", len(r.Invoked), r.Funcs, r.Reward, r.Invoked[0].Func)
	// Output:
	// 1 of 2 functions invoked, ranked by time; the first: github.com/augur-perf/augur/examples/router.Route
}

// Profile is augur profile: the functions of a package instrumented, the package's tests run
// on the instrumented copy, the counts written; Time would add the measured time.
func ExampleProfile() {
	dir, err := os.MkdirTemp("", "augur-example-")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	p, err := pipeline.Profile(pipeline.ProfileRequest{Dir: "../..", Patterns: []string{"./examples/distance"},
		Job: pipeline.Job{Workload: instrument.Workload{Args: []string{"go", "test", "./examples/distance"}}},
		Out: filepath.Join(dir, "distance.json")})
	if err != nil {
		fmt.Println(err)
		return
	}
	invoked, calls := p.Profile.Invoked()
	fmt.Printf("%d functions, %d invoked, %d calls\n", len(p.Profile.Funcs), invoked, calls)
	// Output:
	// 2 functions, 2 invoked, 10189 calls
}
