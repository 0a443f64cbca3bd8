module github.com/augur-perf/augur

go 1.26.8
