package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/augur-perf/augur/probe/profile"
)

func TestProfileDistance(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the example's tests")
	}
	out := filepath.Join(t.TempDir(), "d.json")
	code, _, errs := runCLI(t, "profile", "./examples/distance", "-o", out, "--", "go", "test", "./examples/distance", "-run", "Workload")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	p, err := profile.Read(out)
	if err != nil {
		t.Fatal(err)
	}
	f := p.Funcs[l1]
	if f == nil || f.Invocations != 1000 {
		t.Fatalf("L1 profile %+v", f)
	}
	// Merging a second run doubles every count.
	if code, _, errs = runCLI(t, "profile", "./examples/distance", "-o", out, "--merge", "--", "go", "test", "./examples/distance", "-run", "Workload"); code != 0 {
		t.Fatalf("--merge: exit %d: %s", code, errs)
	}
	q, err := profile.Read(out)
	if err != nil {
		t.Fatal(err)
	}
	if g := q.Funcs[l1]; q.Runs != 2 || g.Invocations != 2000 || g.Nodes[0].Count != 2*f.Nodes[0].Count {
		t.Errorf("merged profile: runs %d, invocations %d", q.Runs, g.Invocations)
	}
	// The workload calls L1 from one goroutine; analyze says nothing of concurrency until the
	// profile says L1 ran on several goroutines at once.
	if f.Concurrent {
		t.Errorf("L1 seen running on several goroutines at once")
	}
	code, text, errs := runCLI(t, "analyze", l1, "--profile", out)
	if code != 0 || strings.Contains(text, "several goroutines") {
		t.Errorf("exit %d: %s%s", code, text, errs)
	}
	q.Funcs[l1].Concurrent = true
	if err := q.Write(out); err != nil {
		t.Fatal(err)
	}
	code, text, errs = runCLI(t, "analyze", l1, "--profile", out)
	if code != 0 || !strings.Contains(text, "ran on several goroutines at once") || !strings.Contains(text, "wall\n          time is not additive") {
		t.Errorf("exit %d: %s%s", code, text, errs)
	}
}

// The README's first command: profile and analyse in one go.
func TestAnalyzeWorkload(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the example's tests")
	}
	code, out, errs := runCLI(t, "analyze", l1, "--", "go", "test", "./examples/distance", "-run", "Workload")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"(1000 invocations)", `R{"cost"}=? [ F "end" ]  0.7`, "d += abs(a[i] - b[i])"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestProfileRefuses(t *testing.T) {
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"profile", "./examples/distance", "--", "make", "test"}, "must be a go command"},
		{[]string{"profile", "./examples/distance", "--", "go", "build", "./examples/distance"}, "must be go test or go run"},
		{[]string{"profile", "./examples/distance", "--", "go", "test", "-cover", "./examples/distance"}, "ignores overlays"},
		{[]string{"profile", "./examples/distance", "--", "go", "test", "-vet=all", "./examples/distance"}, "must not turn vet on"},
		{[]string{"profile", "./examples/distance", "--", "go", "test", "-tags", "noasm", "./examples/distance"}, "GOFLAGS=-tags"},
		{[]string{"profile", "./examples/distance"}, "expected PKGS... -- WORKLOAD"},
		{[]string{"profile", "./examples/distance", "--time", "--", "go", "run", "./examples/options"}, "--time needs a go test workload"},
	}
	for _, c := range cases {
		code, _, errs := runCLI(t, c.args...)
		if code == 0 || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want an error containing %q", c.args, code, errs, c.want)
		}
	}
}
