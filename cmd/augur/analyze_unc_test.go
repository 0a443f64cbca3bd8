package main

import (
	"encoding/json"
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
