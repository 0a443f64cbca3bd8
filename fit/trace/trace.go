// Package trace reads and writes augur-trace/1: per-invocation measurements of one function —
// its parameters' values at entry and the quantities measured during the invocation (a loop's
// iterations, a decision's outcome counts, time, allocations) — as JSON lines, streamed so that
// traces of millions of invocations never sit in memory as text. It owns the format only; it
// must not fit or interpret what it carries.
//
// The first line is the header, then one line per invocation with values aligned to the
// header's names:
//
//	{"format":"augur-trace/1","function":"example.com/sort.Sort","params":["n"],"quantities":["loop@sort.go:14","time_ns"],"rate":1}
//	{"p":[1000],"q":[9976,51200]}
//
// Rate is the sampling rate the invocations were recorded at (1: every invocation).
package trace

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
)

// Format names the format.
const Format = "augur-trace/1"

// MaxLine bounds one line of a trace (1 MB): a longer line is an error, not an allocation.
const MaxLine = 1 << 20

// Header describes a trace.
type Header struct {
	Format     string   `json:"format"`
	Function   string   `json:"function"`
	Params     []string `json:"params"`
	Quantities []string `json:"quantities"`
	Rate       float64  `json:"rate"`
}

// Record is one invocation.
type Record struct {
	P []float64 `json:"p"`
	Q []float64 `json:"q"`
}

// Reader reads a trace.
type Reader struct {
	Header Header
	sc     *bufio.Scanner
	line   int
}

// NewReader reads and checks the header.
func NewReader(r io.Reader) (*Reader, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), MaxLine)
	rd := &Reader{sc: sc}
	line, err := rd.next()
	if err != nil {
		if err == io.EOF {
			return nil, errors.New("trace: empty: no header line")
		}
		return nil, err
	}
	var h Header
	if err := strict(line, &h); err != nil {
		return nil, fmt.Errorf("trace:1: header: %v", err)
	}
	if h.Format != Format {
		return nil, fmt.Errorf("trace:1: format %q, want %q", h.Format, Format)
	}
	if h.Rate <= 0 || h.Rate > 1 || math.IsNaN(h.Rate) {
		return nil, fmt.Errorf("trace:1: rate %v: want 0 < rate ≤ 1", h.Rate)
	}
	if len(h.Quantities) == 0 {
		return nil, errors.New("trace:1: no quantities")
	}
	seen := map[string]bool{}
	for _, n := range append(append([]string(nil), h.Params...), h.Quantities...) {
		if n == "" || seen[n] {
			return nil, fmt.Errorf("trace:1: name %q is empty or repeated", n)
		}
		seen[n] = true
	}
	rd.Header = h
	return rd, nil
}

func (r *Reader) next() ([]byte, error) {
	for r.sc.Scan() {
		r.line++
		if b := bytes.TrimSpace(r.sc.Bytes()); len(b) > 0 {
			return b, nil
		}
	}
	if err := r.sc.Err(); err != nil {
		return nil, fmt.Errorf("trace:%d: %v", r.line+1, err)
	}
	return nil, io.EOF
}

// Read returns the next record, or io.EOF after the last. Errors name the line.
func (r *Reader) Read() (Record, error) {
	line, err := r.next()
	if err != nil {
		return Record{}, err
	}
	var rec Record
	if err := strict(line, &rec); err != nil {
		return Record{}, fmt.Errorf("trace:%d: %v", r.line, err)
	}
	if len(rec.P) != len(r.Header.Params) || len(rec.Q) != len(r.Header.Quantities) {
		return Record{}, fmt.Errorf("trace:%d: %d parameters and %d quantities, the header names %d and %d", r.line, len(rec.P), len(rec.Q), len(r.Header.Params), len(r.Header.Quantities))
	}
	for _, v := range append(append([]float64(nil), rec.P...), rec.Q...) {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return Record{}, fmt.Errorf("trace:%d: value %v is not finite", r.line, v)
		}
	}
	return rec, nil
}

// ReadAll reads every remaining record.
func (r *Reader) ReadAll() ([]Record, error) {
	var out []Record
	for {
		rec, err := r.Read()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		out = append(out, rec)
	}
}

func strict(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return errors.New("trailing data after the JSON value")
	}
	return nil
}

// Writer writes a trace. It is not safe for concurrent use: recorders serialise their writes.
type Writer struct {
	w   *bufio.Writer
	hdr Header
}

// NewWriter writes the header.
func NewWriter(w io.Writer, h Header) (*Writer, error) {
	h.Format = Format
	if h.Rate == 0 {
		h.Rate = 1
	}
	b, err := json.Marshal(h)
	if err != nil {
		return nil, err
	}
	bw := bufio.NewWriter(w)
	bw.Write(append(b, '\n'))
	return &Writer{w: bw, hdr: h}, nil
}

// Write writes one record.
func (w *Writer) Write(r Record) error {
	if len(r.P) != len(w.hdr.Params) || len(r.Q) != len(w.hdr.Quantities) {
		return fmt.Errorf("trace: record with %d parameters and %d quantities, the header names %d and %d", len(r.P), len(r.Q), len(w.hdr.Params), len(w.hdr.Quantities))
	}
	b, err := json.Marshal(r)
	if err != nil {
		return err
	}
	_, err = w.w.Write(append(b, '\n'))
	return err
}

// Flush writes buffered records.
func (w *Writer) Flush() error { return w.w.Flush() }
