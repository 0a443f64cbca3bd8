package text_test

import (
	"fmt"
	"strings"

	"github.com/augur-perf/augur/options/influence"
	"github.com/augur-perf/augur/options/study"
	"github.com/augur-perf/augur/report/text"
)

// A prediction from a model whose regions ran on several goroutines names both of its numbers:
// wall time (T = 0.1 + 0.2·conc) and CPU time summed over goroutines (0.1 + 0.35·conc), here
// with conc on: 0.3 s of wall time, 0.45 s of CPU time.
func ExampleOptionsPrediction() {
	mf := &study.ModelFile{Options: []string{"conc"}, Time: "wall", Goroutines: 2,
		Model: influence.NewModel([]influence.Term{{Coef: 0.1}, {Options: []string{"conc"}, Coef: 0.2}}),
		Summed: &study.SummedModel{Time: "CPU time summed over goroutines",
			Model: influence.NewModel([]influence.Term{{Coef: 0.1}, {Options: []string{"conc"}, Coef: 0.35}})}}
	p, err := mf.Predict(map[string]bool{"conc": true})
	if err != nil {
		panic(err)
	}
	var b strings.Builder
	if err := text.OptionsPrediction(&b, p); err != nil {
		panic(err)
	}
	for _, line := range strings.Split(strings.TrimSpace(b.String()), "\n") {
		fmt.Println(strings.TrimRight(line, " "))
	}
	// Output:
	// T({conc}) = 0.30 s
	//   1     0.10
	//   conc  0.20
	// T above is wall time; CPU time summed over goroutines: 0.45 s
}
