package router

import "math/rand/v2"

// A Mix is a usage profile: the share of each kind of request, in percent.
type Mix struct{ Lookups, Loops, Hashes int }

// The two mixes of the example: A mostly lookups, B mostly loops and hashes.
var (
	MixA = Mix{Lookups: 90, Loops: 6, Hashes: 4}
	MixB = Mix{Lookups: 10, Loops: 50, Hashes: 40}
)

// Requests makes n requests of mix m, the same for the same seed: loops of 200 to 400 steps,
// bodies of 200 to 600 bytes, kinds drawn with the mix's shares. The bodies are parts of one
// buffer of 1 KiB, so that both mixes hash data in the cache.
func (m Mix) Requests(n int, seed uint64) []Request {
	r := rand.New(rand.NewPCG(seed, 18))
	buf := make([]byte, 1024)
	for i := range buf {
		buf[i] = byte(r.Uint32())
	}
	out := make([]Request, n)
	for i := range out {
		q := Request{Key: r.Uint32()}
		switch k := r.IntN(m.Lookups + m.Loops + m.Hashes); {
		case k < m.Lookups:
			q.Kind = Lookup
		case k < m.Lookups+m.Loops:
			q.Kind, q.Steps = Loop, 200+r.IntN(201)
		default:
			at := r.IntN(400)
			q.Kind, q.Body = Hash, buf[at:at+200+r.IntN(401)]
		}
		out[i] = q
	}
	return out
}
