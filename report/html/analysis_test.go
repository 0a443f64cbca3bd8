package html

import (
	"os"
	"testing"

	"github.com/augur-perf/augur/analyze/predict"
)

// AnalysisOf: the heat map of the baseline's default reward unless one is named, the
// uncertainty's error bars and spreads when there is one, names relative to the working directory.
func TestAnalysisOf(t *testing.T) {
	outs := []*predict.Outcome{{Rewards: []string{"cost", "time"}}}
	wd, _ := os.Getwd()
	a := AnalysisOf(nil, outs, "", nil)
	if a.By != "time" || a.Intervals != nil || a.Spreads != nil || a.Root != wd {
		t.Errorf("default: %+v", a)
	}
	u := &predict.Uncertainty{Intervals: []predict.Interval{{}}, Spreads: []predict.Spread{{}, {}}}
	if a := AnalysisOf(nil, outs, "cost", u); a.By != "cost" || len(a.Intervals) != 1 || len(a.Spreads) != 2 {
		t.Errorf("by cost, with uncertainty: %+v", a)
	}
}
