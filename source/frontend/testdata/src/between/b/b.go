// Package b sits between a and c.
package b

import "example.com/between/c"

// Wrap is c's Node of v.
func Wrap(v int) *c.Node { return c.New(v) }
