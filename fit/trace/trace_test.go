package trace

import (
	"bytes"
	"io"
	"strings"
	"testing"
)

func TestRoundTrip(t *testing.T) {
	var buf bytes.Buffer
	w, err := NewWriter(&buf, Header{Function: "p.F", Params: []string{"n"}, Quantities: []string{"loop@f.go:3", "time_ns"}})
	if err != nil {
		t.Fatal(err)
	}
	for n := 1; n <= 3; n++ {
		if err := w.Write(Record{P: []float64{float64(n)}, Q: []float64{float64(2 * n), 10.5}}); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Write(Record{P: []float64{1, 2}}); err == nil {
		t.Error("a record of the wrong shape was written")
	}
	w.Flush()
	want := `{"format":"augur-trace/1","function":"p.F","params":["n"],"quantities":["loop@f.go:3","time_ns"],"rate":1}
{"p":[1],"q":[2,10.5]}
`
	if !strings.HasPrefix(buf.String(), want) {
		t.Errorf("written:\n%s", buf.String())
	}
	r, err := NewReader(&buf)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := r.ReadAll()
	if err != nil || len(recs) != 3 || recs[2].Q[0] != 6 || r.Header.Function != "p.F" {
		t.Errorf("read %+v, %v", recs, err)
	}
}

func TestErrors(t *testing.T) {
	head := `{"format":"augur-trace/1","function":"p.F","params":["n"],"quantities":["q"],"rate":1}` + "\n"
	for _, c := range []struct{ in, want string }{
		{"", "empty"},
		{`{"format":"augur-trace/2","params":[],"quantities":["q"],"rate":1}`, "format"},
		{`{"format":"augur-trace/1","params":[],"quantities":["q"],"rate":0}`, "rate"},
		{`{"format":"augur-trace/1","params":["q"],"quantities":["q"],"rate":1}`, "repeated"},
		{`{"format":"augur-trace/1","params":[],"quantities":[],"rate":1}`, "no quantities"},
		{`{"format":"augur-trace/1","params":[],"quantities":["q"],"rate":1,"x":1}`, "unknown field"},
		{head + `{"p":[1],"q":[1,2]}`, "trace:2: 1 parameters and 2 quantities"},
		{head + "\n\n" + `{"p":[1],"q":"x"}`, "trace:4:"},
		{head + `{"p":[1],"q":[1]} {}`, "trailing"},
	} {
		r, err := NewReader(strings.NewReader(c.in))
		if err == nil {
			_, err = r.ReadAll()
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.in, err, c.want)
		}
	}
}

func FuzzRead(f *testing.F) {
	f.Add(`{"format":"augur-trace/1","function":"p.F","params":["n"],"quantities":["q"],"rate":1}` + "\n" + `{"p":[1],"q":[2]}`)
	f.Add(`{"format":"augur-trace/1","params":[],"quantities":["q"],"rate":0.5}` + "\n" + `{"p":[],"q":[1e308]}`)
	f.Fuzz(func(t *testing.T, in string) {
		r, err := NewReader(strings.NewReader(in))
		if err != nil {
			return
		}
		for {
			rec, err := r.Read()
			if err != nil {
				if err != io.EOF && !strings.HasPrefix(err.Error(), "trace:") {
					t.Fatalf("error without a position: %v", err)
				}
				return
			}
			if len(rec.P) != len(r.Header.Params) || len(rec.Q) != len(r.Header.Quantities) {
				t.Fatalf("record %+v does not match header %+v", rec, r.Header)
			}
		}
	})
}
