package instrument

import (
	"go/ast"
	"strings"
	"testing"
)

// TestSafeIndexes checks which indexes noteSafeIndexes finds unable to panic: each index of the
// source is on a line that ends with "// safe" or "// may panic".
func TestSafeIndexes(t *testing.T) {
	const src = `package p

var global []int

type key struct {
	a [2]string
	p *int
}

func f(s string, xs, ys, zs []int, m map[int]int, a [4]int) {
	for i := 0; i < len(s); i++ {
		_ = s[i] // safe
	}
	for i := range xs {
		_ = xs[i] // safe
		for j := 2; j < len(ys); j++ {
			_ = ys[j] // safe
			_ = xs[i] // safe
			_ = ys[i] // may panic
		}
	}
	for i, v := range a {
		_ = a[i] + v // safe
	}
	for i := 0; i < len(xs); i++ {
		xs = xs[1:]
		_ = xs[i] // may panic
	}
	for i := 0; i < len(xs); i++ {
		i++
		_ = xs[i] // may panic
	}
	for i := -1; i < len(xs); i++ {
		_ = xs[i] // may panic
	}
	for i := 0; i <= len(xs); i++ {
		_ = xs[i] // may panic
	}
	for i := 0; i < len(global); i++ {
		_ = global[i] // may panic
	}
	for i := 0; i < len(xs); i++ {
		xs := ys
		_ = xs[i] // may panic
	}
	for k := range m {
		_ = m[k] // safe
		m[k] = 1 // may panic
		m[k]++   // may panic
	}
	var mi map[any]int
	_ = mi[1] // may panic
	var ms map[key]int
	_ = ms[key{}] // safe
	var mx map[struct{ e error }]int
	_ = mx[struct{ e error }{}] // may panic
	var i int
	for i = range xs {
		_ = xs[i] // may panic
	}
	g := func(s string) {
		for i := 0; i < len(s); i++ {
			_ = s[i] // safe
		}
		for i := 0; i < len(zs); i++ {
			_ = zs[i] // may panic
		}
	}
	g("")
}

func captured(xs []int) {
	h := func() { xs = nil }
	for i := 0; i < len(xs); i++ {
		h()
		_ = xs[i] // may panic
	}
}

func addressed(xs []int) {
	p := &xs
	for i := 0; i < len(xs); i++ {
		*p = nil
		_ = xs[i] // may panic
	}
}

func search(xs []int, s string, k int) int {
	lo, hi := 0, len(xs)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if xs[m] < k { // safe
			lo = m + 1
		} else {
			hi = m
		}
	}
	i := 0
	j := len(s)
	for i < j {
		h := i + (j-i)/2
		if s[h] == 'x' { // safe
			return h
		}
		if s[h] < 'x' { // safe
			i = h + 1
		} else {
			j = h
		}
	}
	a, b := 0, len(xs)
	for a < b {
		m := int(uint(a+b) >> 1)
		_ = xs[m+1] // may panic
		if xs[m] < k { // may panic
			a = m + 2
		} else {
			b = m
		}
	}
	c, d := 0, len(xs)
	for c < d {
		m := (c + d) / 2
		_ = xs[m] // may panic
		c = m + 1
	}
	return lo
}

func shrunk(xs []int) {
	e, g := 0, len(xs)
	xs = xs[1:]
	for e < g {
		m := int(uint(e+g) >> 1)
		_ = xs[m] // may panic
		g = m
	}
}

type table [256]bool

var small [200]bool

func tables(t table, b byte, u uint16, w [1 << 16]int8, r rune, p *[256]bool, xs []int) {
	_ = t[b] // safe
	_ = t[3] // safe
	_ = w[u] // safe
	_ = w[b] // safe
	_ = small[b] // may panic
	_ = t[u] // may panic
	_ = t[r] // may panic
	_ = p[b] // may panic
	_ = xs[b] // may panic
	_ = xs[0] // may panic
}

func defined(xs []int) {
	for i := 0; i < len(xs); i++ {
		k, i := 1, 2
		_ = k + xs[i] // may panic
	}
}
`
	fset, f, info := checkedFile(t, src)
	noteSafeIndexes(info, []*ast.File{f})
	n := 0
	ast.Inspect(f, func(nd ast.Node) bool {
		x, ok := nd.(*ast.IndexExpr)
		if !ok {
			return true
		}
		if strings.Contains(strings.Split(src, "\n")[fset.Position(x.Pos()).Line-1], "xs = xs[1:]") {
			return true
		}
		may, line := marked(t, src, fset, x.Pos())
		if got := isSafeIndex(x); got == may {
			t.Errorf("%s: %s: safe %v, want %v", fset.Position(x.Pos()), line, got, !may)
		}
		n++
		return true
	})
	if n != 41 {
		t.Errorf("%d indexes checked", n)
	}
}
