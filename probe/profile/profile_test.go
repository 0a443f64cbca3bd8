package profile

import (
	"encoding/json"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func sample() *Profile {
	return &Profile{Format: Format, Runs: 1, Funcs: map[string]*Func{
		"p.F": {Pos: "f.go:3:1", Hash: "ab", Invocations: 2, Nodes: []Node{
			{Count: 2, Outcomes: []uint64{1, 1}}, {Count: 1}, {Count: 1, Panics: 1}, {Count: 1},
		}},
	}}
}

func TestWriteReadMerge(t *testing.T) {
	path := filepath.Join(t.TempDir(), "p.json")
	p := sample()
	if err := p.Write(path); err != nil {
		t.Fatal(err)
	}
	q, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(p, q) {
		t.Fatalf("read back %+v, wrote %+v", q, p)
	}
	if err := q.Merge(sample()); err != nil {
		t.Fatal(err)
	}
	f := q.Funcs["p.F"]
	if q.Runs != 2 || f.Invocations != 4 || f.Nodes[0].Outcomes[1] != 2 || f.Nodes[2].Panics != 2 {
		t.Errorf("merge did not add: %+v %+v", q, f.Nodes)
	}
	// Merging must not alias: the sample it came from is unchanged.
	other := sample()
	r := &Profile{Format: Format}
	if err := r.Merge(other); err != nil {
		t.Fatal(err)
	}
	r.Funcs["p.F"].Nodes[0].Outcomes[0] = 99
	if other.Funcs["p.F"].Nodes[0].Outcomes[0] != 1 {
		t.Error("Merge shares counts with its argument")
	}
}

func TestMergeRefusesOtherSource(t *testing.T) {
	p, q := sample(), sample()
	q.Funcs["p.F"].Hash = "cd"
	if err := p.Merge(q); err == nil || !strings.Contains(err.Error(), "different source") {
		t.Errorf("merge of other source: %v", err)
	}
}

func TestDecodeErrors(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`{"format":"augur-profile/2","functions":{}}`, `format "augur-profile/2"`},
		{`{"format":"augur-profile/1","functions":{"f":null}}`, "no counts"},
		{`{"format":"augur-profile/1","functions":{},"extra":1}`, "unknown field"},
		{`{"format":"augur-profile/1",`, "unexpected EOF"},
	} {
		if _, err := Decode(strings.NewReader(c.in)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.in, err, c.want)
		}
	}
}

func FuzzDecode(f *testing.F) {
	data, err := json.Marshal(sample())
	if err != nil {
		f.Fatal(err)
	}
	f.Add(string(data))
	f.Add(`{"format":"augur-profile/1","functions":{}}`)
	f.Fuzz(func(t *testing.T, in string) {
		p, err := Decode(strings.NewReader(in))
		if err != nil {
			return
		}
		// Whatever decodes merges into an empty profile without error and without panicking.
		q := &Profile{Format: Format}
		if err := q.Merge(p); err != nil {
			t.Fatalf("merging a decoded profile into an empty one: %v", err)
		}
	})
}
