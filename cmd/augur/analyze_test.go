package main

import (
	"encoding/json"
	"github.com/augur-perf/augur/internal/cli"
	"strings"
	"testing"
)

const l1 = "github.com/augur-perf/augur/examples/distance.L1"

// With PROPER's counts for the example (1000 calls, 100 failing, 9000 loop iterations) the
// expected cost is 7·0.1 and the expected time 2.5·9, exactly (the exact method's rationals round
// to these floats).
func TestAnalyzeGivenUsage(t *testing.T) {
	code, out, errs := runCLI(t, "analyze", l1, "--profile", "examples/distance/usage.json", "--json", "--method", "exact")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var got struct {
		Scenarios []struct {
			Values   map[string]float64 `json:"values"`
			HotSpots []struct {
				Line       int                `json:"line"`
				Executions float64            `json:"executions"`
				Rewards    map[string]float64 `json:"rewards"`
			} `json:"hot_spots"`
		} `json:"scenarios"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	v := got.Scenarios[0].Values
	if v[`R{"cost"}=? [ F "end" ]`] != 0.7 || v[`R{"time"}=? [ F "end" ]`] != 22.5 {
		t.Errorf("values %v", v)
	}
	found := false
	for _, h := range got.Scenarios[0].HotSpots {
		if h.Line == 21 {
			found = h.Executions == 9 && h.Rewards["time"] == 22.5
		}
	}
	if !found {
		t.Errorf("line 21 should run 9 times per call and cost 22.5: %+v", got.Scenarios[0].HotSpots)
	}
}

func TestAnalyzeWhatIf(t *testing.T) {
	code, out, errs := runCLI(t, "analyze", l1, "--profile", "examples/distance/usage.json", "--set", "time@distance.go:21=1.8", "--compare")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"baseline", "time@distance.go:21=1.8", "22.5", "16.2", "-28.0%"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestAnalyzeErrors(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"analyze", l1, "--profile", "examples/distance/usage.json", "--set", "time@distance.go:22=1.8"}, "distance.go:22: no statement"},
		{[]string{"analyze", l1, "--profile", "examples/distance/usage.json", "--set", "time@distance.go:21=fast"}, "--set"},
		{[]string{"analyze", l1}, "no usage profile"},
		{[]string{"analyze", l1, "--time", "--profile", "examples/distance/usage.json"}, "--time needs a workload"},
		{[]string{"analyze", l1, "--", "make", "test"}, "must be a go command"},
		{[]string{"analyze", l1 + "X", "--profile", "examples/distance/usage.json"}, "L1X"},
		{[]string{"analyze", l1, "--profile", "examples/die/die.json"}, "neither"},
	}
	for _, c := range cases {
		code, _, errs := runCLI(t, c.args...)
		if code == 0 || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want an error containing %q", c.args, code, errs, c.want)
		}
	}
}

// Hot spots are sorted by share, the top 20 unless --all, and JSON carries the exact fractions.
func TestAnalyzeHotSpotsAndExact(t *testing.T) {
	code, out, errs := runCLI(t, "analyze", l1, "--profile", "examples/distance/usage.json", "--by", "cost")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	i := strings.Index(out, "by share of cost")
	if i < 0 || !strings.Contains(out[i:], "16    0.1         0.7   0     100.0%  return 0, ErrLength") {
		t.Errorf("hot spots by cost:\n%s", out)
	}
	if code, _, errs := runCLI(t, "analyze", l1, "--profile", "examples/distance/usage.json", "--by", "energy"); code != cli.ExitUsage || !strings.Contains(errs, "no such reward") {
		t.Errorf("--by energy: exit %d, %s", code, errs)
	}
	code, out, errs = runCLI(t, "analyze", l1, "--profile", "examples/distance/usage.json", "--json", "--method", "exact")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var got struct {
		Scenarios []struct {
			Exact map[string]string `json:"exact"`
		} `json:"scenarios"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if e := got.Scenarios[0].Exact; e[`R{"cost"}=? [ F "end" ]`] != "7/10" || e[`R{"time"}=? [ F "end" ]`] != "45/2" {
		t.Errorf("exact values %v", e)
	}
}
