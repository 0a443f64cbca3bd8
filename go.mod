module github.com/augur-perf/augur

go 1.26.8

require (
	github.com/chromedp/cdproto v0.159.0
	github.com/chromedp/chromedp v0.23.0
	golang.org/x/tools v0.52.0
	gonum.org/v1/gonum v0.17.0
)

require github.com/go-json-experiment/json v0.0.0-20260213210345-44df1a37e875 // indirect

require (
	github.com/google/pprof v0.0.0-20250403155104-27863c87afa6
	github.com/pierrec/lz4/v4 v4.1.33
	golang.org/x/mod v0.42.0 // indirect
	golang.org/x/sync v0.24.0 // indirect
)
