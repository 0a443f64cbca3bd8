package modelio

import (
	"fmt"
	"io"
	"strings"
)

// Error is a problem in an input file, with where it is.
type Error struct {
	File string
	// Line and Col are 1-based; 0 when the problem has no single place (for example a header
	// count that disagrees with the rest of the file is reported at the header).
	Line, Col int
	// Path is the JSON field path (for example `transitions[3][2]`); empty for text formats.
	Path string
	Msg  string
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
		if e.Col > 0 {
			fmt.Fprintf(&b, ":%d", e.Col)
		}
	}
	b.WriteString(": ")
	if e.Path != "" {
		b.WriteString(e.Path)
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

// Source is one input stream and the name its errors cite (usually its path). A Source with a
// nil R stands for a file that is not there, for the optional ones.
type Source struct {
	Name string
	R    io.Reader
}

// buildError wraps an error from dtmc's validation with the file it concerns.
func buildError(file string, err error) error {
	return &Error{File: file, Msg: err.Error()}
}
