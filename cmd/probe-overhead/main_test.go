package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRun measures testdata/mod's one benchmark: one row, three CPU times, slowdowns a plain
// build's, and the summary; -keep leaves the three binaries, and refuses a directory that exists.
func TestRun(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs three test binaries")
	}
	js := filepath.Join(t.TempDir(), "rows.json")
	keep := filepath.Join(t.TempDir(), "kept")
	var out bytes.Buffer
	if err := run([]string{"-dir", filepath.Join("testdata", "mod"), "-target", "100ms", "-o", js, "-keep", keep}, &out); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	for _, name := range []string{"plain", "augur", "cover"} {
		if _, err := os.Stat(filepath.Join(keep, "bin0", name)); err != nil {
			t.Errorf("-keep: %v", err)
		}
	}
	if err := run([]string{"-dir", filepath.Join("testdata", "mod"), "-keep", keep}, &bytes.Buffer{}); err == nil {
		t.Error("-keep with a directory that exists: no error")
	}
	if !strings.Contains(out.String(), "1 benchmarks: geometric means augur") {
		t.Errorf("output:\n%s", out.String())
	}
	b, err := os.ReadFile(js)
	if err != nil {
		t.Fatal(err)
	}
	var rows []row
	if err := json.Unmarshal(b, &rows); err != nil {
		t.Fatal(err)
	}
	if len(rows) != 1 || rows[0].Name != "BenchmarkCount" || rows[0].Plain <= 0 || rows[0].AugurX != rows[0].Augur/rows[0].Plain || rows[0].CoverX != rows[0].Cover/rows[0].Plain {
		t.Errorf("rows %+v", rows)
	}
}

// TestRunNeedsDir refuses to run without a module.
func TestRunNeedsDir(t *testing.T) {
	if err := run(nil, &bytes.Buffer{}); err == nil || !strings.Contains(err.Error(), "-dir") {
		t.Errorf("err %v", err)
	}
}
