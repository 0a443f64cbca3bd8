// Package c is loaded from source, and reached from a through b, which is not.
package c

// Node is the type a and b must see as one.
type Node struct{ V int }

// New is a Node of v.
func New(v int) *Node { return &Node{v} }
