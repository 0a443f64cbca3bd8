package regions

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
)

// Span is a region located in freshly parsed syntax: the statements
// List[Lo..Hi] of one statement list, or, for a region that starts at an
// "else if", the IfStmt ElseIf alone (it is in no list, so an instrumenter
// has to wrap it in a block).
type Span struct {
	Fset *token.FileSet
	File *ast.File
	Src  []byte
	// Func is the innermost *ast.FuncDecl or *ast.FuncLit holding the span;
	// Body is its body.
	Func ast.Node
	Body *ast.BlockStmt
	// Container is the *ast.BlockStmt, *ast.CaseClause or *ast.CommClause
	// whose statement list holds the span; nil for an else-if span.
	Container ast.Node
	List      []ast.Stmt
	Lo, Hi    int
	ElseIf    *ast.IfStmt
	// Parent maps every node of File to its parent.
	Parent map[ast.Node]ast.Node
}

// Stmts returns the span's statements.
func (s *Span) Stmts() []ast.Stmt {
	if s.ElseIf != nil {
		return []ast.Stmt{s.ElseIf}
	}
	return s.List[s.Lo : s.Hi+1]
}

// Pos and End delimit the span's source text.
func (s *Span) Pos() token.Pos { return s.Stmts()[0].Pos() }

// End is the end of the span's last statement.
func (s *Span) End() token.Pos { st := s.Stmts(); return st[len(st)-1].End() }

// ParsedFile is one source file parsed with a parent map, shared by every
// span located in it.
type ParsedFile struct {
	Fset   *token.FileSet
	File   *ast.File
	Src    []byte
	Parent map[ast.Node]ast.Node
	tf     *token.File
}

// ParseFile parses name afresh, so that offsets recorded by the analysis
// (which read the same bytes) address the same syntax.
func ParseFile(name string) (*ParsedFile, error) {
	src, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, src, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	pf := &ParsedFile{Fset: fset, File: f, Src: src, Parent: map[ast.Node]ast.Node{}, tf: fset.File(f.Pos())}
	var stack []ast.Node
	ast.Inspect(f, func(n ast.Node) bool {
		if n == nil {
			stack = stack[:len(stack)-1]
			return false
		}
		if len(stack) > 0 {
			pf.Parent[n] = stack[len(stack)-1]
		}
		stack = append(stack, n)
		return true
	})
	return pf, nil
}

// Off is the byte offset of p.
func (pf *ParsedFile) Off(p token.Pos) int { return pf.tf.Offset(p) }

// Pos is the position at byte offset off.
func (pf *ParsedFile) Pos(off int) token.Pos { return pf.tf.Pos(off) }

// stmtAt finds the statement of kind ok that starts at off.
func (pf *ParsedFile) stmtAt(off int, ok func(ast.Stmt) bool) ast.Stmt {
	var found ast.Stmt
	ast.Inspect(pf.File, func(n ast.Node) bool {
		if found != nil || n == nil {
			return false
		}
		if pf.Off(n.Pos()) > off || pf.Off(n.End()) <= off {
			return false
		}
		if s, isStmt := n.(ast.Stmt); isStmt && pf.Off(s.Pos()) == off && ok(s) {
			found = s
			return false
		}
		return true
	})
	return found
}

// enclosingFunc is the innermost function declaration or literal holding n.
func (pf *ParsedFile) enclosingFunc(n ast.Node) (ast.Node, *ast.BlockStmt) {
	for p := pf.Parent[n]; p != nil; p = pf.Parent[p] {
		switch f := p.(type) {
		case *ast.FuncDecl:
			return f, f.Body
		case *ast.FuncLit:
			return f, f.Body
		}
	}
	return nil, nil
}

// listOf places statement s in its statement list: the element is s or the
// labeled statement wrapping it.
func (pf *ParsedFile) listOf(s ast.Stmt) (container ast.Node, list []ast.Stmt, idx int, elseIf *ast.IfStmt) {
	elem := ast.Stmt(s)
	p := pf.Parent[elem]
	for {
		l, ok := p.(*ast.LabeledStmt)
		if !ok {
			break
		}
		elem = l
		p = pf.Parent[l]
	}
	switch c := p.(type) {
	case *ast.BlockStmt:
		list = c.List
	case *ast.CaseClause:
		list = c.Body
	case *ast.CommClause:
		list = c.Body
	case *ast.IfStmt:
		if c.Else == elem {
			if is, ok := elem.(*ast.IfStmt); ok {
				return nil, nil, -1, is
			}
		}
		return nil, nil, -1, nil
	default:
		return nil, nil, -1, nil
	}
	for i, x := range list {
		if x == elem {
			return p, list, i, nil
		}
	}
	return nil, nil, -1, nil
}

// Locate finds r's statements in pf (which must be r.File parsed by
// ParseFile): the statement list element starting at r.Start and every
// following statement that ends at or before r.End.
func Locate(pf *ParsedFile, r Region) (*Span, error) {
	s := pf.stmtAt(r.Start.Offset, func(s ast.Stmt) bool {
		_, _, i, ei := pf.listOf(s)
		return i >= 0 || ei != nil
	})
	if s == nil {
		return nil, fmt.Errorf("%s: region %d: no statement starts here (the file changed?)", r.Start, r.ID)
	}
	sp := &Span{Fset: pf.Fset, File: pf.File, Src: pf.Src, Parent: pf.Parent}
	sp.Func, sp.Body = pf.enclosingFunc(s)
	if sp.Func == nil {
		return nil, fmt.Errorf("%s: region %d: not inside a function", r.Start, r.ID)
	}
	var i int
	sp.Container, sp.List, i, sp.ElseIf = pf.listOf(s)
	if sp.ElseIf != nil {
		return sp, nil
	}
	sp.Lo, sp.Hi = i, i
	for k := i + 1; k < len(sp.List); k++ {
		if pf.Off(sp.List[k].End()) > r.End.Offset {
			break
		}
		sp.Hi = k
	}
	return sp, nil
}
