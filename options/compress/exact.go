package compress

import (
	"time"
)

// Minimal returns a smallest covering and whether it is proven smallest. It starts from the
// greedy covering as an upper bound and, for k from LowerBound up, searches for a covering with
// k configurations; the first k that succeeds is optimal, and if every k below the greedy size
// fails the greedy covering is. When the node or time budget runs out first it returns the
// greedy covering with optimal false.
//
// The search keeps k partial configurations. It fixes the largest set's assignments to the
// first configurations (they must all be in different ones, and configurations are
// interchangeable), then repeatedly takes the uncovered assignment with the fewest places to go
// and tries each compatible configuration, fewest newly fixed options first; of the
// configurations still entirely free it tries only one, since they are interchangeable. A branch
// dies when some assignment has nowhere to go or when a set has more uncovered assignments than
// configurations that could still take one of them.
func Minimal(sets [][]int, n int, opts Options) (configs []Config, optimal bool, err error) {
	p, err := newProblem(sets, n, opts)
	if err != nil {
		return nil, false, err
	}
	configs, optimal = p.minimal(opts)
	return configs, optimal, nil
}

func (p *problem) minimal(opts Options) ([]Config, bool) {
	if len(p.sets) == 0 {
		return p.allDefault(), true
	}
	upper := p.greedy(opts)
	lb := p.lowerBound()
	if len(upper) <= lb {
		return upper, true
	}
	budget := opts.NodeBudget
	if budget <= 0 {
		budget = 2_000_000
	}
	tb := opts.TimeBudget
	if tb <= 0 {
		tb = 2 * time.Second
	}
	s := &search{p: p, budget: budget, deadline: time.Now().Add(tb)}
	for k := lb; k < len(upper); k++ {
		found, aborted := s.run(k)
		if aborted {
			return upper, false
		}
		if found != nil {
			return found, true
		}
	}
	return upper, true
}

type search struct {
	p        *problem
	k        int
	cfgs     [][]int
	used     int
	nodes    int
	budget   int
	deadline time.Time
	aborted  bool
	result   []Config
}

// run looks for a covering with exactly k configurations.
func (s *search) run(k int) (found []Config, aborted bool) {
	p := s.p
	s.k = k
	s.cfgs = make([][]int, k)
	for j := range s.cfgs {
		s.cfgs[j] = p.emptyPartial()
	}
	big := 0
	for i := range p.sets {
		if p.size[i] > p.size[big] {
			big = i
		}
	}
	for a := 0; a < p.size[big]; a++ {
		p.apply(s.cfgs[a], big, a)
	}
	s.used = p.size[big]
	s.result = nil
	if s.dfs() {
		return s.result, false
	}
	return nil, s.aborted
}

func (s *search) dfs() bool {
	p := s.p
	s.nodes++
	if s.nodes > s.budget || (s.nodes&1023 == 0 && time.Now().After(s.deadline)) {
		s.aborted = true
		return false
	}
	bestSet, bestA, bestCount := -1, -1, 1<<30
	spare := s.k - s.used
	for i := range p.sets {
		uncovered, takers := 0, spare
		for j := 0; j < s.used; j++ {
			if !p.fixedOn(s.cfgs[j], i) {
				takers++
			}
		}
		for a := 0; a < p.size[i]; a++ {
			count, covered := spare, false
			for j := 0; j < s.used; j++ {
				ok, fixes := p.compatible(s.cfgs[j], i, a)
				if ok {
					if fixes == 0 {
						covered = true
						break
					}
					count++
				}
			}
			if covered {
				continue
			}
			uncovered++
			if count == 0 {
				return false
			}
			if count < bestCount {
				bestSet, bestA, bestCount = i, a, count
			}
		}
		if uncovered > takers {
			return false
		}
	}
	if bestSet < 0 {
		s.result = complete(s.cfgs)
		return true
	}
	// Try configurations that need the fewest new options first: they keep the most room.
	type cand struct{ j, fixes int }
	var cands []cand
	for j := 0; j < s.used; j++ {
		if ok, fixes := p.compatible(s.cfgs[j], bestSet, bestA); ok {
			cands = append(cands, cand{j, fixes})
		}
	}
	for x := 1; x < len(cands); x++ {
		for y := x; y > 0 && cands[y].fixes < cands[y-1].fixes; y-- {
			cands[y], cands[y-1] = cands[y-1], cands[y]
		}
	}
	saved := make([]int, len(p.sets[bestSet]))
	for _, c := range cands {
		pc := s.cfgs[c.j]
		for x, o := range p.sets[bestSet] {
			saved[x] = pc[o]
		}
		p.apply(pc, bestSet, bestA)
		if s.dfs() {
			return true
		}
		for x, o := range p.sets[bestSet] {
			pc[o] = saved[x]
		}
		if s.aborted {
			return false
		}
	}
	if s.used < s.k {
		pc := s.cfgs[s.used]
		p.apply(pc, bestSet, bestA)
		s.used++
		if s.dfs() {
			return true
		}
		s.used--
		for _, o := range p.sets[bestSet] {
			pc[o] = free
		}
	}
	return false
}

// fixedOn reports whether pc fixes every option of set i, so that it already covers one of the
// set's assignments and can take no other.
func (p *problem) fixedOn(pc []int, i int) bool {
	for _, o := range p.sets[i] {
		if pc[o] == free {
			return false
		}
	}
	return true
}
