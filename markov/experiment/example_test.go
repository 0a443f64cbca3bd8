package experiment_test

import (
	"fmt"

	"github.com/augur-perf/augur/markov/experiment"
)

// Do is augur check: every property at every point of an experiment, here the chance that
// Knuth and Yao's die shows six as its coin's bias p goes from 0.3 to 0.5, exactly.
func ExampleDo() {
	c, err := experiment.Do(experiment.Request{
		Model:  "../../examples/die/die.pm",
		Props:  []string{`P=? [ F s=7 & d=6 ]`},
		Consts: []string{"p=0.3:0.1:0.5"},
		Method: "exact",
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range c.Runs {
		fmt.Printf("%s: %s\n", experiment.DescribeConsts(r.Consts), r.Result.InitialExact.RatString())
	}
	// Output:
	// p=0.3: 343/790
	// p=0.4: 27/95
	// p=0.5: 1/6
}
