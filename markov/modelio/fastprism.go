package modelio

import (
	"io"
	"math"
	"math/big"
	"math/bits"
	"os"
	"sort"
	"strconv"
	"sync"
	"unsafe"
)

// The fast path for PRISM's explicit files as PRISM writes them: transitions in order of source
// and target, one line each, decimal probabilities, state rewards in order of state. Such files
// are parsed in blocks on every processor, without an allocation per line, straight into the
// compressed rows of the model. Anything else — actions, fractions, lines out of order or
// repeated, a field that does not parse, a state without transitions — makes the fast path give
// up, and the file is read again by the general reader, which gives the semantics (actions
// summed, rationals kept) and the errors with their positions. The fast path never reports an
// error itself, so both paths agree by construction on everything but speed (FuzzPRISMFastPath
// checks it).

// csrRows is a transition matrix read by the fast path, already in compressed sparse rows.
type csrRows struct {
	rowPtr, col []int
	prob        []float64
}

// has reports whether the matrix has the transition from → to.
func (c *csrRows) has(from, to int) bool {
	a, b := c.rowPtr[from], c.rowPtr[from+1]
	k := a + sort.SearchInts(c.col[a:b], to)
	return k < b && c.col[k] == to
}

// seekable returns src's reader as a ReadSeeker and its position, when it is one: the fast path
// needs to start again from there when it gives up.
func seekable(src Source) (io.ReadSeeker, int64, bool) {
	rs, ok := src.R.(io.ReadSeeker)
	if !ok {
		return nil, 0, false
	}
	pos, err := rs.Seek(0, io.SeekCurrent)
	return rs, pos, err == nil
}

// remaining is how many bytes are left to read from r, or -1 if that cannot be told.
func remaining(r io.Reader, pos int64) int64 {
	switch r := r.(type) {
	case *os.File:
		if st, err := r.Stat(); err == nil && st.Mode().IsRegular() {
			return st.Size() - pos
		}
	case interface{ Len() int }:
		return int64(r.Len())
	}
	return -1
}

// capFor is how many entries to allocate for a count a header announces: no more than the
// bytes left could hold at minLine bytes an entry, so that a false header cannot make the reader
// allocate what the file does not justify.
func capFor(announced int, left int64, minLine int) int {
	if left < 0 {
		return min(announced, 1<<16)
	}
	return int(min(int64(announced), left/int64(minLine)+1))
}

// traBlock is what one block of a transitions file holds, in file order.
type traBlock struct {
	from, to []int32
	prob     []float64
}

var traBlocks = sync.Pool{New: func() any { return new(traBlock) }}

// fastPRISMTra reads a transitions file in the form PRISM writes; ok is false when the file is
// not in that form (or is not a correct transitions file) and must be read by readPRISMTra.
func fastPRISMTra(src Source, pos int64) (raw *rawModel, ok bool) {
	l := newLines(src)
	fs, ok := l.nextData(true)
	if !ok || len(fs) != 2 {
		return nil, false
	}
	n, ok1 := parseIndex(fs[0].s)
	t, ok2 := parseIndex(fs[1].s)
	if !ok1 || !ok2 || n == 0 || n > t {
		return nil, false
	}
	left := remaining(src.R, pos)
	if left >= 0 {
		left -= int64(len(l.text)) // roughly what the header took; capFor only bounds
	}
	c := &csrRows{
		col:  make([]int, 0, capFor(t, left, len("0 0 1\n"))),
		prob: make([]float64, 0, capFor(t, left, len("0 0 1\n"))),
	}
	c.rowPtr = make([]int, 1, min(n, cap(c.col))+1)
	from, to := 0, -1 // the last transition merged
	merge := func(b *traBlock) bool {
		defer traBlocks.Put(b)
		for i := range b.from {
			f, t := int(b.from[i]), int(b.to[i])
			switch {
			case f == from && t > to:
			case f == from+1:
				c.rowPtr = append(c.rowPtr, len(c.col))
				from = f
			default:
				return false // out of order, repeated, or a state without transitions
			}
			to = t
			c.col = append(c.col, t)
		}
		c.prob = append(c.prob, b.prob...)
		return len(c.col) <= t
	}
	parse := func(block []byte) (*traBlock, bool) {
		b := traBlocks.Get().(*traBlock)
		b.from, b.to, b.prob = b.from[:0], b.to[:0], b.prob[:0]
		return b, parseTraBlock(block, n, b)
	}
	if !parseBlocks(l.r, parse, merge) || len(c.col) != t || from != n-1 || len(c.col) == 0 {
		return nil, false
	}
	c.rowPtr = append(c.rowPtr, len(c.col))
	return &rawModel{n: n, csr: c}, true
}

