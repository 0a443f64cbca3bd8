package sim

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/augur-perf/augur/field/plan"
	"github.com/augur-perf/augur/probe/profile"
)

// Traces are full traces of deployed runs, ready to replay: one unit per node of every
// function they count (in name and node order), one Run per file.
type Traces struct {
	Units []plan.Unit
	Runs  []Run
	// Sites is the number of distinct sites (a file SITE.RUN.json is a run of site SITE).
	Sites int
}

// ReadTraces reads augur-profile/1 files, one per site-run, named SITE.RUN.json. Each unit's
// in-house frequency is its node's count in inhouse (nil: none), for Grouped RB. Every trace
// must be of one build: a function with another number of nodes is an error.
func ReadTraces(files []string, inhouse *profile.Profile) (*Traces, error) {
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
			u := plan.Unit{ID: len(t.Units) + 1, Pos: fmt.Sprintf("%s#%d", n, k)}
			if inhouse != nil {
				if f := inhouse.Funcs[n]; f != nil && k < len(f.Nodes) {
					u.InHouse = f.Nodes[k].Count
				}
			}
			t.Units = append(t.Units, u)
		}
	}
	sites := map[string]int{}
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
		t.Runs = append(t.Runs, Run{Site: sites[site], Counts: counts})
	}
	t.Sites = len(sites)
	return t, nil
}
