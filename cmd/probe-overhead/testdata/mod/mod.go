// Package mod is a module with one benchmark for probe-overhead's test.
package mod

// Count is how many bytes of s are c.
func Count(s string, c byte) int {
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			n++
		}
	}
	return n
}
