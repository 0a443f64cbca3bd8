package plan

import (
	"slices"
	"testing"
)

// A manifest's packages come from its units' function names, methods and closures included.
func TestPackages(t *testing.T) {
	m := &Manifest{Units: []Unit{{Func: "example.com/a/b.F"}, {Func: "example.com/a/b.(*T).M"}, {Func: "example.com/c.G.func1"}, {Func: "nodot"}}}
	if got, want := m.Packages(), []string{"example.com/a/b", "example.com/c"}; !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}
