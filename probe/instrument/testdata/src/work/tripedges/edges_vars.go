package tripedges

// keepPtr: &a[0] of the iteration's own array.
func keepPtr(xs []int, k int) int {
	var p0, p1 *int
	for i, a := 0, [2]int{}; i < 2; i++ {
		a[0] = i + k
		if i == 0 {
			p0 = &a[0]
		} else {
			p1 = &a[0]
		}
	}
	return *p0*10 + *p1
}

// keepSub: a[:] of the iteration's own array.
func keepSub(xs []int, k int) int {
	var s0, s1 []int
	for i, a := 0, [2]int{}; i < 2; i++ {
		a[0] = i + k
		if i == 0 {
			s0 = a[:]
		} else {
			s1 = a[:]
		}
	}
	return s0[0]*10 + s1[0]
}

// Go 1.22: each iteration has its own a; slicing it takes its address.
func keepSlice(xs []int, n int) int {
	var out [][]int
	for i, a := 0, [2]int{}; i < n; i++ {
		a[0] = i
		out = append(out, a[:])
	}
	s := 0
	for _, o := range out {
		s = s*10 + o[0]
	}
	return s
}

// Go 1.22: &a[0] addresses the iteration's own a.
func keepAddr(xs []int, n int) int {
	var out []*int
	for i, a := 0, [2]int{}; i < n; i++ {
		a[0] = i
		out = append(out, &a[0])
	}
	s := 0
	for _, o := range out {
		s = s*10 + *o
	}
	return s
}

// The stepped i is shadowed by a type switch's symbolic variable.
func tsw(xs []int, k int) int {
	var vs []any
	for _, x := range xs {
		vs = append(vs, x)
	}
	for i := 0; i < len(vs); i++ {
		switch i := vs[i].(type) {
		case int:
			if i == k {
				return i
			}
		}
	}
	return -1
}

type in struct{ v int }

func (p *in) get() int { return p.v }

type outer struct{ in in }

// keepMeth: the method value st.in.get binds &st.in of the iteration's own st.
func keepMeth(xs []int, k int) int {
	var f0, f1 func() int
	for i, st := 0, (outer{}); i < 2; i++ {
		st.in.v = i + k
		if i == 0 {
			f0 = st.in.get
		} else {
			f1 = st.in.get
		}
	}
	return f0()*10 + f1()
}
