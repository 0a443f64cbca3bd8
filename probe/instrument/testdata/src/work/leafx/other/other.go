// Package other has an unexported split leaf of the same name as package leafx's, isDot: package
// use dot-imports both, so the leaves' copies must not both be exported.
package other

// isDot reports whether c is a dot or a comma.
func isDot(c byte) bool { return c == '.' || c == ',' }

// Periods counts the dots and commas of s, through a function value and directly.
func Periods(s string) int {
	f := isDot
	n := 0
	for i := 0; i < len(s); i++ {
		if isDot(s[i]) || f(s[i]) {
			n++
		}
	}
	return n
}
