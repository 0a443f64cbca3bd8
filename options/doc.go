// Package options groups ConfigCrusher for Go: white-box performance-influence models of a
// configurable program. Subpackages, in the order data flows through them: sources (where
// options are loaded), taint (which options influence which decisions), regions (code regions
// from dominators and post-dominators), compress (a small set of configurations covering every
// region's option combinations), timing (region-level self time, injected through an overlay),
// runner (building and running the program once per configuration), influence (local and
// global models) and baselines (black-box models and their error); study strings them together
// as the API `augur options` calls.
//
// It may import the source group; it must not import the analyze, probe or markov groups, and
// it never modifies the user's files.
package options
