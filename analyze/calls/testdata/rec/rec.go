// Package rec is a call tree for the composition test: Top calls Walk twice and Leaf once; Walk
// recurses with probability 3/4 whatever its depth (a memoryless recursion, so its inclusive cost
// per call has the closed form 2/(1-3/4) = 8); Spin is called through an interface.
package rec

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

func (wheel) Spin() int { return 3 }

// Top costs 0.5 itself.
func Top() int {
	s := spinner(wheel{})
	t := Walk() + Walk() // @cost=0.5
	return t + Leaf() + s.Spin()
}
