package predict

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/augur-perf/augur/markov/checker"
	"github.com/augur-perf/augur/probe/profile"
	"github.com/augur-perf/augur/source/frontend"
)

// TestMeasuredEveryScenario (issue 18 item 1): a measured time set on the baseline is a reward of
// every scenario, the what-ifs apply to every other profile, each prediction has its standard
// error, and a statement with no time makes its scenario say why.
func TestMeasuredEveryScenario(t *testing.T) {
	_, fn, err := frontend.LoadFunc("../..", "github.com/augur-perf/augur/examples/distance.L1")
	if err != nil {
		t.Fatal(err)
	}
	p, err := ReadProfile("../../examples/distance/usage.json", fn)
	if err != nil {
		t.Fatal(err)
	}
	n := len(fn.CFG.Nodes)
	tm := &profile.NodeTime{NS: make([]float64, n), Samples: make([]float64, n), Runs: make([]float64, n), NSPerSample: 10, TotalSamples: 1000}
	for id, nd := range fn.CFG.Nodes {
		if !nd.IsExit() {
			tm.NS[id], tm.Samples[id], tm.Runs[id] = float64(id+1), float64(10*id), 100
		}
	}
	base, err := Baseline(fn, p, "usage.json")
	if err != nil {
		t.Fatal(err)
	}
	base.SetMeasured(tm)
	if base.MeasuredName != "time_measured" {
		t.Errorf("the source annotates time: the measured reward is %q, want time_measured", base.MeasuredName)
	}
	set, err := SetReward("cost@distance.go:21=5")
	if err != nil {
		t.Fatal(err)
	}
	scs, err := WhatIf(fn, base, []Change{set}, []*profile.Profile{p}, []string{"other.json"})
	if err != nil {
		t.Fatal(err)
	}
	if len(scs) != 2 || scs[1].Name != "profile other.json" {
		t.Fatalf("scenarios %v", scs)
	}
	for _, sc := range append([]Scenario{base}, scs...) {
		o, err := sc.Predict(fn, Options{})
		if err != nil {
			t.Fatal(err)
		}
		i := slices.Index(o.Rewards, "time_measured")
		if i < 0 {
			t.Fatalf("%s: no measured reward (%v)", sc.Name, o.Rewards)
		}
		// The expected time and its error, from the counts directly.
		w := make([]float64, n)
		want := 0.0
		for id := range w {
			w[id] = float64(o.Func.Nodes[id].Count) / float64(o.Func.Invocations)
			if fn.CFG.Nodes[id].IsExit() {
				w[id] = 0
			}
			want += w[id] * tm.NS[id]
		}
		if got := o.Values[i].Initial; math.Abs(got-want) > 1e-9*want {
			t.Errorf("%s: expected time %v, want %v", sc.Name, got, want)
		}
		if se, want := o.StdErr["time_measured"], math.Sqrt(tm.Variance(w)); se <= 0 || math.Abs(se-want) > 1e-12 {
			t.Errorf("%s: standard error %v, want %v", sc.Name, se, want)
		}
	}
	// The profile scenario has the --set change too.
	o, err := scs[1].Predict(fn, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if c := o.Values[slices.Index(o.Rewards, "cost")].Initial; math.Abs(c-(0.7+5*9)) > 1e-9 {
		t.Errorf("the profile scenario's cost %v, want the --set's 0.7+5·9", c)
	}
	// A statement that never ran while timed leaves the time unknown.
	for id, nd := range fn.CFG.Nodes {
		if strings.HasPrefix(nd.Text, "d += abs") {
			tm.Runs[id], tm.Samples[id] = 0, 0
		}
	}
	o, err = base.Predict(fn, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if why := o.Unanswered["time_measured"]; !strings.Contains(why, "line 21") || o.StdErr != nil {
		t.Errorf("unknown time: unanswered %q, stderr %v", why, o.StdErr)
	}
}

// --below's thresholds: comma-separated finite numbers.
func TestParseThresholds(t *testing.T) {
	if ts, err := ParseThresholds("20, 50,-1.5"); err != nil || len(ts) != 3 || ts[1] != 50 || ts[2] != -1.5 {
		t.Errorf("20, 50,-1.5: %v %v", ts, err)
	}
	if ts, err := ParseThresholds(""); ts != nil || err != nil {
		t.Errorf("empty: %v %v", ts, err)
	}
	for _, s := range []string{" ", "x", "1,NaN", "Inf", "1,"} {
		if _, err := ParseThresholds(s); err == nil {
			t.Errorf("%q accepted", s)
		}
	}
}

// Expected: each reward's value from the initial distribution, by name; none where no value.
func TestExpected(t *testing.T) {
	o := &Outcome{Rewards: []string{"a", "b"}, Values: []*checker.Result{{Initial: 2.5}, nil}}
	if m := o.Expected(); len(m) != 1 || m["a"] != 2.5 {
		t.Errorf("%v", m)
	}
}
