package pipeline_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/augur-perf/augur/field/build"
	"github.com/augur-perf/augur/field/pipeline"
	"github.com/augur-perf/augur/probe/profile"
)

// wantInput checks that err is an *InputError (a usage error) saying want.
func wantInput(t *testing.T, err error, want string) {
	t.Helper()
	var ie *pipeline.InputError
	if !errors.As(err, &ie) || !ie.UsageError() || err.Error() != want {
		t.Errorf("%v, want the usage error %q", err, want)
	}
}

var distance = pipeline.PlanRequest{Dir: "../..", Patterns: []string{"./examples/distance"}, Release: "r1", Variants: 3, Probes: 4, Strategy: "rb", Seed: 7}

// plan writes the example's release to a temporary directory and returns its path.
func plan(t *testing.T) string {
	t.Helper()
	r := distance
	r.Out = filepath.Join(t.TempDir(), "release.json")
	if _, err := pipeline.Plan(r); err != nil {
		t.Fatal(err)
	}
	return r.Out
}

// Plan refuses what contradicts itself before it loads anything, as the command line says it.
func TestPlanRefuses(t *testing.T) {
	for _, c := range []struct {
		edit func(*pipeline.PlanRequest)
		want string
	}{
		{func(r *pipeline.PlanRequest) { r.Overhead, r.Main, r.Workload = "5", ".", []string{"true"} }, `--overhead "5": want a percentage such as 5%`},
		{func(r *pipeline.PlanRequest) { r.Overhead = "5%" }, "--overhead calibrates on the program itself: give --main PKG and a WORKLOAD after -- that runs $AUGUR_FIELD_BIN"},
		{func(r *pipeline.PlanRequest) {
			r.Overhead, r.Main, r.Workload, r.ProbesGiven = "5%", ".", []string{"true"}, true
		}, "give --probes or --overhead, not both"},
		{func(r *pipeline.PlanRequest) { r.Strategy = "bogus" }, `unknown strategy "bogus" (p, r, rb, grb)`},
		{func(r *pipeline.PlanRequest) { r.Strategy = "grb" }, "--strategy grb groups units by their in-house frequency: give --profile (augur profile of the in-house tests)"},
		{func(r *pipeline.PlanRequest) { r.Weights = "1,1,1,1,1" }, "--weights share probes among Grouped RB's groups: give --strategy grb"},
		{func(r *pipeline.PlanRequest) { r.Strategy, r.Profile, r.Weights = "grb", "p.json", "1,x" }, `--weights: "x" is not a number`},
		{func(r *pipeline.PlanRequest) { r.Variants = 0 }, "want at least one variant and a bound of at least one probe (got 0 variants, bound 4)"},
	} {
		r := distance
		r.Out = filepath.Join(t.TempDir(), "r.json")
		c.edit(&r)
		_, err := pipeline.Plan(r)
		wantInput(t, err, c.want)
	}
}

// Plan is augur field plan in one call: the statements of the packages as units, each variant
// given its probes, the manifest written.
func ExamplePlan() {
	r := pipeline.PlanRequest{Dir: "../..", Patterns: []string{"./examples/distance"}, Release: "r1", Variants: 3, Probes: 4,
		Strategy: "rb", Seed: 7, Out: filepath.Join(os.TempDir(), "augur-example-release.json")}
	defer os.Remove(r.Out)
	p, err := pipeline.Plan(r)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("release %s: %d units, %d variants (%s)\n", p.Manifest.Release, p.Units, len(p.Manifest.Variants), p.Strategy)
	for _, v := range p.Manifest.Variants {
		fmt.Printf("variant %d: %d probes\n", v.ID, len(v.Probes))
	}
	// Output:
	// release r1: 11 units, 3 variants (rb)
	// variant 1: 4 probes
	// variant 2: 4 probes
	// variant 3: 4 probes
}

