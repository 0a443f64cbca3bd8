package checker_test

import (
	"fmt"

	"github.com/augur-perf/augur/markov/checker"
	"github.com/augur-perf/augur/markov/dtmc"
	"github.com/augur-perf/augur/markov/pctl"
)

// A retry loop: each attempt costs 2 ms and succeeds with probability 1/4. The expected cost is
// 2·4 = 8 ms, which the exact method gives as a fraction; success within 8 attempts has
// probability 1-0.75⁸ ≈ 0.8999, within 9 about 0.925.
func ExampleCheck() {
	b := dtmc.NewBuilder(2)
	b.Add(0, 1, 0.25) // success
	b.Add(0, 0, 0.75) // retry
	b.Add(1, 1, 1)
	b.SetInit(0)
	b.Label("end", 1)
	b.AddStateReward("ms", 0, 2)
	m, err := b.Build()
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, src := range []string{`P=? [ F "end" ]`, `R{"ms"}=? [ F "end" ]`, `P>=0.9 [ F<=8 "end" ]`, `P>=0.9 [ F<=9 "end" ]`} {
		f, err := pctl.Parse(src)
		if err != nil {
			fmt.Println(err)
			return
		}
		res, err := checker.Check(m, f, checker.Options{Method: checker.Exact})
		if err != nil {
			fmt.Println(err)
			return
		}
		if res.Bool {
			fmt.Printf("%s: %v\n", src, res.Holds)
		} else {
			fmt.Printf("%s = %s\n", src, res.InitialExact.RatString())
		}
	}
	// Output:
	// P=? [ F "end" ] = 1
	// R{"ms"}=? [ F "end" ] = 8
	// P>=0.9 [ F<=8 "end" ]: false
	// P>=0.9 [ F<=9 "end" ]: true
}
