// Package calls composes functions' models across calls: the expected reward of a call statement
// includes its callee's expected reward per call, E_f = local_f + Σ_g calls(f→g)·E_g, solved as
// one linear system over the call graph so that recursion and mutual recursion work, and a
// divergent recursion (infinitely many expected calls) is reported, not looped on. It owns the
// call sites between selected functions and the composition; the functions' own (exclusive)
// expectations come from their models (analyze/predict), the calls per invocation from the
// profile's counts, which for models whose probabilities are count ratios are the models' own
// expected visits.
//
// Calls are resolved statically (functions and methods of concrete types); function literals,
// functions of their own, are charged to the statement that creates them; interface method
// calls go to the selected methods that implement them, shared by their measured invocations.
// Other calls through function values are listed as unresolved sites, not guessed.
package calls

import (
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"math"
	"sort"

	"github.com/augur-perf/augur/probe/profile"
	"github.com/augur-perf/augur/source/frontend"
	"golang.org/x/tools/go/types/typeutil"
	"gonum.org/v1/gonum/mat"
)

// Kind says how a call site's callee was found.
type Kind int

const (
	// Static: a function or a method of a concrete type, called Count times each time the node
	// runs.
	Static Kind = iota
	// Literal: a function literal the node creates. Every invocation the profile counts of the
	// literal is charged to the node that creates it (sort.Slice's comparison, a deferred or
	// go'ed literal, one called on the spot): exact when the literal runs within the invocation
	// that creates it, as such literals do.
	Literal
	// Interface: one of the methods an interface method call may reach, among the selected
	// functions (the concrete types whose method sets implement the interface). The site's
	// calls are shared among its candidates in proportion to their invocations that static
	// calls do not account for.
	Interface
)

// Site is a statement of Caller that calls Callee, Count times each time it runs.
type Site struct {
	Caller, Callee string
	Node           int
	Pos            token.Position
	Count          int
	Kind           Kind
	// Group numbers an interface call site: its candidates share it.
	Group int
}

// Graph is the call graph among a set of functions.
type Graph struct {
	Funcs []*frontend.Func
	Sites []Site
	// Dynamic are call sites whose callee is not known (function values that are not literals
	// of the selected functions, interface methods no selected function implements), which are
	// therefore not composed.
	Dynamic []token.Position
}

