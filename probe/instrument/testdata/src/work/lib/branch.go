// Package lib is the instrumentation test corpus: every construct the CFG knows.
package lib

import (
	"errors"
	"fmt"
	"strings"
)

// Classify uses if / else-if chains with init statements.
func Classify(x int) string {
	if x < 0 {
		return "neg"
	} else if y := x % 10; y == 0 {
		return "tens"
	} else if x < 5 {
		return "small"
	}
	s := "big"
	if x > 100 {
		s = "huge"
	}
	return s
}

// Div may panic with a division by zero (an implicit panic).
func Div(a, b int) int {
	q := a / b
	return q
}

// Lookup may panic with an index out of range inside the return.
func Lookup(xs []int, i int) int {
	return xs[i] * 2
}

// Parse returns an error value through several paths.
func Parse(s string) (int, error) {
	if s == "" {
		return 0, errors.New("empty")
	}
	n := 0
	for _, r := range s {
		if r < '0' || r > '9' {
			return 0, fmt.Errorf("bad digit %q", r)
		}
		n = n*10 + int(r-'0')
	}
	return n, nil
}

// Switch has fallthrough and a default clause written first.
func Switch(x int) int {
	r := 0
	switch x {
	default:
		r = -1
	case 1:
		r = 1
		fallthrough
	case 2:
		r += 2
	case 3, 4:
		r = 34
	}
	switch {
	case x > 10:
		r *= 2
	case x > 5:
	}
	return r
}

// Kind uses a type switch.
func Kind(v any) string {
	switch t := v.(type) {
	case int:
		return "int"
	case string:
		return "string:" + t
	case nil:
		return "nil"
	}
	return "other"
}

// Upper calls a method that may panic on a nil pointer.
func Upper(p *string) string {
	return strings.ToUpper(*p)
}

// Grade has a switch with an init statement.
func Grade(n int) string {
	switch m := n / 10; m {
	case 10, 9:
		return "A"
	case 8:
		return "B"
	}
	return "C"
}
