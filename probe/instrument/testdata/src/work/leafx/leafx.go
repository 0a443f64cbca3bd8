// Package leafx exports tiny leaves (one return of an expression that cannot panic) that its
// own functions and those of package use call: augur counts those calls at their call sites,
// which call a copy of the leaf without probes, and the leaf counts the calls it sees itself
// (from the tests, through function values, from goroutines).
package leafx

// IsVowel reports whether c is a lower-case vowel.
func IsVowel(c byte) bool { return c == 'a' || c == 'e' || c == 'i' || c == 'o' || c == 'u' }

// IsUpper reports whether c is an upper-case ASCII letter.
func IsUpper(c byte) bool { return c >= 'A' && c <= 'Z' }

// Double is 2x.
func Double(x int) int { return 2 * x }

// isDot is an unexported leaf used as a value, called directly too.
func isDot(c byte) bool { return c == '.' }

// Vowels counts the vowels of s, and upper-case letters that follow a vowel.
func Vowels(s string) (v, u int) {
	for i := 0; i < len(s); i++ {
		if IsVowel(s[i]) {
			v++
			if i+1 < len(s) && IsUpper(s[i+1]) {
				u++
			}
		}
	}
	return v, u
}

// Dots counts the dots of s, through a function value and directly.
func Dots(s string) int {
	f := isDot
	n := 0
	for i := 0; i < len(s); i++ {
		if f(s[i]) && isDot(s[i]) {
			n++
		}
	}
	return n
}

// Clamp limits x to [lo, hi]: a leaf with branches, not a tiny one (it counts itself); called
// from another package's loops, it neither suspends them nor cuts their paths.
func Clamp(x, lo, hi int) int {
	if x < lo {
		return lo
	}
	if x > hi {
		return hi
	}
	return x
}

// Pick is xs[i], or 0 for a negative i: a leaf that may panic (i beyond xs).
func Pick(xs []int, i int) int {
	if i < 0 {
		return 0
	}
	return xs[i]
}

// Span is a range of positions; its tiny methods are leaves too, split like the functions.
type Span struct{ Lo, Hi int }

// Len is a value method: nothing in it may panic.
func (s Span) Len() int { return s.Hi - s.Lo }

// Empty is a pointer method that compares its receiver with nil before it dereferences it.
func (s *Span) Empty() bool { return s == nil || s.Hi <= s.Lo }

// Lener is satisfied by Span: calls through it reach Len itself, which counts them.
type Lener interface{ Len() int }

// mid is unexported, and called directly only, but through an interface too (which no use of
// the method shows): it is split, not derived.
func (s Span) mid() int { return (s.Lo + s.Hi) / 2 }

// Total sums the lengths and middles of the spans that are not empty, calling the methods from
// their own package, and the first's middle through an interface.
func Total(ss []Span) int {
	t := 0
	for i := range ss {
		if !ss[i].Empty() {
			t += ss[i].Len() + ss[i].mid()
		}
	}
	var m interface{ mid() int } = ss[0]
	return t + m.mid()
}
