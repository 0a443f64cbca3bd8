package sim

import (
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strings"

	"github.com/augur-perf/augur/field/plan"
	"github.com/augur-perf/augur/probe/profile"
)

// Traces are the full traces of a study: its units and every site-run's count of each.
type Traces struct {
	Units []plan.Unit
	Runs  []Run
	Sites int
}

// TracesFormat names the file a study's traces are kept in (Write): gzip-compressed JSON of the
// units and the runs' counts — a fraction of the size of the profiles they come from, so that a
// study's traces can be committed and replayed without the program that made them.
const TracesFormat = "augur-field-traces/1"

type tracesFile struct {
	Format string      `json:"format"`
	Units  []plan.Unit `json:"units"`
	Runs   []Run       `json:"runs"`
}

// Write writes the traces in TracesFormat.
func (t *Traces) Write(w io.Writer) error {
	z, _ := gzip.NewWriterLevel(w, gzip.BestCompression)
	if err := json.NewEncoder(z).Encode(tracesFile{Format: TracesFormat, Units: t.Units, Runs: t.Runs}); err != nil {
		return err
	}
	return z.Close()
}

// ReadTraces reads traces Write wrote, checking that every run counts every unit and that the
// units are numbered 1.. in order (as LoadTraces numbers them).
func ReadTraces(r io.Reader) (*Traces, error) {
	z, err := gzip.NewReader(r)
	if err != nil {
		return nil, fmt.Errorf("traces: %v", err)
	}
	dec := json.NewDecoder(io.LimitReader(z, 1<<30))
	dec.DisallowUnknownFields()
	var f tracesFile
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("traces: %v", err)
	}
	if f.Format != TracesFormat {
		return nil, fmt.Errorf("traces: format %q, want %q", f.Format, TracesFormat)
	}
	if len(f.Units) == 0 || len(f.Runs) == 0 {
		return nil, fmt.Errorf("traces: %d units and %d runs, want at least one of each", len(f.Units), len(f.Runs))
	}
	for i, u := range f.Units {
		if u.ID != i+1 {
			return nil, fmt.Errorf("traces: unit %d has id %d, want %d", i+1, u.ID, i+1)
		}
	}
	sites := map[int]bool{}
	for i, r := range f.Runs {
		if len(r.Counts) != len(f.Units) {
			return nil, fmt.Errorf("traces: run %d has %d counts for %d units", i+1, len(r.Counts), len(f.Units))
		}
		if r.Site < 0 || r.Seq < 0 {
			return nil, fmt.Errorf("traces: run %d: site %d, seq %d", i+1, r.Site, r.Seq)
		}
		sites[r.Site] = true
	}
	return &Traces{Units: f.Units, Runs: f.Runs, Sites: len(sites)}, nil
}

// LoadTraces reads a directory of augur-profile/1 files, one per site-run, named SITE.RUN.json
// (a site's runs in name order), into units — every node of every function the traces count,
// in name and node order, with its in-house count from inHouse when given — and runs.
func LoadTraces(dir string, inHouse *profile.Profile) (*Traces, error) {
	files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	sort.Strings(files)
	if len(files) == 0 {
		return nil, fmt.Errorf("%s holds no .json profiles", dir)
	}
	var profs []*profile.Profile
	names := map[string]int{} // function → its node count
	for _, f := range files {
		p, err := profile.Read(f)
		if err != nil {
			return nil, err
		}
		profs = append(profs, p)
		for name, fn := range p.Funcs {
			if n, ok := names[name]; ok && n != len(fn.Nodes) {
				return nil, fmt.Errorf("%s: %s has %d nodes, another trace %d: traces of one build are needed", f, name, len(fn.Nodes), n)
			}
			names[name] = len(fn.Nodes)
		}
	}
	var fnames []string
	for n := range names {
		fnames = append(fnames, n)
	}
	sort.Strings(fnames)
	t := &Traces{}
	offset := map[string]int{}
	for _, n := range fnames {
		offset[n] = len(t.Units)
		for k := 0; k < names[n]; k++ {
			u := plan.Unit{ID: len(t.Units) + 1, Pos: fmt.Sprintf("%s#%d", n, k), Func: n, Node: k}
			if inHouse != nil {
				if f := inHouse.Funcs[n]; f != nil && k < len(f.Nodes) {
					u.InHouse = f.Nodes[k].Count
				}
			}
			t.Units = append(t.Units, u)
		}
	}
	sites := map[string]int{}
	runsOf := map[int]int{}
	for i, p := range profs {
		site, _, _ := strings.Cut(filepath.Base(files[i]), ".")
		if _, ok := sites[site]; !ok {
			sites[site] = len(sites)
		}
		counts := make([]uint64, len(t.Units))
		for name, fn := range p.Funcs {
			for k, nd := range fn.Nodes {
				counts[offset[name]+k] = nd.Count
			}
		}
		s := sites[site]
		t.Runs = append(t.Runs, Run{Site: s, Seq: runsOf[s], Counts: counts})
		runsOf[s]++
	}
	t.Sites = len(sites)
	return t, nil
}
