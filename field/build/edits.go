package build

import (
	"fmt"
	"go/ast"
	"go/token"
	"sort"
	"strconv"
	"strings"
)

// edit replaces src[pos:end] (an insertion when end == pos) with text. Edits at the same offset
// apply in (prio, seq) order. The edit machinery follows probe/instrument's: text goes on
// existing lines only, so that positions in panics and stack traces stay the user's.
type edit struct {
	pos, end int
	prio     int
	seq      int
	text     string
}

// fileEdits collects the edits of one source file.
type fileEdits struct {
	fset   *token.FileSet
	src    []byte
	edits  []edit
	parent map[ast.Node]ast.Node
	// prefix replaces "_augur_" in every inserted text (see namePrefix).
	prefix string
}

func (f *fileEdits) off(p token.Pos) int { return f.fset.Position(p).Offset }

func (f *fileEdits) add(pos token.Pos, prio int, text string) { f.addAt(f.off(pos), prio, text) }

// addAt inserts text at byte offset o.
func (f *fileEdits) addAt(o, prio int, text string) {
	f.edits = append(f.edits, edit{pos: o, end: o, prio: prio, seq: len(f.edits), text: text})
}

func (f *fileEdits) insert(p token.Pos, text string) { f.add(p, 1, text) }

func (f *fileEdits) apply() ([]byte, error) {
	es := append([]edit(nil), f.edits...)
	sort.SliceStable(es, func(i, j int) bool {
		if es[i].pos != es[j].pos {
			return es[i].pos < es[j].pos
		}
		return es[i].prio < es[j].prio
	})
	var b strings.Builder
	last := 0
	for _, e := range es {
		if e.pos < last {
			return nil, fmt.Errorf("internal error: overlapping edits at offset %d", e.pos)
		}
		b.Write(f.src[last:e.pos])
		b.WriteString(strings.ReplaceAll(e.text, "_augur_", f.prefix))
		last = e.end
	}
	b.Write(f.src[last:])
	return []byte(b.String()), nil
}

func (f *fileEdits) parents(body *ast.BlockStmt) {
	var stack []ast.Node
	ast.Inspect(body, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return false
		}
		if len(stack) > 0 {
			f.parent[n] = stack[len(stack)-1]
		}
		stack = append(stack, n)
		return true
	})
}

// beforeStmt inserts text so that it runs right before s: a labelled loop, switch or select
// keeps its label (the text goes before the label), and an else-if gets braces around it.
func (f *fileEdits) beforeStmt(s ast.Stmt, text string) {
	var target ast.Node = s
	switch s.(type) {
	case *ast.ForStmt, *ast.RangeStmt, *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt:
		for {
			l, ok := f.parent[target].(*ast.LabeledStmt)
			if !ok {
				break
			}
			target = l
		}
	}
	if ifs, ok := f.parent[target].(*ast.IfStmt); ok && ifs.Else == target {
		f.insert(target.Pos(), "{"+text)
		f.add(target.End(), 5, "}")
		return
	}
	f.insert(target.Pos(), text)
}

// namePrefix is the prefix of every name augur adds to a package: "_augur_", or "_augur<k>_"
// with the least k such that no identifier of the package starts with it.
func namePrefix(files []*ast.File) string {
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
