package profile

import (
	"path/filepath"
	"testing"
)

// TestMergeRecoveredConcurrent: recovered panics add up, a function is concurrent if it was in
// either profile, and both survive a write and read.
func TestMergeRecoveredConcurrent(t *testing.T) {
	mk := func(conc bool) *Profile {
		return &Profile{Format: Format, Runs: 1, Funcs: map[string]*Func{
			"p.F": {Hash: "ab", Invocations: 2, Concurrent: conc, Nodes: []Node{{Count: 2, Panics: 2, Recovered: 1}, {Count: 0}}},
		}}
	}
	p := mk(false)
	if err := p.Merge(mk(true)); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "p.json")
	if err := p.Write(path); err != nil {
		t.Fatal(err)
	}
	q, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if f := q.Funcs["p.F"]; !f.Concurrent || f.Nodes[0].Recovered != 2 || f.Nodes[0].Panics != 4 {
		t.Errorf("merged %+v", f)
	}
}