// Build finds the call sites among fns. A statement's calls are those of the part of the source
// its node stands for (an if's condition, not its body); a defer's call belongs to the node that
// runs it, and calls inside function literals belong to the literal, itself a function of fns
// (see Literal) when it was selected.
func Build(fns []*frontend.Func) *Graph {
	g := &Graph{Funcs: fns}
	byObj := map[any]*frontend.Func{}
	lits := map[*ast.FuncLit]bool{}
	for _, f := range fns {
		if f.Obj != nil {
			byObj[f.Obj.Origin()] = f
		}
		if f.Lit != nil {
			lits[f.Lit] = true
		}
	}
	groups := 0
	for _, f := range fns {
		info := f.Pkg.TypesInfo
		fset := f.CFG.Fset
		values := funcValues(info, f.Decl.Body)
		for _, n := range f.CFG.Nodes {
			if n.AST == nil || n.Unreachable {
				continue
			}
			counts := map[string]int{}
			var order []string
			type ifaceCall struct {
				count int
				cands []string
			}
			ifaces := map[string]*ifaceCall{} // by interface method
			var ifaceOrder []string
			visit := func(root ast.Node, lo, hi token.Pos) {
				ast.Inspect(root, func(x ast.Node) bool {
					switch x := x.(type) {
					case *ast.FuncLit:
						return false
					case *ast.CallExpr:
						if x.Pos() < lo || x.Pos() >= hi {
							return true
						}
						callee := typeutil.StaticCallee(info, x)
						if callee == nil {
							if l, ok := ast.Unparen(x.Fun).(*ast.FuncLit); ok && lits[l] {
								return true // composed where it is created
							}
							if id, ok := ast.Unparen(x.Fun).(*ast.Ident); ok {
								if rhs, ok := values[info.Uses[id]]; ok {
									callee, ok = valueCallee(info, rhs, lits)
									if ok && callee == nil {
										return true // a literal of fns, composed where it is created
									}
								}
							}
						}
						if callee == nil {
							if m, cands := implementations(info, x, fns); m != nil && len(cands) > 0 {
								key := m.FullName()
								if ifaces[key] == nil {
									ifaces[key] = &ifaceCall{cands: cands}
									ifaceOrder = append(ifaceOrder, key)
								}
								ifaces[key].count++
								return true
							}
							if isDynamic(info, x) {
								g.Dynamic = append(g.Dynamic, fset.Position(x.Pos()))
							}
							return true
						}
						if target, ok := byObj[callee.Origin()]; ok {
							if counts[target.Name] == 0 {
								order = append(order, target.Name)
							}
							counts[target.Name]++
						}
					}
					return true
				})
			}
			switch st := n.AST.(type) {
			case *ast.DeferStmt:
				if n.Kind == frontend.KindDeferRun {
					visit(st.Call, st.Call.Pos(), st.Call.End())
				} else {
					// Registering evaluates the arguments only.
					for _, a := range st.Call.Args {
						visit(a, a.Pos(), a.End())
					}
				}
			default:
				visit(n.AST, pos(fset, n.Pos), end(fset, n))
			}
			for _, name := range order {
				g.Sites = append(g.Sites, Site{Caller: f.Name, Callee: name, Node: n.ID, Pos: n.Pos, Count: counts[name]})
			}
			for _, key := range ifaceOrder {
				groups++
				for _, c := range ifaces[key].cands {
					g.Sites = append(g.Sites, Site{Caller: f.Name, Callee: c, Node: n.ID, Pos: n.Pos, Count: ifaces[key].count, Kind: Interface, Group: groups})
				}
			}
		}
	}
	// Each literal is created by the innermost node of the function holding it whose source
	// contains it (a defer's literal by the Defer node).
	byName := map[string]*frontend.Func{}
	for _, f := range fns {
		byName[f.Name] = f
	}
	for _, f := range fns {
		if f.Lit == nil || f.Parent == nil || byName[f.Parent.Name] == nil {
			continue
		}
		parent := byName[f.Parent.Name]
		fset := parent.CFG.Fset
		best, size := -1, token.Pos(math.MaxInt)
		for _, n := range parent.CFG.Nodes {
			if n.AST == nil || n.Unreachable || n.Kind == frontend.KindDeferRun {
				continue
			}
			lo, hi := pos(fset, n.Pos), end(fset, n)
			if lo <= f.Lit.Pos() && f.Lit.End() <= hi && hi-lo < size {
				best, size = n.ID, hi-lo
			}
		}
		if best >= 0 {
			n := parent.CFG.Nodes[best]
			g.Sites = append(g.Sites, Site{Caller: parent.Name, Callee: f.Name, Node: best, Pos: n.Pos, Count: 1, Kind: Literal})
		}
	}
	return g
}

// funcValues maps each local variable of a function type declared in body to the expressions
// assigned to it, when they are all known: a variable whose address is taken, or that is
// assigned from a call with several results, is left out.
func funcValues(info *types.Info, body *ast.BlockStmt) map[types.Object][]ast.Expr {
	values := map[types.Object][]ast.Expr{}
	unknown := map[types.Object]bool{}
	obj := func(e ast.Expr) types.Object {
		id, ok := ast.Unparen(e).(*ast.Ident)
		if !ok {
			return nil
		}
		if o := info.Defs[id]; o != nil {
			return o
		}
		return info.Uses[id]
	}
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.AssignStmt:
			for i, l := range n.Lhs {
				o := obj(l)
				if _, isVar := o.(*types.Var); !isVar {
					continue
				}
				if len(n.Rhs) != len(n.Lhs) || n.Tok != token.ASSIGN && n.Tok != token.DEFINE {
					unknown[o] = true
					continue
				}
				values[o] = append(values[o], n.Rhs[i])
			}
		case *ast.ValueSpec:
			for i, name := range n.Names {
				o := info.Defs[name]
				if o == nil {
					continue
				}
				if len(n.Values) != len(n.Names) {
					unknown[o] = true
					continue
				}
				values[o] = append(values[o], n.Values[i])
			}
		case *ast.UnaryExpr:
			if n.Op == token.AND {
				if o := obj(n.X); o != nil {
					unknown[o] = true
				}
			}
		}
		return true
	})
	for o := range values {
		if _, fn := o.Type().Underlying().(*types.Signature); !fn || unknown[o] {
			delete(values, o)
		}
	}
	return values
}

