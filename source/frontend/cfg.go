package frontend

import (
	"fmt"
	"go/ast"
	"go/token"
	"io"
	"path/filepath"
	"strings"
)

// Kind says what a node stands for. See the package documentation for how each statement maps to
// nodes.
type Kind int

// The node kinds. Their Dump names are the lower-case words after "Kind".
const (
	KindStmt          Kind = iota // a plain statement, or a decision with a single outcome
	KindEmpty                     // an empty statement or an empty block
	KindDecision                  // if, for condition, range, switch, type switch, select
	KindLoop                      // the head of a for loop without a condition
	KindJump                      // break, continue, goto, fallthrough
	KindReturn                    // a return statement
	KindNoReturn                  // an expression statement calling a function that never returns
	KindDefer                     // a defer statement (registers the call)
	KindGo                        // a go statement
	KindDeferRun                  // a deferred call running while the function leaves
	KindDeferDispatch             // which deferred call runs next (dynamic defer order only)
	KindEnd                       // exit: the function returns normally
	KindPanic                     // exit: the function ends abnormally
)

var kindNames = [...]string{
	KindStmt:          "stmt",
	KindEmpty:         "empty",
	KindDecision:      "decision",
	KindLoop:          "loop",
	KindJump:          "jump",
	KindReturn:        "return",
	KindNoReturn:      "noreturn",
	KindDefer:         "defer",
	KindGo:            "go",
	KindDeferRun:      "deferrun",
	KindDeferDispatch: "deferdispatch",
	KindEnd:           "end",
	KindPanic:         "panic",
}

