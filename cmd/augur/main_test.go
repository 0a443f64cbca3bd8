package main

import (
	"os"
	"testing"

	"github.com/augur-perf/augur/probe/instrument"
)

// TestMain lets the test binary stand in for augur where augur runs itself (go test -exec, when
// it times a workload): the commands under test run in this process, and os.Executable is it.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == instrument.ExecCommand {
		os.Exit(instrument.RunExec(os.Args[2:]))
	}
	os.Exit(m.Run())
}
