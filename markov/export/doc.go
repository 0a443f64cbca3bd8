// Package export owns augur's human-facing renderings of an explicit DTMC: the PRISM language
// (a model PRISM, and Storm, parse without edits, optionally with every branching probability
// turned into a named constant), PRISM properties files, and Graphviz DOT drawings.
//
// It must not read files and must not compute anything about models: it only prints what a
// dtmc.Model holds, and refuses, with a reason, what a target language cannot say. Machine
// formats meant to be read back (augur's JSON, PRISM's and Storm's explicit files) belong to
// package modelio.
package export
