package text_test

import (
	"fmt"
	"strings"

	"github.com/augur-perf/augur/markov/checker"
	"github.com/augur-perf/augur/markov/experiment"
	"github.com/augur-perf/augur/report/text"
)

// A model check from the library, printed as `augur check` prints it (but for the time each
// check took, which the Method line ends with).
func ExampleCheck() {
	c, err := experiment.Do(experiment.Request{
		Model:   "../../examples/die/die.json",
		Props:   []string{`P=? [ F "six" ]`, `R{"flips"}=? [ F "done" ]`},
		Options: checker.Options{Method: checker.Exact},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	var b strings.Builder
	text.Check(&b, c, false)
	for _, line := range strings.Split(b.String(), "\n") {
		if !strings.HasPrefix(line, "Method:") {
			fmt.Println(line)
		}
	}
	// Output:
	// Model: ../../examples/die/die.json (13 states, 20 transitions, 1 initial)
	//
	// Property: P=? [ F "six" ]
	// Result: 0.16666666666666666 (exact: 1/6)
	//
	// Property: R{"flips"}=? [ F "done" ]
	// Result: 3.6666666666666665 (exact: 11/3)
}
