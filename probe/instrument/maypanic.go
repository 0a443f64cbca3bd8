package instrument

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
	"strings"

	"github.com/augur-perf/augur/source/frontend"
)

// nodeMayPanic reports whether running node nd itself (not its successors) may panic: only such
// nodes store their ID in the frame, so the check must be conservative. Explicit panics and
// Goexit (NoReturn nodes) always store it: the exit hook tells them from implicit panics by it.
func nodeMayPanic(info *types.Info, nd *frontend.Node) bool {
	switch nd.Kind {
	case frontend.KindEmpty, frontend.KindJump, frontend.KindLoop, frontend.KindEnd, frontend.KindPanic,
		frontend.KindDeferRun, frontend.KindDeferDispatch:
		return false
	case frontend.KindNoReturn:
		return nd.Term != frontend.TermExit
	case frontend.KindGo:
		return true
	}
	switch s := nd.AST.(type) {
	case *ast.IfStmt:
		return exprMayPanic(info, s.Cond)
	case *ast.ForStmt:
		return exprMayPanic(info, s.Cond)
	case *ast.RangeStmt:
		if tv, ok := info.Types[s.X]; ok {
			switch u := tv.Type.Underlying().(type) {
			case *types.Signature:
				return true // the iterator runs here
			case *types.Pointer:
				_ = u
				return true // a nil pointer to an array
			}
		}
		return exprMayPanic(info, s.X)
	case *ast.SwitchStmt:
		if s.Tag != nil {
			if exprMayPanic(info, s.Tag) || !simpleComparable(info, s.Tag) {
				return true
			}
		}
		for _, c := range s.Body.List {
			for _, e := range c.(*ast.CaseClause).List {
				if exprMayPanic(info, e) || s.Tag != nil && !simpleComparable(info, e) {
					return true
				}
			}
		}
		return false
	case *ast.TypeSwitchStmt:
		var x ast.Expr
		switch a := s.Assign.(type) {
		case *ast.AssignStmt:
			x = a.Rhs[0]
		case *ast.ExprStmt:
			x = a.X
		}
		if ta, ok := x.(*ast.TypeAssertExpr); ok {
			return exprMayPanic(info, ta.X)
		}
		return true
	case *ast.SelectStmt:
		for _, c := range s.Body.List {
			cc := c.(*ast.CommClause)
			switch comm := cc.Comm.(type) {
			case nil:
			case *ast.SendStmt:
				return true // send on a closed channel
			default:
				if stmtMayPanic(info, comm) {
					return true
				}
			}
		}
		return false
	case ast.Stmt:
		return stmtMayPanic(info, s)
	}
	return true
}

func stmtMayPanic(info *types.Info, s ast.Stmt) bool {
	switch s := s.(type) {
	case *ast.ExprStmt:
		return exprMayPanic(info, s.X)
	case *ast.IncDecStmt:
		return exprMayPanic(info, s.X)
	case *ast.SendStmt:
		return true
	case *ast.AssignStmt:
		switch s.Tok {
		case token.QUO_ASSIGN, token.REM_ASSIGN:
			if isInteger(info, s.Lhs[0]) && !nonZeroConst(info, s.Rhs[0]) {
				return true
			}
		case token.SHL_ASSIGN, token.SHR_ASSIGN:
			if !constShift(info, s.Rhs[0]) {
				return true
			}
		}
		commaOK := len(s.Lhs) == 2 && len(s.Rhs) == 1
		for _, e := range s.Rhs {
			if ta, ok := e.(*ast.TypeAssertExpr); ok && commaOK {
				if exprMayPanic(info, ta.X) {
					return true
				}
				continue
			}
			if exprMayPanic(info, e) {
				return true
			}
		}
		for _, e := range s.Lhs {
			if exprMayPanic(info, e) {
				return true
			}
		}
		return false
	case *ast.DeclStmt:
		gd, ok := s.Decl.(*ast.GenDecl)
		if !ok {
			return true
		}
		for _, sp := range gd.Specs {
			if vs, ok := sp.(*ast.ValueSpec); ok {
				commaOK := len(vs.Names) == 2 && len(vs.Values) == 1
				for _, e := range vs.Values {
					if ta, ok := e.(*ast.TypeAssertExpr); ok && commaOK {
						e = ta.X
					}
					if exprMayPanic(info, e) {
						return true
					}
				}
			}
		}
		return false
	case *ast.ReturnStmt:
		for _, e := range s.Results {
			if exprMayPanic(info, e) {
				return true
			}
		}
		return false
	case *ast.DeferStmt:
		return callArgsMayPanic(info, s.Call)
	case *ast.EmptyStmt, *ast.BranchStmt:
		return false
	}
	return true
}

