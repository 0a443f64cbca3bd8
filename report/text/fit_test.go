package text

import (
	"bytes"
	"testing"

	"github.com/augur-perf/augur/fit/board"
)

func TestFitWarnings(t *testing.T) {
	var b bytes.Buffer
	FitWarnings(&b, board.Result{Laws: []board.Law{{Quantity: "loop@x.go:3", Warnings: []string{"w1", "w2"}}, {Quantity: "q"}}})
	want := "augur fit: warning: loop@x.go:3: w1\naugur fit: warning: loop@x.go:3: w2\n"
	if b.String() != want {
		t.Errorf("got %q, want %q", b.String(), want)
	}
}
