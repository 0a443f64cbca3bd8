package sim

import (
	"bytes"
	"compress/gzip"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/augur-perf/augur/field/plan"
)

func TestTracesRoundTrip(t *testing.T) {
	units, runs := program(4)
	want := &Traces{Units: units, Runs: runs, Sites: 30}
	var buf bytes.Buffer
	if err := want.Write(&buf); err != nil {
		t.Fatal(err)
	}
	got, err := ReadTraces(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Error("traces changed on their way through a file")
	}
}

func gz(s string) []byte {
	var b bytes.Buffer
	z := gzip.NewWriter(&b)
	z.Write([]byte(s))
	z.Close()
	return b.Bytes()
}

func TestReadTracesRejects(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`{"format":"x","units":[{"id":1,"pos":"a","node":0}],"runs":[{"site":0,"seq":0,"counts":[1]}]}`, "format"},
		{`{"format":"augur-field-traces/1","units":[],"runs":[]}`, "at least one"},
		{`{"format":"augur-field-traces/1","units":[{"id":2,"pos":"a","node":0}],"runs":[{"site":0,"seq":0,"counts":[1]}]}`, "has id 2"},
		{`{"format":"augur-field-traces/1","units":[{"id":1,"pos":"a","node":0}],"runs":[{"site":0,"seq":0,"counts":[1,2]}]}`, "2 counts for 1 units"},
		{`{"format":"augur-field-traces/1","units":[{"id":1,"pos":"a","node":0}],"runs":[{"site":-1,"seq":0,"counts":[1]}]}`, "site -1"},
		{`{"format":"augur-field-traces/1","extra":1}`, "unknown field"},
		{`{"format":`, "unexpected EOF"},
	} {
		_, err := ReadTraces(bytes.NewReader(gz(c.in)))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.in, err, c.want)
		}
	}
	if _, err := ReadTraces(strings.NewReader("not gzip")); err == nil {
		t.Error("plain text read as traces")
	}
}

// Whatever the bytes, ReadTraces returns traces a study can replay or an error, never a panic.
func FuzzReadTraces(f *testing.F) {
	var b bytes.Buffer
	(&Traces{Units: []plan.Unit{{ID: 1, Pos: "a"}, {ID: 2, Pos: "b"}}, Runs: []Run{{Site: 0, Counts: []uint64{3, 0}}}}).Write(&b)
	f.Add(b.Bytes())
	f.Add(gz(`{"format":"augur-field-traces/1","units":[{"id":1}],"runs":[{"counts":[1]}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		tr, err := ReadTraces(bytes.NewReader(data))
		if err != nil {
			return
		}
		m, err := plan.Allocate("f", tr.Units, plan.Options{Variants: 2, Bound: 1, Strategy: plan.RandomBalanced, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		Replay(m, tr.Runs, rand.New(rand.NewPCG(1, 1)))
	})
}