// valueCallee resolves a call through a variable assigned exactly the expressions rhs: the one
// function or concrete method they all name (ok), or, when they are all literals of fns, nil
// and ok (the literals are composed where they are created).
func valueCallee(info *types.Info, rhs []ast.Expr, lits map[*ast.FuncLit]bool) (*types.Func, bool) {
	var callee *types.Func
	hasLit := false
	for _, e := range rhs {
		e = ast.Unparen(e)
		if l, ok := e.(*ast.FuncLit); ok && lits[l] {
			hasLit = true
			continue
		}
		var fn *types.Func
		switch e := e.(type) {
		case *ast.Ident:
			fn, _ = info.Uses[e].(*types.Func)
		case *ast.SelectorExpr:
			if s := info.Selections[e]; s != nil {
				if s.Kind() == types.MethodVal && !types.IsInterface(s.Recv()) {
					fn, _ = s.Obj().(*types.Func)
				}
			} else {
				fn, _ = info.Uses[e.Sel].(*types.Func) // pkg.F
			}
		}
		if fn == nil || callee != nil && callee != fn {
			return nil, false
		}
		callee = fn
	}
	if hasLit {
		return nil, callee == nil // a mix of literals and functions is not resolved
	}
	return callee, callee != nil
}

// implementations returns, for a call of an interface method, the method and the selected
// functions that implement it: methods of that name whose receiver type (or a pointer to it)
// implements the interface.
func implementations(info *types.Info, call *ast.CallExpr, fns []*frontend.Func) (*types.Func, []string) {
	sel, ok := ast.Unparen(call.Fun).(*ast.SelectorExpr)
	if !ok {
		return nil, nil
	}
	s := info.Selections[sel]
	if s == nil || s.Kind() != types.MethodVal || !types.IsInterface(s.Recv()) {
		return nil, nil
	}
	m, _ := s.Obj().(*types.Func)
	iface, _ := s.Recv().Underlying().(*types.Interface)
	if m == nil || iface == nil {
		return nil, nil
	}
	var cands []string
	for _, f := range fns {
		if f.Obj == nil || f.Obj.Name() != m.Name() || f.Sig == nil || f.Sig.Recv() == nil {
			continue
		}
		recv := f.Sig.Recv().Type()
		if types.Implements(recv, iface) {
			cands = append(cands, f.Name)
		}
	}
	return m, cands
}

// pos turns a node's position back into a token.Pos of its file.
func pos(fset *token.FileSet, p token.Position) token.Pos {
	var out token.Pos
	fset.Iterate(func(f *token.File) bool {
		if f.Name() == p.Filename {
			out = f.LineStart(p.Line) + token.Pos(p.Column-1)
			return false
		}
		return true
	})
	return out
}

func end(fset *token.FileSet, n *frontend.Node) token.Pos {
	if !n.End.IsValid() {
		return token.Pos(math.MaxInt)
	}
	return pos(fset, n.End)
}

// isDynamic reports whether a call without a static callee goes through an interface or a
// function value, rather than being a conversion or a builtin.
func isDynamic(info *types.Info, call *ast.CallExpr) bool {
	tv, ok := info.Types[call.Fun]
	return ok && !tv.IsType() && !tv.IsBuiltin()
}

// Row is one function's expected reward per invocation: its own statements' (Exclusive) and
// with its callees' (Inclusive), and how often it calls each callee per invocation.
type Row struct {
	Func        string             `json:"function"`
	Invocations uint64             `json:"invocations"`
	Exclusive   float64            `json:"exclusive"`
	Inclusive   float64            `json:"inclusive"`
	Calls       map[string]float64 `json:"calls_per_invocation,omitempty"`
}

// DivergentError says that the expected number of calls in a recursion is infinite.
type DivergentError struct{ Funcs []string }

func (e *DivergentError) Error() string {
	return fmt.Sprintf("the recursion through %v makes infinitely many calls in expectation (each invocation calls the cycle at least once on average): no finite inclusive reward", e.Funcs)
}