// Build refuses values the command line gets wrong before it reads the manifest.
func TestBuildRefuses(t *testing.T) {
	ok := pipeline.BuildRequest{Manifest: "none.json", Options: build.Options{Main: ".", Flush: time.Minute, Rate: 1}}
	for _, c := range []struct {
		edit func(*pipeline.BuildRequest)
		want string
	}{
		{func(r *pipeline.BuildRequest) { r.Flush = 0 }, "--flush 0s: want a positive period"},
		{func(r *pipeline.BuildRequest) { r.Rate = 2 }, "--rate 2: want a probability in (0, 1]"},
		{func(r *pipeline.BuildRequest) { r.SpoolSize = "lots" }, `--spool-max: "lots" is not a size like 16MB`},
		{func(r *pipeline.BuildRequest) { r.VariantIDs = "1,x" }, `--variants: "x" is not a positive number`},
	} {
		r := ok
		c.edit(&r)
		_, err := pipeline.Build(r)
		wantInput(t, err, c.want)
	}
	if _, err := pipeline.Build(ok); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("no manifest: %v", err)
	}
}

// Simulate replays the strategies on a directory of traces; its lists are read from text.
func TestSimulate(t *testing.T) {
	dir := t.TempDir()
	for site := 1; site <= 4; site++ {
		p := &profile.Profile{Format: profile.Format, Runs: 1, Funcs: map[string]*profile.Func{"p.F": {Invocations: 1, Nodes: make([]profile.Node, 8)}}}
		for k := range p.Funcs["p.F"].Nodes {
			if (k+site)%3 != 0 {
				p.Funcs["p.F"].Nodes[k].Count = uint64(k * site)
			}
		}
		if err := p.Write(filepath.Join(dir, fmt.Sprintf("site%d.1.json", site))); err != nil {
			t.Fatal(err)
		}
	}
	r := pipeline.SimulateRequest{Traces: dir, Strategies: "r,rb", Bounds: "2,8", Variants: "2", Repeats: 5, Seed: 1}
	s, err := pipeline.Simulate(r)
	if err != nil {
		t.Fatal(err)
	}
	if s.Traces.Sites != 4 || len(s.Rows) != 4 || s.Rows[3].Coverage != 1 {
		t.Errorf("%d sites, rows %+v", s.Traces.Sites, s.Rows)
	}
	for _, c := range []struct {
		edit func(*pipeline.SimulateRequest)
		want string
	}{
		{func(r *pipeline.SimulateRequest) { r.Traces = "" }, "--traces DIR is required"},
		{func(r *pipeline.SimulateRequest) { r.JSON, r.CSV = true, true }, "give --json or --csv, not both"},
		{func(r *pipeline.SimulateRequest) { r.CSV, r.Rates = true, "0.5" }, "--json and --csv print the study's rows: run --memory and --rates without them"},
		{func(r *pipeline.SimulateRequest) { r.Bounds = "0" }, `--bounds: "0" is not a positive number`},
		{func(r *pipeline.SimulateRequest) { r.Rates = "2" }, `--rates: "2" is not a rate in (0, 1]`},
		{func(r *pipeline.SimulateRequest) { r.Sites = 9 }, "--sites 9: the traces have 4 sites"},
	} {
		r := r
		c.edit(&r)
		_, err := pipeline.Simulate(r)
		wantInput(t, err, c.want)
	}
}

