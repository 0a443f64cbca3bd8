// Package markov groups augur's probabilistic model checking: dtmc (explicit sparse DTMCs with
// labels and reward structures), pctl (PRISM's property language for DTMCs), checker (the
// embedded model checker: exact, direct, iterative and interval methods), modelio (reading and
// writing machine formats: augur JSON, PRISM and Storm explicit files) and export (the PRISM
// language, properties files, DOT).
//
// The group knows nothing of Go source: it must not import the source, probe, analyze or
// options groups. Anything that speaks DTMCs can use it alone.
package markov
