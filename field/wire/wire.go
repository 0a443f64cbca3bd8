// Package wire is what a deployed variant sends its collector: a package
// (augur-field-package/1) of the counts its probes made since the previous package of the same
// run, stamped with the site, release, variant, a per-site sequence number and the run's uptime.
// It owns the format, its strict decoding and its validation against a release manifest; it
// must not touch the network or storage. The probe runtime compiled into deployed binaries
// writes the same JSON with the standard library alone (it cannot import this package), and its
// tests decode what it writes with Decode.
//
// A package is idempotent by (site, release, seq): a collector acknowledges a retried package
// again without counting it twice. Counts are deltas, so the sum of a site's packages is what
// its probes counted.
package wire

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/augur-perf/augur/field/plan"
)

// Format names the package format.
const Format = "augur-field-package/1"

// MaxBody is the largest package a collector accepts, in bytes: a variant with a thousand probes
// on decisions of many outcomes stays far below it.
const MaxBody = 1 << 20

// MaxName is the longest site or release name.
const MaxName = 128

// Package is one report of a deployed variant.
type Package struct {
	Format  string `json:"format"`
	Release string `json:"release"`
	Variant int    `json:"variant"`
	Site    string `json:"site"`
	// Seq numbers a site's packages from 1; (Site, Release, Seq) identifies a package.
	Seq uint64 `json:"seq"`
	// Uptime is how long the reporting process had run, in seconds.
	Uptime float64 `json:"uptime_s"`
	// Rate is the sampling rate of CBI-style sampling (each execution counted with probability
	// Rate); 0 means every execution is counted.
	Rate float64 `json:"rate,omitempty"`
	// Dropped is how many of the site's packages its runtime dropped since it made the previous
	// one (a full spool dropped the oldest, the collector refused one with 4xx), carried over
	// a restart through the spool directory. Added after the first version of the format:
	// omitted when 0, so packages without it decode as before.
	Dropped uint64 `json:"dropped,omitempty"`
	// Counts are sorted by probe id, each id at most once.
	Counts []Count `json:"counts"`
}

// Count is what one probe counted.
type Count struct {
	// Probe is a unit id of the release manifest.
	Probe int `json:"p"`
	// N is how often the unit's statement ran.
	N uint64 `json:"n"`
	// Out counts, for a decision, each outcome; empty for other statements.
	Out []uint64 `json:"out,omitempty"`
}

// Error is a package that cannot be accepted, and why.
type Error struct {
	// Offset is the byte offset in the body where decoding failed, or -1.
	Offset int64
	Reason string
}

func (e *Error) Error() string {
	if e.Offset >= 0 {
		return fmt.Sprintf("byte %d: %s", e.Offset, e.Reason)
	}
	return e.Reason
}

func invalid(format string, args ...any) error {
	return &Error{Offset: -1, Reason: fmt.Sprintf(format, args...)}
}

// Decode reads exactly one package from r, strictly: unknown fields, trailing data, a body
// longer than MaxBody and a package that breaks the format's rules (see Package.Check) are
// errors of type *Error.
func Decode(r io.Reader) (*Package, error) {
	body, err := io.ReadAll(io.LimitReader(r, MaxBody+1))
	if err != nil {
		return nil, err
	}
	if len(body) > MaxBody {
		return nil, invalid("package larger than %d bytes", MaxBody)
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	var p Package
	if err := dec.Decode(&p); err != nil {
		return nil, jsonError(err, dec.InputOffset())
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, &Error{Offset: dec.InputOffset(), Reason: "data after the package"}
	}
	if err := p.Check(); err != nil {
		return nil, err
	}
	return &p, nil
}

func jsonError(err error, offset int64) error {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		return &Error{Offset: syn.Offset, Reason: syn.Error()}
	case errors.As(err, &typ):
		return &Error{Offset: typ.Offset, Reason: typ.Error()}
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return &Error{Offset: offset, Reason: "truncated package"}
	}
	return &Error{Offset: offset, Reason: err.Error()}
}

// Check reports the first rule p breaks, on its own (without a manifest).
func (p *Package) Check() error {
	switch {
	case p.Format != Format:
		return invalid("format %q, want %q", p.Format, Format)
	case !validName(p.Release):
		return invalid("release %q: want 1 to %d letters, digits or ._:-", p.Release, MaxName)
	case !validName(p.Site):
		return invalid("site %q: want 1 to %d letters, digits or ._:-", p.Site, MaxName)
	case p.Variant < 1:
		return invalid("variant %d: variants are numbered from 1", p.Variant)
	case p.Seq < 1:
		return invalid("seq %d: sequence numbers start at 1", p.Seq)
	case math.IsNaN(p.Uptime) || math.IsInf(p.Uptime, 0) || p.Uptime < 0:
		return invalid("uptime_s %v: want a finite number of seconds, at least 0", p.Uptime)
	case math.IsNaN(p.Rate) || p.Rate < 0 || p.Rate > 1:
		return invalid("rate %v: want a sampling rate in (0, 1], or 0 for none", p.Rate)
	}
	for i, c := range p.Counts {
		if c.Probe < 1 {
			return invalid("counts[%d]: probe %d: probe ids start at 1", i, c.Probe)
		}
		if i > 0 && c.Probe <= p.Counts[i-1].Probe {
			return invalid("counts[%d]: probe %d after probe %d: counts are sorted by probe, each once", i, c.Probe, p.Counts[i-1].Probe)
		}
		var sum uint64
		for _, o := range c.Out {
			if sum+o < sum {
				return invalid("counts[%d]: probe %d: outcome counts overflow", i, c.Probe)
			}
			sum += o
		}
		if sum > c.N {
			return invalid("counts[%d]: probe %d: outcomes sum to %d but the decision ran %d times", i, c.Probe, sum, c.N)
		}
	}
	return nil
}

