// Package srcedit is how augur's instrumentations (probe/instrument's counters, field/build's
// field probes) rewrite a Go source file: edits at byte offsets applied in one pass, inserted
// text on existing lines only, so that line numbers in errors, panics and stack traces stay the
// user's, and inserted names under a prefix no identifier of the package uses. It owns the
// edits; what to insert is its callers'. It must not touch the user's files: Apply returns the
// new text.
package srcedit

import (
	"fmt"
	"go/ast"
	"go/token"
	"sort"
	"strconv"
	"strings"
)

// edit replaces src[pos:end] (an insertion when end == pos) with text. Edits at the same offset
// apply in (prio, seq) order.
type edit struct {
	pos, end int
	prio     int
	seq      int
	text     string
}

// File collects the edits of one source file.
type File struct {
	Fset *token.FileSet
	Src  []byte
	// Parent maps each node of the bodies given to Parents to its parent.
	Parent map[ast.Node]ast.Node
	// Prefix replaces "_augur_" in every inserted text (see NamePrefix).
	Prefix string
	edits  []edit
}

// New starts the edits of the file whose text is src.
func New(fset *token.FileSet, src []byte, prefix string) *File {
	return &File{Fset: fset, Src: src, Parent: map[ast.Node]ast.Node{}, Prefix: prefix}
}

// Off is p's byte offset in its file.
func (f *File) Off(p token.Pos) int { return f.Fset.Position(p).Offset }

// Add replaces the text from pos to end with text (an insertion when end is NoPos).
func (f *File) Add(pos, end token.Pos, prio int, text string) {
	e := end
	if end == token.NoPos {
		e = pos
	}
	f.edits = append(f.edits, edit{pos: f.Off(pos), end: f.Off(e), prio: prio, seq: len(f.edits), text: text})
}

// AddAt inserts text at byte offset o.
func (f *File) AddAt(o, prio int, text string) {
	f.edits = append(f.edits, edit{pos: o, end: o, prio: prio, seq: len(f.edits), text: text})
}

// Insert adds text at p.
func (f *File) Insert(p token.Pos, text string) { f.Add(p, token.NoPos, 1, text) }

// Len is the number of edits so far; Truncate(n) drops the edits made after Len was n, so that a
// rewrite can be run again with what its first pass learnt.
func (f *File) Len() int { return len(f.edits) }

// Truncate drops the edits after the first n.
func (f *File) Truncate(n int) { f.edits = f.edits[:n] }

// Apply returns the rewritten source. Replaced text keeps its newlines, so every line stays
// where it was.
func (f *File) Apply() ([]byte, error) {
	es := append([]edit(nil), f.edits...)
	sort.SliceStable(es, func(i, j int) bool {
		if es[i].pos != es[j].pos {
			return es[i].pos < es[j].pos
		}
		if es[i].prio != es[j].prio {
			return es[i].prio < es[j].prio
		}
		return es[i].seq < es[j].seq
	})
	var b strings.Builder
	last := 0
	for _, e := range es {
		if e.pos < last {
			return nil, fmt.Errorf("internal error: overlapping edits at offset %d", e.pos)
		}
		b.Write(f.Src[last:e.pos])
		b.WriteString(strings.ReplaceAll(e.text, "_augur_", f.Prefix))
		last = e.end
	}
	b.Write(f.Src[last:])
	return []byte(b.String()), nil
}

// Parents records the parent of every node of body.
func (f *File) Parents(body *ast.BlockStmt) {
	var stack []ast.Node
	ast.Inspect(body, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return false
		}
		if len(stack) > 0 {
			f.Parent[n] = stack[len(stack)-1]
		}
		stack = append(stack, n)
		return true
	})
}

// BeforeStmt inserts text so that it runs right before s, whatever the position of s: a
// labelled loop, switch or select keeps its label on the statement (the text goes before the
// label; a goto to that label skips it), and an else-if gets braces around it. Parents must have
// seen the body that holds s.
func (f *File) BeforeStmt(s ast.Stmt, text string) {
	var target ast.Node = s
	switch s.(type) {
	case *ast.ForStmt, *ast.RangeStmt, *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt:
		for {
			l, ok := f.Parent[target].(*ast.LabeledStmt)
			if !ok {
				break
			}
			target = l
		}
	}
	if ifs, ok := f.Parent[target].(*ast.IfStmt); ok && ifs.Else == target {
		f.Insert(target.Pos(), "{"+text)
		f.Add(target.End(), token.NoPos, 5, "}")
		return
	}
	f.Insert(target.Pos(), text)
}

// NamePrefix is the prefix of every name augur adds to a package: "_augur_", or "_augur<k>_"
// with the least k such that no identifier of the package starts with it.
func NamePrefix(files []*ast.File) string {
	for k := 0; ; k++ {
		prefix := "_augur_"
		if k > 0 {
			prefix = "_augur" + strconv.Itoa(k) + "_"
		}
		clash := false
		for _, f := range files {
			ast.Inspect(f, func(n ast.Node) bool {
				if id, ok := n.(*ast.Ident); ok && strings.HasPrefix(id.Name, prefix) {
					clash = true
				}
				return !clash
			})
		}
		if !clash {
			return prefix
		}
	}
}
