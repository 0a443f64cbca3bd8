package html_test

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/augur-perf/augur/analyze/calls"
	"github.com/augur-perf/augur/report/html"
)

// A ranking of functions (as augur analyze ./pkg/... composes it) as a page: one bar per
// function, found by its data-function attribute.
func ExampleBuildRanking() {
	r := html.BuildRanking("./rec/...", "rec.json", "cost", []calls.Row{
		{Func: "example.com/rec.Top", Invocations: 2000, Exclusive: 0.5, Inclusive: 17.5},
		{Func: "example.com/rec.Walk", Invocations: 16000, Exclusive: 2, Inclusive: 8},
	}, nil)
	var page bytes.Buffer
	if err := html.Write(&page, r); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(strings.Count(page.String(), `<g class="func" data-function=`), "bars")
	fmt.Println(strings.Contains(page.String(), "http://") || strings.Contains(page.String(), "<script"))
	// Output:
	// 2 bars
	// false
}
