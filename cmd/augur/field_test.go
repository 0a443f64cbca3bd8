package main

import (
	"encoding/json"
	"fmt"
	"github.com/augur-perf/augur/internal/cli"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/augur-perf/augur/field/plan"
	"github.com/augur-perf/augur/field/sim"
	"github.com/augur-perf/augur/probe/profile"
)

func TestFieldPlan(t *testing.T) {
	out := filepath.Join(t.TempDir(), "release.json")
	code, stdout, errs := runCLI(t, "field", "plan", "./examples/distance", "--variants", "3", "--probes", "4", "--seed", "7", "-o", out)
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, errs)
	}
	m, err := plan.Read(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Variants) != 3 || len(m.Units) != 11 || !strings.Contains(stdout, "11 units probed somewhere") {
		t.Errorf("%d variants, %d units\n%s", len(m.Variants), len(m.Units), stdout)
	}
	for _, v := range m.Variants {
		if len(v.Probes) != 4 {
			t.Errorf("variant %d: %d probes", v.ID, len(v.Probes))
		}
	}
	if !strings.HasPrefix(m.Units[0].Pos, "examples/distance/distance.go:15:") {
		t.Errorf("unit positions %v", m.Units[0])
	}
	code, _, errs = runCLI(t, "field", "plan", "./examples/distance", "--strategy", "grb", "-o", out)
	if code != cli.ExitUsage || !strings.Contains(errs, "--profile") {
		t.Errorf("grb without an in-house profile: exit %d\n%s", code, errs)
	}
	code, _, errs = runCLI(t, "field", "plan", "./examples/router", "--strategy", "grb", "--profile", "examples/router/mixA.json",
		"--weights", "4,3,2,1,0", "--variants", "2", "--probes", "5", "-o", out)
	if m, err := plan.Read(out); code != 0 || err != nil || fmt.Sprint(m.Weights) != "[4 3 2 1 0]" {
		t.Errorf("grb with weights: exit %d, %v\n%s", code, err, errs)
	}
	for _, c := range []struct{ args []string }{
		{[]string{"--weights", "1,1,1,1,1"}},
		{[]string{"--strategy", "grb", "--profile", "examples/router/mixA.json", "--weights", "1,x"}},
		{[]string{"--strategy", "grb", "--profile", "examples/router/mixA.json", "--weights", "1,1"}},
	} {
		args := append([]string{"field", "plan", "./examples/router", "-o", out}, c.args...)
		if code, _, errs := runCLI(t, args...); code != cli.ExitUsage || !strings.Contains(errs, "weight") {
			t.Errorf("%v: exit %d, want a usage error about the weights\n%s", c.args, code, errs)
		}
	}
}

