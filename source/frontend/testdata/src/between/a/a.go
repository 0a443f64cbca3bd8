// Package a uses c's Node through b.
package a

import (
	"example.com/between/b"
	"example.com/between/c"
)

// Twice is the Node of 2v.
func Twice(v int) *c.Node {
	var n *c.Node = b.Wrap(v)
	n.V *= 2
	return n
}
