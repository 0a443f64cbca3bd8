// Package annot owns PROPER's reward annotations: comments such as "// @time=2.5, @energy=85"
// in Go source, the rewards file (format "augur-rewards/1") and the command line's
// --set name@file:line=value, all turned into per-CFG-node values (Rewards) that synthesis makes
// into reward structures. The syntax is documented in docs/annotations.md.
//
// It must not touch what other stages own: it builds no CFGs (it reads frontend's), assigns no
// probabilities and builds no models.
//
// # Syntax
//
// An annotation comment is a line comment (or a /* */ comment on one line) whose text, after
// the comment marker and any spaces, starts with "@". Its text must then be a comma-separated
// list of items @name=value: name a Go identifier (the reward structure), value a non-negative
// decimal number (digits, ".", exponent; no sign, no unit, no Inf or NaN). Anything else in an
// annotation comment is an error with its file:line:col. Comments that do not start with "@"
// are prose and are never looked at, so "mail bob@example.com" is fine.
//
// # Attachment
//
// A trailing annotation (code before it on its line) attaches to the statement that starts on
// that line. An annotation alone on its line attaches to the statement on the next code line:
// only other comment lines may come in between (a blank line is an error). When several nodes
// start on the target line, a decision or loop header (if, for, range, switch, type switch,
// select) wins over the init and post statements on its line; otherwise the node that comes first
// in the CFG. A reward on a defer statement goes to the deferred call: every DeferRun node that
// runs it, since that is where the call's cost is paid. A line where no statement starts (a case
// clause, a closing brace) is an error, and so is the same name twice for one statement. A
// function literal is a function of its own (F.func1, see frontend.Program.Select): the
// annotations inside it are its own, not those of the function that holds it.
package annot

import (
	"fmt"
	"go/ast"
	"go/token"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/augur-perf/augur/source/frontend"
)

// Error is a malformed or misplaced annotation, at its position (the front end's positioned
// error, so every stage reports positions alike).
type Error = frontend.Error

// ErrorList is every error found, in source order.
type ErrorList []*Error

func (l ErrorList) Error() string {
	msgs := make([]string, len(l))
	for i, e := range l {
		msgs[i] = e.Error()
	}
	return strings.Join(msgs, "\n")
}

func (l ErrorList) err() error {
	if len(l) == 0 {
		return nil
	}
	sort.SliceStable(l, func(i, j int) bool {
		a, b := l[i].Pos, l[j].Pos
		if a.Filename != b.Filename {
			return a.Filename < b.Filename
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Column < b.Column
	})
	return l
}

// Item is one @name=value of an annotation comment. Off is the byte offset of its "@" in the text
// given to ParseText.
type Item struct {
	Name  string
	Value float64
	Off   int
}

// SyntaxError is a problem at byte offset Off of the text given to ParseText.
type SyntaxError struct {
	Off int
	Msg string
}

func (e *SyntaxError) Error() string { return fmt.Sprintf("offset %d: %s", e.Off, e.Msg) }

// ParseText reads the text of a comment (without the comment markers). ok is false when the text
// is not an annotation comment (it does not start with "@" after spaces); then items and err are
// nil.
func ParseText(text string) (items []Item, ok bool, err error) {
	i := skipSpace(text, 0)
	if i >= len(text) || text[i] != '@' {
		return nil, false, nil
	}
	for {
		at := i
		i++
		j := i
		for j < len(text) && isIdent(text[j], j == i) {
			j++
		}
		if j == i {
			return nil, true, &SyntaxError{at, "expected a reward name (a Go identifier) after @"}
		}
		name := text[i:j]
		if j >= len(text) || text[j] != '=' {
			got := "the end of the comment"
			if j < len(text) {
				got = strconv.QuoteRune(rune(text[j]))
			}
			return nil, true, &SyntaxError{j, fmt.Sprintf("expected = after @%s, found %s", name, got)}
		}
		v0 := j + 1
		k := v0
		for k < len(text) && text[k] != ',' && text[k] != ' ' && text[k] != '\t' {
			k++
		}
		val, verr := number(text[v0:k])
		if verr != "" {
			return nil, true, &SyntaxError{v0, fmt.Sprintf("@%s: %s", name, verr)}
		}
		items = append(items, Item{Name: name, Value: val, Off: at})
		i = skipSpace(text, k)
		if i >= len(text) {
			return items, true, nil
		}
		if text[i] != ',' {
			return nil, true, &SyntaxError{i, fmt.Sprintf("expected , or the end of the comment after @%s=%s", name, text[v0:k])}
		}
		i = skipSpace(text, i+1)
		if i >= len(text) || text[i] != '@' {
			return nil, true, &SyntaxError{i, "expected @name=value after ,"}
		}
	}
}

func skipSpace(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r') {
		i++
	}
	return i
}