// simulate replays the strategies on traces: full bounds see everything executed.
func TestFieldSimulate(t *testing.T) {
	dir := t.TempDir()
	for site := 1; site <= 4; site++ {
		p := &profile.Profile{Format: profile.Format, Runs: 1, Funcs: map[string]*profile.Func{
			"p.F": {Invocations: 1, Nodes: make([]profile.Node, 8)},
		}}
		for k := range p.Funcs["p.F"].Nodes {
			if (k+site)%3 != 0 {
				p.Funcs["p.F"].Nodes[k].Count = uint64(k * site)
			}
		}
		if err := p.Write(filepath.Join(dir, fmt.Sprintf("site%d.1.json", site))); err != nil {
			t.Fatal(err)
		}
	}
	code, out, errs := runCLI(t, "field", "simulate", "--traces", dir, "--strategies", "r,rb", "--bounds", "2,8", "--variants", "2", "--repeat", "5")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, errs)
	}
	if !strings.Contains(out, "4 site-runs from 4 sites, 8 units") || !strings.Contains(out, "rb               2      8     1.000") {
		t.Errorf("%s", out)
	}
	// --save keeps the traces in one file that --traces replays to the same table; --memory and
	// --rates add their tables; a rate outside (0, 1] is a usage error.
	saved := filepath.Join(t.TempDir(), "traces.json.gz")
	code, out, errs = runCLI(t, "field", "simulate", "--traces", dir, "--strategies", "r,rb", "--bounds", "2,8", "--variants", "2", "--repeat", "5", "--save", saved)
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, errs)
	}
	code, again, errs := runCLI(t, "field", "simulate", "--traces", saved, "--strategies", "r,rb", "--bounds", "2,8", "--variants", "2", "--repeat", "5")
	if code != 0 || again != out {
		t.Errorf("exit %d replaying the saved traces\n%s\n%s\nwant\n%s", code, errs, again, out)
	}
	code, out, errs = runCLI(t, "field", "simulate", "--traces", saved, "--strategies", "rb", "--bounds", "4", "--variants", "2", "--repeat", "5", "--memory", "2,8", "--rates", "0.5")
	if code != 0 || !strings.Contains(out, "with memory") || !strings.Contains(out, "CBI sampling") {
		t.Errorf("exit %d\n%s\n%s", code, out, errs)
	}
	if code, _, errs = runCLI(t, "field", "simulate", "--traces", saved, "--rates", "2"); code != 2 || !strings.Contains(errs, "not a rate") {
		t.Errorf("--rates 2: exit %d\n%s", code, errs)
	}
	// --json and --csv give the rows for plotting; --sites deploys that many of the sites per
	// repeat: with one of the four drawn per repeat, full bounds still see everything it ran
	// (coverage is relative to the deployed sites' runs), and the probe executions per run vary
	// from repeat to repeat with the site drawn (they do not with all four).
	code, out, errs = runCLI(t, "field", "simulate", "--traces", saved, "--strategies", "rb", "--bounds", "8", "--variants", "2", "--repeat", "5", "--sites", "1", "--json")
	var rows []sim.Row
	if err := json.Unmarshal([]byte(out), &rows); code != 0 || err != nil || len(rows) != 1 || rows[0].Sites != 1 || rows[0].Coverage != 1 || rows[0].ProbeExecsSD == 0 {
		t.Errorf("--sites 1 --json: exit %d, %v, %+v\n%s", code, err, rows, errs)
	}
	code, out, errs = runCLI(t, "field", "simulate", "--traces", saved, "--strategies", "r,rb", "--bounds", "2,8", "--variants", "2", "--repeat", "5", "--csv")
	if lines := strings.Split(strings.TrimSpace(out), "\n"); code != 0 || len(lines) != 5 || !strings.HasPrefix(lines[0], "strategy,variants,bound,sites") || !strings.HasPrefix(lines[4], "rb,2,8,4,5,1,") {
		t.Errorf("--csv: exit %d\n%s\n%s", code, out, errs)
	}
	for _, args := range [][]string{{"--sites", "9"}, {"--json", "--csv"}, {"--json", "--rates", "0.5"}} {
		if code, _, errs := runCLI(t, append([]string{"field", "simulate", "--traces", saved}, args...)...); code != cli.ExitUsage {
			t.Errorf("%v: exit %d, want a usage error\n%s", args, code, errs)
		}
	}
}

// build makes one binary per variant of a plan of a main package, and refuses bad flags.
func TestFieldBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("builds variants with the go command")
	}
	dir := filepath.Join(t.TempDir(), "app")
	if err := os.CopyFS(dir, os.DirFS("../../field/build/testdata/app")); err != nil {
		t.Fatal(err)
	}
	rel := filepath.Join(t.TempDir(), "release.json")
	if code, _, errs := runCLI(t, "field", "plan", "example.com/app", "--dir", dir, "--variants", "2", "--probes", "5", "-o", rel); code != 0 {
		t.Fatalf("plan: exit %d\n%s", code, errs)
	}
	out := filepath.Join(t.TempDir(), "dist")
	code, stdout, errs := runCLI(t, "field", "build", rel, "-o", out, "--dir", dir, "--url", "http://collector:8417", "--flush", "30s", "--spool-max", "1MB", ".")
	if code != 0 {
		t.Fatalf("build: exit %d\n%s", code, errs)
	}
	for _, v := range []string{"app-v1", "app-v2"} {
		if _, err := os.Stat(filepath.Join(out, v)); err != nil || !strings.Contains(stdout, v) {
			t.Errorf("%s: %v\n%s", v, err, stdout)
		}
	}
	for _, args := range [][]string{
		{rel},
		{rel, ".", "--spool-max", "lots"},
		{rel, ".", "--flush", "0s"},
	} {
		if code, _, errs := runCLI(t, append([]string{"field", "build", "--dir", dir}, args...)...); code != cli.ExitUsage {
			t.Errorf("%v: exit %d\n%s", args, code, errs)
		}
	}
}

// TestFieldPlanOverheadUsage: --overhead takes a percentage, needs the program and a workload to
// calibrate on, and excludes --probes.
func TestFieldPlanOverheadUsage(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--overhead", "5", "--main", ".", "--", "true"}, "want a percentage"},
		{[]string{"--overhead", "5%", "--", "true"}, "give --main PKG and a WORKLOAD"},
		{[]string{"--overhead", "5%", "--main", "./examples/fieldsvc"}, "give --main PKG and a WORKLOAD"},
		{[]string{"--overhead", "5%", "--probes", "10", "--main", "./examples/fieldsvc", "--", "true"}, "--probes or --overhead, not both"},
	} {
		args := append([]string{"field", "plan", "./examples/fieldsvc", "-o", filepath.Join(t.TempDir(), "r.json")}, c.args...)
		code, _, errs := runCLI(t, args...)
		if code != cli.ExitUsage || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, %s; want a usage error about %q", c.args, code, errs, c.want)
		}
	}
}
