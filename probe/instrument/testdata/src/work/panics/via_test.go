package panics

import "testing"

// TestVia runs every loop into its panic at iteration K through Via, as TestAll does directly.
func TestVia(t *testing.T) {
	ints := func(n int) []int {
		xs := make([]int, n)
		for i := range xs {
			xs[i] = i
		}
		return xs
	}
	ps := make([]*int, 10)
	qs := make([]*pair, 10)
	for i := range ps {
		if i != K {
			ps[i], qs[i] = new(int), &pair{}
		}
	}
	vs := make([]any, 10)
	for i := range vs {
		vs[i] = i
	}
	cmp := make([]any, 10)
	copy(cmp, vs)
	vs[K], cmp[K] = "x", []int{}
	f := func(i int) int {
		if i == K {
			panic(ErrPanic)
		}
		return i
	}
	cond := ints(10)
	cond[K] = -1
	for _, c := range []struct {
		name string
		xs   []int
		vs   []any
	}{
		{"Index", ints(K), nil}, {"Slice", ints(K), nil}, {"Convert", ints(K + 1), nil}, {"Deref", nil, nil},
		{"Field", nil, nil}, {"NilMap", nil, nil}, {"Assert", nil, vs}, {"Div", nil, nil}, {"Mod", nil, nil},
		{"DivAssign", nil, nil}, {"DivCond", nil, nil}, {"ModSwitch", nil, nil}, {"Shift", nil, nil},
		{"ShiftAssign", nil, nil}, {"Compare", nil, cmp}, {"Send", nil, nil}, {"Call", nil, nil}, {"IndexCond", cond[:K], nil},
	} {
		catch(t, c.name, func() { Via(c.name, c.xs, ps, qs, c.vs, make(chan int, 10), f, K) })
	}
}
