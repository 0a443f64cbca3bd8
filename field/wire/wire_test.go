package wire

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/augur-perf/augur/field/plan"
)

const good = `{"format":"augur-field-package/1","release":"r1","variant":2,"site":"eu-1","seq":7,"uptime_s":61.5,"counts":[{"p":3,"n":10,"out":[4,6]},{"p":9,"n":1}]}`

func manifest() *plan.Manifest {
	return &plan.Manifest{
		Format: plan.Format, Release: "r1",
		Units:    []plan.Unit{{ID: 3, Outcomes: 2}, {ID: 9}, {ID: 11}},
		Variants: []plan.Variant{{ID: 1, Probes: []int{11}}, {ID: 2, Probes: []int{3, 9}}},
	}
}

func TestDecodeRoundTrip(t *testing.T) {
	p, err := Decode(strings.NewReader(good))
	if err != nil {
		t.Fatal(err)
	}
	if p.Site != "eu-1" || p.Seq != 7 || p.Variant != 2 || len(p.Counts) != 2 || p.Counts[0].Out[1] != 6 {
		t.Fatalf("decoded %+v", p)
	}
	if err := p.Validate(manifest()); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := Encode(&buf, p); err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(buf.String()); got != good {
		t.Fatalf("re-encoded\n%s\nwant\n%s", got, good)
	}
}

func TestDecodeRejects(t *testing.T) {
	for _, c := range []struct{ body, reason string }{
		{``, "truncated"},
		{`{"format":`, "truncated"},
		{`[]`, "cannot unmarshal array"},
		{good + ` {}`, "data after the package"},
		{strings.Replace(good, `"seq":7`, `"seq":7,"extra":1`, 1), `unknown field "extra"`},
		{strings.Replace(good, `package/1`, `package/2`, 1), "format"},
		{strings.Replace(good, `"eu-1"`, `"eu 1"`, 1), "site"},
		{strings.Replace(good, `"eu-1"`, `""`, 1), "site"},
		{strings.Replace(good, `"eu-1"`, `"`+strings.Repeat("x", MaxName+1)+`"`, 1), "site"},
		{strings.Replace(good, `"r1"`, `"r/1"`, 1), "release"},
		{strings.Replace(good, `"variant":2`, `"variant":0`, 1), "variant 0"},
		{strings.Replace(good, `"seq":7`, `"seq":0`, 1), "seq 0"},
		{strings.Replace(good, `"seq":7`, `"seq":-1`, 1), "cannot unmarshal number -1"},
		{strings.Replace(good, `61.5`, `-1`, 1), "uptime_s"},
		{strings.Replace(good, `"counts"`, `"rate":1.5,"counts"`, 1), "rate"},
		{strings.Replace(good, `"p":9`, `"p":3`, 1), "sorted"},
		{strings.Replace(good, `"p":3`, `"p":0`, 1), "probe ids start at 1"},
		{strings.Replace(good, `[4,6]`, `[4,7]`, 1), "outcomes sum to 11"},
		{strings.Replace(good, `[4,6]`, `[18446744073709551615,1]`, 1), "overflow"},
		{`{"format":"augur-field-package/1","counts":[` + strings.Repeat(`{"p":1,"n":1},`, MaxBody/14) + `]}`, "larger than"},
	} {
		_, err := Decode(strings.NewReader(c.body))
		var e *Error
		if !errors.As(err, &e) || !strings.Contains(err.Error(), c.reason) {
			short := c.body
			if len(short) > 80 {
				short = short[:80] + "..."
			}
			t.Errorf("Decode(%s) = %v, want an *Error about %q", short, err, c.reason)
		}
	}
}

func TestDecodeErrorOffset(t *testing.T) {
	_, err := Decode(strings.NewReader(`{"format": x}`))
	var e *Error
	if !errors.As(err, &e) || e.Offset != 12 {
		t.Fatalf("err = %v, want a syntax error at byte 12", err)
	}
}

func TestValidate(t *testing.T) {
	for _, c := range []struct{ old, new, reason string }{
		{`"r1"`, `"r2"`, `release "r2", but the manifest is release "r1"`},
		{`"variant":2`, `"variant":5`, "no variant 5"},
		{`"p":9`, `"p":11`, "carries no probe 11"},
		{`[4,6]`, `[4,5,1]`, "3 outcome counts for a unit of 2 outcomes"},
	} {
		p, err := Decode(strings.NewReader(strings.Replace(good, c.old, c.new, 1)))
		if err != nil {
			t.Fatal(err)
		}
		if err := p.Validate(manifest()); err == nil || !strings.Contains(err.Error(), c.reason) {
			t.Errorf("%s→%s: Validate = %v, want %q", c.old, c.new, err, c.reason)
		}
	}
}