// callArgsMayPanic reports whether evaluating a deferred call's function value and arguments
// (not the call) may panic.
func callArgsMayPanic(info *types.Info, call *ast.CallExpr) bool {
	switch f := ast.Unparen(call.Fun).(type) {
	case *ast.Ident, *ast.FuncLit:
	case *ast.SelectorExpr:
		if exprMayPanic(info, f) {
			return true
		}
	default:
		if exprMayPanic(info, f) {
			return true
		}
	}
	for _, a := range call.Args {
		if exprMayPanic(info, a) {
			return true
		}
	}
	return false
}

var safeBuiltins = map[string]bool{
	"len": true, "cap": true, "append": true, "copy": true, "min": true, "max": true, "new": true,
	"complex": true, "real": true, "imag": true, "clear": true,
}

// exprMayPanic reports whether evaluating e may panic (conservatively).
func exprMayPanic(info *types.Info, e ast.Expr) bool {
	return mayPanicWith(info, e, nil)
}

// mayPanicWith is exprMayPanic where the local variables in nonNil are known not to be nil, so
// that selecting a field of the struct one points to, or dereferencing it, cannot panic. The
// right operand of an && knows the variables its left operand compares unequal to nil (of an ||,
// equal), when neither calls anything but what cannot change a variable (go-toml's Node.Valid,
// "n != nil && n.Kind != Invalid", is then a tiny leaf).
func mayPanicWith(info *types.Info, e ast.Expr, nonNil map[types.Object]bool) bool {
	if e == nil {
		return false
	}
	may := false
	ast.Inspect(e, func(n ast.Node) bool {
		if may || n == nil {
			return false
		}
		if x, ok := n.(ast.Expr); ok {
			if tv, ok := info.Types[x]; ok && (tv.IsType() || tv.Value != nil) {
				return false // a type, or a constant
			}
		}
		switch x := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CallExpr:
			if tv, ok := info.Types[x.Fun]; ok && tv.IsType() {
				switch tv.Type.Underlying().(type) {
				case *types.Basic, *types.Interface, *types.Slice, *types.Map, *types.Chan, *types.Signature, *types.Struct:
					return true // a conversion that cannot fail
				}
				may = true
				return false
			}
			if id, ok := ast.Unparen(x.Fun).(*ast.Ident); ok {
				if b, ok := info.Uses[id].(*types.Builtin); ok && safeBuiltins[b.Name()] {
					return true
				}
			}
			if safeStdLeaf(calleeOf(info, x)) {
				return true
			}
			may = true
		case *ast.IndexExpr:
			if tv, ok := info.Types[x.X]; ok {
				if _, ok := tv.Type.Underlying().(*types.Signature); ok {
					return true // instantiation
				}
			}
			if isSafeIndex(x) {
				return true
			}
			may = true
		case *ast.StarExpr:
			if !nonNil[info.Uses[identOf(ast.Unparen(x.X))]] {
				may = true
			}
		case *ast.IndexListExpr, *ast.SliceExpr, *ast.TypeAssertExpr:
			may = true
		case *ast.SelectorExpr:
			if sel, ok := info.Selections[x]; ok && sel.Indirect() &&
				!(sel.Kind() == types.FieldVal && len(sel.Index()) == 1 && nonNil[info.Uses[identOf(ast.Unparen(x.X))]]) {
				may = true
			}
			if _, ok := info.Uses[x.Sel]; ok {
				if _, isPkg := info.Uses[identOf(x.X)].(*types.PkgName); isPkg {
					return false
				}
			}
		case *ast.BinaryExpr:
			switch x.Op {
			case token.LAND, token.LOR:
				if known := nonNilTerms(info, x.X, x.Op); len(known) > 0 && !callsAny(info, x) {
					for k, v := range nonNil {
						known[k] = v
					}
					may = mayPanicWith(info, x.X, nonNil) || mayPanicWith(info, x.Y, known)
					return false
				}
			case token.QUO, token.REM:
				if isInteger(info, x) && !nonZeroConst(info, x.Y) {
					may = true
				}
			case token.SHL, token.SHR:
				if !constShift(info, x.Y) {
					may = true
				}
			case token.EQL, token.NEQ:
				if comparisonMayPanic(info, x.X, x.Y) {
					may = true
				}
			}
		case *ast.CompositeLit:
			if tv, ok := info.Types[x]; ok {
				if m, ok := tv.Type.Underlying().(*types.Map); ok {
					if _, ok := m.Key().Underlying().(*types.Interface); ok {
						may = true
					}
				}
			}
		case *ast.UnaryExpr:
			if x.Op == token.AND {
				if _, ok := ast.Unparen(x.X).(*ast.CompositeLit); ok {
					return true
				}
			}
		}
		return !may
	})
	return may
}

