package pipeline_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/augur-perf/augur/analyze/pipeline"
	"github.com/augur-perf/augur/analyze/timing"
	"github.com/augur-perf/augur/probe/instrument"
	"github.com/augur-perf/augur/probe/profile"
)

const (
	root  = "../.."
	l1    = "github.com/augur-perf/augur/examples/distance.L1"
	usage = "../../examples/distance/usage.json"
)

// TestMain runs the test binary of a timed workload when this test binary is started as go
// test's -exec program, as a program that times workloads must (see Profiled.Time).
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == instrument.ExecCommand {
		os.Exit(instrument.RunExec(os.Args[2:]))
	}
	os.Exit(m.Run())
}

// wantInput checks that err is an *InputError (a usage error) saying want.
func wantInput(t *testing.T, what string, err error, want string) {
	t.Helper()
	var ie *pipeline.InputError
	if !errors.As(err, &ie) || !ie.UsageError() || err.Error() != want {
		t.Errorf("%s: %v, want the usage error %q", what, err, want)
	}
}

// A request that contradicts itself or names what is not there is an *InputError, said as the
// command line says it, before anything runs.
func TestAnalyzeInputErrors(t *testing.T) {
	job := pipeline.Job{Workload: instrument.Workload{Args: []string{"go", "run", "./examples/distance"}}}
	for _, c := range []struct {
		r    pipeline.Request
		want string
	}{
		{pipeline.Request{Func: l1, Profiles: []string{usage}, Out: "m"}, "-o m names the files --emit writes: give --emit prism, storm, dot or json"},
		{pipeline.Request{Func: l1}, `no usage profile: give --profile FILE (from 'augur profile') or a workload after "--" (go test ... or go run ...)`},
		{pipeline.Request{Func: l1, Profiles: []string{usage}, Time: true}, `--time needs a workload after "--" (or record it with 'augur profile --time')`},
		{pipeline.Request{Func: l1, Job: job, Time: true}, "--time needs a go test workload (it records the CPU profile with go test -cpuprofile); for a program, wrap the run in a test or benchmark"},
		{pipeline.Request{Func: l1, Profiles: []string{usage}, Unseen: "bogus"}, `unknown unseen policy "bogus" (want uniform, first or error)`},
		{pipeline.Request{Func: l1, Profiles: []string{usage}, Method: "bogus"}, `unknown method "bogus" (choose one of [direct gauss-seidel interval prism exact])`},
		{pipeline.Request{Func: l1, Profiles: []string{usage}, Below: "20,x"}, `--below "20,x": want comma-separated numbers such as 20,50`},
		{pipeline.Request{Func: l1, Profiles: []string{usage}, CI: 1}, "--ci 1: want a level between 0 and 1, such as 0.95"},
		{pipeline.Request{Dir: root, Func: "nodot", Profiles: []string{usage}}, `"nodot" names no function: give import/path.Func, import/path.T.Method or import/path.(*T).Method`},
		{pipeline.Request{Dir: root, Func: l1, Profiles: []string{usage}, By: "energy"}, "--by energy: no such reward (the model has cost, time)"},
	} {
		_, err := pipeline.Analyze(c.r)
		wantInput(t, c.want, err, c.want)
	}
}

// Emit writes the baseline's model and names the files on Log, with synthesis warnings.
func TestAnalyzeEmit(t *testing.T) {
	var log strings.Builder
	base := filepath.Join(t.TempDir(), "l1")
	a, err := pipeline.Analyze(pipeline.Request{Dir: root, Func: l1, Profiles: []string{usage}, Emit: "json", Out: base, Log: &log})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(base + ".json"); err != nil || log.String() != "wrote "+base+".json\n" || a.Fn.Name != l1 {
		t.Errorf("%v; log %q", err, log.String())
	}
}

