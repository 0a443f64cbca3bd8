package main

import (
	"bytes"
	"encoding/json"
	"github.com/augur-perf/augur/internal/cli"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// runCLI runs augur in-process from the module root, as the README does.
func runCLI(t testing.TB, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	wd, _ := os.Getwd()
	if err := os.Chdir("../.."); err != nil {
		t.Fatal(err)
	}
	defer os.Chdir(wd)
	var out, errb bytes.Buffer
	code = run(args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestCheckExact(t *testing.T) {
	code, out, errs := runCLI(t, "check", "examples/die/die.json", "--prop", `R{"flips"}=? [ F "done" ]`, "--method", "exact")
	if code != 0 || !strings.Contains(out, "Result: 3.6666666666666665 (exact: 11/3)") {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errs)
	}
}

func TestCheckJSON(t *testing.T) {
	code, out, _ := runCLI(t, "check", "examples/die/die.json", "--prop", `P=? [ F "six" ]`, "--prop", `R=? [ F "one" ]`, "--json", "--all-states")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	var got struct {
		Results []struct {
			Value    any   `json:"value"`
			States   []any `json:"states"`
			Infinite int   `json:"infinite_states"`
		} `json:"results"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if got.Results[0].Value != 1.0/6 || len(got.Results[0].States) != 13 {
		t.Errorf("P[F six] = %v with %d states", got.Results[0].Value, len(got.Results[0].States))
	}
	// Reaching "one" is not certain, so the expected flips are infinite: JSON says "Infinity".
	if got.Results[1].Value != "Infinity" || got.Results[1].Infinite == 0 {
		t.Errorf("R[F one] = %v, infinite states %d", got.Results[1].Value, got.Results[1].Infinite)
	}
}

func TestCheckErrors(t *testing.T) {
	cases := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"check", "examples/die/die.json", "--prop", `P=? [ F "six" `}, 1, `column 15: expected "]"`},
		{[]string{"check", "examples/die/die.json", "--prop", `P=? [ F "sx" ]`}, 1, `column 9: unknown label "sx"`},
		{[]string{"check", "examples/die/die.json", "--method", "fast"}, 1, `unknown method "fast"`},
		{[]string{"check", "no/such/model.json", "--prop", `P=? [ F "a" ]`}, 1, "no such file"},
		{[]string{"check"}, 2, "expected one MODEL argument"},
		{[]string{"check", "examples/die/die.json", "--bogus"}, 2, "flag provided but not defined"},
		{[]string{"frobnicate"}, 2, `unknown command "frobnicate"`},
	}
	for _, c := range cases {
		code, _, errs := runCLI(t, c.args...)
		if code != c.code || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want exit %d and %q", c.args, code, errs, c.code, c.want)
		}
	}
}

func TestCheckBadModelFile(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte("{\n  \"format\": \"augur-dtmc/1\",\n  \"states\": 2,\n  \"init\": 0,\n  \"transitions\": [[0, 1, 0.5]]\n}\n"), 0o644)
	code, _, errs := runCLI(t, "check", bad, "--prop", `P=? [ F s=1 ]`)
	if code != 1 || !strings.Contains(errs, "bad.json") {
		t.Errorf("exit %d, stderr %q", code, errs)
	}
}

func TestHelpTeaches(t *testing.T) {
	for _, cmd := range []string{"check", "analyze"} {
		code, out, _ := runCLI(t, cmd, "--help")
		if code != 0 || !strings.Contains(out, "Examples:") || !strings.Contains(out, "Options:") {
			t.Errorf("%s --help: exit %d\n%s", cmd, code, out)
		}
	}
	code, out, _ := runCLI(t)
	if code != 0 || !strings.Contains(out, "check") {
		t.Errorf("augur with no arguments: exit %d\n%s", code, out)
	}
}

// TestCheckLanguage runs the extended property language end to end on a PRISM export with
// actions (two lines for 0 -> 1, summed) and state variables (s differs from the state index).
func TestCheckLanguage(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"m.tra":   "4 6\n0 1 0.25 a\n0 1 0.25 b\n0 2 0.5 a\n1 3 1\n2 3 1\n3 3 1\n",
		"m.lab":   "0=\"init\" 1=\"deadlock\" 2=\"end\"\n0: 0\n3: 2\n",
		"m.sta":   "(s,d)\n0:(7,0)\n1:(3,1)\n2:(5,1)\n3:(0,2)\n",
		"m.props": "const int K;\nconst double p = 0.3;\nlabel \"low\" = s<5;\n\"reach\": P=? [ F s=3 ]\n\"twice\": 2 * \"reach\"\nP=? [ F<=K d=2 ]\nP>=p [ F \"low\" ]\nP=? [ F x=1 ]\nfilter(argmax, s)\nP=? [ F #s=3 ]\n",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	code, out, errs := runCLI(t, "check", filepath.Join(dir, "m.tra"), "--props", filepath.Join(dir, "m.props"), "--const", "K=0:2")
	for _, want := range []string{
		"Property: \"reach\": P=? [ F s=3 ]\nResult: 0.5\n",
		"Property: \"twice\": 2 * \"reach\"\nResult: 1\n",
		"Constants: K=0\nResult: 0\n", "Constants: K=1\nResult: 0\n", "Constants: K=2\nResult: 1\n",
		"Property: P>=p [ F \"low\" ]\nResult: true",
		"Property: P=? [ F x=1 ]\nError: " + filepath.Join(dir, "m.props") + `: line 8, column 9: unknown variable or constant "x" (the model's variables are s, d; #s is the state index)`,
		"Property: filter(argmax, s)\nResult: 1 states: 0\n",
		"Property: P=? [ F #s=3 ]\nResult: 1\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("stdout lacks %q:\n%s", want, out)
		}
	}
	if code != 1 || !strings.Contains(errs, "1 of 9 checks failed") {
		t.Errorf("exit %d, stderr %q; want 1 and one failed check", code, errs)
	}
	// JSON gives each run its constants and each failure its error.
	code, out, _ = runCLI(t, "check", filepath.Join(dir, "m.tra"), "--prop", `P=? [ F<=K d=2 ]`, "--prop", `P=? [ F "nope" ]`, "--const", "K=1:1:2", "--json")
	var got struct {
		Results []struct {
			Constants map[string]string `json:"constants"`
			Value     any               `json:"value"`
			Error     string            `json:"error"`
		} `json:"results"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil || code != 1 || len(got.Results) != 3 {
		t.Fatalf("exit %d, %v\n%s", code, err, out)
	}
	if got.Results[1].Constants["K"] != "2" || got.Results[1].Value != 1.0 || !strings.Contains(got.Results[2].Error, `unknown label "nope"`) {
		t.Errorf("results %+v", got.Results)
	}
	for _, c := range []struct{ args []string }{
		{[]string{"--const", "K"}},
		{[]string{"--const", "K=1:0"}},
		{[]string{"--const", "K=x"}},
		{[]string{"--const", "p=0.5", "--props", filepath.Join(dir, "m.props")}},
	} {
		args := append([]string{"check", filepath.Join(dir, "m.tra"), "--prop", "P=? [ F d=2 ]"}, c.args...)
		if code, _, errs := runCLI(t, args...); code != 2 || !strings.Contains(errs, "--const") {
			t.Errorf("%v: exit %d, %s", c.args, code, errs)
		}
	}
}

// TestCheckSeveralInitialStates: as PRISM, a numeric property over several initial states is
// answered with the range of its values there.
func TestCheckSeveralInitialStates(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "m.tra"), []byte("3 3\n0 2 1\n1 1 1\n2 2 1\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "m.lab"), []byte("0=\"init\" 1=\"end\"\n0: 0\n1: 0\n2: 1\n"), 0o644)
	code, out, errs := runCLI(t, "check", filepath.Join(dir, "m.tra"), "--prop", `P=? [ F "end" ]`)
	if code != 0 || !strings.Contains(out, "Result: [0, 1] (range over the 2 initial states; the initial distribution's expectation is 0.5)") {
		t.Errorf("exit %d\n%s\n%s", code, out, errs)
	}
}

// TestCheckFilterCount: count over a state formula is a number, not a truth value.
func TestCheckFilterCount(t *testing.T) {
	code, out, errs := runCLI(t, "check", "examples/die/die.json", "--prop", `filter(count, P>0 [ F "six" ])`, "--prop", `filter(exists, "six")`)
	if code != 0 || !strings.Contains(out, "Result: 4\n") || !strings.Contains(out, "Result: true\n") {
		t.Errorf("exit %d\n%s\n%s", code, out, errs)
	}
}

// A model in the PRISM language, its constant from --const, properties over its variables by
// name, and an experiment over a property constant.
func TestCheckPRISMLanguage(t *testing.T) {
	code, out, errs := runCLI(t, "check", "examples/die/die.pm", "--const", "p=0.5,k=1:6", "--prop", `P=? [ F s=7 & d=k ]`, "--prop", `R{"coin_flips"}=? [ F "done" ]`, "--method", "exact")
	if code != 0 || strings.Count(out, "(exact: 1/6)") != 6 || !strings.Contains(out, "(exact: 11/3)") || !strings.Contains(out, "13 states, 20 transitions") {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errs)
	}
	code, _, errs = runCLI(t, "check", "examples/die/die.pm", "--prop", `P=? [ F "done" ]`)
	if code != cli.ExitUsage || !strings.Contains(errs, "leaves constants p undefined") {
		t.Errorf("no --const p: exit %d\n%s", code, errs)
	}
	bad := filepath.Join(t.TempDir(), "bad.pm")
	os.WriteFile(bad, []byte("dtmc\nmodule m\n x : [0..1] init 0;\n [] x=0 -> 0.5 : (x'=1);\nendmodule\n"), 0o644)
	code, _, errs = runCLI(t, "check", bad, "--prop", `P=? [ F x=1 ]`)
	if code != cli.ExitFailed || !strings.Contains(errs, "bad.pm:4:2: the command's probabilities sum to 0.5, not 1") {
		t.Errorf("a command that is not a distribution: exit %d\n%s", code, errs)
	}
}

// augur param: L1's expected time as a rational function of its two branch probabilities, exact
// at the model's values, with its sensitivities.
func TestParam(t *testing.T) {
	dir := t.TempDir()
	code, _, errs := runCLI(t, "analyze", "github.com/augur-perf/augur/examples/distance.L1", "--profile", "examples/distance/usage.json", "--emit", "json", "-o", filepath.Join(dir, "l1"))
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, errs)
	}
	code, out, errs := runCLI(t, "param", filepath.Join(dir, "l1.json"), "--prop", `R{"time"}=? [ F "end" ]`, "--json")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, errs)
	}
	var got struct {
		Function    string `json:"function"`
		Value       string `json:"value"`
		Sensitivity []struct {
			Param string `json:"param"`
			Exact string `json:"derivative"`
		} `json:"sensitivities"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	// E = 2.5·(1-a)·b/(1-b) at a = 1/10, b = 10/11: 45/2; ∂E/∂b = 2.5·(1-a)/(1-b)² = 1089/4.
	if got.Value != "45/2" || len(got.Sensitivity) != 2 || got.Sensitivity[1].Exact != "1089/4" || got.Sensitivity[0].Exact != "-25" {
		t.Errorf("%+v", got)
	}
	code, _, _ = runCLI(t, "param", filepath.Join(dir, "l1.json"), "--prop", `P=? [ G "end" ]`)
	if code != cli.ExitUsage {
		t.Errorf("an unsupported property shape: exit %d", code)
	}
}

// TestCheckNotConverged: a method stopped by its iteration limit prints NOT CONVERGED with what it
// has and exits 1; the interval method prints its bounds and a relative error bound, and exits 0.
func TestCheckNotConverged(t *testing.T) {
	code, out, errs := runCLI(t, "check", "examples/die/die.json", "--prop", `R{"flips"}=? [ F "done" ]`, "--method", "gauss-seidel", "--max-iter", "2")
	if code != 1 || !strings.Contains(out, "Result: NOT CONVERGED, last iterate ") || !strings.Contains(errs, "NOT CONVERGED") ||
		!strings.Contains(out, "(not an error bound)") {
		t.Errorf("gauss-seidel stopped after 2 sweeps: exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errs)
	}
	code, out, errs = runCLI(t, "check", "examples/die/die.json", "--prop", `R{"flips"}=? [ F "done" ]`, "--method", "interval")
	if code != 0 || !strings.Contains(out, "(sound bounds: [3.6666666666666") || !strings.Contains(out, "relative error at most") {
		t.Errorf("interval: exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errs)
	}
}

// TestCheckModelConstantRange: a range of a model constant builds one model per value, and each
// point gives what a run with that single value gives; the range's values are exact decimals.
func TestCheckModelConstantRange(t *testing.T) {
	type out struct {
		Results []struct {
			Constants map[string]string `json:"constants"`
			Value     float64           `json:"value"`
		} `json:"results"`
	}
	code, stdout, errs := runCLI(t, "check", "examples/die/die.pm", "--const", "p=0.2:0.2:0.6", "--prop", `P=? [ F d=6 ]`, "--json")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, errs)
	}
	var r out
	if err := json.Unmarshal([]byte(stdout), &r); err != nil || len(r.Results) != 3 {
		t.Fatalf("%v\n%s", err, stdout)
	}
	for i, p := range []string{"0.2", "0.4", "0.6"} {
		if r.Results[i].Constants["p"] != p {
			t.Errorf("point %d: constants %v, want p=%s", i, r.Results[i].Constants, p)
		}
		code, single, errs := runCLI(t, "check", "examples/die/die.pm", "--const", "p="+p, "--prop", `P=? [ F d=6 ]`, "--json")
		var s out
		if code != 0 || json.Unmarshal([]byte(single), &s) != nil || len(s.Results) != 1 {
			t.Fatalf("p=%s: exit %d %s", p, code, errs)
		}
		if s.Results[0].Value != r.Results[i].Value {
			t.Errorf("p=%s: %v in the range, %v alone", p, r.Results[i].Value, s.Results[0].Value)
		}
	}
}
