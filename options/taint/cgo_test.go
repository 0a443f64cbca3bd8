package taint

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/augur-perf/augur/options/sources"
)

// TestCgoFileLeftOut analyses testdata/cgo, whose option A steers a decision in main.go and one
// in c.go, which imports "C": the go command compiles c.go from cgo's output, which is what the
// analysis reads, so c.go's decisions (and those of cgo's own code) are left out and the file is
// named in Result.Cgo; main.go's stays.
func TestCgoFileLeftOut(t *testing.T) {
	out, err := exec.Command("go", "env", "CGO_ENABLED", "CC").Output()
	env := strings.Fields(string(out))
	if err != nil || len(env) < 2 || env[0] != "1" {
		t.Skip("cgo is off")
	}
	if _, err := exec.LookPath(env[1]); err != nil {
		t.Skipf("no C compiler (%s)", env[1])
	}
	pkgs, err := Load(Config{Dir: filepath.Join("testdata", "cgo")}, ".")
	if err != nil {
		t.Fatal(err)
	}
	r, err := Analyze(pkgs, sources.Decls{})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Cgo) != 1 || filepath.Base(r.Cgo[0]) != "c.go" {
		t.Errorf("files left out: %v, want c.go", r.Cgo)
	}
	if len(r.Decisions) != 1 || filepath.Base(r.Decisions[0].Pos.Filename) != "main.go" || strings.Join(r.Decisions[0].Options, ",") != "A" {
		for _, d := range r.Decisions {
			t.Logf("%s %s %v", d.Pos, d.Text, d.Options)
		}
		t.Errorf("%d decisions, want main.go's alone, influenced by A", len(r.Decisions))
	}
}