// nonNilTerms are the local variables that the left operand e of an && (op) or || compares
// unequal to nil in one of its conjuncts (x != nil && ...), or equal in one of its disjuncts (x
// == nil || ...): those the right operand, evaluated when e is true or false, knows are not nil.
func nonNilTerms(info *types.Info, e ast.Expr, op token.Token) map[types.Object]bool {
	cmp := token.NEQ
	if op == token.LOR {
		cmp = token.EQL
	}
	known := map[types.Object]bool{}
	var walk func(e ast.Expr)
	walk = func(e ast.Expr) {
		b, ok := ast.Unparen(e).(*ast.BinaryExpr)
		if !ok {
			return
		}
		switch b.Op {
		case op:
			walk(b.X)
			walk(b.Y)
		case cmp:
			for _, ab := range [][2]ast.Expr{{b.X, b.Y}, {b.Y, b.X}} {
				v, isVar := info.Uses[identOf(ast.Unparen(ab[0]))].(*types.Var)
				if tv, ok := info.Types[ab[1]]; ok && tv.IsNil() && isVar && v.Parent() != nil && v.Parent() != v.Pkg().Scope() {
					known[v] = true
				}
			}
		}
	}
	walk(e)
	return known
}

// callsAny reports whether e calls anything but a builtin or a conversion that cannot fail:
// a call between a comparison with nil and a dereference could change the variable.
func callsAny(info *types.Info, e ast.Expr) bool {
	calls := false
	ast.Inspect(e, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CallExpr:
			if tv, ok := info.Types[x.Fun]; ok && tv.IsType() {
				return true
			}
			if id, ok := ast.Unparen(x.Fun).(*ast.Ident); ok {
				if b, ok := info.Uses[id].(*types.Builtin); ok && safeBuiltins[b.Name()] {
					return true
				}
			}
			calls = true
		}
		return !calls
	})
	return calls
}

func identOf(e ast.Expr) *ast.Ident {
	id, _ := e.(*ast.Ident)
	return id
}

func isInteger(info *types.Info, e ast.Expr) bool {
	tv, ok := info.Types[e]
	if !ok {
		return true
	}
	b, ok := tv.Type.Underlying().(*types.Basic)
	return !ok || b.Info()&types.IsInteger != 0
}

func nonZeroConst(info *types.Info, e ast.Expr) bool {
	tv, ok := info.Types[e]
	return ok && tv.Value != nil && constant.Sign(tv.Value) != 0
}

// constShift reports whether a shift count cannot be negative.
func constShift(info *types.Info, e ast.Expr) bool {
	tv, ok := info.Types[e]
	if !ok {
		return false
	}
	if tv.Value != nil {
		return true
	}
	b, ok := tv.Type.Underlying().(*types.Basic)
	return ok && b.Info()&types.IsUnsigned != 0
}

