// Code generated for augur's tests. DO NOT EDIT.

// Package lined is generated code whose //line directive names its source, grammar.y: its
// positions are the grammar's, its text this file's.
package lined

//line grammar.y:5
func F(x int) int {
	if x > 0 {
		return 1
	}
	return 0
}
