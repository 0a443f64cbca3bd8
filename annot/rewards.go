package annot

import (
	"sort"
	"strconv"

	"github.com/augur-perf/augur/frontend"
	"github.com/augur-perf/augur/profile"
)

// Rewards maps a reward structure's name to its value at each CFG node, indexed by node ID (one
// entry per node of the CFG it was made for; nodes without an annotation hold 0).
type Rewards map[string][]float64

// Names returns the structure names in sorted order, the order synthesis declares them in.
func (r Rewards) Names() []string {
	names := make([]string, 0, len(r))
	for n := range r {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// set records value v of structure name at node id of a CFG with n nodes.
func (r Rewards) set(name string, n, id int, v float64) {
	vs := r[name]
	if vs == nil {
		vs = make([]float64, n)
		r[name] = vs
	}
	vs[id] = v
}

// FromCPU makes a measured reward from sampled CPU time (file:line → nanoseconds, as
// profile.CPUByLine gives it): each node of g gets the time sampled at its line divided by how
// often the nodes of that line ran, so that the line's nodes together account for exactly the
// time sampled there. Nodes on lines without samples get 0.
func FromCPU(g *frontend.CFG, f *profile.Func, cpu map[string]int64) []float64 {
	runs := map[string]uint64{}
	key := func(nd *frontend.Node) string { return nd.Pos.Filename + ":" + strconv.Itoa(nd.Pos.Line) }
	for id, nd := range g.Nodes {
		if !nd.IsExit() {
			runs[key(nd)] += f.Nodes[id].Count
		}
	}
	out := make([]float64, len(g.Nodes))
	for id, nd := range g.Nodes {
		if k := key(nd); !nd.IsExit() && runs[k] > 0 {
			out[id] = float64(cpu[k]) / float64(runs[k])
		}
	}
	return out
}
