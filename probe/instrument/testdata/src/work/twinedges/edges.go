// Package twinedges holds the shapes of real code (fastjson, go-toml, BurntSushi/toml,
// goldmark) whose twins' paths were numbered in one way and counted in another, each failing flow
// conservation: a cut inside a condition after an init statement followed by a constant commit,
// a derived leaf's call that runs only when a condition holds in a register loop, a loop at the
// top of a function that a continue re-enters, and a range at the top of a function whose
// expression calls; a call f(g()) of twins, which did not build; and, without twins, a break
// out of a switch that ends a loop's body and a guard that evaluated a copy again.
package twinedges

import "strings"

func parseRawString(s string) (string, string) {
	n := strings.IndexByte(s, '"')
	if n < 0 {
		return s, ""
	}
	return s[:n], s[n+1:]
}

// validateString cuts inside its if's condition (a call after the init statement): the paths
// after it are counted at constants, the whole path numbers.
func validateString(s string) (string, string, bool) {
	if n := strings.IndexByte(s, '"'); n >= 0 && strings.IndexByte(s[:n], '\\') < 0 {
		return s[:n], s[n+1:], true
	}
	rs, tail := parseRawString(s)
	return rs, tail, false
}

func isDigit(r rune) bool { return r >= '0' && r <= '9' }

// numPeriodsOK calls isDigit only when period holds: the outcome's value is known only as it
// runs, and what is pending before it must be added there.
func numPeriodsOK(s string) bool {
	period := false
	for _, r := range s {
		if period && !isDigit(r) {
			return false
		}
		period = r == '.'
	}
	return !period
}

// checkNumbers calls numPeriodsOK from a twin, so that it has one.
func checkNumbers(ss []string) int {
	n := 0
	for _, s := range ss {
		if numPeriodsOK(s) {
			n++
		}
	}
	return n
}

type lexer struct {
	s   string
	pos int
}

func (lx *lexer) next() rune {
	if lx.pos >= len(lx.s) {
		return 0
	}
	r := rune(lx.s[lx.pos])
	lx.pos++
	return r
}

func (lx *lexer) backup() { lx.pos-- }

// skip is a loop at the top of the function: the function's start and the continue both reach
// it.
func (lx *lexer) skip(pred func(rune) bool) {
	for {
		r := lx.next()
		if pred(r) {
			continue
		}
		lx.backup()
		return
	}
}

type attr struct{ name, value string }

type node struct{ attrs []attr }

func (n *node) Attributes() []attr { return n.attrs }

func write(b *[]byte, s string) { *b = append(*b, s...) }

// render is a range at the top of the function whose expression calls: the path from the
// function's start ends before it.
func render(b *[]byte, n *node, filter map[string]bool) {
	for _, a := range n.Attributes() {
		if filter != nil && !filter[a.name] {
			if a.name[0] != 'd' {
				continue
			}
		}
		write(b, " ")
		write(b, a.name)
	}
}

func pair(n int) (int, error) { return n, nil }

func must(v int, err error) int {
	if err != nil {
		panic(err)
	}
	return v
}

// mustPair passes pair's two results to must: f(g()) leaves no room for a block argument, so
// the call goes through must's entry.
func mustPair(n int) int { return must(pair(n)) }

// bump counts in m the positions of *p holding 2: the break leaves the switch that ends the
// loop's body and reaches the post statement through the end of the body, not straight as a
// continue does (its count came twice, in functions without twins).
func bump(p *[]int, m map[int]int) {
	for i := 0; i < len(*p); i++ {
		switch (*p)[i] {
		case 2:
			if m != nil {
				m[i]++
				break
			}
		}
	}
}

// bumpTo is bump up to the first 0 of *p, whose condition may panic: its guard runs again after
// the body, and after the break through it.
func bumpTo(p *[]int, m map[int]int) (j int) {
	for (*p)[j] != 0 {
		switch j++; (*p)[j-1] {
		case 2:
			if m != nil {
				m[j]++
				break
			}
		}
	}
	return j
}

// drop removes the first n bytes of *b in place: the slice's guard may not evaluate the copy
// again (it did, and the bytes moved twice).
func drop(b *[]byte, n int) {
	*b = (*b)[:copy(*b, (*b)[n:])]
}
