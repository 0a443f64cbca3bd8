// Package router is augur's bundled example of time measured under one usage profile and
// predicted for another: a request router with three kinds of request of very different cost (a
// table lookup, a loop of a few hundred steps, a SHA-256 of a few hundred bytes) and two mixes of
// them, A mostly lookups and B mostly loops and hashes. The README's time example and
// cmd/augur's prediction benchmark name its lines, so it changes only together with them.
package router

import (
	"crypto/sha256"
	"encoding/binary"
)

// Kind is what a request asks for.
type Kind uint8

// The kinds of request.
const (
	Lookup Kind = iota // a table lookup
	Loop               // a loop of Steps steps
	Hash               // a SHA-256 of Body
)

// A Request is one call's input.
type Request struct {
	Kind  Kind
	Key   uint32
	Steps int
	Body  []byte
}

// table is what lookups read.
var table = func() [1024]uint64 {
	var t [1024]uint64
	for i := range t {
		t[i] = uint64(i) * 0x9E3779B97F4A7C15
	}
	return t
}()

// Route serves one request.
func Route(r *Request) uint64 {
	switch r.Kind {
	case Lookup:
		return table[r.Key%uint32(len(table))]
	case Loop:
		s := uint64(r.Key)
		for i := 0; i < r.Steps; i++ {
			s = s*31 + uint64(i)
		}
		return s
	}
	sum := sha256.Sum256(r.Body)
	return binary.LittleEndian.Uint64(sum[:8])
}
