package param

import (
	"math/big"
	"sort"
	"strconv"
	"strings"
)

// mono is a monomial's exponent vector, one byte per variable, as a map key.
type mono string

func (m mono) exp(i int) int {
	if i < len(m) {
		return int(m[i])
	}
	return 0
}

func (m mono) mul(n mono) mono {
	l := max(len(m), len(n))
	b := make([]byte, l)
	for i := range b {
		b[i] = byte(m.exp(i) + n.exp(i))
	}
	return trim(b)
}

func trim(b []byte) mono {
	for len(b) > 0 && b[len(b)-1] == 0 {
		b = b[:len(b)-1]
	}
	return mono(b)
}

// divides reports whether m divides n.
func (m mono) divides(n mono) bool {
	for i := 0; i < len(m); i++ {
		if m.exp(i) > n.exp(i) {
			return false
		}
	}
	return true
}

func (m mono) div(n mono) mono {
	b := make([]byte, len(m))
	for i := range b {
		b[i] = byte(m.exp(i) - n.exp(i))
	}
	return trim(b)
}

// less is the lexicographic order: x0 first.
func (m mono) less(n mono) bool {
	for i := 0; i < max(len(m), len(n)); i++ {
		if a, b := m.exp(i), n.exp(i); a != b {
			return a < b
		}
	}
	return false
}

// Poly is a polynomial with rational coefficients over the variables of its Space.
type Poly map[mono]*big.Rat

func constPoly(r *big.Rat) Poly {
	if r.Sign() == 0 {
		return Poly{}
	}
	return Poly{"": new(big.Rat).Set(r)}
}

func varPoly(i int) Poly {
	b := make([]byte, i+1)
	b[i] = 1
	return Poly{mono(b): big.NewRat(1, 1)}
}

func (p Poly) isZero() bool { return len(p) == 0 }

func (p Poly) constant() (*big.Rat, bool) {
	if len(p) == 0 {
		return new(big.Rat), true
	}
	if c, ok := p[""]; ok && len(p) == 1 {
		return c, true
	}
	return nil, false
}

func (p Poly) add(q Poly, sign int) Poly {
	out := Poly{}
	for m, c := range p {
		out[m] = new(big.Rat).Set(c)
	}
	for m, c := range q {
		v, ok := out[m]
		if !ok {
			v = new(big.Rat)
			out[m] = v
		}
		if sign < 0 {
			v.Sub(v, c)
		} else {
			v.Add(v, c)
		}
		if v.Sign() == 0 {
			delete(out, m)
		}
	}
	return out
}

func (p Poly) mul(q Poly) Poly {
	out := Poly{}
	for m, c := range p {
		for n, d := range q {
			k := m.mul(n)
			v, ok := out[k]
			if !ok {
				v = new(big.Rat)
				out[k] = v
			}
			v.Add(v, new(big.Rat).Mul(c, d))
		}
	}
	for k, v := range out {
		if v.Sign() == 0 {
			delete(out, k)
		}
	}
	return out
}

func (p Poly) scale(r *big.Rat) Poly {
	out := Poly{}
	if r.Sign() == 0 {
		return out
	}
	for m, c := range p {
		out[m] = new(big.Rat).Mul(c, r)
	}
	return out
}

func (p Poly) lead() (mono, *big.Rat) {
	var best mono
	first := true
	for m := range p {
		if first || best.less(m) {
			best, first = m, false
		}
	}
	return best, p[best]
}

// divExact returns p/g when g divides p exactly.
func (p Poly) divExact(g Poly) (Poly, bool) {
	if g.isZero() {
		return nil, false
	}
	gm, gc := g.lead()
	q, r := Poly{}, p
	for !r.isZero() {
		rm, rc := r.lead()
		if !gm.divides(rm) {
			return nil, false
		}
		t := Poly{rm.div(gm): new(big.Rat).Quo(rc, gc)}
		q = q.add(t, 1)
		r = r.add(t.mul(g), -1)
	}
	return q, true
}

// derive is ∂p/∂x_i.
func (p Poly) derive(i int) Poly {
	out := Poly{}
	for m, c := range p {
		e := m.exp(i)
		if e == 0 {
			continue
		}
		b := []byte(m)
		b[i]--
		out[trim(b)] = new(big.Rat).Mul(c, big.NewRat(int64(e), 1))
	}
	return out
}

// eval evaluates p at exact values.
func (p Poly) eval(x []*big.Rat) *big.Rat {
	sum := new(big.Rat)
	for m, c := range p {
		t := new(big.Rat).Set(c)
		for i := 0; i < len(m); i++ {
			for e := 0; e < m.exp(i); e++ {
				t.Mul(t, x[i])
			}
		}
		sum.Add(sum, t)
	}
	return sum
}

// format writes p with the variables' names, highest terms first.
func (p Poly) format(names []string) string {
	if p.isZero() {
		return "0"
	}
	ms := make([]mono, 0, len(p))
	for m := range p {
		ms = append(ms, m)
	}
	sort.Slice(ms, func(a, b int) bool { return ms[b].less(ms[a]) })
	var b strings.Builder
	for k, m := range ms {
		c := p[m]
		neg := c.Sign() < 0
		abs := new(big.Rat).Abs(c)
		switch {
		case k == 0 && neg:
			b.WriteString("-")
		case k > 0 && neg:
			b.WriteString(" - ")
		case k > 0:
			b.WriteString(" + ")
		}
		var factors []string
		for i := 0; i < len(m); i++ {
			switch e := m.exp(i); e {
			case 0:
			case 1:
				factors = append(factors, names[i])
			default:
				factors = append(factors, names[i]+"^"+strconv.Itoa(e))
			}
		}
		if abs.Cmp(big.NewRat(1, 1)) != 0 || len(factors) == 0 {
			factors = append([]string{abs.RatString()}, factors...)
		}
		b.WriteString(strings.Join(factors, "*"))
	}
	return b.String()
}
