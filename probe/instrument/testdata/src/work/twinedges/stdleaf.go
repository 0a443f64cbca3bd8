package twinedges

import (
	"encoding/binary"
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Calls of standard-library functions that cannot panic or block (no commit before them) and
// lookups in byte-indexed tables (no guard), in loops, twins and regions.

var wordTable = func() (t [256]bool) {
	for c := 'a'; c <= 'z'; c++ {
		t[c] = true
	}
	return t
}()

func isWordByte(c byte) bool { return wordTable[c] }

// fields splits s at spaces, counting runes per field, the way a lexer would.
func fields(s string) (n, runes int) {
	for len(s) > 0 {
		r, size := utf8.DecodeRuneInString(s)
		s = s[size:]
		if unicode.IsSpace(r) {
			continue
		}
		n++
		for len(s) > 0 {
			r, size = utf8.DecodeRuneInString(s)
			if unicode.IsSpace(r) {
				break
			}
			runes++
			s = s[size:]
		}
	}
	return n, runes
}

// quoted returns what follows the first quote up to the next, with strings.IndexByte.
func quoted(s string) (string, bool) {
	i := strings.IndexByte(s, '"')
	if i < 0 {
		return "", false
	}
	s = s[i+1:]
	j := strings.IndexByte(s, '"')
	if j < 0 {
		return s, false
	}
	return s[:j], true
}

// words counts the bytes of s in the table and parses the numbers among fields.
func words(s string, k int) (w, sum int) {
	for i := 0; i < len(s); i++ {
		if isWordByte(s[i]) {
			w++
		}
	}
	for _, f := range strings.Fields(s) {
		if v, err := strconv.Atoi(f); err == nil {
			sum += v
		}
	}
	return w, sum / k // k = 0 panics after the loops
}

func scanAll(s string, k int) int {
	n, r := fields(s)
	q, ok := quoted(s)
	if ok {
		n += len(q)
	}
	w, sum := words(s, k)
	if u, err := unescape(s); err == nil {
		n += len(u)
	}
	return n + r + w + sum
}

// unescape is fastjson's validateString: a loop without a condition holding a switch, which the
// standard-library leaves leave uncut (a loop counted without a path register).
func unescape(rs string) (string, error) {
	for {
		n := strings.IndexByte(rs, '\\')
		if n < 0 {
			return rs, nil
		}
		n++
		if n >= len(rs) {
			return rs, fmt.Errorf("trailing backslash: %q", rs)
		}
		ch := rs[n]
		rs = rs[n+1:]
		switch ch {
		case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			break
		case 'u':
			if len(rs) < 4 {
				return rs, fmt.Errorf(`too short escape sequence: \u%s`, rs)
			}
			xs := rs[:4]
			_, err := strconv.ParseUint(xs, 16, 16)
			if err != nil {
				return rs, fmt.Errorf(`invalid escape sequence \u%s: %s`, xs, err)
			}
			rs = rs[4:]
		default:
			return rs, fmt.Errorf(`unknown escape sequence \%c`, ch)
		}
	}
}

// words8 reads b eight bytes at a time with binary.LittleEndian (a standard-library leaf that
// panics on a short slice: skip makes it read past the end), as go-toml's string scanner does.
func words8(b []byte, skip int) (n int, sum uint64) {
	i := 0
	for i+8 <= len(b)+skip {
		x := binary.LittleEndian.Uint64(b[i:])
		if x&0x8080808080808080 != 0 {
			break
		}
		sum += x
		i += 8
		n++
	}
	return n, sum
}

func scan8(b []byte, skip int) int {
	n, sum := words8(b, skip)
	return n + int(sum&7)
}
