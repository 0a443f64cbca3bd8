package generics

import "testing"

var sink int

func TestAll(t *testing.T) {
	tr := newTree[int, string]()
	for i, k := range []int{5, 3, 8, 1, 4, 7, 9, 3, 5, 2, 6} {
		tr.put(k, string(rune('a'+i)))
	}
	for k := range 12 {
		if v, ok := tr.get(k); ok {
			sink += len(v)
		}
	}
	var keys []int
	tr.walk(func(k int, _ string) bool {
		keys = append(keys, k)
		return k < 7
	})
	if len(keys) != 7 || tr.n != 9 {
		t.Errorf("keys %v, n %d", keys, tr.n)
	}
	st := newTree[string, int]()
	for i, w := range []string{"m", "c", "x", "a", "c"} {
		st.put(w, i)
	}
	put := st.put // a method value of a generic type: through the entry
	put("z", 9)
	sink += st.n
	sink += sizes([]word{"ab", "cde", ""})
	sink += maxOf([]int{3, 9, 2})
	m, _ := maxOfAll([][]float64{{1, 2}, {7, 0.5}, {3}})
	sink += int(m)
	func() {
		defer func() {
			if recover() == nil {
				t.Error("maxOfAll of an empty slice did not panic")
			}
		}()
		maxOfAll([][]int{{1}, {}})
	}()
	p := swap(makePair[int, string](1, "x"))
	sink += len(p.a) + p.b
	q := swap(makePair[any, int](nil, 2))
	sink += q.a
	for n := range 10 {
		sink += blank[string](n)
	}
}