// The collector's side on an SQLite store: a release registered, a token issued, listed and
// revoked, the report and the field profile of a release nothing was collected for yet, and
// the collector served until its context ends.
func TestCollectorSide(t *testing.T) {
	ctx := context.Background()
	rel := plan(t)
	st := pipeline.Store{DB: filepath.Join(t.TempDir(), "f.sqlite")}
	if m, err := pipeline.AddRelease(ctx, st, rel); err != nil || m.Release != "r1" {
		t.Fatalf("add: %v", err)
	}
	_, err := pipeline.Token(ctx, pipeline.TokenRequest{Store: st})
	wantInput(t, err, "give --release R (issue), --revoke ID or --list")
	tok, err := pipeline.Token(ctx, pipeline.TokenRequest{Store: st, Release: "r1"})
	if err != nil || !strings.HasPrefix(tok.Token, "fld_"+tok.ID+"_") {
		t.Fatalf("issue: %v, %+v", err, tok)
	}
	if l, err := pipeline.Token(ctx, pipeline.TokenRequest{Store: st, List: true}); err != nil || !l.Listed || len(l.List) != 1 || l.List[0].ID != tok.ID {
		t.Errorf("list: %v, %+v", err, l)
	}
	if r, err := pipeline.Token(ctx, pipeline.TokenRequest{Store: st, Revoke: tok.ID}); err != nil || r.Revoked != tok.ID {
		t.Errorf("revoke: %v", err)
	}
	_, err = pipeline.Report(ctx, pipeline.ReportRequest{Store: st})
	wantInput(t, err, "--release release.json is required")
	e, err := pipeline.Report(ctx, pipeline.ReportRequest{Store: st, Release: rel})
	if err != nil || e.Manifest.Release != "r1" || e.Estimates == nil || e.Reference != nil {
		t.Errorf("report: %v", err)
	}
	out := filepath.Join(t.TempDir(), "field.json")
	fp, err := pipeline.Profile(ctx, pipeline.ProfileRequest{Store: st, Release: rel, Dir: "../..", Out: out})
	if _, serr := os.Stat(out); err != nil || serr != nil || fp.Notes == nil {
		t.Errorf("profile: %v, %v", err, serr)
	}
	sctx, stop := context.WithCancel(ctx)
	var url string
	err = pipeline.Serve(sctx, pipeline.ServeRequest{Store: st, Addr: "127.0.0.1:0"}, func(u string) { url = u; stop() })
	if err != nil || !strings.HasPrefix(url, "http://127.0.0.1:") {
		t.Errorf("serve: %v, %q", err, url)
	}
	err = pipeline.Serve(ctx, pipeline.ServeRequest{Store: st, Cert: "c.pem"}, nil)
	wantInput(t, err, "--tls-cert and --tls-key go together")
}

// Simulate is augur field simulate: the study's saved traces (every site-run's counts under full
// instrumentation) replayed under Random Balanced allocations of 141 probes to 6 variants.
func ExampleSimulate() {
	s, err := pipeline.Simulate(pipeline.SimulateRequest{Traces: "../sim/testdata/study/traces.json.gz",
		Strategies: "rb", Bounds: "141", Variants: "6", Repeats: 2, Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d site-runs from %d sites, %d units\n", len(s.Traces.Runs), s.Traces.Sites, len(s.Traces.Units))
	for _, r := range s.Rows {
		fmt.Printf("%s, %d variants of %d probes: coverage %.3f\n", r.Strategy, r.Variants, r.Bound, r.Coverage)
	}
	// Output:
	// 60 site-runs from 30 sites, 2817 units
	// rb, 6 variants of 141 probes: coverage 0.238
}

// Plan leaves out the functions of a file that imports "C" (their probes would be lost: the go
// command compiles the file from cgo's output), names them, and plans the rest.
func TestPlanLeavesCgoOut(t *testing.T) {
	if out, err := exec.Command("go", "env", "CGO_ENABLED").Output(); err != nil || strings.TrimSpace(string(out)) != "1" {
		t.Skip("cgo is off")
	}
	var log strings.Builder
	r := pipeline.PlanRequest{Dir: "../../probe/instrument/testdata/src/work", Patterns: []string{"./withc"}, Release: "r1", Variants: 2, Probes: 2, Strategy: "rb", Seed: 7, Log: &log}
	r.Out = filepath.Join(t.TempDir(), "release.json")
	p, err := pipeline.Plan(r)
	if err != nil {
		t.Skipf("no cgo build here: %v", err)
	}
	for _, u := range p.Manifest.Units {
		if u.Func != "example.com/work/withc.Sum" {
			t.Errorf("unit %d at %s in %s, want Sum's alone", u.ID, u.Pos, u.Func)
		}
	}
	if len(p.Manifest.Units) == 0 || !strings.Contains(log.String(), "example.com/work/withc.Box.Get, example.com/work/withc.Twice, example.com/work/withc.CTwice are left out") {
		t.Errorf("%d units; log %q", len(p.Manifest.Units), log.String())
	}
}
