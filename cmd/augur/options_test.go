package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestOptionsInfluence(t *testing.T) {
	code, out, errs := runCLI(t, "options", "influence", "./examples/options")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, errs)
	}
	for _, want := range []string{
		"examples/options/main.go:56:2  if b && x       {A, B}",
		"examples/options/main.go:59:2  if d && e && f  {D, E, F}",
		"examples/options/main.go:92:2  if c            {A, C}",
		"irrelevant: {J, unit}",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
	code, out, _ = runCLI(t, "options", "influence", "./examples/options", "--json")
	var js struct {
		Decisions  []any    `json:"decisions"`
		Irrelevant []string `json:"irrelevant"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &js) != nil || len(js.Decisions) != 13 || strings.Join(js.Irrelevant, ",") != "J,unit" {
		t.Errorf("--json: exit %d, %d decisions, irrelevant %v\n%s", code, len(js.Decisions), js.Irrelevant, out)
	}
}

// With the example's time unit declared fixed, J and nothing else is irrelevant, as
// ConfigCrusher's paper says of its running example.
func TestOptionsFixed(t *testing.T) {
	code, out, errs := runCLI(t, "options", "influence", "./examples/options", "--fixed", "unit")
	if code != 0 || !strings.Contains(out, "irrelevant: {J}\n") || strings.Contains(out, "unit") {
		t.Errorf("exit %d\n%s%s", code, out, errs)
	}
	code, _, errs = runCLI(t, "options", "influence", "./examples/options", "--fixed", "nope")
	if code == 0 || !strings.Contains(errs, "--fixed nope: the program loads no option of that name") {
		t.Errorf("unknown --fixed: exit %d, %s", code, errs)
	}
}

func TestOptionsConfigs(t *testing.T) {
	code, out, errs := runCLI(t, "options", "configs", "./examples/options")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, errs)
	}
	for _, want := range []string{
		"Influence sets (12 distinct, largest 3): {D, E, F} {A, B} {A, C}",
		"8 configurations (exact, minimal",
		"Lower bound: 8 (2^max|S| = 2^3",
		"Brute force: 1024 configurations (2^n, n = 10",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
	code, out, errs = runCLI(t, "options", "configs", "./examples/options", "--method", "pivot", "--json")
	var js struct {
		Method     string   `json:"method"`
		LowerBound int      `json:"lower_bound"`
		BruteForce string   `json:"brute_force"`
		Relevant   []string `json:"relevant"`
		Configs    []struct {
			On   []string `json:"on"`
			Args []string `json:"args"`
		} `json:"configurations"`
	}
	if err := json.Unmarshal([]byte(out), &js); code != 0 || err != nil {
		t.Fatalf("exit %d, %v\n%s%s", code, err, out, errs)
	}
	if js.Method != "pivot" || js.LowerBound != 8 || js.BruteForce != "1024" || len(js.Configs) < 8 {
		t.Errorf("pivot: %+v", js)
	}
	// A run sets every relevant option: those on to true, the rest to false.
	for _, c := range js.Configs {
		if len(c.Args) != len(js.Relevant) {
			t.Errorf("configuration %v has args %v, want one for each of %v", c.On, c.Args, js.Relevant)
		}
		for _, o := range c.On {
			if !slices.Contains(c.Args, "-"+o+"=true") {
				t.Errorf("configuration %v has args %v, without -%s=true", c.On, c.Args, o)
			}
		}
	}
}

// writeModel writes the paper's running-example model T = 1 + 2·A + 4·A·C + 3·A·B.
func writeModel(t *testing.T) string {
	path := filepath.Join(t.TempDir(), "model.json")
	model := `{"format": "augur-options-model/1", "options": ["A", "B", "C", "J"], "model": {"terms": [
  {"options": [], "coef": 1, "sources": [{"region": "main", "position": "main.go:44:2", "coef": 1}]},
  {"options": ["A"], "coef": 2, "sources": [{"region": "if a", "position": "main.go:51:2", "coef": 2}]},
  {"options": ["A", "B"], "coef": 3},
  {"options": ["A", "C"], "coef": 4, "sources": [{"region": "if c", "position": "main.go:92:2", "coef": 4}]}]}}`
	if err := os.WriteFile(path, []byte(model), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestOptionsPredict(t *testing.T) {
	model := writeModel(t)
	code, out, errs := runCLI(t, "options", "predict", model, "A=1", "B=0", "C=1")
	if code != 0 || !strings.HasPrefix(out, "T({A, C}) = 7.00 s") || !strings.Contains(out, "if c (main.go:92:2)") {
		t.Errorf("exit %d\n%s%s", code, out, errs)
	}
	code, out, _ = runCLI(t, "options", "predict", model, "--config", "A,B,C", "--json")
	var js struct {
		Seconds float64 `json:"seconds"`
		Terms   []any   `json:"terms"`
	}
	if err := json.Unmarshal([]byte(out), &js); code != 0 || err != nil || math.Abs(js.Seconds-10) > 1e-9 || len(js.Terms) != 4 {
		t.Errorf("--json: exit %d, %v, %+v\n%s", code, err, js, out)
	}
	// J is an option of the program the model does not mention: it is accepted and costs nothing.
	if code, out, _ = runCLI(t, "options", "predict", model, "J"); code != 0 || !strings.HasPrefix(out, "T({J}) = 1.00 s") {
		t.Errorf("J: exit %d\n%s", code, out)
	}
}

func TestOptionsErrors(t *testing.T) {
	model := writeModel(t)
	cases := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"options"}, 2, "expected a subcommand"},
		{[]string{"options", "frobnicate"}, 2, `unknown subcommand "frobnicate"`},
		{[]string{"options", "influence"}, 2, "no packages given"},
		{[]string{"options", "influence", "./examples/options", "--values", "unit=1ms"}, 2, "at least two"},
		{[]string{"options", "influence", "./examples/options", "--values", "K=1,2"}, 2, `no option "K"`},
		{[]string{"options", "influence", "./examples/options", "--source", "example.com/cfg.Get"}, 2, "--source example.com/cfg.Get: no call to it"},
		{[]string{"options", "influence", "./examples/options", "--source-field", "example.com/cfg.Config.Workers"}, 2, "is not among the loaded packages"},
		{[]string{"options", "influence", "./examples/options", "--fixed", "nosuch"}, 2, "loads no option of that name"},
		{[]string{"options", "influence", "./examples/distance"}, 2, "no configuration option found in ./examples/distance"},
		{[]string{"options", "configs", "./examples/options", "--method", "fast"}, 2, `unknown --method "fast"`},
		{[]string{"options", "predict", model, "Z=1"}, 2, `unknown option "Z"`},
		{[]string{"options", "predict", model, "A=2"}, 2, "want 0 or 1"},
		{[]string{"options", "predict", "no/such/model.json"}, 1, "no such file"},
		{[]string{"options", "predict"}, 2, "expected a MODEL"},
		{[]string{"options", "evaluate", "./examples/options"}, 2, "--run is required"},
	}
	for _, c := range cases {
		code, _, errs := runCLI(t, c.args...)
		if code != c.code || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit %d and %q", c.args, code, errs, c.code, c.want)
		}
	}
}

func TestOptionsHelp(t *testing.T) {
	for _, args := range [][]string{{"options", "--help"}, {"options", "influence", "--help"}, {"options", "configs", "--help"},
		{"options", "regions", "--help"}, {"options", "predict", "--help"}, {"options", "evaluate", "--help"}, {"options", "measure", "--help"}} {
		code, out, _ := runCLI(t, args...)
		if code != 0 || !strings.Contains(out, "Examples:") {
			t.Errorf("%v: exit %d\n%s", args, code, out)
		}
	}
}

// TestOptionsEvaluate measures the running example end to end with 1 ms units: feature-wise,
// pair-wise and random sampling against 10 held-out configurations, plus a given model.
func TestOptionsEvaluate(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs examples/options")
	}
	model := writeModel(t)
	code, out, errs := runCLI(t, "options", "evaluate", "./examples/options", "--run", "./examples/options / -unit=1ms",
		"--no-brute", "--held-out", "10", "--model", model, "--json", "--quiet")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, errs)
	}
	var js struct {
		HeldOut int `json:"held_out"`
		Rows    []struct {
			Approach string  `json:"approach"`
			Configs  int     `json:"configurations"`
			MAPE     float64 `json:"mape"`
		} `json:"rows"`
	}
	if err := json.Unmarshal([]byte(out), &js); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if js.HeldOut != 10 || len(js.Rows) != 4 || js.Rows[1].Approach != "feature-wise" || js.Rows[1].Configs != 11 {
		t.Errorf("%+v", js)
	}
}

func TestOptionsRegions(t *testing.T) {
	code, out, errs := runCLI(t, "options", "regions", "./examples/options")
	if code != 0 || !strings.Contains(out, "Before optimisation (Algorithm 2): 13 regions") || !strings.Contains(out, "After optimisation") {
		t.Errorf("exit %d\n%s%s", code, out, errs)
	}
}
