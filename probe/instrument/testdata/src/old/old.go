// Package old declares go 1.16: the probes in its files must not call generic functions (no
// leaves counted at their call sites, no twins), though the runtime augur adds may.
package old

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// Digits counts the digits of s through a tiny leaf and a function of the package.
func Digits(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		if isDigit(s[i]) {
			n = add(n)
		}
	}
	return n
}

func add(n int) int {
	if n < 0 {
		return 0
	}
	return n + 1
}
