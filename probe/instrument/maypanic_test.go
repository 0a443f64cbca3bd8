package instrument

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"strings"
	"testing"
)

// TestExprMayPanic checks exprMayPanic on the right side of each assignment of the source, whose
// line ends with "// safe" or "// may panic": comparisons with nil, of interfaces, calls of
// standard-library leaves and of other functions.
func TestExprMayPanic(t *testing.T) {
	const src = `package p

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

type S struct{ x any }

var gp *int

func f(err error, a, b any, p *int, s string, bs []byte, st S, fn func() bool, q *S, pp **S) {
	_ = err != nil // safe
	_ = nil == a // safe
	_ = p == nil // safe
	_ = a == b // may panic
	_ = err == a // may panic
	_ = st == S{} // may panic
	_ = len(s) == 3 // safe
	_ = strings.IndexByte(s, 'x') // safe
	_ = utf8.RuneLen('é') // safe
	_, _ = strconv.Atoi(s) // safe
	_ = strings.Repeat(s, -1) // may panic
	_ = strings.IndexByte(s[1:], 'x') // may panic
	_ = fn() // may panic
	_ = utf8.EncodeRune(bs, 'é') // may panic
	_ = p != nil && *p > 0 // safe
	_ = p == nil || *p > 0 // safe
	_ = (err != nil && p != nil) && (*p > 0 || len(s) > 1) // safe
	_ = q != nil && q.x == nil // safe
	_ = p != nil || *p > 0 // may panic
	_ = p == nil && *p > 0 // may panic
	_ = p != nil && fn() && *p > 0 // may panic
	_ = gp != nil && *gp > 0 // may panic
	_ = pp != nil && (*pp).x == nil // may panic
	_ = *p > 0 && p != nil // may panic
}
`
	fset, f, info := checkedFile(t, src)
	n := 0
	ast.Inspect(f, func(nd ast.Node) bool {
		as, ok := nd.(*ast.AssignStmt)
		if !ok {
			return true
		}
		want, line := marked(t, src, fset, as.Pos())
		if got := exprMayPanic(info, as.Rhs[0]); got != want {
			t.Errorf("%s: may panic %v, want %v", line, got, want)
		}
		n++
		return true
	})
	if n != 24 {
		t.Errorf("%d expressions checked", n)
	}
}

// checkedFile parses and type-checks src, a file of package p.
func checkedFile(t *testing.T, src string) (*token.FileSet, *ast.File, *types.Info) {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "p.go", src, parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Defs: map[*ast.Ident]types.Object{},
		Uses: map[*ast.Ident]types.Object{}, Selections: map[*ast.SelectorExpr]*types.Selection{}}
	if _, err := (&types.Config{Importer: importer.Default()}).Check("p", fset, []*ast.File{f}, info); err != nil {
		t.Fatal(err)
	}
	return fset, f, info
}

// marked returns whether the line of src at pos ends with "// may panic" (else it must end
// with "// safe"), and the line.
func marked(t *testing.T, src string, fset *token.FileSet, pos token.Pos) (bool, string) {
	t.Helper()
	line := strings.TrimSpace(strings.Split(src, "\n")[fset.Position(pos).Line-1])
	may := strings.HasSuffix(line, "// may panic")
	if !may && !strings.HasSuffix(line, "// safe") {
		t.Fatalf("line %q says nothing", line)
	}
	return may, line
}
