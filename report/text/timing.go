package text

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/augur-perf/augur/analyze/timing"
)

// Validation prints a time prediction set against a measurement as `augur validate` does; the
// prediction came from the time file rewards under the usage profile usage.
func Validation(w io.Writer, v *timing.Validation, rewards, usage string) {
	fmt.Fprintf(w, "Function:  %s\n", v.Function)
	fmt.Fprintf(w, "Workload:  %s\n", strings.Join(v.Workload, " "))
	fmt.Fprintf(w, "Time:      CPU ns per call, with its callees and the call itself (not wall time; goroutines add up)\n\n")
	fmt.Fprintf(w, "predicted  %s ± %s ns  (95%%: %s – %s)  from %s, %s\n", Num(v.Predicted.NS), Num2(v.Predicted.StdErr),
		Num(v.Predicted.CI95[0]), Num(v.Predicted.CI95[1]), filepath.Base(rewards), "usage "+usage)
	fmt.Fprintf(w, "measured   %s ± %s ns  (95%%: %s – %s)  %s\n", Num(v.Measured.NS), Num2(v.Measured.StdErr),
		Num(v.Measured.CI95[0]), Num(v.Measured.CI95[1]), v.Measured.From)
	verdict := "outside"
	if v.Within() {
		verdict = "within"
	}
	fmt.Fprintf(w, "error      %+.1f%% (%s the 95%% interval of the difference)\n", 100*v.RelErr, verdict)
}