// comparisonMayPanic reports whether a == b may panic: interface values of the same uncomparable
// dynamic type do, but nothing compared with nil (err != nil compares a type word).
func comparisonMayPanic(info *types.Info, a, b ast.Expr) bool {
	isNil := func(e ast.Expr) bool {
		tv, ok := info.Types[e]
		return ok && tv.IsNil()
	}
	if isNil(a) || isNil(b) {
		return false
	}
	return !simpleComparable(info, a) || !simpleComparable(info, b)
}

// simpleComparable reports whether comparing values of e's type cannot panic.
func simpleComparable(info *types.Info, e ast.Expr) bool {
	tv, ok := info.Types[e]
	if !ok || tv.Type == nil {
		return false
	}
	if tv.IsNil() {
		return true
	}
	switch tv.Type.Underlying().(type) {
	case *types.Basic, *types.Pointer, *types.Chan, *types.Slice, *types.Map, *types.Signature:
		return true
	}
	return false
}

// stdLeaves are functions and methods of the standard library that return or panic for every
// argument without blocking or calling code of the program (no function or interface
// arguments), by name, and whether they may panic (binary.LittleEndian.Uint64 of a short slice):
// their calls are leaves like the package's own (see leafFuncs), so that probes need not commit
// before them; their panics are those of an operation (a spill or the deferred flush of mirrored
// locals counts them), for they do not touch the counters. Parsers call them on every byte.
var stdLeaves = map[string]bool{}

func init() {
	// The first table's cannot panic; the second's may.
	for may, table := range []map[string]string{{
		"strings":      "Compare Contains ContainsAny ContainsRune Count Cut CutPrefix CutSuffix EqualFold HasPrefix HasSuffix Index IndexAny IndexByte IndexRune LastIndex LastIndexAny LastIndexByte Trim TrimLeft TrimPrefix TrimRight TrimSpace TrimSuffix",
		"bytes":        "Compare Contains ContainsAny ContainsRune Count Equal EqualFold HasPrefix HasSuffix Index IndexAny IndexByte IndexRune LastIndex LastIndexAny LastIndexByte Trim TrimLeft TrimPrefix TrimRight TrimSpace TrimSuffix",
		"unicode/utf8": "AppendRune DecodeLastRune DecodeLastRuneInString DecodeRune DecodeRuneInString FullRune FullRuneInString RuneCount RuneCountInString RuneLen RuneStart Valid ValidRune ValidString",
		"unicode":      "IsControl IsDigit IsGraphic IsLetter IsLower IsMark IsNumber IsPrint IsPunct IsSpace IsSymbol IsTitle IsUpper SimpleFold To ToLower ToTitle ToUpper",
		"math":         "Abs Ceil Copysign Exp Float32bits Float32frombits Float64bits Float64frombits Floor Frexp Inf IsInf IsNaN Ldexp Log Log10 Log2 Max Min Mod Modf NaN Pow Round RoundToEven Signbit Sqrt Trunc",
		"math/bits":    "Add Add32 Add64 LeadingZeros LeadingZeros16 LeadingZeros32 LeadingZeros64 LeadingZeros8 Len Len16 Len32 Len64 Len8 Mul Mul32 Mul64 OnesCount OnesCount16 OnesCount32 OnesCount64 OnesCount8 Reverse Reverse16 Reverse32 Reverse64 Reverse8 ReverseBytes ReverseBytes16 ReverseBytes32 ReverseBytes64 RotateLeft RotateLeft16 RotateLeft32 RotateLeft64 RotateLeft8 Sub Sub32 Sub64 TrailingZeros TrailingZeros16 TrailingZeros32 TrailingZeros64 TrailingZeros8",
		"strconv":      "Atoi IsGraphic IsPrint Itoa ParseBool ParseFloat ParseInt ParseUint Quote QuoteRune QuoteRuneToASCII QuoteToASCII Unquote UnquoteChar",
	}, {
		"strings":         "Repeat",
		"bytes":           "Repeat",
		"unicode/utf8":    "EncodeRune",
		"strconv":         "AppendInt AppendUint FormatInt FormatUint",
		"math/bits":       "Div Div32 Div64",
		"encoding/binary": "littleEndian.Uint16 littleEndian.Uint32 littleEndian.Uint64 littleEndian.PutUint16 littleEndian.PutUint32 littleEndian.PutUint64 bigEndian.Uint16 bigEndian.Uint32 bigEndian.Uint64 bigEndian.PutUint16 bigEndian.PutUint32 bigEndian.PutUint64",
	}} {
		for pkg, names := range table {
			for _, n := range strings.Fields(names) {
				stdLeaves[pkg+"."+n] = may == 1
			}
		}
	}
}

