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
