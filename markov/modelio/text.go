package modelio

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"math/big"
	"strconv"
	"strings"
	"unsafe"
)

// maxIndex bounds state and label indices so that no header or index can make a reader allocate
// more than the input justifies; it is far above any model augur can hold.
const maxIndex = 1<<31 - 2

// maxRatDigits bounds the numerator and denominator of an exact probability: big.Rat parsing is
// superlinear, and no real model needs more.
const maxRatDigits = 400

// lines reads a text file line by line, keeping the line number for errors.
type lines struct {
	name string
	r    *bufio.Reader
	line int
	text string
	err  error
	eof  bool
}

func newLines(src Source) *lines {
	return &lines{name: src.Name, r: bufio.NewReader(src.R)}
}

// next advances to the next line; it returns false at the end or on a read error (see err).
func (l *lines) next() bool { return l.advance(false) }

// advance is next; with borrow set, l.text is a view of the reader's buffer, valid only until
// the next call, which spares an allocation per line where nothing of the line is kept.
func (l *lines) advance(borrow bool) bool {
	if l.eof || l.err != nil {
		return false
	}
	var s string
	var err error
	if borrow {
		var b []byte
		b, err = l.r.ReadSlice('\n')
		switch {
		case err == bufio.ErrBufferFull:
			// A line longer than the buffer: copy what there is before reading on.
			head := string(b)
			var rest string
			rest, err = l.r.ReadString('\n')
			s = head + rest
		case len(b) > 0:
			s = unsafe.String(&b[0], len(b))
		}
	} else {
		s, err = l.r.ReadString('\n')
	}
	if err == io.EOF {
		l.eof = true
		if s == "" {
			return false
		}
	} else if err != nil {
		l.err = &Error{File: l.name, Line: l.line + 1, Msg: "read error: " + err.Error()}
		return false
	}
	l.line++
	s = strings.TrimSuffix(s, "\n")
	s = strings.TrimSuffix(s, "\r")
	l.text = s
	return true
}

// nextData advances to the next line that has a field, skipping blank lines and, when comments
// is set, lines whose first field starts with '#'.
func (l *lines) nextData(comments bool) ([]field, bool) {
	return l.nextDataInto(comments, false, nil)
}

// nextDataInto is nextData appending the fields to buf[:0]; with borrow set, the line and its
// fields are views valid only until the next call (see advance).
func (l *lines) nextDataInto(comments, borrow bool, buf []field) ([]field, bool) {
	for l.advance(borrow) {
		fs := appendFields(buf[:0], l.text)
		if len(fs) == 0 || (comments && strings.HasPrefix(fs[0].s, "#")) {
			continue
		}
		return fs, true
	}
	return nil, false
}

func (l *lines) errf(col int, format string, args ...any) *Error {
	return &Error{File: l.name, Line: l.line, Col: col, Msg: fmt.Sprintf(format, args...)}
}

// field is a whitespace-separated word of a line and its 1-based byte column.
type field struct {
	s   string
	col int
}

func fields(text string) []field { return appendFields(nil, text) }

func appendFields(fs []field, text string) []field {
	i := 0
	for i < len(text) {
		for i < len(text) && isSpace(text[i]) {
			i++
		}
		j := i
		for j < len(text) && !isSpace(text[j]) {
			j++
		}
		if j > i {
			fs = append(fs, field{text[i:j], i + 1})
		}
		i = j
	}
	return fs
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\v' || c == '\f' || c == '\r' }

// parseIndex reads a state (or label) number: decimal digits only, so that "1e3" or "+1" are
// caught rather than guessed at.
func parseIndex(s string) (int, bool) {
	if s == "" || len(s) > 10 {
		return 0, false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
	}
	v, err := strconv.Atoi(s)
	if err != nil || v > maxIndex {
		return 0, false
	}
	return v, true
}

// isDecimal accepts the plain decimal numbers every tool writes ("0.25", "1e-05", ".5", "3") and
// rejects what strconv would also take but no model file means: hex floats, "inf", "nan",
// underscores.
func isDecimal(s string) bool {
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	digits := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
		digits++
	}
	if i < len(s) && s[i] == '.' {
		i++
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
			digits++
		}
	}
	if digits == 0 {
		return false
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		exp := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
			exp++
		}
		if exp == 0 {
			return false
		}
	}
	return i == len(s)
}

// parseValue reads a finite, non-negative decimal number. what names the quantity for errors.
func parseValue(s, what string) (float64, error) {
	if !isDecimal(s) {
		return 0, fmt.Errorf("%s %q is not a number", what, s)
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(v, 0) || math.IsNaN(v) {
		return 0, fmt.Errorf("%s %q is out of range", what, s)
	}
	if v < 0 {
		return 0, fmt.Errorf("%s %s is negative", what, s)
	}
	return v + 0, nil // + 0 turns -0 into 0 so that writers never print "-0"
}

// parseProb reads a probability: a decimal in [0,1] or, when rationals is set, an exact "p/q"
// (which also sets the returned rational).
func parseProb(s string, rationals bool) (float64, *big.Rat, error) {
	if rationals && strings.Contains(s, "/") {
		r, err := parseRational(s)
		if err != nil {
			return 0, nil, err
		}
		f, _ := r.Float64()
		return f, r, nil
	}
	v, err := parseValue(s, "probability")
	if err != nil {
		return 0, nil, err
	}
	if v > 1 {
		return 0, nil, fmt.Errorf("probability %s is greater than 1", s)
	}
	return v, nil, nil
}

// parseRational reads "p/q" with decimal digits only and 0 <= p/q <= 1.
func parseRational(s string) (*big.Rat, error) {
	num, den, ok := strings.Cut(s, "/")
	if !ok || !allDigits(num) || !allDigits(den) {
		return nil, fmt.Errorf("probability %q is not a number or a fraction p/q", s)
	}
	if len(num) > maxRatDigits || len(den) > maxRatDigits {
		return nil, fmt.Errorf("probability %q has more than %d digits", s, maxRatDigits)
	}
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		return nil, fmt.Errorf("probability %q has a zero denominator", s)
	}
	if r.Cmp(big.NewRat(1, 1)) > 0 {
		return nil, fmt.Errorf("probability %s is greater than 1", s)
	}
	return r, nil
}

func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// formatFloat prints the shortest decimal that reads back as the same float64.
func formatFloat(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// formatRat prints p/q always with the slash, so that a reader that takes a bare integer as a
// float still knows the value was exact.
func formatRat(r *big.Rat) string { return r.Num().String() + "/" + r.Denom().String() }
