package compress

import "sort"

// PivotMerge is ConfigCrusher's compression (Algorithm 1 of Velez et al., AUSE 2020). Sets
// contained in another set are dropped first, since covering the larger set covers them. The
// remaining sets are taken largest first (most assignments, then most options). Each set's
// assignments are enumerated and each is merged into the first configuration built so far that
// agrees with it on the pivot options (the options of the set that configuration already
// fixes); an assignment that no configuration can take starts a new partial configuration.
// Options still free at the end take their default. It is a greedy, order-dependent merge, not
// a minimum: on {A,B}, {A,C}, {B,C} it yields 6 configurations where 4 suffice.
//
// Sources and interpretation. The published pseudo-code was not retrievable here; this follows
// the paper's description (sort sets by size, descending; enumerate each set's 2^|S| partial
// configurations; merge each into a compatible configuration from earlier sets) and the
// authors' implementation (github.com/miguelvelezmj25/ConfigCrusher,
// tool/compression/simple/SimpleCompression.java and BaseCompression.filterOptions), where the
// pivot options are the intersection of the options merged so far with the next set and two
// configurations merge when they agree on the pivot. Where they differ or are silent: options
// a configuration has not fixed stay free for later sets instead of being read as false (the
// Java code represents configurations as sets of enabled options, so unmentioned means off);
// the sets are sorted rather than taken in hash order; an assignment some configuration already
// agrees with on the whole set counts as covered instead of being merged elsewhere; and ties
// among compatible configurations go to the oldest.
func PivotMerge(sets [][]int, n int, opts Options) ([]Config, error) {
	p, err := newProblem(sets, n, opts)
	if err != nil {
		return nil, err
	}
	if len(p.sets) == 0 {
		return p.allDefault(), nil
	}
	order := p.maximalSets()
	sort.SliceStable(order, func(x, y int) bool {
		a, b := order[x], order[y]
		if p.size[a] != p.size[b] {
			return p.size[a] > p.size[b]
		}
		return len(p.sets[a]) > len(p.sets[b])
	})
	var partials [][]int
	for _, i := range order {
	next:
		for a := 0; a < p.size[i]; a++ {
			pivot := -1
			for k, pc := range partials {
				ok, fixes := p.compatible(pc, i, a)
				if !ok {
					continue
				}
				if fixes == 0 {
					continue next
				}
				if pivot < 0 {
					pivot = k
				}
			}
			if pivot < 0 {
				pc := p.emptyPartial()
				partials = append(partials, pc)
				pivot = len(partials) - 1
			}
			p.apply(partials[pivot], i, a)
		}
	}
	return complete(partials), nil
}

// maximalSets lists the sets not contained in another set (sets are already distinct).
func (p *problem) maximalSets() []int {
	var out []int
	for i, s := range p.sets {
		contained := false
		for j, t := range p.sets {
			if i != j && len(t) > len(s) && subset(s, t) {
				contained = true
				break
			}
		}
		if !contained {
			out = append(out, i)
		}
	}
	return out
}

// subset reports whether sorted s is contained in sorted t.
func subset(s, t []int) bool {
	j := 0
	for _, x := range s {
		for j < len(t) && t[j] < x {
			j++
		}
		if j == len(t) || t[j] != x {
			return false
		}
	}
	return true
}