func validName(s string) bool {
	if len(s) == 0 || len(s) > MaxName {
		return false
	}
	for _, r := range s {
		ok := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' ||
			r == '.' || r == '_' || r == ':' || r == '-'
		if !ok {
			return false
		}
	}
	return true
}

// Validate reports the first way p does not fit the release m: another release, a variant m does
// not have, a probe the variant does not carry, or outcome counts for a unit that is not a
// decision of that many outcomes.
func (p *Package) Validate(m *plan.Manifest) error {
	if p.Release != m.Release {
		return invalid("release %q, but the manifest is release %q", p.Release, m.Release)
	}
	var v *plan.Variant
	for i := range m.Variants {
		if m.Variants[i].ID == p.Variant {
			v = &m.Variants[i]
		}
	}
	if v == nil {
		return invalid("release %s has no variant %d", m.Release, p.Variant)
	}
	carried := make(map[int]bool, len(v.Probes))
	for _, id := range v.Probes {
		carried[id] = true
	}
	outcomes := make(map[int]int, len(m.Units))
	for _, u := range m.Units {
		outcomes[u.ID] = u.Outcomes
	}
	for i, c := range p.Counts {
		if !carried[c.Probe] {
			return invalid("counts[%d]: variant %d of release %s carries no probe %d", i, p.Variant, m.Release, c.Probe)
		}
		if len(c.Out) != 0 && len(c.Out) != outcomes[c.Probe] {
			return invalid("counts[%d]: probe %d: %d outcome counts for a unit of %d outcomes", i, c.Probe, len(c.Out), outcomes[c.Probe])
		}
	}
	return nil
}

// Encode writes p as one line of JSON.
func Encode(w io.Writer, p *Package) error {
	return json.NewEncoder(w).Encode(p)
}

// BatchFormat names the batch format: one request body carrying several packages, each one line
// of augur-field-package/1 JSON as Encode writes it, so that a sender pays one request for a
// backlog and a collector one request's HTTP work for many packages. A line is a package on its
// own: the collector answers for each (accepted, duplicate or rejected with its reason), and one
// package's rejection does not touch the others.
const BatchFormat = "augur-field-batch/1"

// MaxBatch is the most packages in one batch; a batch body is at most MaxBody bytes, like a
// package.
const MaxBatch = 1024

// SplitBatch cuts a batch body into its packages' lines (each without its newline): one or more
// lines, each ending with a newline but the last, none empty, at most MaxBatch. A body that
// breaks these rules is an *Error as a whole; what each line holds is the caller's to decode.
func SplitBatch(body []byte) ([][]byte, error) {
	if len(body) > MaxBody {
		return nil, invalid("batch larger than %d bytes", MaxBody)
	}
	if len(body) == 0 {
		return nil, &Error{Offset: 0, Reason: "empty batch"}
	}
	lines := make([][]byte, 0, bytes.Count(body, []byte{'\n'})+1)
	for off := 0; off < len(body); {
		n := bytes.IndexByte(body[off:], '\n')
		if n < 0 {
			n = len(body) - off
		}
		if n == 0 {
			return nil, &Error{Offset: int64(off), Reason: "empty line in a batch"}
		}
		if len(lines) == MaxBatch {
			return nil, &Error{Offset: int64(off), Reason: fmt.Sprintf("more than %d packages in a batch", MaxBatch)}
		}
		lines = append(lines, body[off:off+n])
		off += n + 1
	}
	return lines, nil
}

// DecodeBatch reads a batch from r: its packages and, for each line, the reason it cannot be
// accepted (nil if it can; a refused line's package is nil). A body that is not a batch at all
// (see SplitBatch) is the error.
func DecodeBatch(r io.Reader) ([]*Package, []error, error) {
	body, err := io.ReadAll(io.LimitReader(r, MaxBody+1))
	if err != nil {
		return nil, nil, err
	}
	lines, err := SplitBatch(body)
	if err != nil {
		return nil, nil, err
	}
	pkgs := make([]*Package, len(lines))
	errs := make([]error, len(lines))
	for i, l := range lines {
		pkgs[i], errs[i] = Decode(bytes.NewReader(l))
	}
	return pkgs, errs, nil
}

// Result is a collector's answer for one package of a batch.
type Result struct {
	// Status is "accepted" (committed now), "duplicate" (committed before, not counted twice)
	// or "rejected" (never committed; sending it again cannot help).
	Status string `json:"status"`
	// Code is, for a rejected package, the status a request of that package alone would have
	// had: 400 (malformed, or does not fit its release) or 403 (another release's package).
	Code  int    `json:"code,omitempty"`
	Error string `json:"error,omitempty"`
}

// BatchAnswer is a collector's 200 answer to a batch: one result per line, in the lines' order.
type BatchAnswer struct {
	Format  string   `json:"format"`
	Results []Result `json:"results"`
}