// Compose solves E = L + N·E, with L the exclusive expectations per invocation (by function
// name) and N[f][g] the calls of g per invocation of f, from the profile's counts of each call
// site. Functions the profile never invoked call nothing and get their exclusive value.
func Compose(g *Graph, p *profile.Profile, exclusive map[string]float64) ([]Row, error) {
	n := len(g.Funcs)
	index := map[string]int{}
	rows := make([]Row, n)
	for i, f := range g.Funcs {
		index[f.Name] = i
		rows[i] = Row{Func: f.Name, Exclusive: exclusive[f.Name], Calls: map[string]float64{}}
		if pf := p.Funcs[f.Name]; pf != nil {
			rows[i].Invocations = pf.Invocations
		}
	}
	// runs is how often a site's node ran per invocation of its caller.
	runs := func(s Site) (float64, bool) {
		pf := p.Funcs[s.Caller]
		if pf == nil || pf.Invocations == 0 || s.Node >= len(pf.Nodes) {
			return 0, false
		}
		return float64(pf.Nodes[s.Node].Count) / float64(pf.Invocations), true
	}
	invocations := func(name string) float64 {
		if pf := p.Funcs[name]; pf != nil {
			return float64(pf.Invocations)
		}
		return 0
	}
	// Interface calls go to each candidate in proportion to its invocations that static calls
	// and literal creations do not account for.
	residual := map[string]float64{}
	for _, f := range g.Funcs {
		residual[f.Name] = invocations(f.Name)
	}
	for _, s := range g.Sites {
		if r, ok := runs(s); ok && s.Kind != Interface {
			calls := r * float64(s.Count) * invocations(s.Caller)
			if s.Kind == Literal {
				calls = invocations(s.Callee)
			}
			residual[s.Callee] -= calls
		}
	}
	groupTotal := map[int]float64{}
	groupSize := map[int]int{}
	for _, s := range g.Sites {
		if s.Kind == Interface {
			groupTotal[s.Group] += math.Max(residual[s.Callee], 0)
			groupSize[s.Group]++
		}
	}
	N := mat.NewDense(n, n, nil)
	for _, s := range g.Sites {
		i, j := index[s.Caller], index[s.Callee]
		r, ok := runs(s)
		if !ok {
			continue
		}
		var per float64
		switch s.Kind {
		case Static:
			per = r * float64(s.Count)
		case Literal:
			per = invocations(s.Callee) / invocations(s.Caller)
		case Interface:
			share := 1 / float64(groupSize[s.Group])
			if t := groupTotal[s.Group]; t > 0 {
				share = math.Max(residual[s.Callee], 0) / t
			}
			per = r * float64(s.Count) * share
		}
		N.Set(i, j, N.At(i, j)+per)
		rows[i].Calls[s.Callee] += per
	}
	// (I - N) E = L.
	A := mat.NewDense(n, n, nil)
	L := mat.NewVecDense(n, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			v := -N.At(i, j)
			if i == j {
				v++
			}
			A.Set(i, j, v)
		}
		L.SetVec(i, rows[i].Exclusive)
	}
	// The expected calls are finite exactly when N's spectral radius is below 1.
	if div := divergent(N, g); len(div) > 0 {
		return nil, &DivergentError{Funcs: div}
	}
	var E mat.VecDense
	if err := E.SolveVec(A, L); err != nil {
		return nil, fmt.Errorf("composing the call graph: %v", err)
	}
	for i := range rows {
		rows[i].Inclusive = E.AtVec(i)
	}
	sort.SliceStable(rows, func(a, b int) bool { return rows[a].Inclusive > rows[b].Inclusive })
	return rows, nil
}

// divergent returns the functions of a strongly connected part of the call graph whose
// expected calls diverge: the spectral radius of N is at least 1.
func divergent(N *mat.Dense, g *Graph) []string {
	var eig mat.Eigen
	if !eig.Factorize(N, mat.EigenNone) {
		return nil
	}
	var radius float64
	for _, v := range eig.Values(nil) {
		radius = math.Max(radius, cmplxAbs(v))
	}
	if radius < 1-1e-12 {
		return nil
	}
	var fs []string
	for i, f := range g.Funcs {
		for j := range g.Funcs {
			if N.At(i, j) > 0 && reaches(N, j, i) {
				fs = append(fs, f.Name)
				break
			}
		}
	}
	return fs
}

func cmplxAbs(c complex128) float64 { return math.Hypot(real(c), imag(c)) }

// reaches reports whether j reaches i through calls.
func reaches(N *mat.Dense, j, i int) bool {
	n, _ := N.Dims()
	seen := make([]bool, n)
	stack := []int{j}
	for len(stack) > 0 {
		k := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if k == i {
			return true
		}
		if seen[k] {
			continue
		}
		seen[k] = true
		for l := 0; l < n; l++ {
			if N.At(k, l) > 0 {
				stack = append(stack, l)
			}
		}
	}
	return false
}