func (k Kind) String() string {
	if k >= 0 && int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// Chain says why a function is leaving while its deferred calls run.
type Chain int

// The chains of deferred calls.
const (
	ChainNone   Chain = iota // not a DeferRun or DeferDispatch node
	ChainReturn              // a return statement, or the end of the body: ends at End
	ChainPanic               // a panic: ends at Panic unless a deferred call recovers
	ChainGoexit              // runtime.Goexit: ends at Panic, recover has no effect
)

func (c Chain) String() string {
	switch c {
	case ChainNone:
		return "none"
	case ChainReturn:
		return "return"
	case ChainPanic:
		return "panic"
	case ChainGoexit:
		return "goexit"
	}
	return fmt.Sprintf("Chain(%d)", int(c))
}

// Term says how a call that never returns ends the function.
type Term int

// The ways a call can end a function.
const (
	TermNone   Term = iota // the call returns (as far as is known)
	TermPanic              // panics: deferred calls run, recover can stop it
	TermGoexit             // runtime.Goexit: deferred calls run, recover cannot stop it
	TermExit               // the process exits: deferred calls do not run
)

func (t Term) String() string {
	switch t {
	case TermNone:
		return "none"
	case TermPanic:
		return "panic"
	case TermGoexit:
		return "goexit"
	case TermExit:
		return "exit"
	}
	return fmt.Sprintf("Term(%d)", int(t))
}

// Outcome names. "case K" and "defer K" are built with CaseOutcome and DeferOutcome.
const (
	OutTrue      = "true"      // if and for conditions
	OutFalse     = "false"     // if and for conditions
	OutNext      = "next"      // range: one more iteration
	OutDone      = "done"      // range: the loop ends; DeferDispatch: no deferred call left
	OutDefault   = "default"   // switch, type switch, select: the default clause (or no match)
	OutRecovered = "recovered" // DeferRun of a recovering call on the panic chain: recovered
	OutPanicking = "panicking" // DeferRun of a recovering call on the panic chain: not recovered
)

// CaseOutcome is the outcome name of the clause at 1-based position k of a switch, type switch or
// select (unless it is the default clause, whose outcome is OutDefault).
func CaseOutcome(k int) string { return fmt.Sprintf("case %d", k) }

// DeferOutcome is the outcome of a DeferDispatch node that runs the k-th defer statement
// (1-based, source order) of the function.
func DeferOutcome(k int) string { return fmt.Sprintf("defer %d", k) }

// Edge is one successor of a node. Outcome is "" for the only edge of a plain node.
type Edge struct {
	To      int
	Outcome string
	// Back is set on the back edges of the depth-first search that defines loop heads.
	Back bool
}

// Node is a statement, a decision, a deferred call or an exit.
type Node struct {
	ID   int
	Kind Kind
	// Pos and End delimit what the node stands for: the statement; for an if or for decision
	// the condition; for a switch with a tag the tag; for a type switch its guard (x :=
	// y.(type)); for a range, a select, a switch without a tag and a Loop node the statement
	// header from its keyword; for DeferRun the defer statement; for DeferDispatch, End and
	// Panic the closing brace of the function.
	Pos, End token.Position
	// AST is the statement the node stands for (for a decision, Loop and DeferRun node the
	// *ast.IfStmt, *ast.ForStmt, *ast.RangeStmt, *ast.SwitchStmt, *ast.TypeSwitchStmt,
	// *ast.SelectStmt or *ast.DeferStmt); nil for DeferDispatch and the exits.
	AST ast.Node
	// Text is a short one-line rendering of the source, for dumps and diagnostics.
	Text  string
	Succs []Edge

	// Unreachable is set when no path from Entry reaches the node.
	Unreachable bool
	// LoopHead is set when the node is the target of a back edge.
	LoopHead bool
	// Loops lists, in ID order, the heads of the loops the node belongs to (itself included
	// when it is a head).
	Loops []int

	// Term is how a NoReturn node ends the function (and, for Defer and DeferRun nodes, how the
	// deferred call does; TermNone when it returns).
	Term Term
	// Defer is, for a DeferRun node, the ID of the Defer node whose call it runs; -1 otherwise.
	Defer int
	// Chain is, for DeferRun and DeferDispatch nodes, why the function is leaving.
	Chain Chain
	// Recover is set on Defer and DeferRun nodes whose deferred function literal calls recover().
	Recover bool
	// RangeFunc is set on the decision of a range over a function (an iterator).
	RangeFunc bool
}

// IsDecision reports whether the node has more than one outcome.
func (n *Node) IsDecision() bool { return len(n.Succs) > 1 }

// IsExit reports whether the node is End or Panic.
func (n *Node) IsExit() bool { return n.Kind == KindEnd || n.Kind == KindPanic }

// CFG is the statement-level control-flow graph of one function.
type CFG struct {
	Fset *token.FileSet
	Decl *ast.FuncDecl
	// Nodes are indexed by ID.
	Nodes []*Node
	// Entry is the first node executed (always 0); End and Panic are the exits (always the last
	// two nodes, in that order).
	Entry, End, Panic int
	// StmtNode maps every statement of the body (function literals excluded) to its node.
	StmtNode map[ast.Stmt]int
	// Defers holds the IDs of the Defer nodes in source order: defer statement K (as in the
	// outcome "defer K") is Defers[K-1].
	Defers []int
	// DynamicDefers is set when the order of deferred calls is not known statically and
	// DeferDispatch nodes choose it.
	DynamicDefers bool
}

// LoopHeads returns the IDs of the loop heads, ascending.
func (g *CFG) LoopHeads() []int {
	var hs []int
	for _, n := range g.Nodes {
		if n.LoopHead {
			hs = append(hs, n.ID)
		}
	}
	return hs
}

// Preds returns, for every node, the IDs of its predecessors (ascending, one per edge).
func (g *CFG) Preds() [][]int {
	ps := make([][]int, len(g.Nodes))
	for _, n := range g.Nodes {
		for _, e := range n.Succs {
			ps[e.To] = append(ps[e.To], n.ID)
		}
	}
	return ps
}

// FuncName renders a function declaration's name as in a selection: F, T.M or (*T).M.
func FuncName(d *ast.FuncDecl) string {
	if d.Recv == nil || len(d.Recv.List) == 0 {
		return d.Name.Name
	}
	name, ptr := recvName(d.Recv.List[0].Type)
	if ptr {
		return "(*" + name + ")." + d.Name.Name
	}
	return name + "." + d.Name.Name
}

func recvName(t ast.Expr) (name string, ptr bool) {
	for {
		switch x := t.(type) {
		case *ast.ParenExpr:
			t = x.X
		case *ast.StarExpr:
			ptr = true
			t = x.X
		case *ast.IndexExpr:
			t = x.X
		case *ast.IndexListExpr:
			t = x.X
		case *ast.Ident:
			return x.Name, ptr
		default:
			return "?", ptr
		}
	}
}

// Dump writes the graph in the textual format described in the package documentation: a header
// line, then one line per node.
func (g *CFG) Dump(w io.Writer) error {
	order := "none"
	if len(g.Defers) > 0 {
		order = "static"
		if g.DynamicDefers {
			order = "dynamic"
		}
	}
	name := "?"
	if g.Decl != nil {
		name = FuncName(g.Decl)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# %s: entry %d, end %d, panic %d, defers %s\n", name, g.Entry, g.End, g.Panic, order)
	for _, n := range g.Nodes {
		fmt.Fprintf(&b, "%d %s %s  %s", n.ID, n.Kind, shortPos(n.Pos), n.Text)
		if len(n.Succs) > 0 {
			b.WriteString("  ->")
			for i, e := range n.Succs {
				if i > 0 {
					b.WriteByte(',')
				}
				b.WriteByte(' ')
				if e.Outcome != "" {
					b.WriteString(e.Outcome)
					b.WriteByte(':')
				}
				fmt.Fprintf(&b, "%d", e.To)
			}
		}
		var flags []string
		if n.LoopHead {
			flags = append(flags, "loophead")
		}
		if n.Unreachable {
			flags = append(flags, "unreachable")
		}
		if len(flags) > 0 {
			fmt.Fprintf(&b, "  [%s]", strings.Join(flags, " "))
		}
		b.WriteByte('\n')
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func shortPos(p token.Position) string {
	if !p.IsValid() {
		return "-"
	}
	return fmt.Sprintf("%s:%d:%d", filepath.Base(p.Filename), p.Line, p.Column)
}

// Error is a construct the front end cannot represent, with its position.
type Error struct {
	Pos token.Position
	Msg string
}

func (e *Error) Error() string {
	if e.Pos.IsValid() {
		return e.Pos.String() + ": " + e.Msg
	}
	return e.Msg
}
