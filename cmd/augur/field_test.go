package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/augur-perf/augur/field/plan"
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
	if code != exitUsage || !strings.Contains(errs, "--profile") {
		t.Errorf("grb without an in-house profile: exit %d\n%s", code, errs)
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
}
