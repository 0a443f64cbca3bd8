// Package use calls package leafx's exported leaves: in loops, behind && and ||, in a node that
// panics after the call, in a function that calls others of its package (it has a twin), through
// a function value, from goroutines and through a dot import (dot.go).
package use

import (
	"sync"

	lx "example.com/work/leafx"
)

// Score adds one per vowel and two per upper-case letter of s.
func Score(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		switch {
		case lx.IsVowel(s[i]):
			n++
		case lx.IsUpper(s[i]) || lx.IsVowel(s[i]|0x20):
			n += 2
		}
	}
	return n
}

// Fill sets ys[i] to twice xs[i] for i < n: with n beyond len(ys) it panics in the node that
// made the call, after the call.
func Fill(xs, ys []int, n int) {
	for i := 0; i < n; i++ {
		ys[i] = lx.Double(xs[i])
	}
}

// Words counts the words of s (runs of letters) and scores each: it calls Score, of its own
// package, so it has a twin, which calls the leaves too.
func Words(s string) (words, score int) {
	start := -1
	for i := 0; i <= len(s); i++ {
		letter := i < len(s) && (lx.IsUpper(s[i]) || s[i] >= 'a' && s[i] <= 'z')
		switch {
		case letter && start < 0:
			start = i
		case !letter && start >= 0:
			words++
			score += Score(s[start:i])
			start = -1
		}
	}
	return words, score
}

// Valued calls IsUpper through a function value (the leaf counts those calls itself).
func Valued(s string) int {
	f := lx.IsUpper
	n := 0
	for i := 0; i < len(s); i++ {
		if f(s[i]) {
			n++
		}
	}
	return n
}

// Parallel runs Score and Words on s from g goroutines.
func Parallel(s string, g int) {
	var wg sync.WaitGroup
	for range g {
		wg.Add(1)
		go func() {
			defer wg.Done()
			Score(s)
			Words(s)
		}()
	}
	wg.Wait()
}

// Clamped sums Clamp of s's bytes and Pick of xs at them less 'a': a loop calling another
// package's leaves, one of which panics when a byte is beyond xs; Bytes calls it, and Score,
// from its twin.
func Clamped(xs []int, s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		n += lx.Clamp(int(s[i]), 'a', 'z')
		n += lx.Pick(xs, int(s[i])-'a')
	}
	return n
}

// Bytes scores s, then sums its clamped bytes.
func Bytes(xs []int, s string) int {
	return Score(s) + Clamped(xs, s)
}

// Spans sums the lengths of the spans that are not empty, and of the first through an interface,
// calling leafx's tiny methods from another package: the copies for the static calls.
func Spans(ss []lx.Span) int {
	n := 0
	for _, s := range ss {
		if !s.Empty() {
			n += s.Len()
		}
	}
	var l lx.Lener = ss[0]
	return n + l.Len()
}
