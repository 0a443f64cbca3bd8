package param_test

import (
	"fmt"

	"github.com/augur-perf/augur/markov/param"
)

// QueryFile is augur param: the expected coin flips of Knuth and Yao's die as a rational
// function of its branches' probabilities, evaluated where the coin is fair, with how fast it
// changes in one of them.
func ExampleQueryFile() {
	a, err := param.QueryFile("../../examples/die/die.pm", []string{"p=0.5"}, `R{"coin_flips"}=? [ F "done" ]`, "")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%s = %s, ∂/∂%s = %s\n", a.Property, a.Value.RatString(), a.Sensitivities[1].Param, a.Sensitivities[1].Derivative.RatString())
	// Output:
	// R{"coin_flips"}=? [ F "done" ] = 11/3, ∂/∂p1_1 = 8/9
}