func isIdent(c byte, first bool) bool {
	return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || !first && '0' <= c && c <= '9'
}

// number reads a reward value, or says what is wrong with it.
func number(s string) (float64, string) {
	if s == "" {
		return 0, "missing value after ="
	}
	if s[0] == '-' {
		return 0, fmt.Sprintf("value %s is negative (rewards are non-negative)", s)
	}
	digits := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case '0' <= c && c <= '9':
			digits = true
		case c == '.' || c == 'e' || c == 'E' || (c == '+' || c == '-') && i > 0 && (s[i-1] == 'e' || s[i-1] == 'E'):
		default:
			return 0, fmt.Sprintf("value %q is not a decimal number", s)
		}
	}
	v, err := strconv.ParseFloat(s, 64)
	if !digits || err != nil {
		return 0, fmt.Sprintf("value %q is not a finite decimal number", s)
	}
	return v, ""
}

// Annotation is one item of an annotation comment in a file.
type Annotation struct {
	Item
	Pos token.Position
	// Line is the line the annotation refers to: its own for a trailing one, the next code line
	// for one above its statement; 0 when there is none.
	Line int
	// Trailing is set when code comes before the comment on its line.
	Trailing bool
}

// lineInfo records, per line of a file, the first column of code.
type lineInfo struct {
	code    map[int]int // line → first column of code on it
	comment map[int]int // line → first column of a comment starting on it
}

func scanLines(fset *token.FileSet, file *ast.File, lo, hi token.Pos) lineInfo {
	li := lineInfo{code: map[int]int{}, comment: map[int]int{}}
	mark := func(m map[int]int, p token.Pos) {
		if !p.IsValid() {
			return
		}
		pp := fset.Position(p)
		if c, ok := m[pp.Line]; !ok || pp.Column < c {
			m[pp.Line] = pp.Column
		}
	}
	visit := func(n ast.Node) bool {
		switch n.(type) {
		case nil, *ast.CommentGroup, *ast.Comment:
			return false
		}
		mark(li.code, n.Pos())
		if n.End() > n.Pos() {
			mark(li.code, n.End()-1)
		}
		return true
	}
	if lo <= file.Pos() && file.End() <= hi {
		ast.Inspect(file, visit)
	} else {
		// Only the declarations overlapping [lo, hi): a function's annotations need no more, and
		// a file of many functions is then not walked once per function.
		for _, d := range file.Decls {
			if d.End() > lo && d.Pos() < hi {
				ast.Inspect(d, visit)
			}
		}
	}
	for _, cg := range file.Comments {
		if cg.End() <= lo || cg.Pos() >= hi {
			continue
		}
		for _, c := range cg.List {
			mark(li.comment, c.Pos())
			// A /* */ comment spanning lines covers them all.
			p, e := fset.Position(c.Pos()), fset.Position(c.End())
			for l := p.Line + 1; l <= e.Line; l++ {
				li.comment[l] = 1
			}
		}
	}
	return li
}

// Comments reads every annotation comment of a file. Syntax errors come back as an ErrorList
// next to the annotations that were well formed.
func Comments(fset *token.FileSet, file *ast.File) ([]Annotation, error) {
	return comments(fset, file, token.NoPos, token.Pos(math.MaxInt))
}

