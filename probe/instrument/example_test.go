package instrument_test

import (
	"fmt"

	"github.com/augur-perf/augur/probe/instrument"
	"github.com/augur-perf/augur/source/frontend"
)

// Measure a usage profile without the CLI: load the package, select a function, run a workload on
// an instrumented copy (the package's files are not touched) and read the counts.
func ExampleMeasure() {
	prog, err := frontend.Load("../..", "github.com/augur-perf/augur/examples/distance")
	if err != nil {
		fmt.Println(err)
		return
	}
	fns, err := prog.Select("github.com/augur-perf/augur/examples/distance.L1")
	if err != nil {
		fmt.Println(err)
		return
	}
	m, err := instrument.Measure(prog, fns, instrument.Workload{
		Args: []string{"go", "test", "./examples/distance", "-run", "Workload"},
		Dir:  "../..",
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	f := m.Profile.Funcs[fns[0].Name]
	check := f.Nodes[0] // the first statement: if len(a) != len(b)
	fmt.Printf("exit status %d, %d process\n", m.ExitCode, m.Processes)
	fmt.Printf("L1 was called %d times; the lengths differed %d times\n", f.Invocations, check.Outcomes[0])
	// Output:
	// exit status 0, 1 process
	// L1 was called 1000 times; the lengths differed 100 times
}
