package twinedges

import (
	"fmt"
	"testing"
)

var sink int

func TestAll(t *testing.T) {
	for _, s := range []string{`abc"x`, `a\"bc"`, `abc`, `a\bc"d`} {
		a, b, ok := validateString(s)
		sink += len(a) + len(b)
		if ok {
			sink++
		}
	}
	sink += checkNumbers([]string{"1.5", "1.x", "12", "1.", "", "a.b.c", "1.2.3"})
	for _, s := range []string{"   a", "a", "", "  "} {
		lx := &lexer{s: s}
		lx.skip(func(r rune) bool { return r == ' ' })
		sink += lx.pos
	}
	var b []byte
	n := &node{[]attr{{"id", "1"}, {"data-x", "2"}, {"class", "c"}}}
	render(&b, n, nil)
	render(&b, n, map[string]bool{"id": true})
	render(&b, &node{}, nil)
	sink += len(b)
	sink += mustPair(3)
	xs := []int{1, 3, 5, 7, 9, 11}
	for x := range 13 {
		func() {
			defer func() { recover() }()
			i, ok := seek(xs, x, func(a, b int) bool {
				if a == 8 && b == 9 {
					panic("eight")
				}
				return a < b
			})
			sink += i
			if ok {
				sink++
			}
		}()
	}
	for _, s := range []string{"abCd", "aBc", "xyz", "", "ab1C", "1A", "aa7bC"} {
		for n := range 3 {
			func() {
				defer func() { recover() }()
				sink += upperAfter(s, n)
			}()
		}
		func() {
			defer func() { recover() }()
			sink += vowels(s + "oi")
			sink += vowels(s + "!")
		}()
	}
	m := map[int]int{}
	bump(&[]int{2, 2, 3}, m)
	sink += bumpTo(&[]int{2, 3, 2, 0}, m) + len(m)
	for _, c := range []struct {
		data string
		xs   []int
	}{
		{`{"a:"b"c}`, []int{1, 2, 0}},
		{` {"a :"b :"c}x`, []int{5, 6, 7, 0}},
		{`{"a:"b" x`, []int{0}},
		{`{"a:x`, []int{3}}, // gotoSum indexes past the end: a panic in a goto loop
		{`{"a;"`, []int{1, 0}},
		{`{}`, []int{4, 4, 4, 0}},
	} {
		func() {
			defer func() { recover() }()
			sink += gotos([]byte(c.data), c.xs)
		}()
	}
	for k, s := range []string{`ab "cd" 12 é 7`, ``, `"x`, `no quotes 3`, "\t\u00a0 x", `a\nb\u00e9c`, `a\u12`, `a\`, `a\q`, `a\uzzzz`} {
		func() {
			defer func() { recover() }()
			sink += scanAll(s, k%3)
		}()
	}
	list := &pairNode{&pairNode{&pairNode{&pairNode{&pairNode{&pairNode{}}}}}}
	for k, c := range []struct {
		s   string
		kvs []*kv
	}{
		{`a"b"c"`, []*kv{{}, {}, {}}},
		{`a"b"`, []*kv{{}, nil, {}}},
		{`a"b\"`, []*kv{{}, {}}},
		{`x`, []*kv{nil}},
		{`a"`, []*kv{{}, {}}},
	} {
		func() {
			defer func() { recover() }()
			n, _ := keys(c.s, c.kvs)
			sink += n
		}()
		func() {
			defer func() { recover() }()
			sink += len(fmt.Sprint(deep(list, k+1) != nil))
		}()
		func() {
			defer func() { recover() }()
			sink += len(fmt.Sprint(deep(list, 2*k+1) != nil))
		}()
	}
	for k, s := range []string{"abcdefghijklmnopq", "abcdefgh\x80bcdefgh", "", "abcdefghijk", "abcdefghijklmnop"} {
		func() {
			defer func() { recover() }()
			sink += scan8([]byte(s), k%2*3)
		}()
		func() {
			defer func() { recover() }()
			n, _ := words8([]byte(s), k%2*5)
			sink += n
		}()
	}
	d := []byte("abcdef")
	drop(&d, 2)
	if string(d) != "cdef" {
		t.Errorf("drop: %q, want \"cdef\"", d)
	}
}