// FuzzDecode: no input panics, and whatever decodes re-encodes to a package that decodes to the
// same counts.
func FuzzDecode(f *testing.F) {
	f.Add([]byte(good))
	f.Add([]byte(`{"format":"augur-field-package/1","release":"a","variant":1,"site":"s","seq":1,"uptime_s":0,"counts":[]}`))
	f.Add([]byte(`{"counts":[{"p":1,"n":1,"out":[1]}]}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		p, err := Decode(bytes.NewReader(body))
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error %v is not an *Error", err)
			}
			return
		}
		var buf bytes.Buffer
		if err := Encode(&buf, p); err != nil {
			t.Fatal(err)
		}
		q, err := Decode(&buf)
		if err != nil {
			t.Fatalf("re-decoding %s: %v", buf.Bytes(), err)
		}
		if len(q.Counts) != len(p.Counts) || q.Seq != p.Seq || q.Site != p.Site {
			t.Fatalf("round trip changed %+v into %+v", p, q)
		}
	})
}

// A package that reports dropped packages round-trips; one without the field decodes as 0.
func TestDroppedRoundTrip(t *testing.T) {
	body := strings.Replace(good, `"counts"`, `"dropped":4,"counts"`, 1)
	p, err := Decode(strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if p.Dropped != 4 {
		t.Fatalf("dropped %d, want 4", p.Dropped)
	}
	var buf bytes.Buffer
	if err := Encode(&buf, p); err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(buf.String()); got != body {
		t.Fatalf("re-encoded\n%s\nwant\n%s", got, body)
	}
}

// A batch splits into its lines; each line decodes on its own, one refused line leaving the
// others alone; bodies that are not batches are refused with the offset of the fault.
func TestDecodeBatch(t *testing.T) {
	body := good + "\n" + `{"format":"x"}` + "\n" + good
	pkgs, errs, err := DecodeBatch(strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if len(pkgs) != 3 || pkgs[0] == nil || pkgs[2] == nil || pkgs[1] != nil || errs[0] != nil || errs[2] != nil || errs[1] == nil {
		t.Fatalf("packages %v, errors %v", pkgs, errs)
	}
	if !strings.Contains(errs[1].Error(), `format "x"`) {
		t.Errorf("line 2: %v", errs[1])
	}
	for _, c := range []struct {
		body   string
		offset int64
		reason string
	}{
		{"", 0, "empty batch"},
		{good + "\n\n" + good, int64(len(good)) + 1, "empty line"},
		{"\n", 0, "empty line"},
		{strings.Repeat("{}\n", MaxBatch+1), 3 * MaxBatch, "more than 1024 packages"},
		{strings.Repeat(" ", MaxBody+1), -1, "larger than"},
	} {
		_, _, err := DecodeBatch(strings.NewReader(c.body))
		var e *Error
		if !errors.As(err, &e) || e.Offset != c.offset || !strings.Contains(e.Reason, c.reason) {
			t.Errorf("batch %.20q: %v; want offset %d and %q", c.body, err, c.offset, c.reason)
		}
	}
	// The last newline is optional.
	if lines, err := SplitBatch([]byte("a\nb\n")); err != nil || len(lines) != 2 {
		t.Errorf("a trailing newline: %q, %v", lines, err)
	}
}

// FuzzSplitBatch: a body SplitBatch accepts is its lines joined by newlines (less an optional
// last one), each line non-empty without a newline, at most MaxBatch of them; a body it refuses
// gets an *Error; nothing panics.
func FuzzSplitBatch(f *testing.F) {
	f.Add([]byte(good + "\n" + good + "\n"))
	f.Add([]byte("a\n\nb"))
	f.Add([]byte("\n"))
	f.Add([]byte(strings.Repeat("{}\n", MaxBatch+1)))
	f.Fuzz(func(t *testing.T, body []byte) {
		lines, err := SplitBatch(body)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) || e.Offset > int64(len(body)) {
				t.Fatalf("error %v is not an *Error within the body", err)
			}
			return
		}
		if len(lines) == 0 || len(lines) > MaxBatch {
			t.Fatalf("%d lines", len(lines))
		}
		for _, l := range lines {
			if len(l) == 0 || bytes.IndexByte(l, '\n') >= 0 {
				t.Fatalf("line %q", l)
			}
		}
		joined := bytes.Join(lines, []byte("\n"))
		if !bytes.Equal(joined, bytes.TrimSuffix(body, []byte("\n"))) || len(body) > len(joined)+1 {
			t.Fatalf("lines %q do not make up %q", lines, body)
		}
	})
}
