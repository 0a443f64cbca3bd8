package annot

import (
	"sort"
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
