// Package prism reads models written in the PRISM modelling language — the DTMC subset: constants
// (undefined ones given by the caller, as prism -const does), formulas, labels, global and module
// variables with ranges and initial values, several modules synchronising on actions, module
// renaming, guarded commands with probabilistic updates, init ... endinit, and state and
// transition reward structures — and builds the reachable state space explicitly (breadth-first)
// as a dtmc.Model. Anything outside the subset (MDPs, CTMCs, PTAs, clocks) is an error with its
// position and what was expected. It owns the language's syntax and semantics; it must not know
// about properties or numerics beyond evaluating the model's own expressions.
//
// Its size (about 1.9k lines) is the language: lexer, parser, expression evaluator, module
// composition (synchronisation, renaming) and the state-space builder share one syntax tree; a file
// each, one package so the tree stays unexported.
package prism

import (
	"fmt"
	"strings"
	"unicode"
)

type tokKind int

const (
	tEOF tokKind = iota
	tIdent
	tInt
	tReal
	tString
	tPunct // one of the operators and separators below
	tKeyword
)

var keywords = map[string]bool{
	"dtmc": true, "probabilistic": true, "mdp": true, "ctmc": true, "stochastic": true, "nondeterministic": true, "pta": true,
	"const": true, "int": true, "double": true, "bool": true, "formula": true, "label": true, "global": true,
	"module": true, "endmodule": true, "rewards": true, "endrewards": true, "init": true, "endinit": true,
	"true": true, "false": true, "min": true, "max": true, "floor": true, "ceil": true, "pow": true, "mod": true, "log": true,
	"clock": true, "invariant": true, "endinvariant": true, "system": true, "endsystem": true,
}

// Multi-character punctuation first, so that the longest match wins.
var puncts = []string{"<=>", "..", "->", "=>", "<=", ">=", "!=", "'", "(", ")", "[", "]", "{", "}", ";", ":", ",", "=", "<", ">", "+", "-", "*", "/", "&", "|", "!", "?"}

type token struct {
	kind tokKind
	text string
	line int
	col  int
}

// Error is a syntax or semantic error at a line and column (1-based) of the model.
type Error struct {
	Line, Col int
	Msg       string
}

func (e *Error) Error() string { return fmt.Sprintf("%d:%d: %s", e.Line, e.Col, e.Msg) }

func lex(src string) ([]token, error) {
	var toks []token
	line, col := 1, 1
	i := 0
	advance := func(n int) {
		for k := 0; k < n; k++ {
			if src[i] == '\n' {
				line++
				col = 1
			} else {
				col++
			}
			i++
		}
	}
	for i < len(src) {
		c := src[i]
		switch {
		case c == '\n' || c == ' ' || c == '\t' || c == '\r':
			advance(1)
			continue
		case strings.HasPrefix(src[i:], "//"):
			for i < len(src) && src[i] != '\n' {
				advance(1)
			}
			continue
		}
		start := token{line: line, col: col}
		switch {
		case c == '"':
			j := strings.IndexByte(src[i+1:], '"')
			if j < 0 || strings.ContainsRune(src[i+1:i+1+j], '\n') {
				return nil, &Error{line, col, "unterminated string"}
			}
			start.kind, start.text = tString, src[i+1:i+1+j]
			advance(j + 2)
		case c >= '0' && c <= '9' || c == '.' && i+1 < len(src) && src[i+1] >= '0' && src[i+1] <= '9':
			j := i
			real := false
			for j < len(src) && (src[j] >= '0' && src[j] <= '9') {
				j++
			}
			if j+1 < len(src) && src[j] == '.' && src[j+1] != '.' {
				real = true
				j++
				for j < len(src) && src[j] >= '0' && src[j] <= '9' {
					j++
				}
			}
			if j < len(src) && (src[j] == 'e' || src[j] == 'E') {
				k := j + 1
				if k < len(src) && (src[k] == '+' || src[k] == '-') {
					k++
				}
				if k < len(src) && src[k] >= '0' && src[k] <= '9' {
					real = true
					j = k
					for j < len(src) && src[j] >= '0' && src[j] <= '9' {
						j++
					}
				}
			}
			start.kind, start.text = tInt, src[i:j]
			if real {
				start.kind = tReal
			}
			advance(j - i)
		case c == '_' || c < 0x80 && unicode.IsLetter(rune(c)):
			j := i
			for j < len(src) && (src[j] == '_' || src[j] < 0x80 && (unicode.IsLetter(rune(src[j])) || unicode.IsDigit(rune(src[j])))) {
				j++
			}
			start.kind, start.text = tIdent, src[i:j]
			if keywords[start.text] {
				start.kind = tKeyword
			}
			advance(j - i)
		default:
			found := false
			for _, p := range puncts {
				if strings.HasPrefix(src[i:], p) {
					start.kind, start.text = tPunct, p
					advance(len(p))
					found = true
					break
				}
			}
			if !found {
				return nil, &Error{line, col, fmt.Sprintf("unexpected character %q", rune(c))}
			}
		}
		toks = append(toks, start)
	}
	return append(toks, token{kind: tEOF, line: line, col: col}), nil
}
