package record_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/augur-perf/augur/fit/record"
	"github.com/augur-perf/augur/probe/instrument"
)

// Run is augur fit record: testdata/work.Work rewritten to write a trace line per invocation,
// its package's tests run on the rewritten copy (the user's files untouched).
func ExampleRun() {
	dir, err := os.MkdirTemp("", "augur-example-")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	r, err := record.Run(record.Request{Dir: "testdata", Func: "example.com/work.Work",
		Workload: instrument.Workload{Args: []string{"go", "test", "./work"}}, Out: filepath.Join(dir, "work.trace.jsonl")})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d invocations of %s\nparameters %s\nquantities %s\n", r.Invocations, r.Fn.Name,
		strings.Join(r.Plan.Header.Params, ", "), strings.Join(r.Plan.Header.Quantities, ", "))
	// Output:
	// 48 invocations of example.com/work.Work
	// parameters len(xs), n, len(name)
	// quantities loop@work.go:8, loop@work.go:11, loop@work.go:12, loop@work.go:16
}
