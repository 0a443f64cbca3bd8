package sim

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/augur-perf/augur/field/plan"
)

// The traces file survives WriteFile and OpenTraces; Report writes the heading, the coverage
// table and the studies asked for, and only those.
func TestReportAndTracesFile(t *testing.T) {
	tr := studyTraces(t)
	path := filepath.Join(t.TempDir(), "traces.json.gz")
	if err := tr.WriteFile(path); err != nil {
		t.Fatal(err)
	}
	back, err := OpenTraces(path, nil)
	if err != nil || len(back.Runs) != len(tr.Runs) || back.Sites != tr.Sites || len(back.Units) != len(tr.Units) {
		t.Fatalf("round trip: %v", err)
	}
	if _, err := OpenTraces(filepath.Join(t.TempDir(), "none"), nil); err == nil {
		t.Error("a missing path opened")
	}
	c := Config{Strategies: []plan.Strategy{plan.Random}, Bounds: []int{141}, Variants: []int{6}, Sites: 3, Repeats: 1, Seed: 1}
	rows, err := Study(tr.Units, tr.Runs, c.Strategies, c.Bounds, c.Variants, c.Sites, c.Repeats, c.Seed)
	if err != nil {
		t.Fatal(err)
	}
	var plain, more bytes.Buffer
	if err := c.Report(&plain, tr, rows); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(plain.String(), "60 site-runs from 30 sites, 3 of them deployed per repeat, 2817 units; 1 repeats per configuration\n\n") ||
		!strings.HasSuffix(plain.String(), Table(rows)) {
		t.Errorf("report:\n%s", plain.String())
	}
	c.Memory, c.Rates = []int{50}, []float64{0.5}
	if err := c.Report(&more, tr, rows); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(more.String(), plain.String()) || !strings.Contains(more.String(), SamplingTable(SamplingStudy(tr.Runs, c.Rates, 1, 1))) {
		t.Errorf("with the memory and sampling studies:\n%s", more.String())
	}
}

func TestParseRates(t *testing.T) {
	if rs, err := ParseRates("0.1, 1"); err != nil || len(rs) != 2 || rs[0] != 0.1 || rs[1] != 1 {
		t.Errorf("0.1, 1: %v %v", rs, err)
	}
	for _, s := range []string{"0", "1.5", "x", "", "NaN"} {
		if _, err := ParseRates(s); err == nil {
			t.Errorf("%q accepted", s)
		}
	}
}
