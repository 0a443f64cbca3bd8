package pctl

type tokKind int

const (
	tEOF     tokKind = iota
	tIllegal         // an unexpected character, an unterminated string or comment
	tNewline         // only in properties files, where it ends a property
	tSemi
	tIdent
	tNumber
	tString // text keeps the quotes
	tNot    // !
	tNE     // !=
	tAnd    // &
	tOr     // |
	tImplies
	tIff
	tEQ
	tLT
	tLE
	tGT
	tGE
	tQuestion
	tMinus
	tLParen
	tRParen
	tLBrack
	tRBrack
	tLBrace
	tRBrace
	tColon
	tPlus
	tStar
	tSlash
	tComma
	tHash // # in #s, the state index
)

type token struct {
	kind tokKind
	// text is the source text, except for tEOF, where it says how the property ended ("end of
	// input", "end of line" or ";") so that errors can name what was found.
	text      string
	off, end  int // rune offsets in the source
	line, col int
	// msg, on a tIllegal token, replaces the parser's "expected X, found Y": the lexer knows better
	// what went wrong with an unterminated string or comment than the parser does.
	msg string
}

// lexer turns the source into tokens. In a properties file (file true) newlines are tokens and
// columns restart on each line; for a single property newlines are blanks and columns count runes
// from the start of the text, so that they stay within 1..len(runes)+1.
type lexer struct {
	src       []rune
	i         int
	file      bool
	line      int
	lineStart int
}

func lex(src []rune, file bool) []token {
	l := lexer{src: src, file: file}
	if file {
		l.line = 1
	}
	var toks []token
	for {
		t := l.next()
		toks = append(toks, t)
		if t.kind == tEOF {
			return toks
		}
	}
}

func (l *lexer) at(i int) rune {
	if i < len(l.src) {
		return l.src[i]
	}
	return 0
}

func (l *lexer) tok(kind tokKind, off, end int) token {
	return token{kind: kind, text: string(l.src[off:end]), off: off, end: end, line: l.line, col: off - l.lineStart + 1}
}

func (l *lexer) newline(next int) {
	if l.file {
		l.line++
		l.lineStart = next
	}
}

func (l *lexer) next() token {
	for l.i < len(l.src) {
		c := l.src[l.i]
		switch {
		case c == '\n' && l.file:
			t := l.tok(tNewline, l.i, l.i+1)
			l.i++
			l.newline(l.i)
			return t
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v' || (c == '\uFEFF' && l.i == 0):
			l.i++
		case c == '/' && l.at(l.i+1) == '/':
			for l.i < len(l.src) && l.src[l.i] != '\n' {
				l.i++
			}
		case c == '/' && l.at(l.i+1) == '*':
			open := l.tok(tIllegal, l.i, l.i+2)
			l.i += 2
			for {
				if l.i >= len(l.src) {
					open.msg = `expected "*/" to close the comment, found end of input`
					return open
				}
				if l.src[l.i] == '*' && l.at(l.i+1) == '/' {
					l.i += 2
					break
				}
				l.i++
				if l.src[l.i-1] == '\n' {
					l.newline(l.i)
				}
			}
		default:
			return l.token()
		}
	}
	t := l.tok(tEOF, l.i, l.i)
	t.text = "end of input"
	return t
}

func isLetter(c rune) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '_' }
func isDigit(c rune) bool  { return '0' <= c && c <= '9' }

func (l *lexer) token() token {
	start := l.i
	c := l.src[start]
	switch {
	case isLetter(c):
		for l.i < len(l.src) && (isLetter(l.src[l.i]) || isDigit(l.src[l.i])) {
			l.i++
		}
		return l.tok(tIdent, start, l.i)
	case isDigit(c) || c == '.' && isDigit(l.at(l.i+1)):
		l.digits()
		if l.at(l.i) == '.' && isDigit(l.at(l.i+1)) {
			l.i++
			l.digits()
		}
		if e := l.at(l.i); e == 'e' || e == 'E' {
			j := l.i + 1
			if s := l.at(j); s == '+' || s == '-' {
				j++
			}
			if isDigit(l.at(j)) {
				l.i = j
				l.digits()
			}
		}
		return l.tok(tNumber, start, l.i)
	case c == '"':
		j := start + 1
		for j < len(l.src) && l.src[j] != '"' && l.src[j] != '\n' && l.src[j] != '\r' {
			j++
		}
		if j < len(l.src) && l.src[j] == '"' {
			l.i = j + 1
			return l.tok(tString, start, l.i)
		}
		// The newline is left for the next token: in a file it still ends the property.
		l.i = j
		t := l.tok(tIllegal, start, j)
		if j < len(l.src) {
			t.msg = "expected a closing quote for the string, found end of line"
		} else {
			t.msg = "expected a closing quote for the string, found end of input"
		}
		return t
	}
	kind, n := tIllegal, 1
	switch c {
	case '!':
		kind = tNot
		if l.at(l.i+1) == '=' {
			kind, n = tNE, 2
		}
	case '&':
		kind = tAnd
	case '|':
		kind = tOr
	case '=':
		kind = tEQ
		if l.at(l.i+1) == '>' {
			kind, n = tImplies, 2
		}
	case '<':
		kind = tLT
		if l.at(l.i+1) == '=' {
			kind, n = tLE, 2
			if l.at(l.i+2) == '>' {
				kind, n = tIff, 3
			}
		}
	case '>':
		kind = tGT
		if l.at(l.i+1) == '=' {
			kind, n = tGE, 2
		}
	case '?':
		kind = tQuestion
	case '-':
		kind = tMinus
	case '(':
		kind = tLParen
	case ')':
		kind = tRParen
	case '[':
		kind = tLBrack
	case ']':
		kind = tRBrack
	case '{':
		kind = tLBrace
	case '}':
		kind = tRBrace
	case ':':
		kind = tColon
	case ';':
		kind = tSemi
	case '+':
		kind = tPlus
	case '*':
		kind = tStar
	case '/':
		kind = tSlash
	case ',':
		kind = tComma
	case '#':
		kind = tHash
	}
	l.i += n
	return l.tok(kind, start, l.i)
}

func (l *lexer) digits() {
	for l.i < len(l.src) && isDigit(l.src[l.i]) {
		l.i++
	}
}
