// Package probe groups what augur injects into a user's program to measure it, and the formats
// of what it measures. Subpackages: instrument (rewrites a copy of the selected packages through
// `go build -overlay` so that every statement's and decision's execution is counted, with a
// standard-library-only runtime injected beside them) and profile (usage profiles, measured
// "augur-profile/1" and stated "augur-usage/1", and CPU time per source line).
//
// It may import the source group (what to count); it must not import the analyze, markov or
// options groups, and it never modifies the user's files.
package probe