// comments is Comments for the comments in [lo, hi).
func comments(fset *token.FileSet, file *ast.File, lo, hi token.Pos) ([]Annotation, error) {
	li := scanLines(fset, file, lo, hi)
	var out []Annotation
	var errs ErrorList
	for _, cg := range file.Comments {
		if cg.End() <= lo || cg.Pos() >= hi {
			continue
		}
		for _, c := range cg.List {
			if c.Pos() < lo || c.Pos() >= hi {
				continue
			}
			text, off := c.Text, 2
			if strings.HasPrefix(text, "/*") {
				if strings.Contains(text, "\n") {
					continue
				}
				text = strings.TrimSuffix(text[2:], "*/")
			} else {
				text = text[2:]
			}
			items, ok, err := ParseText(text)
			if !ok {
				continue
			}
			base := fset.Position(c.Pos())
			at := func(o int) token.Position {
				p := base
				p.Offset += off + o
				p.Column += off + o
				return p
			}
			if err != nil {
				se := err.(*SyntaxError)
				errs = append(errs, &Error{Pos: at(se.Off), Msg: se.Msg})
				continue
			}
			trailing := false
			if col, ok := li.code[base.Line]; ok && col < base.Column {
				trailing = true
			}
			line := base.Line
			if !trailing {
				line = 0
				for l := fset.Position(c.End()).Line + 1; ; l++ {
					if _, ok := li.code[l]; ok {
						line = l
						break
					}
					if _, ok := li.comment[l]; !ok {
						break
					}
				}
			}
			for _, it := range items {
				out = append(out, Annotation{Item: it, Pos: at(it.Off), Line: line, Trailing: trailing})
			}
		}
	}
	return out, errs.err()
}

// isHeader reports whether a node is a decision or loop header, which wins its line.
func isHeader(nd *frontend.Node) bool {
	switch nd.AST.(type) {
	case *ast.IfStmt, *ast.ForStmt, *ast.RangeStmt, *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt:
		return nd.Kind != frontend.KindDeferRun
	}
	return false
}

// statement reports whether annotations can attach to a node: one that stands for a statement
// of the body.
func statement(nd *frontend.Node) bool {
	switch nd.Kind {
	case frontend.KindDeferRun, frontend.KindDeferDispatch, frontend.KindEnd, frontend.KindPanic:
		return false
	}
	return nd.AST != nil
}

// nodeAt finds the node an annotation of line line (and column col, when not 0) of file
// filename attaches to, or -1.
func nodeAt(g *frontend.CFG, filename string, line, col int) int {
	best := -1
	for id, nd := range g.Nodes {
		if !statement(nd) {
			continue
		}
		p := g.Fset.Position(nd.AST.Pos())
		if !sameFile(p.Filename, filename) {
			continue
		}
		if col != 0 {
			if p.Line == line && p.Column == col || nd.Pos.Line == line && nd.Pos.Column == col {
				if best < 0 || isHeader(nd) && !isHeader(g.Nodes[best]) {
					best = id
				}
			}
			continue
		}
		if p.Line != line {
			continue
		}
		if best < 0 || isHeader(nd) && !isHeader(g.Nodes[best]) {
			best = id
		}
	}
	return best
}

// sameFile reports whether a node's file name matches a name given by a user: the same, or the
// user's is a path suffix of it (at a "/" boundary), so "distance.go" and "pkg/distance.go"
// both name /home/me/pkg/distance.go.
func sameFile(full, given string) bool {
	full, given = strings.ReplaceAll(full, "\\", "/"), strings.ReplaceAll(given, "\\", "/")
	return full == given || strings.HasSuffix(full, "/"+given)
}

// targets expands an attachment to the nodes that get the reward: a defer statement's reward
// goes to the DeferRun nodes of its call.
func targets(g *frontend.CFG, id int) []int {
	if g.Nodes[id].Kind != frontend.KindDefer {
		return []int{id}
	}
	var out []int
	for _, nd := range g.Nodes {
		if nd.Kind == frontend.KindDeferRun && nd.Defer == id {
			out = append(out, nd.ID)
		}
	}
	return out
}

