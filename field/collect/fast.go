package collect

import (
	"bytes"
	"errors"
	"math"
	"math/bits"
	"strconv"

	"github.com/augur-perf/augur/field/wire"
)

// decode reads a package from a request body or a line of a batch. Most bodies are what wire.Encode writes — the
// fields in their order, no spaces, names without escapes — and decodeCanonical reads those
// several times faster than encoding/json, which was most of the collector's CPU per package;
// everything else, and everything decodeCanonical is unsure of, goes to wire.Decode. Whatever
// decodeCanonical accepts, wire.Decode accepts as the same package (FuzzCanonical checks it), so
// the verdicts and reasons are wire's.
func decode(data []byte) (*wire.Package, error) {
	if p, ok := decodeCanonical(data); ok && p.Check() == nil {
		return p, nil
	}
	return wire.Decode(bytes.NewReader(data))
}

var errNotCanonical = errors.New("not canonical")

type scanner struct {
	b   []byte
	err error
}

func (s *scanner) lit(l string) {
	if s.peek(l) {
		s.b = s.b[len(l):]
		return
	}
	s.err = errNotCanonical
}

func (s *scanner) peek(l string) bool {
	return s.err == nil && len(s.b) >= len(l) && string(s.b[:len(l)]) == l
}

// name reads a string of the characters wire allows in names (no escapes needed).
func (s *scanner) name() string {
	s.lit(`"`)
	if s.err != nil {
		return ""
	}
	for i, c := range s.b {
		switch {
		case c == '"':
			v := string(s.b[:i])
			s.b = s.b[i+1:]
			return v
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == ':' || c == '-' || c == '/':
		default:
			s.err = errNotCanonical
			return ""
		}
	}
	s.err = errNotCanonical
	return ""
}

// uint reads a JSON integer without sign, fraction or exponent, in one pass: below 19 digits
// no overflow is possible, so only longer numbers pay for the check.
func (s *scanner) uint() uint64 {
	if s.err != nil {
		return 0
	}
	b := s.b
	var v uint64
	i := 0
	for ; i < len(b); i++ {
		d := b[i] - '0'
		if d > 9 {
			break
		}
		if i >= 19 {
			hi, lo := bits.Mul64(v, 10)
			if hi != 0 || lo+uint64(d) < lo {
				s.err = errNotCanonical
				return 0
			}
		}
		v = v*10 + uint64(d)
	}
	if i == 0 || i > 1 && b[0] == '0' || i < len(b) && (b[i] == '.' || b[i] == 'e' || b[i] == 'E') {
		s.err = errNotCanonical
		return 0
	}
	s.b = b[i:]
	return v
}

func (s *scanner) int() int {
	v := s.uint()
	if v > math.MaxInt {
		s.err = errNotCanonical
		return 0
	}
	return int(v)
}

// float reads a non-negative JSON number: digits, an optional fraction, an optional exponent.
func (s *scanner) float() float64 {
	if s.err != nil {
		return 0
	}
	i := 0
	n := func() int {
		j := i
		for i < len(s.b) && s.b[i] >= '0' && s.b[i] <= '9' {
			i++
		}
		return i - j
	}
	if k := n(); k == 0 || k > 1 && s.b[0] == '0' {
		s.err = errNotCanonical
		return 0
	}
	if i < len(s.b) && s.b[i] == '.' {
		i++
		if n() == 0 {
			s.err = errNotCanonical
			return 0
		}
	}
	if i < len(s.b) && (s.b[i] == 'e' || s.b[i] == 'E') {
		i++
		if i < len(s.b) && (s.b[i] == '+' || s.b[i] == '-') {
			i++
		}
		if n() == 0 {
			s.err = errNotCanonical
			return 0
		}
	}
	v, err := strconv.ParseFloat(string(s.b[:i]), 64)
	if err != nil {
		s.err = errNotCanonical
	}
	s.b = s.b[i:]
	return v
}

// decodeCanonical reads exactly the JSON wire.Encode writes for a package; ok is false for
// anything else (which may still be a valid package for wire.Decode).
func decodeCanonical(b []byte) (p *wire.Package, ok bool) {
	s := &scanner{b: b}
	p = &wire.Package{}
	s.lit(`{"format":`)
	p.Format = s.name()
	s.lit(`,"release":`)
	p.Release = s.name()
	s.lit(`,"variant":`)
	p.Variant = s.int()
	s.lit(`,"site":`)
	p.Site = s.name()
	s.lit(`,"seq":`)
	p.Seq = s.uint()
	s.lit(`,"uptime_s":`)
	p.Uptime = s.float()
	if s.peek(`,"rate":`) {
		s.lit(`,"rate":`)
		p.Rate = s.float()
		if p.Rate == 0 {
			return nil, false // omitempty never writes 0: leave the odd case to wire
		}
	}
	s.lit(`,"counts":`)
	if s.peek("null") {
		s.lit("null")
	} else {
		s.lit("[")
		// Every count opens with '{' and nothing else in the list does: counting the byte
		// (vectorised) sizes the list at once.
		p.Counts = make([]wire.Count, 0, bytes.Count(s.b, []byte{'{'}))
		// The outcomes of all decisions share one array (appended to, each count's slice
		// capped at its own end), sized for two outcomes per '[' (each opens a decision's):
		// one allocation for most packages, not one per decision.
		outs := make([]uint64, 0, 2*bytes.Count(s.b, []byte{'['}))
		for s.err == nil && !s.peek("]") {
			if len(p.Counts) > 0 {
				s.lit(",")
			}
			// Filled in place: copying a finished Count into the list costs a write barrier
			// for the whole struct while the GC runs.
			p.Counts = append(p.Counts, wire.Count{})
			c := &p.Counts[len(p.Counts)-1]
			s.lit(`{"p":`)
			c.Probe = s.int()
			s.lit(`,"n":`)
			c.N = s.uint()
			if s.peek(`,"out":[`) {
				s.lit(`,"out":[`)
				from := len(outs)
				for s.err == nil && !s.peek("]") {
					if len(outs) > from {
						s.lit(",")
					}
					outs = append(outs, s.uint())
				}
				s.lit("]")
				if len(outs) == from {
					return nil, false // omitempty never writes []
				}
				c.Out = outs[from:len(outs):len(outs)]
			}
			s.lit("}")
		}
		s.lit("]")
	}
	s.lit("}")
	if s.peek("\n") {
		s.lit("\n")
	}
	if s.err != nil || len(s.b) != 0 {
		return nil, false
	}
	return p, true
}
