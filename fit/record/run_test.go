package record

import (
	"errors"
	"path/filepath"
	"testing"

	"github.com/augur-perf/augur/probe/instrument"
)

// Run is augur fit record in one call: a workload that is not a go command and a function that
// is not there are usage errors; testdata/work.Work is recorded 48 times.
func TestRun(t *testing.T) {
	out := filepath.Join(t.TempDir(), "t.jsonl")
	var ie *InputError
	_, err := Run(Request{Dir: "testdata", Func: "example.com/work.Work", Workload: instrument.Workload{Args: []string{"make"}}, Out: out})
	if !errors.As(err, &ie) || !ie.UsageError() {
		t.Errorf("make: %v", err)
	}
	w := instrument.Workload{Args: []string{"go", "test", "./work"}}
	if _, err := Run(Request{Dir: "testdata", Func: "example.com/work.Nope", Workload: w, Out: out}); !errors.As(err, &ie) {
		t.Errorf("no such function: %v", err)
	}
	if testing.Short() {
		t.Skip("builds and runs a workload")
	}
	r, err := Run(Request{Dir: "testdata", Func: "example.com/work.Work", Workload: w, Out: out})
	if err != nil {
		t.Fatal(err)
	}
	if r.Invocations != 48 || r.Fn.Name != "example.com/work.Work" || len(r.Plan.Header.Quantities) != 4 {
		t.Errorf("%d invocations of %s, header %+v", r.Invocations, r.Fn.Name, r.Plan.Header)
	}
}