// stdLeaf reports whether fn is one of stdLeaves, and whether it may panic.
func stdLeaf(fn *types.Func) (leaf, mayPanic bool) {
	mayPanic, leaf = stdLeaves[qualName(fn)]
	return leaf, mayPanic || !leaf
}

// qualName is fn's name qualified by its package path and, for a method, its receiver's type
// name (strings.IndexByte, encoding/binary.littleEndian.Uint64), or "" (nil, a builtin, a method
// of an unnamed type).
func qualName(fn *types.Func) string {
	if fn == nil || fn.Pkg() == nil {
		return ""
	}
	name := fn.Pkg().Path() + "."
	if recv := fn.Signature().Recv(); recv != nil {
		named, ok := types.Unalias(recv.Type()).(*types.Named)
		if !ok {
			return ""
		}
		name += named.Obj().Name() + "."
	}
	return name + fn.Name()
}

// fixedLocals returns fn's local variables (not its parameters, nor its function literals') that
// nothing assigns but their definition (a := or a var declaration that is a node of fn's CFG),
// whose address nothing takes, and whose name means no other variable anywhere in fn (derefSafe's
// terms are names: not a type switch's variable, nor a package's read after the local's scope).
// What derefSafe knows of such a variable needs no undoing where the definition runs again (in a
// loop): nothing can be known of it on the first path to the definition, outside its scope, so
// nothing is on entering it by every path.
func fixedLocals(info *types.Info, fn *frontend.Func) []types.Object {
	// The variables each name means in fn: declared (parameters and literals' included, a type
	// switch's clauses' implicit ones too) or used (a package's variable).
	objs := map[string]map[types.Object]bool{}
	note := func(o types.Object) {
		if v, isVar := o.(*types.Var); isVar && !v.IsField() {
			if objs[o.Name()] == nil {
				objs[o.Name()] = map[types.Object]bool{}
			}
			objs[o.Name()][o] = true
		}
	}
	var cands []types.Object
	ast.Inspect(fn.Decl, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.Ident:
			note(info.ObjectOf(x))
			if o, isVar := info.Defs[x].(*types.Var); isVar && !o.IsField() {
				cands = append(cands, o)
			}
		case *ast.CaseClause:
			if o := info.Implicits[x]; o != nil {
				note(o)
			}
		}
		return true
	})
	// The candidates that nodes define.
	defined := map[types.Object]bool{}
	for _, nd := range fn.CFG.Nodes {
		var ids []*ast.Ident
		switch s := nd.AST.(type) {
		case *ast.AssignStmt:
			if s.Tok == token.DEFINE {
				for _, e := range s.Lhs {
					if id, ok := e.(*ast.Ident); ok {
						ids = append(ids, id)
					}
				}
			}
		case *ast.DeclStmt:
			if gd, ok := s.Decl.(*ast.GenDecl); ok && gd.Tok == token.VAR {
				for _, sp := range gd.Specs {
					ids = append(ids, sp.(*ast.ValueSpec).Names...)
				}
			}
		}
		for _, id := range ids {
			if o := info.Defs[id]; o != nil {
				defined[o] = true
			}
		}
	}
	// Assigned otherwise (a := that redeclares it included: not in Defs), or addressed.
	changed := map[types.Object]bool{}
	assignedIdents(fn.Decl.Body, func(id *ast.Ident) {
		if info.Defs[id] == nil {
			changed[info.Uses[id]] = true
		}
	})
	var out []types.Object
	for _, o := range cands {
		if defined[o] && len(objs[o.Name()]) == 1 && !changed[o] {
			out = append(out, o)
		}
	}
	return out
}

