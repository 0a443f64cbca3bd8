package sim

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/augur-perf/augur/field/plan"
	"github.com/augur-perf/augur/probe/profile"
)

// A Config is one whole study as augur field simulate runs it: the coverage study (Study) over
// every strategy × bound × number of variants, and, when asked for, the memory study (Memory:
// the bounds of an earlier release, MemoryStudy) and the check of the CBI estimator at sampling
// rates (Rates, SamplingStudy).
type Config struct {
	Strategies       []plan.Strategy
	Bounds, Variants []int
	// Sites deployed per repeat (0: all), Repeats per configuration, Seed of everything random.
	Sites, Repeats int
	Seed           uint64
	Memory         []int
	Rates          []float64
}

// Report writes the rows of the coverage study of c on tr as text under a heading that says
// what was replayed, then runs and writes the memory and sampling studies c asks for.
func (c Config) Report(w io.Writer, tr *Traces, rows []Row) error {
	deployed := ""
	if c.Sites > 0 && c.Sites < tr.Sites {
		deployed = fmt.Sprintf(", %d of them deployed per repeat", c.Sites)
	}
	fmt.Fprintf(w, "%d site-runs from %d sites%s, %d units; %d repeats per configuration\n\n%s",
		len(tr.Runs), tr.Sites, deployed, len(tr.Units), c.Repeats, Table(rows))
	for _, v := range c.Variants {
		for _, b := range c.Bounds {
			if err := c.memory(w, tr, v, b); err != nil {
				return err
			}
		}
	}
	if len(c.Rates) > 0 {
		fmt.Fprintf(w, "\n%s", SamplingTable(SamplingStudy(tr.Runs, c.Rates, c.Repeats, c.Seed)))
	}
	return nil
}

// memory writes the memory study of v variants of b probes each, when c asks for it.
func (c Config) memory(w io.Writer, tr *Traces, v, b int) error {
	if len(c.Memory) == 0 {
		return nil
	}
	rows, err := MemoryStudy(tr.Units, tr.Runs, c.Strategies, v, c.Memory, b, c.Repeats, c.Seed)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "\n%s", MemoryTable(rows))
	return err
}

// ParseRates reads a comma-separated list of sampling rates, each in (0, 1].
func ParseRates(s string) ([]float64, error) {
	var rs []float64
	for _, f := range strings.Split(s, ",") {
		r, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		if err != nil || !(r > 0 && r <= 1) {
			return nil, fmt.Errorf("%q is not a rate in (0, 1]", f)
		}
		rs = append(rs, r)
	}
	return rs, nil
}

// OpenTraces reads the traces at path: a directory of profiles (LoadTraces, with the in-house
// counts of inHouse) or a file Write wrote, which carries its own in-house counts.
func OpenTraces(path string, inHouse *profile.Profile) (*Traces, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if st.IsDir() {
		return LoadTraces(path, inHouse)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	tr, err := ReadTraces(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return tr, nil
}

// WriteFile writes the traces to the file at path (Write).
func (t *Traces) WriteFile(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := t.Write(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
