package study_test

import (
	"context"
	"fmt"
	"log"
	"strings"

	"github.com/augur-perf/augur/options/runner"
	"github.com/augur-perf/augur/options/sources"
	"github.com/augur-perf/augur/options/study"
)

// The configuration space of the bundled example: which options matter, and how few
// configurations cover every combination each decision depends on.
func ExampleNewSpace() {
	res, err := study.Analyse(study.Request{Dir: "../..", Patterns: []string{"./examples/options"}, Decls: sources.Decls{Fixed: []string{"unit"}}})
	if err != nil {
		log.Fatal(err)
	}
	sp, err := study.NewSpace(res)
	if err != nil {
		log.Fatal(err)
	}
	cr, err := sp.Compress("auto")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("options %s, irrelevant %s\n", strings.Join(res.Options.Names(), " "), strings.Join(res.Irrelevant, " "))
	fmt.Printf("%d configurations instead of %s; the first sets %v\n", len(cr.Configs), sp.BruteForce(), sp.Settings(cr.Configs[1]))
	// Output:
	// options A B C D E F G H I J, irrelevant J
	// 8 configurations instead of 1024; the first sets [-A=true -B=true -C=true -D=true -E=true -F=true -G=true -H=true -I=true]
}

// Predicting a configuration's time from a measured model, term by term.
func ExampleModelFile_Predict() {
	mf, err := study.ReadModel("testdata/model.json")
	if err != nil {
		log.Fatal(err)
	}
	p, err := mf.Predict(map[string]bool{"A": true, "C": true})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("T(%v) = %.2f s\n", p.On, p.Seconds)
	for _, t := range p.Terms {
		fmt.Printf("  %v %.2f\n", t.Options, t.Coef)
	}
	// Output:
	// T([A C]) = 7.00 s
	//   [] 1.00
	//   [A] 2.00
	//   [A C] 4.00
}

// MeasureProgram is augur options measure in one call: the example's eight compressed
// configurations are run once each with region timing, and the model of the ten options is
// built (its coefficients are measured times, which vary from run to run).
func ExampleMeasureProgram() {
	r := study.MeasureRequest{
		Request: study.Request{Dir: "../..", Patterns: []string{"./examples/options"}, Fixed: []string{"unit"}},
		Program: study.Program{Run: "./examples/options / -unit=1ms"},
		Runner:  runner.Options{Reps: 1},
	}
	m, err := study.MeasureProgram(context.Background(), r)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d runs of %d configurations; options %v\n", m.Runs.Measured, len(m.Model.Configs), m.Model.Options)
	// Output:
	// 8 runs of 8 configurations; options [A B C D E F G H I J]
}

// Compressed is augur options configs: the example's options analysed and its 1024
// configurations compressed to the few that cover every combination each decision depends on.
func ExampleCompressed() {
	c, err := study.Compressed(study.Request{Dir: "../..", Patterns: []string{"./examples/options"}, Fixed: []string{"unit"}}, "")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d configurations (%s, lower bound %d) of %s\n", len(c.Configs), c.Method, c.LowerBound, c.Space.BruteForce())
	// Output:
	// 8 configurations (exact, lower bound 8) of 1024
}