// Rank ranks every function of the packages under a measured profile; it wants exactly one of
// a profile and a workload.
func TestRank(t *testing.T) {
	r, err := pipeline.Rank(pipeline.RankRequest{Dir: root, Patterns: []string{"./examples/router"}, Profile: "../../examples/router/mixA.json", By: "time"})
	if err != nil {
		t.Fatal(err)
	}
	if r.Reward != "time" || r.Profile != "../../examples/router/mixA.json" || r.Funcs == 0 || len(r.Invoked) == 0 {
		t.Errorf("ranked by %s under %s: %d functions, %d invoked", r.Reward, r.Profile, r.Funcs, len(r.Invoked))
	}
	_, err = pipeline.Rank(pipeline.RankRequest{Dir: root, Patterns: []string{"./examples/router"}})
	wantInput(t, "no profile", err, `give a measured --profile of the packages or a workload after "--" (one of them)`)
	_, err = pipeline.Rank(pipeline.RankRequest{Dir: root, Patterns: []string{"./examples/router"}, Profile: "../../examples/router/mixA.json"})
	if err == nil || !strings.HasPrefix(err.Error(), "./examples/router: no function has a reward annotation") {
		t.Errorf("no reward: %v", err)
	}
}

// Validate refuses a rewards file without a measured time, and a time file without the
// function, before it counts or times anything.
func TestValidateRefuses(t *testing.T) {
	job := pipeline.Job{Workload: instrument.Workload{Args: []string{"go", "test", "./examples/router"}}}
	route := "github.com/augur-perf/augur/examples/router.Route"
	_, _, err := pipeline.Validate(pipeline.ValidateRequest{Dir: root, Func: route, Rewards: "../../examples/distance/platform.json", Job: job})
	wantInput(t, "no time", err, "--rewards ../../examples/distance/platform.json holds no measured time (make one with 'augur profile --time')")
	_, _, err = pipeline.Validate(pipeline.ValidateRequest{Dir: root, Func: l1, Rewards: "../../examples/router/mixA.time.json", Job: job})
	if err == nil || !strings.Contains(err.Error(), "it has no time for "+l1) {
		t.Errorf("no time for L1: %v", err)
	}
}

// Profile counts a workload's run and writes the profile; Decisions reads it back; a function
// named but never invoked writes nothing; Time adds the measured time file.
func TestProfile(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs instrumented workloads")
	}
	out := filepath.Join(t.TempDir(), "l1.json")
	job := pipeline.Job{Workload: instrument.Workload{Args: []string{"go", "test", "./examples/distance"}}}
	p, err := pipeline.Profile(pipeline.ProfileRequest{Dir: root, Patterns: []string{"./examples/distance"}, Funcs: []string{l1}, Job: job, Out: out,
		Timed: true, Timing: timing.Options{Precision: 0.9, MaxRuns: 1, HZ: 1000}})
	if err != nil {
		t.Fatal(err)
	}
	if invoked, calls := p.Profile.Invoked(); invoked != 1 || calls != 1002 {
		t.Errorf("%d invoked, %d calls", invoked, calls)
	}
	if read, err := profile.Read(out); err != nil || read.Funcs[l1].Invocations != 1002 {
		t.Errorf("read back: %v", err)
	}
	g, err := pipeline.Decisions(pipeline.DecisionsRequest{Dir: root, Func: l1, Profile: out})
	if err != nil || g.Counts.Invocations != 1002 {
		t.Errorf("decisions: %v", err)
	}
	path, err := p.Time()
	if _, serr := os.Stat(path); err != nil || serr != nil || path != strings.TrimSuffix(out, ".json")+".time.json" {
		t.Errorf("time file %s: %v, %v", path, err, serr)
	}
	abs := "github.com/augur-perf/augur/examples/distance.abs"
	job.Args = append(job.Args, "-run", "XXX")
	_, err = pipeline.Profile(pipeline.ProfileRequest{Dir: root, Patterns: []string{"./examples/distance"}, Funcs: []string{abs}, Job: job, Out: out + ".never"})
	if _, serr := os.Stat(out + ".never"); err == nil || !strings.Contains(err.Error(), "never invoked "+abs) || serr == nil {
		t.Errorf("never invoked: %v, %v", err, serr)
	}
}
