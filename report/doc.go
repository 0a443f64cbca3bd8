// Package report groups what augur shows people rather than programs: report/html turns the
// results of an analysis (a function's predictions, scenarios, error bars, distributions, or a
// ranking of whole packages) into one self-contained HTML file; report/text prints the same
// results as the command line does (text reports and --json shapes).
//
// It may import every library group (source, probe, analyze, markov, options, field, fit) to read
// their results; it must not import cmd, and no library group may import it: reports consume
// analyses, they never feed them.
package report
