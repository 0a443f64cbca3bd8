package withc

// Sum adds, for each box, its number, twice it, and twice it again through C: it calls the
// functions of c.go, which it would call the twins or copies of were they counted.
func Sum(bs []Box) int {
	s := 0
	for _, b := range bs {
		if b.Get() > 0 {
			s += b.Get() + Twice(b.n) + CTwice(b.n)
		}
	}
	return s
}
