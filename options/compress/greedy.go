package compress

import (
	"math/rand/v2"
	"sort"
)

// Greedy builds a covering one configuration at a time, in the manner of AETG (Cohen et al.,
// 1997): each step builds several candidate configurations and keeps the one that covers the
// most still-uncovered (set, assignment) pairs. A candidate visits the sets with the most
// uncovered assignments first, because each configuration covers only one assignment per set
// and those sets therefore bound the final size; in each it takes an uncovered assignment that
// is compatible with what the candidate already fixed and fixes the fewest new options, leaving
// room for the sets after it. Configurations made redundant by later ones are dropped at the
// end. The result is always a valid covering; compare its size with LowerBound.
func Greedy(sets [][]int, n int, opts Options) ([]Config, error) {
	p, err := newProblem(sets, n, opts)
	if err != nil {
		return nil, err
	}
	return p.greedy(opts), nil
}

func (p *problem) greedy(opts Options) []Config {
	if len(p.sets) == 0 {
		return p.allDefault()
	}
	cands := opts.Candidates
	if cands <= 0 {
		cands = 24
	}
	rng := rand.New(rand.NewPCG(opts.Seed, 0x9e3779b97f4a7c15))
	covered := make([][]bool, len(p.sets))
	remaining := make([]int, len(p.sets))
	left := 0
	for i := range p.sets {
		covered[i] = make([]bool, p.size[i])
		remaining[i] = p.size[i]
		left += p.size[i]
	}
	order := make([]int, len(p.sets))
	var chosen []Config
	for left > 0 {
		var best Config
		bestGain := -1
		for c := 0; c < cands; c++ {
			order = order[:0]
			for i := range p.sets {
				if remaining[i] > 0 {
					order = append(order, i)
				}
			}
			// The first candidate is deterministic in set order; later ones shuffle ties.
			if c > 0 {
				rng.Shuffle(len(order), func(x, y int) { order[x], order[y] = order[y], order[x] })
			}
			sort.SliceStable(order, func(x, y int) bool { return remaining[order[x]] > remaining[order[y]] })
			pc := p.emptyPartial()
			for _, i := range order {
				pick, pickFixes, ties := -1, 0, 0
				for a := 0; a < p.size[i]; a++ {
					if covered[i][a] {
						continue
					}
					ok, fixes := p.compatible(pc, i, a)
					if !ok {
						continue
					}
					switch {
					case pick < 0 || fixes < pickFixes:
						pick, pickFixes, ties = a, fixes, 1
					case fixes == pickFixes && c > 0:
						ties++
						if rng.IntN(ties) == 0 {
							pick = a
						}
					}
				}
				if pick >= 0 {
					p.apply(pc, i, pick)
				}
			}
			cfg := complete([][]int{pc})[0]
			gain := 0
			for i := range p.sets {
				if !covered[i][p.index(i, cfg)] {
					gain++
				}
			}
			if gain > bestGain {
				best, bestGain = cfg, gain
			}
		}
		for i := range p.sets {
			a := p.index(i, best)
			if !covered[i][a] {
				covered[i][a] = true
				remaining[i]--
				left--
			}
		}
		chosen = append(chosen, best)
	}
	return p.dropRedundant(chosen)
}

// dropRedundant removes configurations whose every assignment is covered by another one,
// latest first, since early configurations tend to cover the most.
func (p *problem) dropRedundant(cfgs []Config) []Config {
	count := make([][]int, len(p.sets))
	for i := range p.sets {
		count[i] = make([]int, p.size[i])
		for _, c := range cfgs {
			count[i][p.index(i, c)]++
		}
	}
	keep := make([]bool, len(cfgs))
	for k := len(cfgs) - 1; k >= 0; k-- {
		redundant := true
		for i := range p.sets {
			if count[i][p.index(i, cfgs[k])] < 2 {
				redundant = false
				break
			}
		}
		if redundant {
			for i := range p.sets {
				count[i][p.index(i, cfgs[k])]--
			}
		} else {
			keep[k] = true
		}
	}
	var out []Config
	for k, c := range cfgs {
		if keep[k] {
			out = append(out, c)
		}
	}
	return out
}
