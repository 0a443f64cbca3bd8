// Package analyze groups PROPER for Go: from a function's control-flow graph and a usage profile
// to the Markov model whose expected rewards predict its cost. Subpackages: usage (PROPER-style
// given profiles keyed by source position, turned into counts), synth (the DTMC with one state
// per statement and decision, probabilities as exact count ratios, rewards from annotations and
// measurements), predict (scenarios and their predictions), timing (measured time), fitted
// (models at inputs never run), calls, decisions, and pipeline (each command of the group as
// one call, from names and files to results).
//
// It may import the source, probe, markov and fit groups (fitted laws drive the models of
// package fitted); it must not import the options or field groups, and no group it imports may
// import it.
package analyze