// safeStdLeaf reports whether fn is one of stdLeaves that cannot panic.
func safeStdLeaf(fn *types.Func) bool {
	leaf, may := stdLeaf(fn)
	return leaf && !may
}

// derefSafe marks the nodes of fn whose only way to panic is dereferencing a parameter (the
// receiver included) that no statement assigns, or a local variable that none assigns but its
// definition, which every path to them has dereferenced already (since the definition),
// unconditionally, in a node that calls nothing, or has left a decision by an outcome that says it
// is not nil: the variable is not nil there, so they cannot panic. Such nodes then need no guard,
// spill or frame: goldmark's text.(*reader).LineOffset had a frame because nothing could count the
// panics of "i := r.head" in a for header, r dereferenced by the if statement before it; its
// util.EscapeHTMLByte, "v := htmlEscapeTable[b]; if v != nil { return *v }", called per byte,
// committed pinned before the dereference.
func derefSafe(info *types.Info, fn *frontend.Func, leaves *leafFuncs, src func(ast.Expr) (string, bool)) []bool {
	g := fn.CFG
	fixed := fixedParams(info, fn.Decl)
	locals := fixedLocals(info, fn)
	for _, o := range locals {
		fixed[o.Name()] = true
	}
	terms := make([][]string, len(g.Nodes))
	derefs := make([][]string, len(g.Nodes)) // nil terms of fixed variables, unconditional
	for i, nd := range g.Nodes {
		if nd.AST == nil || nd.IsExit() || nd.Unreachable || nd.Kind == frontend.KindLoop ||
			!nodeMayPanic(info, nd) || suspends(info, leaves, nd, false) {
			continue
		}
		var ts []string
		ok := false
		switch s := nd.AST.(type) {
		case *ast.IfStmt: // the node evaluates the condition alone, whatever the header holds
			ts, ok = guardTerms(info, src, leaves, s.Cond)
		case *ast.ForStmt:
			ts, ok = guardTerms(info, src, leaves, s.Cond)
		default:
			ts, ok = nodeGuard(info, src, leaves, nd.AST)
		}
		if !ok {
			continue
		}
		terms[i] = ts
		for _, t := range ts {
			if x, ok := strings.CutSuffix(t, " == nil"); ok && fixed[strings.TrimSuffix(strings.TrimPrefix(x, "("), ")")] {
				derefs[i] = append(derefs[i], t)
			}
		}
	}
	// An outcome of a decision that compares a fixed variable with nil (p != nil true, p == nil
	// false, in a conjunct or a disjunct) tells that p is not nil after it: "if r == nil {
	// return }" before dereferencing a receiver.
	params := map[types.Object]bool{}
	for _, o := range locals {
		params[o] = true
	}
	for _, fl := range []*ast.FieldList{fn.Decl.Recv, fn.Decl.Type.Params} {
		if fl == nil {
			continue
		}
		for _, f := range fl.List {
			for _, id := range f.Names {
				if o := info.Defs[id]; o != nil && fixed[id.Name] {
					params[o] = true
				}
			}
		}
	}
	edge := func(u, k int) []string {
		nd := g.Nodes[u]
		var cond ast.Expr
		switch s := nd.AST.(type) {
		case *ast.IfStmt:
			cond = s.Cond
		case *ast.ForStmt:
			cond = s.Cond
		}
		op := token.LAND
		switch {
		case cond == nil || nd.Kind == frontend.KindLoop:
			return nil
		case nd.Succs[k].Outcome == frontend.OutFalse:
			op = token.LOR
		case nd.Succs[k].Outcome != frontend.OutTrue:
			return nil
		}
		var ts []string
		for o := range nonNilTerms(info, cond, op) {
			if params[o] {
				ts = append(ts, "("+o.Name()+") == nil")
			}
		}
		return ts
	}
	avail := availDerefs(g, derefs, edge)
	safe := make([]bool, len(g.Nodes))
	for i, ts := range terms {
		safe[i] = len(ts) > 0
		for _, t := range ts {
			safe[i] = safe[i] && avail[i][t]
		}
	}
	return safe
}
