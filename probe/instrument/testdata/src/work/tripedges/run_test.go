package tripedges

import (
	"fmt"
	"regexp"
	"runtime/debug"
	"testing"
)

var line = regexp.MustCompile(`edges_\w+\.go:\d+`)

// TestEdges prints every case's result, or its panic and the line it panicked on.
func TestEdges(t *testing.T) {
	for w := range Cases {
		for _, k := range []int{-1, 0, 2, 3, 200} {
			func() {
				defer func() {
					if r := recover(); r != nil {
						fmt.Printf("w=%d k=%d panic %v at %s\n", w, k, r, line.FindString(string(debug.Stack())))
					}
				}()
				fmt.Printf("w=%d k=%d -> %d\n", w, k, Run(w, []int{5, 3, 9, 2}, k))
			}()
		}
	}
}
