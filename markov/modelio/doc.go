// Package modelio owns augur's machine formats for explicit DTMCs: augur's own JSON model form
// (format "augur-dtmc/1", described in docs/model-json.md), PRISM's explicit files (.tra, .lab,
// .srew, .trew as written by `prism -exportmodel`) and Storm's explicit files (.tra, .lab,
// .state.rew, .trans.rew as read by `storm --explicit`). It reads them into a dtmc.Model and
// writes a dtmc.Model back out.
//
// It must not compute anything about models: no probabilities, no graph analysis, no repair of
// rows. Whatever a file says is handed to dtmc.Builder, and dtmc's validation is the single
// judge of whether the result is a DTMC; modelio only adds where in which file a problem is.
// Human-facing exports (the PRISM language, Graphviz) belong to package export.
//
// # Errors
//
// Every reader error is an *Error naming the file and, where the problem sits at one place in
// the text, its 1-based line and column (the column of the offending field, counted in bytes).
// Problems found only once the whole model is assembled (a row not summing to 1, a state without
// outgoing transitions) come from dtmc's validation, prefixed with the file name. Readers never
// panic on any input; this is fuzzed.
//
// # Initial states
//
// PRISM's and Storm's explicit formats give a set of initial states (the "init" label), not a
// distribution. A model read from them starts uniformly in that set: k initial states get 1/k
// each. Writing those formats therefore fails for a model whose initial distribution is not
// uniform over its support; the JSON form carries any distribution.
//
// # What each format keeps
//
// The JSON form keeps every field of dtmc.Model. The explicit formats keep what they can say:
// PRISM keeps transitions, actions (as the fourth .tra column), labels, rewards and, with
// PRISMWriteOptions.Rationals, exact probabilities (as "p/q", which PRISM reads with -exact);
// Storm keeps transitions, labels and rewards. Neither keeps source lines or parameter names.
// Zero reward entries are not written (both formats list non-zero rewards), and readers drop
// zero entries too, so a reward vector that is all zero reads back as absent. Both readers give
// the canonical form the writers write, so read → write → read is the identity.
//
// Its size (about 3.6k lines) is two formats (PRISM's and Storm's explicit files, plus augur's
// JSON) times reading and writing of four kinds of file, and a second, parallel reader for files in
// the form PRISM writes beside the general one with its file:line:col errors (the fast path falls
// back to it, and a fuzz target holds them equal); they share the line scanner and the raw model,
// so they stay one package, a file per format and direction.
package modelio
