package frontend

import (
	"bytes"
	"flag"
	"fmt"
	"go/ast"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

var (
	corpusOnce sync.Once
	corpusProg *Program
	corpusErr  error
)

// corpus loads testdata/src/corpus (its own module) once.
func corpus(t *testing.T) *Program {
	t.Helper()
	corpusOnce.Do(func() {
		corpusProg, corpusErr = Load(filepath.Join("testdata", "src", "corpus"), ".")
	})
	if corpusErr != nil {
		t.Fatal(corpusErr)
	}
	return corpusProg
}

func corpusFuncs(t *testing.T) []*Func {
	t.Helper()
	fns, err := corpus(t).Select("corpus")
	if err != nil {
		t.Fatal(err)
	}
	return fns
}

func dump(t *testing.T, g *CFG) string {
	t.Helper()
	var buf bytes.Buffer
	if err := g.Dump(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// goldenName is the golden file of a corpus function: its name without the package, with "*",
// "(" and ")" removed.
func goldenName(fn *Func) string {
	name := strings.TrimPrefix(fn.Name, "corpus.")
	name = strings.NewReplacer("(", "", ")", "", "*", "").Replace(name)
	return filepath.Join("testdata", name+".golden")
}

func TestGolden(t *testing.T) {
	fns := corpusFuncs(t)
	want := map[string]bool{}
	for _, fn := range fns {
		path := goldenName(fn)
		want[path] = true
		got := dump(t, fn.CFG)
		if *update {
			if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Errorf("%s: %v (run go test -update)", fn.Name, err)
			continue
		}
		if string(b) != got {
			t.Errorf("%s: dump differs from %s (go test -update rewrites it):\n--- got\n%s--- want\n%s", fn.Name, path, got, b)
		}
	}
	files, _ := filepath.Glob(filepath.Join("testdata", "*.golden"))
	for _, f := range files {
		if !want[f] {
			if *update {
				os.Remove(f)
			} else {
				t.Errorf("%s belongs to no corpus function", f)
			}
		}
	}
}

func TestProperties(t *testing.T) {
	for _, fn := range corpusFuncs(t) {
		checkCFG(t, fn.Name, fn.CFG)
	}
}

// TestStdlib builds and checks the graph of every function of a few standard packages, which
// use most of the language in ways the corpus may not.
func TestStdlib(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	pkgs := []string{"strconv", "bufio", "text/template/parse", "encoding/json", "go/scanner", "sort", "regexp/syntax"}
	if env := os.Getenv("FRONTEND_STD_PKGS"); env != "" {
		pkgs = strings.Fields(env) // a wider check by hand, e.g. FRONTEND_STD_PKGS="net/http go/types"
	}
	prog, err := Load(".", pkgs...)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, p := range pkgs {
		fns, err := prog.Select(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, fn := range fns {
			checkCFG(t, fn.Name, fn.CFG)
			n++
		}
	}
	t.Logf("%d functions checked", n)
}

// checkCFG checks the properties every graph must have.
func checkCFG(t *testing.T, name string, g *CFG) {
	t.Helper()
	errorf := func(format string, args ...any) {
		t.Helper()
		t.Errorf("%s: %s", name, fmt.Sprintf(format, args...))
	}
	N := len(g.Nodes)
	if g.Entry != 0 || g.End != N-2 || g.Panic != N-1 {
		errorf("entry %d, end %d, panic %d with %d nodes", g.Entry, g.End, g.Panic, N)
	}
	if g.Nodes[g.End].Kind != KindEnd || g.Nodes[g.Panic].Kind != KindPanic {
		errorf("exits have kinds %v, %v", g.Nodes[g.End].Kind, g.Nodes[g.Panic].Kind)
	}

	// IDs, edges, outcomes.
	bodyEnd := N - 2 // first non-body node
	for id, n := range g.Nodes {
		if n.Kind == KindDeferRun || n.Kind == KindDeferDispatch {
			bodyEnd = min(bodyEnd, id)
		}
	}
	for id, n := range g.Nodes {
		if n.ID != id {
			errorf("node %d has ID %d", id, n.ID)
		}
		if (id >= bodyEnd) != (n.Kind == KindDeferRun || n.Kind == KindDeferDispatch || n.IsExit()) {
			errorf("node %d (%v) is out of place (body ends at %d)", id, n.Kind, bodyEnd)
		}
		if n.IsExit() {
			if len(n.Succs) != 0 {
				errorf("exit %d has successors", id)
			}
			continue
		}
		if len(n.Succs) == 0 {
			errorf("node %d (%s) has no successor", id, n.Text)
		}
		if !n.Pos.IsValid() {
			errorf("node %d has no position", id)
		}
		outs := map[string]bool{}
		for _, e := range n.Succs {
			if e.To < 0 || e.To >= N {
				errorf("node %d has edge to %d", id, e.To)
			}
			if len(n.Succs) == 1 && e.Outcome != "" {
				errorf("plain node %d has outcome %q", id, e.Outcome)
			}
			if len(n.Succs) > 1 && e.Outcome == "" {
				errorf("decision %d has an unnamed outcome", id)
			}
			if outs[e.Outcome] {
				errorf("node %d has outcome %q twice", id, e.Outcome)
			}
			outs[e.Outcome] = true
		}
		if (n.Kind == KindDecision) != (n.IsDecision() && n.Kind != KindDeferRun && n.Kind != KindDeferDispatch) {
			errorf("node %d has kind %v and %d edges", id, n.Kind, len(n.Succs))
		}
		if n.IsDecision() {
			checkOutcomes(t, name, n)
		}
		if n.Kind == KindDeferRun {
			if d := n.Defer; d < 0 || d >= N || g.Nodes[d].Kind != KindDefer {
				errorf("DeferRun %d runs node %d", id, d)
			}
		}
	}

	// Reachability: Unreachable is exactly "not reached from Entry".
	reach := make([]bool, N)
	reach[g.Entry] = true
	work := []int{g.Entry}
	for len(work) > 0 {
		u := work[len(work)-1]
		work = work[:len(work)-1]
		for _, e := range g.Nodes[u].Succs {
			if !reach[e.To] {
				reach[e.To] = true
				work = append(work, e.To)
			}
		}
	}
	for id, n := range g.Nodes {
		if n.Unreachable == reach[id] {
			errorf("node %d: Unreachable %v but reached %v", id, n.Unreachable, reach[id])
		}
	}

	// Loop heads are exactly the targets of back edges, and every cycle has a back edge.
	heads := map[int]bool{}
	for _, n := range g.Nodes {
		for _, e := range n.Succs {
			if e.Back {
				heads[e.To] = true
			}
		}
	}
	for id, n := range g.Nodes {
		if n.LoopHead != heads[id] {
			errorf("node %d: LoopHead %v", id, n.LoopHead)
		}
		if n.LoopHead && (len(n.Loops) == 0 || !contains(n.Loops, id)) {
			errorf("loop head %d not in its own loop: %v", id, n.Loops)
		}
	}
	if hasCycle(g, func(e Edge) bool { return !e.Back }) {
		errorf("a cycle has no back edge")
	}

	// Nothing is dropped: every statement of the body maps to one node of the body, and every
	// body node is the node of the statement it stands for.
	if g.Decl == nil {
		return
	}
	ast.Inspect(g.Decl.Body, func(x ast.Node) bool {
		if _, ok := x.(*ast.FuncLit); ok {
			return false
		}
		s, ok := x.(ast.Stmt)
		if !ok {
			return true
		}
		id, ok := g.StmtNode[s]
		if !ok {
			errorf("%v: statement %T has no node", g.Fset.Position(s.Pos()), s)
			return true
		}
		if id < 0 || id >= bodyEnd {
			errorf("%v: statement %T maps to node %d", g.Fset.Position(s.Pos()), s, id)
		}
		return true
	})
	for id, n := range g.Nodes[:bodyEnd] {
		s, ok := n.AST.(ast.Stmt)
		if !ok {
			errorf("body node %d stands for %T", id, n.AST)
			continue
		}
		if g.StmtNode[s] != id {
			errorf("node %d stands for a statement mapped to %d", id, g.StmtNode[s])
		}
	}
	for i, d := range g.Defers {
		if g.Nodes[d].Kind != KindDefer || i > 0 && d <= g.Defers[i-1] {
			errorf("Defers %v", g.Defers)
		}
	}
}

// checkOutcomes checks a decision's outcome names against the documented rules.
func checkOutcomes(t *testing.T, name string, n *Node) {
	t.Helper()
	var want []string
	switch s := n.AST.(type) {
	case *ast.IfStmt, *ast.ForStmt:
		want = []string{OutTrue, OutFalse}
	case *ast.RangeStmt:
		want = []string{OutNext, OutDone}
	case *ast.SwitchStmt, *ast.TypeSwitchStmt, *ast.SelectStmt:
		var body *ast.BlockStmt
		switch s := s.(type) {
		case *ast.SwitchStmt:
			body = s.Body
		case *ast.TypeSwitchStmt:
			body = s.Body
		case *ast.SelectStmt:
			body = s.Body
		}
		hasDefault := false
		for k, c := range body.List {
			isDefault := false
			switch c := c.(type) {
			case *ast.CaseClause:
				isDefault = c.List == nil
			case *ast.CommClause:
				isDefault = c.Comm == nil
			}
			if isDefault {
				hasDefault = true
				want = append(want, OutDefault)
			} else {
				want = append(want, CaseOutcome(k+1))
			}
		}
		if _, sel := s.(*ast.SelectStmt); !sel && !hasDefault {
			want = append(want, OutDefault)
		}
	case *ast.DeferStmt:
		want = []string{OutRecovered, OutPanicking}
	case nil: // dispatch
		for k := range len(n.Succs) - 1 {
			want = append(want, DeferOutcome(k+1))
		}
		want = append(want, OutDone)
	default:
		t.Errorf("%s: decision %d stands for %T", name, n.ID, s)
		return
	}
	var got []string
	for _, e := range n.Succs {
		got = append(got, e.Outcome)
	}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("%s: node %d (%s) has outcomes %q, want %q", name, n.ID, n.Text, got, want)
	}
}

func contains(xs []int, x int) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// hasCycle reports whether the edges that keep form a cycle.
func hasCycle(g *CFG, keep func(Edge) bool) bool {
	color := make([]int, len(g.Nodes))
	var visit func(u int) bool
	visit = func(u int) bool {
		color[u] = 1
		for _, e := range g.Nodes[u].Succs {
			if !keep(e) {
				continue
			}
			if color[e.To] == 1 || color[e.To] == 0 && visit(e.To) {
				return true
			}
		}
		color[u] = 2
		return false
	}
	for id := range g.Nodes {
		if color[id] == 0 && visit(id) {
			return true
		}
	}
	return false
}
