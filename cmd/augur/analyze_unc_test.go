package main

import (
	"encoding/json"
	"fmt"
	"math"
	"testing"
)

// --ci and --spread on PROPER's counts for L1: the intervals contain the point value, and the
// time per call, 2.5 per loop iteration, has the geometric loop's spread: 9 iterations in
// expectation for calls that pass the check (9/10 of them), sd √(E[T²] - E[T]²).
func TestAnalyzeBeyondMean(t *testing.T) {
	code, out, errs := runCLI(t, "analyze", l1, "--profile", "examples/distance/usage.json", "--ci", "0.95", "--spread", "--json")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, errs)
	}
	var got struct {
		Beyond struct {
			Intervals []struct {
				Property string  `json:"property"`
				Value    float64 `json:"value"`
				Bayesian struct {
					Lo, Hi float64
				} `json:"bayesian"`
				Bootstrap struct {
					Lo, Hi float64
				} `json:"bootstrap"`
			} `json:"intervals"`
			Spreads []struct {
				Reward      string             `json:"reward"`
				Mean        float64            `json:"mean"`
				SD          float64            `json:"sd"`
				Percentiles map[string]float64 `json:"percentiles"`
			} `json:"spreads"`
		} `json:"baseline_uncertainty"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if len(got.Beyond.Intervals) != 2 || len(got.Beyond.Spreads) != 2 {
		t.Fatalf("%+v", got.Beyond)
	}
	for _, iv := range got.Beyond.Intervals {
		if !(iv.Bayesian.Lo < iv.Value && iv.Value < iv.Bayesian.Hi && iv.Bootstrap.Lo < iv.Value && iv.Value < iv.Bootstrap.Hi) {
			t.Errorf("%s: %v outside its intervals %+v", iv.Property, iv.Value, iv)
		}
	}
	for _, s := range got.Beyond.Spreads {
		if s.Reward != "time" {
			continue
		}
		// Iterations K: 0 with probability 1/10 (the failing check), else geometric with
		// continue probability 10/11 (9000 of 9900): E[K²] = 0.9·(q(1+q)/(1-q)²), q = 10/11.
		q := 10.0 / 11
		ek2 := 0.9 * q * (1 + q) / ((1 - q) * (1 - q))
		sd := 2.5 * math.Sqrt(ek2-9*9)
		if math.Abs(s.Mean-22.5) > 1e-9 || math.Abs(s.SD-sd) > 1e-6*sd {
			t.Errorf("time: mean %v sd %v, want 22.5 and %v", s.Mean, s.SD, sd)
		}
		if s.Percentiles["p50"] != 15 {
			t.Errorf("time p50 %v, want 15 (6 iterations)", s.Percentiles["p50"])
		}
	}
}

// --below gives P(reward per call ≤ t) consistent with the percentiles: at least 1/2 at the
// median and below 1/2 just under it, at least 0.9 at p90, and 1 far beyond every call.
func TestAnalyzeBelow(t *testing.T) {
	code, out, errs := runCLI(t, "analyze", l1, "--profile", "examples/distance/usage.json", "--spread", "--json")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, errs)
	}
	type spreads struct {
		Beyond struct {
			Spreads []struct {
				Reward      string             `json:"reward"`
				Percentiles map[string]float64 `json:"percentiles"`
				Below       []struct {
					T      float64 `json:"t"`
					Lo, Hi float64
				} `json:"below"`
			} `json:"spreads"`
		} `json:"baseline_uncertainty"`
	}
	var s spreads
	if err := json.Unmarshal([]byte(out), &s); err != nil {
		t.Fatal(err)
	}
	var p50, p90 float64
	for _, sp := range s.Beyond.Spreads {
		if sp.Reward == "time" {
			p50, p90 = sp.Percentiles["p50"], sp.Percentiles["p90"]
		}
	}
	ts := fmt.Sprintf("%v,%v,%v,1e9", p50-0.001, p50, p90)
	code, out, errs = runCLI(t, "analyze", l1, "--profile", "examples/distance/usage.json", "--below", ts, "--json")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, errs)
	}
	s = spreads{}
	if err := json.Unmarshal([]byte(out), &s); err != nil {
		t.Fatal(err)
	}
	for _, sp := range s.Beyond.Spreads {
		if sp.Reward != "time" {
			continue
		}
		if len(sp.Below) != 4 || sp.Below[0].Hi >= 0.5 || sp.Below[1].Lo < 0.5 || sp.Below[2].Lo < 0.9 || math.Abs(sp.Below[3].Lo-1) > 1e-9 {
			t.Errorf("P(time ≤ t) for t = %s: %+v (p50 %v, p90 %v)", ts, sp.Below, p50, p90)
		}
		return
	}
	t.Fatalf("no spread of time:\n%s", out)
}
