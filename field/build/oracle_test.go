package build

import (
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/augur-perf/augur/field/plan"
	"github.com/augur-perf/augur/probe/instrument"
	"github.com/augur-perf/augur/source/frontend"
)

// A variant probing every unit of testdata/tricky (labelled loops, goto, fallthrough, type
// switches, select, range over integers, strings, maps, channels and functions, else-if chains,
// empty blocks, defer and recover) counts what augur's full instrumentation counts, unit by
// unit and outcome by outcome: probe/instrument is the oracle.
func TestAgreesWithFullInstrumentation(t *testing.T) {
	if testing.Short() {
		t.Skip("builds with the go command")
	}
	dir := filepath.Join(t.TempDir(), "tricky")
	if err := os.CopyFS(dir, os.DirFS("testdata/tricky")); err != nil {
		t.Fatal(err)
	}
	prog, err := frontend.Load(dir, "example.com/tricky")
	if err != nil {
		t.Fatal(err)
	}
	fns, err := prog.Select("example.com/tricky")
	if err != nil {
		t.Fatal(err)
	}
	meas, err := instrument.Measure(prog, fns, instrument.Workload{Args: []string{"go", "run", ".", "60"}, Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	units := plan.Units(fns, nil, func(s string) string { return s })
	m, err := plan.Allocate("r1", units, plan.Options{Variants: 1, Bound: len(units), Strategy: plan.Random, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	bins, err := Build(m, Options{Dir: dir, Main: ".", Out: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	c := &collector{t: t, m: m}
	srv := httptest.NewServer(c)
	defer srv.Close()
	if r := run(t, bins[0].Path, env(srv.URL, t.TempDir()), "60"); r.err != "<nil>" {
		t.Fatalf("variant: %v\n%s", r.err, r.stdout)
	}
	got := sums(c.packages())
	skipped := map[int]bool{}
	for _, id := range bins[0].Skipped {
		skipped[id] = true
	}
	compared := 0
	for _, u := range units {
		if skipped[u.ID] {
			continue
		}
		f := meas.Profile.Funcs[u.Func]
		if f == nil {
			t.Fatalf("%s not profiled", u.Func)
		}
		want := f.Nodes[u.Node]
		g := got[u.ID]
		if g.N != want.Count {
			t.Errorf("unit %d (%s %s): count %d, full instrumentation %d", u.ID, u.Func, u.Pos, g.N, want.Count)
		}
		for k, o := range want.Outcomes {
			if g.N > 0 && (len(g.Out) != len(want.Outcomes) || g.Out[k] != o) {
				t.Errorf("unit %d (%s %s): outcomes %v, full instrumentation %v", u.ID, u.Func, u.Pos, g.Out, want.Outcomes)
				break
			}
		}
		compared++
	}
	t.Logf("%d units agree, %d skipped (deferred calls running)", compared, len(skipped))
	if compared < 100 {
		t.Fatalf("only %d units compared", compared)
	}
}
