package panics

// Reader's LineOffset dereferences its receiver in the if statement and again in the for
// header below it: only the first can panic (see instrument's derefSafe).
type Reader struct {
	head, pos, off int
	src            []byte
}

// LineOffset is the column of pos, tabs counting 4.
func (r *Reader) LineOffset() int {
	if r.off < 0 {
		v := 0
		for i := r.head; i < r.pos; i++ {
			if r.src[i] == '\t' {
				v += 4
			} else {
				v++
			}
		}
		r.off = v
	}
	return r.off
}

// Pos is pos less off, or -1 for a nil reader: the outcome of the guard tells the statements
// after it that r is not nil (see instrument's derefSafe).
func (r *Reader) Pos() int {
	if r == nil {
		return -1
	}
	d := r.pos - r.off
	return d + r.head
}

// Escape is the escape of b, or nil: the outcome of the guard tells the return after it that v, a
// local that nothing assigns but its definition, is not nil (goldmark's util.EscapeHTMLByte).
func Escape(b byte) []byte {
	v := escapes[b]
	if v != nil {
		return *v
	}
	return nil
}

var escapes = [256]*[]byte{'&': {'&', 'a'}, '<': {'&', 'l'}}

// Chain adds up *ps until a nil one, which it dereferences first: each iteration defines p
// anew, so what the last one's guard said of p says nothing of this one's.
func Chain(ps []*int) (s int) {
	for _, q := range ps {
		p := q
		s += *p
		if p == nil {
			break
		}
	}
	return s
}

type named struct{ name string }

// Switched's clause variable v is not the local v that the guard found not nil.
func Switched(m map[string]any, k string) string {
	v := m[k]
	if v == nil {
		return ""
	}
	switch v := v.(type) {
	case *named:
		return v.name
	}
	return "?"
}

var gp *int

// Shadowed's "return *gp" reads the package's gp, not the local that the guard found not nil.
func Shadowed(p *int) int {
	if gp := p; gp == nil {
		return 0
	}
	return *gp
}
