// Package tripedges holds the loops a review of counted trip loops (triploop.go) and of the
// binary-search rule (safeindex.go) found mishandled: an init whose per-iteration variables are
// addressed (slices, &a[0], method values), a type switch redeclaring the stepped variable, a post
// statement that may panic, an init that receives from a channel, a builtin without a value or an
// operand on a later line evaluated again by a guard, a condition of a named boolean type, and
// binary searches over bounds that are parameters or redeclared. TestTripEdges in package
// instrument requires the plain program's output (results, panics and their lines) and the same
// counts from every scheme.
package tripedges

// Run runs case w on xs and k.
func Run(w int, xs []int, k int) int {
	switch w {
	case 0:
		return keepSlice(xs, k)
	case 1:
		return keepAddr(xs, k)
	case 2:
		return tsw(xs, k)
	case 3:
		return keepPtr(xs, k)
	case 4:
		return keepSub(xs, k)
	case 5:
		return keepMeth(xs, k)
	case 6:
		return post(xs, k)
	case 7:
		return named(xs, k)
	case 8:
		ch := make(chan int, 1)
		ch <- k
		return recvInit(ch, xs)
	case 9:
		return labeled(xs, k)
	case 10:
		return outerPanic(xs, k)
	case 11:
		return namedIdx(xs, k)
	case 12:
		return tswPanic(xs, k)
	case 13:
		return mid(xs, k)
	case 14:
		return bsearch(xs, k, 0, 100)
	case 15:
		return control(xs, k, 0, 100)
	case 16:
		return oneLine(xs, k)
	case 17:
		return withPanic(xs, k)
	case 18:
		return multiLine(xs, k)
	case 19:
		return clr(xs, k)
	case 20:
		return del(xs, k)
	case 21:
		return tsws([]any{"a", 1, "bb", 2}, k)
	case 22:
		return mapWrite(xs, k)
	case 23:
		return kinds([]any{1, "a", 2.5, 3, "b", nil}, k)
	case 24:
		return atTop(xs, k)
	}
	return 0
}

// Cases is the number of cases Run has.
const Cases = 25