// Parse reads the annotations in function g's body (comments between its "func" keyword and its
// closing brace) from file, the syntax tree g.Decl belongs to, and attaches them to g's nodes.
// Every reward name found is in the result, even when its nodes run no code. Errors are an
// ErrorList.
func Parse(fset *token.FileSet, file *ast.File, g *frontend.CFG) (Rewards, error) {
	anns, err := comments(fset, file, g.Decl.Pos(), g.Decl.End())
	var errs ErrorList
	lo, hi := fset.Position(g.Decl.Pos()), fset.Position(g.Decl.End())
	// The function literals in the body are functions of their own (F.func1): their annotations
	// are theirs.
	var lits [][2]int
	ast.Inspect(g.Decl.Body, func(x ast.Node) bool {
		if l, ok := x.(*ast.FuncLit); ok {
			lits = append(lits, [2]int{fset.Position(l.Pos()).Offset, fset.Position(l.End()).Offset})
			return false
		}
		return true
	})
	inLit := func(off int) bool {
		for _, r := range lits {
			if off >= r[0] && off < r[1] {
				return true
			}
		}
		return false
	}
	if err != nil {
		for _, e := range err.(ErrorList) {
			if e.Pos.Offset >= lo.Offset && e.Pos.Offset < hi.Offset && !inLit(e.Pos.Offset) {
				errs = append(errs, e)
			}
		}
	}
	r := Rewards{}
	type key struct {
		name string
		node int
	}
	first := map[key]token.Position{}
	n := len(g.Nodes)
	for _, a := range anns {
		if a.Pos.Offset < lo.Offset || a.Pos.Offset >= hi.Offset || inLit(a.Pos.Offset) {
			continue
		}
		if a.Line == 0 {
			errs = append(errs, &Error{Pos: a.Pos, Msg: fmt.Sprintf("@%s attaches to no statement: the line after the comment has no code (annotations go at the end of a statement's line or on the lines directly above it)", a.Name)})
			continue
		}
		id := nodeAt(g, a.Pos.Filename, a.Line, 0)
		if id < 0 {
			errs = append(errs, &Error{Pos: a.Pos, Msg: fmt.Sprintf("@%s attaches to no statement: no statement of %s starts on line %d (case clauses and closing braces take no annotations)", a.Name, frontend.FuncName(g.Decl), a.Line)})
			continue
		}
		k := key{a.Name, id}
		if p, dup := first[k]; dup {
			errs = append(errs, &Error{Pos: a.Pos, Msg: fmt.Sprintf("@%s is given twice for the statement at line %d (first at %s)", a.Name, a.Line, p)})
			continue
		}
		first[k] = a.Pos
		if r[a.Name] == nil {
			r[a.Name] = make([]float64, n)
		}
		for _, t := range targets(g, id) {
			r.set(a.Name, n, t, a.Value)
		}
	}
	return r, errs.err()
}

// ForFunc is Parse for a selected function: it finds the syntax tree the declaration is in.
func ForFunc(fn *frontend.Func) (Rewards, error) {
	for _, f := range fn.Pkg.Syntax {
		if f.Pos() <= fn.Decl.Pos() && fn.Decl.End() <= f.End() {
			return Parse(fn.Pkg.Fset, f, fn.CFG)
		}
	}
	return nil, fmt.Errorf("annot: %s: no syntax tree holds the declaration", fn.Name)
}

// CheckFile reports the annotations of a file that are malformed or lie outside every function
// body, where no statement can take them. Parse, which works per function, cannot see those.
func CheckFile(fset *token.FileSet, file *ast.File) error {
	anns, err := Comments(fset, file)
	var errs ErrorList
	if err != nil {
		errs = append(errs, err.(ErrorList)...)
	}
	for _, a := range anns {
		inside := false
		for _, d := range file.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
				lo, hi := fset.Position(fd.Pos()), fset.Position(fd.End())
				if a.Pos.Offset >= lo.Offset && a.Pos.Offset < hi.Offset {
					inside = true
				}
			}
		}
		if !inside {
			errs = append(errs, &Error{Pos: a.Pos, Msg: fmt.Sprintf("@%s attaches to no statement: it is outside every function body", a.Name)})
		}
	}
	return errs.err()
}
