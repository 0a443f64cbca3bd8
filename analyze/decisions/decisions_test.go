package decisions_test

import (
	"strings"
	"testing"

	"github.com/augur-perf/augur/analyze/decisions"
	"github.com/augur-perf/augur/analyze/predict"
	"github.com/augur-perf/augur/probe/profile"
	"github.com/augur-perf/augur/source/frontend"
)

func TestL1(t *testing.T) {
	_, fn, err := frontend.LoadFunc("../..", "github.com/augur-perf/augur/examples/distance.L1")
	if err != nil {
		t.Fatal(err)
	}
	p, err := predict.ReadProfile("../../examples/distance/usage.json", fn)
	if err != nil {
		t.Fatal(err)
	}
	counts := p.Funcs[fn.Name]
	ds, err := decisions.List(fn, counts)
	if err != nil {
		t.Fatal(err)
	}
	// usage.json: 1000 calls, 100 with unequal lengths, 9000 iterations of the loop.
	type want struct {
		line       int
		reached    uint64
		yes, no    uint64
		pYes, pNo  float64
		firstWords string
	}
	wants := []want{
		{15, 1000, 100, 900, 0.1, 0.9, "if len(a)"},
		{19, 9900, 9000, 900, 9000.0 / 9900, 900.0 / 9900, "for i := 0"},
	}
	if len(ds) != len(wants) {
		t.Fatalf("%d decisions, want %d: %+v", len(ds), len(wants), ds)
	}
	for i, w := range wants {
		d := ds[i]
		if d.Pos.Line != w.line || !d.Counted || d.Count != w.reached || !strings.HasPrefix(d.Text, w.firstWords) {
			t.Errorf("decision %d = %+v, want line %d reached %d (%q)", i, d, w.line, w.reached, w.firstWords)
		}
		if len(d.Outcomes) != 2 || d.Outcomes[0].Name != "true" || d.Outcomes[0].Count != w.yes || d.Outcomes[1].Count != w.no {
			t.Errorf("decision %d outcomes %+v, want true %d, false %d", i, d.Outcomes, w.yes, w.no)
			continue
		}
		if p, ok := d.Probability(d.Outcomes[0]); !ok || p != w.pYes {
			t.Errorf("decision %d: P(true) = %v, %v; want %v", i, p, ok, w.pYes)
		}
		if p, _ := d.Probability(d.Outcomes[1]); p != w.pNo {
			t.Errorf("decision %d: P(false) = %v; want %v", i, p, w.pNo)
		}
	}

	var dot strings.Builder
	if err := decisions.WriteDOT(&dot, fn, counts); err != nil {
		t.Fatal(err)
	}
	g := dot.String()
	for _, s := range []string{
		`shape=diamond, label="15: if len(a) != len(b)\n×1000"`,
		`[label="true\n100 (0.1)"]`,
		`[label="false\n900 (0.9)"]`,
		`n5 -> n4 [style=dashed];`, // the loop's back edge
		`shape=doublecircle, label="end\n×1000"`,
	} {
		if !strings.Contains(g, s) {
			t.Errorf("DOT lacks %s:\n%s", s, g)
		}
	}
	if n := strings.Count(g, "shape="); n != len(fn.CFG.Nodes)-1 { // the panic exit is unreachable
		t.Errorf("DOT has %d nodes, want %d:\n%s", n, len(fn.CFG.Nodes)-1, g)
	}

	// Counts of another graph are refused, not misread.
	short := &profile.Func{Nodes: counts.Nodes[:3]}
	if _, err := decisions.List(fn, short); err == nil || !strings.Contains(err.Error(), "other source") {
		t.Errorf("List with 3 nodes of counts: %v", err)
	}

	// Without counts, no shares are invented.
	plain, _ := decisions.List(fn, nil)
	if plain[0].Counted {
		t.Error("decisions without a profile claim counts")
	}
	if _, ok := plain[0].Probability(plain[0].Outcomes[0]); ok {
		t.Error("a probability without counts")
	}
	var text strings.Builder
	if err := decisions.WriteText(&text, plain, ""); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(text.String(), "%") || !strings.Contains(text.String(), "true         -> node 1") {
		t.Errorf("text without counts:\n%s", text.String())
	}
}

// Counts: none without a profile, fn's with one, an error when the profile lacks fn.
func TestCounts(t *testing.T) {
	_, fn, err := frontend.LoadFunc("../..", "github.com/augur-perf/augur/examples/distance.L1")
	if err != nil {
		t.Fatal(err)
	}
	if c, err := decisions.Counts(fn, nil); c != nil || err != nil {
		t.Errorf("no profile: %v, %v", c, err)
	}
	want := &profile.Func{Invocations: 1}
	if c, err := decisions.Counts(fn, &profile.Profile{Funcs: map[string]*profile.Func{fn.Name: want}}); c != want || err != nil {
		t.Errorf("with counts: %v, %v", c, err)
	}
	_, err = decisions.Counts(fn, &profile.Profile{Funcs: map[string]*profile.Func{}})
	if err == nil || err.Error() != "the profile has no counts for "+fn.Name {
		t.Errorf("without fn: %v", err)
	}
}
