package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// runCLI runs augur in-process from the module root, as the README does.
func runCLI(t *testing.T, args ...string) (code int, stdout, stderr string) {
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
