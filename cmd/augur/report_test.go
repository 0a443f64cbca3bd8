package main

import (
	"github.com/augur-perf/augur/internal/cli"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// analyze --html writes the report beside the usual output; the library's tests check the page
// itself (report/html), this one the flags.
func TestAnalyzeHTML(t *testing.T) {
	out := filepath.Join(t.TempDir(), "l1.html")
	code, stdout, errs := runCLI(t, "analyze", "github.com/augur-perf/augur/examples/distance.L1", "--profile", "examples/distance/usage.json",
		"--set", "time@distance.go:21=1.8", "--compare", "--spread", "--html", out)
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, errs)
	}
	if !strings.Contains(stdout, "Hot spots") || !strings.Contains(errs, "wrote "+out) {
		t.Errorf("the text output or the note of the report is missing:\n%s\n%s", stdout, errs)
	}
	page, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`id="L21"`, `data-scenario="time@distance.go:21=1.8"`, `id="dist-0"`, `id="graph"`} {
		if !strings.Contains(string(page), want) {
			t.Errorf("the report has no %s", want)
		}
	}
	code, _, errs = runCLI(t, "analyze", "github.com/augur-perf/augur/examples/distance.L1", "--profile", "examples/distance/usage.json", "--open")
	if code != cli.ExitUsage || !strings.Contains(errs, "--html") {
		t.Errorf("--open without --html: exit %d\n%s", code, errs)
	}
}
