// Package figures keeps the measured figures in README.md and docs/*.md true to the code: each
// block between
//
//	<!-- figures: PACKAGE BENCHMARK-REGEXP [go test flags] -->
//	<!-- /figures -->
//
// holds a table rendered from a real `go test PACKAGE -run ^$ -bench REGEXP` run.
//
//	go test ./internal/figures -run Figures -figures.update
//
// reruns every such benchmark and rewrites the tables; without the flag the test checks that
// every block is well formed and names benchmarks that exist, so a renamed or deleted benchmark
// cannot leave stale figures behind. It owns no augur code and imports none.
package figures
