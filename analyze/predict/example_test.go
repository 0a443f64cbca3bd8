package predict_test

import (
	"fmt"
	"slices"

	"github.com/augur-perf/augur/analyze/predict"
	"github.com/augur-perf/augur/probe/profile"
	"github.com/augur-perf/augur/source/frontend"
)

// The library route through augur analyze: load a function, read the usage profile PROPER's logs
// state (1000 calls, 100 of them with unequal lengths, 9000 loop iterations), predict the
// expected reward of each annotation per call, then ask what a 1.8 ns statement would change.
func ExampleScenario_Predict() {
	_, fn, err := frontend.LoadFunc("../..", "github.com/augur-perf/augur/examples/distance.L1")
	if err != nil {
		fmt.Println(err)
		return
	}
	p, err := predict.ReadProfile("../../examples/distance/usage.json", fn)
	if err != nil {
		fmt.Println(err)
		return
	}
	base, err := predict.Baseline(fn, p, "usage.json")
	if err != nil {
		fmt.Println(err)
		return
	}
	faster, err := predict.SetReward("time@distance.go:21=1.8")
	if err != nil {
		fmt.Println(err)
		return
	}
	scenarios, err := predict.WhatIf(fn, base, []predict.Change{faster}, nil, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, sc := range append([]predict.Scenario{base}, scenarios...) {
		out, err := sc.Predict(fn, predict.Options{})
		if err != nil {
			fmt.Println(err)
			return
		}
		for i, prop := range out.Props {
			fmt.Printf("%s: %s = %.4g\n", sc.Name, prop, out.Values[i].Initial)
		}
	}
	// Output:
	// baseline: R{"cost"}=? [ F "end" ] = 0.7
	// baseline: R{"time"}=? [ F "end" ] = 22.5
	// time@distance.go:21=1.8: R{"cost"}=? [ F "end" ] = 0.7
	// time@distance.go:21=1.8: R{"time"}=? [ F "end" ] = 16.2
}

// Analyse is augur analyze --compare in one call: the baseline and a what-if scenario per
// --set, each predicted (a scenario that cannot be would say why in Why).
func ExampleAnalyse() {
	_, fn, err := frontend.LoadFunc("../..", "github.com/augur-perf/augur/examples/distance.L1")
	if err != nil {
		fmt.Println(err)
		return
	}
	p, err := predict.ReadProfile("../../examples/distance/usage.json", fn)
	if err != nil {
		fmt.Println(err)
		return
	}
	outs, err := predict.Analyse(fn, predict.Request{Profiles: []*profile.Profile{p}, Names: []string{"usage.json"},
		Sets: []string{"time@distance.go:21=1.8"}, Compare: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, o := range outs {
		fmt.Printf("%s: time %.4g per call\n", o.Scenario.Name, o.Values[slices.Index(o.Props, `R{"time"}=? [ F "end" ]`)].Initial)
	}
	// Output:
	// baseline: time 22.5 per call
	// time@distance.go:21=1.8: time 16.2 per call
}
