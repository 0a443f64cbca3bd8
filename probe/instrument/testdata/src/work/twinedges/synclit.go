package twinedges

import (
	"sort"
	"strings"
)

// Function literals that a twin runs only while it runs, on its goroutine, count into its block
// (see syncLits in package instrument): passed to sort.Search and strings.IndexFunc, and called
// where they stand.

// seek finds x in the sorted xs through less, as btree's find does (the literal commits before
// it calls less, and where it returns); it panics where less or the index does.
func seek(xs []int, x int, less func(a, b int) bool) (int, bool) {
	i := sort.Search(len(xs), func(i int) bool {
		return less(x, xs[i])
	})
	if i > 0 && !less(xs[i-1], x) {
		return atMost(i-1, len(xs)), true
	}
	return atMost(i, len(xs)), false
}

func atMost(i, n int) int {
	if i > n {
		return n
	}
	return i
}

// upperAfter is the index of the first upper-case letter of s after n lower-case ones, or -1; the
// literal, with a loop of its own, divides by zero at a digit when n is 0.
func upperAfter(s string, n int) int {
	seen := 0
	i := strings.IndexFunc(s, func(r rune) bool {
		for k := 0; k < 2; k++ {
			if r >= '0' && r <= '9' {
				seen += 10 / n
			}
		}
		if r >= 'a' && r <= 'z' {
			seen++
		}
		return r >= 'A' && r <= 'Z' && seen >= n
	})
	return atMost(i, len(s))
}

// vowels counts the vowels of s in a literal called where it stands, which panics (an index) when
// s holds a '!'.
func vowels(s string) int {
	n := func() int {
		t := 0
		for i := range len(s) {
			switch s[i] {
			case 'a', 'e', 'i', 'o', 'u':
				t++
			case '!':
				t += int(s[len(s)])
			}
		}
		return t
	}()
	return atMost(n, len(s))
}
