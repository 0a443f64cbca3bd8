// Package rec is a call tree for the composition test: Top calls Walk twice and Leaf once; Walk
// recurses with probability 3/4 whatever its depth (a memoryless recursion, so its inclusive cost
// per call has the closed form 2/(1-3/4) = 8); Spin is called through an interface with two
// implementations; Sorted, Spawn and adder hold function literals (a sort comparison, deferred
// and go'ed literals, a closure returned and called later), and tally is a method, called directly and as a method value.
package rec

import (
	"sort"
	"sync"
)

var state uint64 = 88172645463325252

// coin is true with probability 3/4 (xorshift).
func coin() bool {
	state ^= state << 13
	state ^= state >> 7
	state ^= state << 17
	return state%4 != 0
}

// Walk costs 2 and recurses with probability 3/4.
func Walk() int {
	n := 1 // @cost=2
	if coin() {
		n += Walk()
	}
	return n
}

// Leaf costs 1.
func Leaf() int {
	return 1 // @cost=1
}

type spinner interface{ Spin() int }

type wheel struct{}

func (wheel) Spin() int {
	return 3 // @cost=3
}

type gear struct{ teeth int }

func (g *gear) Spin() int {
	return g.teeth // @cost=5
}

type counter struct{ n int }

func (c *counter) tally(k int) {
	c.n += k // @cost=0.25
}

// Sorted sorts with a comparison closure costing 1 per comparison.
func Sorted(xs []int) []int {
	sort.Slice(xs, func(i, j int) bool {
		return xs[i] < xs[j] // @cost=1
	})
	return xs
}

// Spawn runs k goroutines of cost 2 each and defers a literal of cost 4.
func Spawn(k int) (total int) {
	var mu sync.Mutex
	var wg sync.WaitGroup
	defer func() {
		total++ // @cost=4
	}()
	for i := 0; i < k; i++ {
		wg.Add(1)
		go func() {
			mu.Lock() // @cost=2
			total++
			mu.Unlock()
			wg.Done() // after the counts: a deferred Done could let the process end first
		}()
	}
	wg.Wait()
	return total
}

// adder returns a closure of cost 1.5 per call.
func adder(d int) func(int) int {
	return func(x int) int {
		return x + d // @cost=1.5
	}
}

var turn int

// Top costs 0.5 itself.
func Top() int {
	var s spinner = wheel{}
	if turn++; turn%3 == 0 {
		s = &gear{teeth: 7}
	}
	c := &counter{}
	c.tally(1)
	tally := c.tally // a method value, called below
	add := adder(2)
	t := Walk() + Walk() // @cost=0.5
	t = add(t) + Spawn(turn%4) + Sorted([]int{turn % 5, 3, 1, turn % 7})[0]
	tally(2)
	return t + Leaf() + s.Spin()
}
