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

func f(err error, a, b any, p *int, s string, bs []byte, st S, fn func() bool) {
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
}
`
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
	lines := strings.Split(src, "\n")
	n := 0
	ast.Inspect(f, func(nd ast.Node) bool {
		as, ok := nd.(*ast.AssignStmt)
		if !ok {
			return true
		}
		line := lines[fset.Position(as.Pos()).Line-1]
		want := strings.HasSuffix(line, "// may panic")
		if !want && !strings.HasSuffix(line, "// safe") {
			t.Fatalf("line %q says nothing", line)
		}
		if got := exprMayPanic(info, as.Rhs[0]); got != want {
			t.Errorf("%s: may panic %v, want %v", strings.TrimSpace(line), got, want)
		}
		n++
		return true
	})
	if n != 14 {
		t.Errorf("%d expressions checked", n)
	}
}