// parseTraBlock parses "source target probability" lines, skipping blank and comment lines.
func parseTraBlock(block []byte, n int, out *traBlock) bool {
	var last lastValue
	for i := 0; i < len(block); {
		switch c := block[i]; {
		case c == '\n':
			i++
			continue
		case isSpace(c):
			i = skipSpace(block, i)
			continue
		case c == '#':
			for i < len(block) && block[i] != '\n' {
				i++
			}
			continue
		}
		from, j, ok := indexAt(block, i, n)
		if !ok {
			return false
		}
		to, k, ok := indexAt(block, j, n)
		if !ok {
			return false
		}
		p, e, ok := valueAt(block, k, &last)
		if !ok || p > 1 {
			return false
		}
		out.from = append(out.from, int32(from))
		out.to = append(out.to, int32(to))
		out.prob = append(out.prob, p)
		i = e
	}
	return true
}

// parseSrewBlock parses "state reward" lines in increasing order of state, skipping blank and
// comment lines. A zero reward is counted but not kept.
func parseSrewBlock(block []byte, n int, b *srewBlock) bool {
	prev := -1
	var last lastValue
	for i := 0; i < len(block); {
		switch c := block[i]; {
		case c == '\n':
			i++
			continue
		case isSpace(c):
			i = skipSpace(block, i)
			continue
		case c == '#':
			for i < len(block) && block[i] != '\n' {
				i++
			}
			continue
		}
		s, j, ok := indexAt(block, i, n)
		if !ok || s <= prev {
			return false
		}
		prev = s
		if b.first < 0 {
			b.first = s
		}
		b.last = s
		v, e, ok := valueAt(block, j, &last)
		if !ok {
			return false
		}
		b.count++
		if v != 0 {
			b.values = append(b.values, stateValue{s, v})
		}
		i = e
	}
	return true
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && isSpace(b[i]) {
		i++
	}
	return i
}

// indexAt reads a state number below n (as parseIndex does: at most 10 decimal digits) that
// starts at i and is followed by another field on the same line, which starts at next.
func indexAt(b []byte, i, n int) (v, next int, ok bool) {
	j := i
	for ; j < len(b) && b[j] >= '0' && b[j] <= '9'; j++ {
		v = v*10 + int(b[j]-'0')
	}
	if j == i || j-i > 10 || j == len(b) || !isSpace(b[j]) {
		return 0, 0, false
	}
	next = skipSpace(b, j)
	return v, next, v < n && next < len(b) && b[next] != '\n'
}

// lastValue is the last value a block's parser read, with its text (a slice of the block): files
// as PRISM writes them repeat a few probabilities (1, 0.5, 0.3333333333333333) line after line,
// and comparing the text with the last one's costs less than converting it again.
type lastValue struct {
	text []byte
	v    float64
}

// valueAt reads a finite non-negative decimal (as parseValue does) that starts at i and ends its
// line; it returns where the next line starts. The same text as last's gives last's value, and
// last is updated.
func valueAt(b []byte, i int, last *lastValue) (v float64, next int, ok bool) {
	end := i
	for end < len(b) && b[end] != '\n' && !isSpace(b[end]) {
		end++
	}
	next = skipSpace(b, end)
	if next < len(b) && b[next] != '\n' {
		return 0, 0, false // another field (an action in a .tra file)
	}
	if last.text != nil && string(b[i:end]) == string(last.text) {
		return last.v, next + 1, true
	}
	v, ok = decimalValue(b[i:end])
	if !ok || v < 0 {
		return 0, 0, false
	}
	last.text, last.v = b[i:end], v+0
	return v + 0, next + 1, true
}

// pow10 are the powers of ten a float64 holds exactly.
var pow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// decimalValue reads a decimal number as isDecimal and strconv.ParseFloat do (ok is false where
// either would fail or give ±Inf or NaN), in one pass for the common case. At most 15
// significant digits and a power of ten up to 22 make both the integer of the digits and the
// power exact float64s, so that one multiplication or division rounds correctly (Clinger's
// fast path); up to 19 digits, Eisel and Lemire's algorithm rounds correctly or says it cannot
// tell; anything else is left to strconv.
func decimalValue(b []byte) (float64, bool) {
	i, neg := 0, false
	if i < len(b) && (b[i] == '+' || b[i] == '-') {
		neg = b[i] == '-'
		i++
	}
	var mant uint64
	digits, exp := 0, 0 // significant digits read into mant; the power of ten to apply
	start := i
	for ; i < len(b) && b[i] >= '0' && b[i] <= '9'; i++ {
		if mant != 0 || b[i] != '0' {
			mant = mant*10 + uint64(b[i]-'0')
			digits++
		}
	}
	seen := i > start // a digit
	if i < len(b) && b[i] == '.' {
		i++
		for ; i < len(b) && b[i] >= '0' && b[i] <= '9'; i++ {
			seen = true
			if mant != 0 || b[i] != '0' {
				mant = mant*10 + uint64(b[i]-'0')
				digits++
			}
			exp--
		}
	}
	if i == len(b) && seen && digits > 15 && digits <= 19 && exp > -len(pow10) {
		if v, ok := eiselLemire(mant, -exp, neg); ok {
			return v, true
		}
	}
	if i < len(b) || !seen || digits > 15 || exp < -len(pow10)+1 {
		// An exponent, many digits, or not a number: strconv decides, after isDecimal unless
		// the digits read show that the number is one.
		s := unsafe.String(unsafe.SliceData(b), len(b)) // b outlives s, which is not kept
		if (i < len(b) || !seen) && !isDecimal(s) {
			return 0, false
		}
		v, err := strconv.ParseFloat(s, 64)
		return v, err == nil && !math.IsInf(v, 0) && !math.IsNaN(v)
	}
	v := float64(mant) / pow10[-exp]
	if neg {
		v = -v
	}
	return v, true
}

