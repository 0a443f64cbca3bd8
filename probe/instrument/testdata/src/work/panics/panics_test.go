package panics

import "testing"

// K is the iteration at which every loop panics.
const K = 4

func catch(t *testing.T, name string, f func()) {
	defer func() {
		if recover() == nil {
			t.Errorf("%s did not panic", name)
		}
	}()
	f()
}

// TestAll runs every loop into its panic at iteration K.
func TestAll(t *testing.T) {
	ints := func(n int) []int {
		xs := make([]int, n)
		for i := range xs {
			xs[i] = i
		}
		return xs
	}
	catch(t, "Index", func() { Index(ints(K), K) })
	catch(t, "Slice", func() { Slice(ints(K), K) })
	catch(t, "Convert", func() { Convert(ints(K+1), K) })
	ps := make([]*int, 10)
	qs := make([]*pair, 10)
	for i := range ps {
		if i != K {
			ps[i], qs[i] = new(int), &pair{}
		}
	}
	catch(t, "Deref", func() { Deref(ps, K) })
	catch(t, "Field", func() { Field(qs, K) })
	catch(t, "Addr", func() { Addr(qs, K) })
	catch(t, "NilMap", func() { NilMap(K) })
	vs := make([]any, 10)
	for i := range vs {
		vs[i] = i
	}
	vs[K] = "x"
	catch(t, "Assert", func() { Assert(vs, K) })
	catch(t, "Div", func() { Div(K) })
	catch(t, "Mod", func() { Mod(K) })
	catch(t, "DivAssign", func() { DivAssign(K) })
	catch(t, "DivCond", func() { DivCond(K) })
	catch(t, "ModSwitch", func() { ModSwitch(K) })
	catch(t, "Shift", func() { Shift(K) })
	catch(t, "ShiftAssign", func() { ShiftAssign(K) })
	vs[K] = []int{}
	catch(t, "Compare", func() { Compare(vs, K) })
	catch(t, "Send", func() { Send(make(chan int, 10), K) })
	catch(t, "Call", func() {
		Call(func(i int) int {
			if i == K {
				panic(ErrPanic)
			}
			return i
		}, K)
	})
	xs := ints(10)
	xs[K] = -1
	xs = xs[:K]
	catch(t, "IndexCond", func() { IndexCond(xs, K) })
}