// srewBlock is what one block of a state rewards file holds: its non-zero rewards, its number of
// entries, zeros included, and the states of its first and last entries (-1 if none).
type srewBlock struct {
	values      []stateValue
	count       int
	first, last int
}

var srewBlocks = sync.Pool{New: func() any { return new(srewBlock) }}

// fastPRISMStateRewards reads a state rewards file whose states are in increasing order; ok is
// false when it is not such a file (or not a correct one) and must be read by
// readPRISMStateRewards.
func fastPRISMStateRewards(src Source, pos int64, n int) (name string, out []stateValue, ok bool) {
	left := remaining(src.R, pos)
	l := newLines(src)
	name, fs, err := rewardHeader(l, "State rewards", "Transition rewards")
	if err != nil {
		return "", nil, false
	}
	nnz, err := countHeader(l, fs, n)
	if err != nil {
		return "", nil, false
	}
	out = make([]stateValue, 0, capFor(nnz, left, len("0 1\n")))
	count, last := 0, -1
	merge := func(b *srewBlock) bool {
		defer srewBlocks.Put(b)
		if b.count > 0 {
			if b.first <= last {
				return false
			}
			last = b.last
		}
		out = append(out, b.values...)
		count += b.count
		return count <= nnz
	}
	parse := func(block []byte) (*srewBlock, bool) {
		b := srewBlocks.Get().(*srewBlock)
		*b = srewBlock{values: b.values[:0], first: -1, last: -1}
		return b, parseSrewBlock(block, n, b)
	}
	if !parseBlocks(l.r, parse, merge) || count != nnz {
		return "", nil, false
	}
	return name, out, true
}

// negPow10 holds the 128-bit mantissas of 10^-k for k = 0..22 (rounded down, top bit set: 10^-k
// is negPow10[k]/2^128 · 2^(1+⌊-k·log2 10⌋)), computed as Go's strconv computes its table.
var negPow10 = func() (t [len(pow10)][2]uint64) {
	one := big.NewInt(1)
	top := new(big.Rat).SetInt(new(big.Int).Lsh(one, 128))
	for k := range t {
		r := new(big.Rat).SetFrac(one, new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(k)), nil))
		for r.Cmp(top) < 0 {
			r.Mul(r, big.NewRat(2, 1))
		}
		for r.Cmp(top) >= 0 {
			r.Quo(r, big.NewRat(2, 1))
		}
		d := new(big.Int).Quo(r.Num(), r.Denom())
		lo := new(big.Int).And(d, new(big.Int).SetUint64(math.MaxUint64))
		t[k] = [2]uint64{new(big.Int).Rsh(d, 64).Uint64(), lo.Uint64()}
	}
	return t
}()

// eiselLemire returns man·10^-k correctly rounded, for 0 <= k < len(pow10), or ok false when
// the 128-bit product cannot tell which way to round (strconv then decides). It is Go's strconv
// eiselLemire64 (after Eisel and Lemire, 2020; https://nigeltao.github.io/blog/2020/eisel-lemire.html)
// for the powers of ten probabilities are written with.
func eiselLemire(man uint64, k int, neg bool) (float64, bool) {
	if man == 0 {
		return 0, false // the caller's one-pass path has it
	}
	pow := negPow10[k]
	exp2 := 1 + (-k*108853)>>15 // 1 + ⌊-k·log2 10⌋
	clz := bits.LeadingZeros64(man)
	man <<= uint(clz)
	retExp2 := uint64(exp2+63+1023) - uint64(clz) // the exponent bias of float64 is 1023
	xHi, xLo := bits.Mul64(man, pow[0])
	if xHi&0x1FF == 0x1FF && xLo+man < man {
		yHi, yLo := bits.Mul64(man, pow[1])
		mergedHi, mergedLo := xHi, xLo+yHi
		if mergedLo < xLo {
			mergedHi++
		}
		if mergedHi&0x1FF == 0x1FF && mergedLo+1 == 0 && yLo+man < man {
			return 0, false
		}
		xHi, xLo = mergedHi, mergedLo
	}
	msb := xHi >> 63
	retMantissa := xHi >> (msb + 9)
	retExp2 -= 1 ^ msb
	if xLo == 0 && xHi&0x1FF == 0 && retMantissa&3 == 1 {
		return 0, false // half way between two float64s
	}
	retMantissa += retMantissa & 1
	retMantissa >>= 1
	if retMantissa>>53 > 0 {
		retMantissa >>= 1
		retExp2++
	}
	if retExp2-1 >= 0x7FF-1 {
		return 0, false // subnormal, infinite or NaN
	}
	f := retExp2<<52 | retMantissa&(1<<52-1)
	if neg {
		f |= 1 << 63
	}
	return math.Float64frombits(f), true
}
