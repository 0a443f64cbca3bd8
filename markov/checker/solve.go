package checker

import (
	"fmt"
	"math"
	"sort"

	"gonum.org/v1/gonum/mat"
)

// system is the linear equation system every unbounded property reduces to:
//
//	x_s = Σ_{t∈U} P(s,t)·x_t + b_s   for s ∈ U,
//
// where U are the states whose value the graph precomputation could not fix, and b already holds
// what transitions out of U contribute. From every state of U the chain leaves U with probability
// 1 (the precomputation guarantees it), so the system has exactly one solution.
type system struct {
	g       *graph
	unknown []bool
	b       []float64
	// exact, when set, bounds a component's values from the bounds of the states it leaves to
	// in rational arithmetic (see exactBounds): the interval method's fallback.
	exact func(comp []int, lo, hi []float64) error
}

// solution is x on U together with how it was found.
type solution struct {
	x      []float64
	lo, hi []float64 // sound bounds (interval method only)
	stats  Stats
}

// Stats says how a result was computed, for the user who must judge how far to trust it.
type Stats struct {
	Method     string `json:"method"`
	Unknowns   int    `json:"unknowns"`
	SCCs       int    `json:"sccs"`
	DirectSCCs int    `json:"direct_sccs"`
	DenseSCCs  int    `json:"dense_sccs"`
	IterSCCs   int    `json:"iterative_sccs"`
	Iterations int    `json:"iterations"`
	Converged  bool   `json:"converged"`
	// ErrEstimate bounds the relative error of the values (Interval method only): the largest
	// half-width of the sound bounds relative to the lower bound, over the states whose lower
	// bound is positive (+Inf where an upper bound is infinite). JSON has no infinity, so callers
	// encode it.
	ErrEstimate float64 `json:"-"`
	// LastChange is the largest relative change between the last two iterates of the components
	// solved by Gauss–Seidel or Jacobi: what their stopping criterion tests, not an error bound.
	LastChange float64  `json:"last_relative_change,omitempty"`
	Notes      []string `json:"notes,omitempty"`
}

func (st *Stats) merge(o Stats) {
	st.Unknowns += o.Unknowns
	st.SCCs += o.SCCs
	st.DirectSCCs += o.DirectSCCs
	st.DenseSCCs += o.DenseSCCs
	st.IterSCCs += o.IterSCCs
	st.Iterations += o.Iterations
	st.Converged = st.Converged && o.Converged
	st.ErrEstimate = math.Max(st.ErrEstimate, o.ErrEstimate)
	st.LastChange = math.Max(st.LastChange, o.LastChange)
	st.Notes = append(st.Notes, o.Notes...)
}

func (sys *system) solve(opt *Options) (*solution, error) {
	switch opt.Method {
	case Interval:
		return sys.interval(opt)
	case PRISM:
		return sys.jacobi(opt)
	default:
		return sys.bySCC(opt)
	}
}

// bySCC solves the components of U one at a time, sinks first, so that each component sees the
// final values of everything it can reach. Each is solved directly when that is affordable and
// by Gauss–Seidel otherwise (or always, for the GaussSeidel method).
func (sys *system) bySCC(opt *Options) (*solution, error) {
	m := sys.g.m
	x := make([]float64, m.N)
	states, bounds := sys.g.sccs(sys.unknown)
	sol := &solution{x: x, stats: Stats{Method: opt.Method.String(), Converged: true}}
	sol.stats.Unknowns = len(states)
	sol.stats.SCCs = len(bounds) - 1
	loc := make([]int32, m.N)
	for i := range loc {
		loc[i] = -1
	}
	ws := &localSystem{}
	for c := 0; c+1 < len(bounds); c++ {
		comp := states[bounds[c]:bounds[c+1]]
		if len(comp) == 1 {
			sol.stats.DirectSCCs++
			if err := sys.single(x, comp[0]); err != nil {
				return nil, err
			}
			continue
		}
		for i, s := range comp {
			loc[s] = int32(i)
		}
		if err := sys.component(ws, comp, loc, x, opt, &sol.stats); err != nil {
			return nil, err
		}
		for _, s := range comp {
			loc[s] = -1
		}
	}
	return sol, nil
}

// component solves a component of several states: by elimination when it is likely to stay
// sparse, by dense LU when small enough, and by Gauss–Seidel when neither works (or always, for the
// GaussSeidel method). Large components that elimination would fill are never copied into a local
// system: Gauss–Seidel builds its own layout from the model.
func (sys *system) component(ws *localSystem, comp []int, loc []int32, x []float64, opt *Options, st *Stats) error {
	if opt.Method == GaussSeidel {
		return sys.gaussSeidel(x, comp, loc, opt, st)
	}
	if !sys.g.eliminationLikely(comp, loc) && len(comp) > opt.denseMax() {
		return sys.gaussSeidel(x, comp, loc, opt, st)
	}
	local := ws.fill(sys, comp, loc, x)
	sol := [][]float64{append([]float64(nil), local.b...)}
	ok, err := local.directSolve(sys.g, comp, loc, sol, opt, st)
	if err != nil || !ok {
		if err == nil {
			err = sys.gaussSeidel(x, comp, loc, opt, st)
		}
		return err
	}
	for i, s := range comp {
		x[s] = sol[0][i]
	}
	return nil
}

// directSolve solves the component's equations for every right-hand side in rhs (local
// numbering), overwriting each with its solution: by elimination when it is likely to stay
// sparse, by dense LU when small enough. It returns false when neither applies, leaving rhs
// unchanged, so that the caller iterates.
func (l *localSystem) directSolve(g *graph, comp []int, loc []int32, rhs [][]float64, opt *Options, st *Stats) (bool, error) {
	if g.eliminationLikely(comp, loc) {
		ok, err := l.eliminate(rhs)
		if err != nil || ok {
			if ok {
				st.DirectSCCs++
			}
			return ok, err
		}
	}
	if len(comp) > opt.denseMax() {
		return false, nil
	}
	st.DenseSCCs++
	return true, l.denseLU(rhs)
}

// localSystem is one component's rows in local numbering, with the diagonal apart and everything
// leaving the component folded into b (values) and leak (probability). One is refilled for
// component after component, so that a model with a million small loops does not allocate a
// million times.
type localSystem struct {
	ptr  []int
	col  []int32
	val  []float64
	diag []float64
	leak []float64
	b    []float64
}

func (ws *localSystem) fill(sys *system, comp []int, loc []int32, x []float64) *localSystem {
	m := sys.g.m
	// Sized up front: a million-state component would otherwise allocate several times its size
	// in append's doublings.
	nnz := 0
	for _, s := range comp {
		nnz += m.RowPtr[s+1] - m.RowPtr[s]
	}
	ws.ptr = append(grow(ws.ptr, len(comp)+1), 0)
	ws.col, ws.val = grow(ws.col, nnz), grow(ws.val, nnz)
	ws.diag, ws.leak, ws.b = grow(ws.diag, len(comp)), grow(ws.leak, len(comp)), grow(ws.b, len(comp))
	for _, s := range comp {
		diag, leak, b := 0.0, 0.0, sys.b[s]
		for k := m.RowPtr[s]; k < m.RowPtr[s+1]; k++ {
			t, p := m.Col[k], m.Prob[k]
			switch {
			case t == s:
				diag += p
			case loc[t] >= 0:
				ws.col = append(ws.col, loc[t])
				ws.val = append(ws.val, p)
			default:
				// Leaving the component: to a state of U solved earlier, or out of U (whose
				// value the caller already put into b).
				leak += p
				if sys.unknown[t] {
					b += p * x[t]
				}
			}
		}
		ws.diag = append(ws.diag, diag)
		ws.leak = append(ws.leak, leak)
		ws.b = append(ws.b, b)
		ws.ptr = append(ws.ptr, len(ws.col))
	}
	return ws
}

// grow empties s and makes room for n elements.
func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, 0, n)
	}
	return s[:0]
}

// exitRate is 1 - P(i,i), computed as the sum of what leaves i: subtracting from 1 would lose
// every digit on stiff chains whose self-loops are 1-1e-20 (the GTH idea).
func (l *localSystem) exitRate(i int) float64 {
	r := l.leak[i]
	for _, v := range l.val[l.ptr[i]:l.ptr[i+1]] {
		r += v
	}
	return r
}

// single solves the component of one state s directly from the model's row: the most common
// component by far in random chains, and too many of them to copy each into a local system.
func (sys *system) single(x []float64, s int) error {
	m := sys.g.m
	rate, b := 0.0, sys.b[s]
	for k := m.RowPtr[s]; k < m.RowPtr[s+1]; k++ {
		t, p := m.Col[k], m.Prob[k]
		if t == s {
			continue
		}
		rate += p
		if sys.unknown[t] {
			b += p * x[t]
		}
	}
	if rate == 0 {
		return fmt.Errorf("internal error: state %d never leaves the unknown states", s)
	}
	x[s] = b / rate
	return nil
}

// eliminate solves a component by Gaussian elimination on the sparse graph (state elimination),
// keeping every pivot an exit rate computed by addition so that no digits are lost to
// cancellation (Grassmann–Taksar–Heyman). States are eliminated in reverse depth-first preorder,
// which for the flow graphs of structured code removes loop bodies inside-out with little fill. It
// gives up (ok=false) when fill exceeds a small multiple of the component's size, leaving the
// component to the dense or iterative solvers.
//
// Every right-hand side in rhs (local numbering) is carried through the same elimination and, on
// success, overwritten with its solution; on failure they are left as they were.
func (l *localSystem) eliminate(rhs [][]float64) (ok bool, err error) {
	n := len(l.diag)
	type entry struct {
		col int32
		val float64
	}
	rows := make([][]entry, n)
	preds := make([][]int32, n)
	stored := 0
	for i := 0; i < n; i++ {
		row := make([]entry, 0, l.ptr[i+1]-l.ptr[i]+1)
		for k := l.ptr[i]; k < l.ptr[i+1]; k++ {
			row = append(row, entry{l.col[k], l.val[k]})
			preds[l.col[k]] = append(preds[l.col[k]], int32(i))
		}
		if l.diag[i] != 0 {
			row = append(row, entry{int32(i), l.diag[i]})
		}
		sort.Slice(row, func(a, b int) bool { return row[a].col < row[b].col })
		rows[i] = row
		stored += len(row)
	}
	// Elimination pays off when it removes entries as it goes, as it does on the flow graphs of
	// code. On expander-like graphs every step adds entries; stop as soon as the live entries
	// grow past a small margin, before the attempt costs more than iterating would.
	budget := stored + n/16 + 256
	leak := append([]float64(nil), l.leak...)
	bs := make([][]float64, len(rhs))
	for j, r := range rhs {
		bs[j] = append([]float64(nil), r...)
	}
	order := l.dfsPreorder(n)
	done := make([]bool, n)
	mark := make([]int32, n)
	for i := range mark {
		mark[i] = -1
	}
	var scratch []entry
	for step := n - 1; step >= 0; step-- {
		v := int32(order[step])
		rate := leak[v]
		for _, e := range rows[v] {
			if e.col != v {
				rate += e.val
			}
		}
		if rate == 0 {
			return false, fmt.Errorf("internal error: a state never leaves the unknown states")
		}
		// v's row without its diagonal, divided by its exit rate, is its back-substitution row.
		out := rows[v][:0]
		for _, e := range rows[v] {
			if e.col != v {
				out = append(out, entry{e.col, e.val / rate})
			}
		}
		rows[v] = out
		lv := leak[v] / rate
		for _, b := range bs {
			b[v] /= rate
		}
		done[v] = true
		for _, u := range preds[v] {
			if done[u] || mark[u] == v {
				continue
			}
			mark[u] = v
			ru := rows[u]
			j := sort.Search(len(ru), func(k int) bool { return ru[k].col >= v })
			if j == len(ru) || ru[j].col != v {
				continue
			}
			f := ru[j].val
			for _, b := range bs {
				b[u] += f * b[v]
			}
			leak[u] += f * lv
			scratch = scratch[:0]
			p, q := 0, 0
			for p < len(ru) || q < len(out) {
				switch {
				case q == len(out) || (p < len(ru) && ru[p].col < out[q].col):
					if ru[p].col != v {
						scratch = append(scratch, ru[p])
					}
					p++
				case p == len(ru) || out[q].col < ru[p].col:
					scratch = append(scratch, entry{out[q].col, f * out[q].val})
					preds[out[q].col] = append(preds[out[q].col], u)
					q++
				default:
					scratch = append(scratch, entry{ru[p].col, ru[p].val + f*out[q].val})
					p++
					q++
				}
			}
			stored += len(scratch) - len(ru)
			rows[u] = append(ru[:0], scratch...)
		}
		// v's row now serves back substitution only: it no longer counts as live.
		stored -= len(out)
		if stored > budget {
			return false, nil
		}
	}
	// Back substitution in elimination order reversed: every column of v's row was eliminated
	// after v, so its value is final when v's is formed.
	for j, b := range bs {
		for step := 0; step < n; step++ {
			v := order[step]
			s := b[v]
			for _, e := range rows[v] {
				s += e.val * b[e.col]
			}
			b[v] = s
		}
		copy(rhs[j], b)
	}
	return true, nil
}

// largeComponent is the size from which a component is worth a test before elimination and an
// accelerated Gauss–Seidel after it.
const largeComponent = 4096

// eliminationLikely predicts whether elimination will stay sparse on component comp (loc maps its
// states to positions): eliminating a state with a predecessors and b successors adds up to a·b
// entries and removes a+b, so it fills in only when a·b > a+b. Flow graphs of code have almost no
// such states; random expander-like graphs have little else, and trying them first would only
// waste time and memory. A sample of about 4096 states, evenly spaced, decides.
func (g *graph) eliminationLikely(comp []int, loc []int32) bool {
	n := len(comp)
	if n < largeComponent {
		return true
	}
	step := n / 4096
	bad, seen := 0, 0
	for i := 0; i < n; i += step {
		s := comp[i]
		a, b := 0, 0
		for _, p := range g.pred[g.predPtr[s]:g.predPtr[s+1]] {
			if int(p) != s && loc[p] >= 0 {
				a++
			}
		}
		for _, t := range g.m.Col[g.m.RowPtr[s]:g.m.RowPtr[s+1]] {
			if t != s && loc[t] >= 0 {
				b++
			}
		}
		if a*b > a+b {
			bad++
		}
		seen++
	}
	return bad*4 < seen
}

// dfsPreorder orders a strongly connected component by depth-first discovery from its first
// state (in Tarjan's order, the state discovered last, for a loop of code the body's last
// statement).
func (l *localSystem) dfsPreorder(n int) []int {
	order := make([]int, 0, n)
	seen := make([]bool, n)
	type frame struct{ v, k int }
	for root := 0; root < n; root++ {
		if seen[root] {
			continue
		}
		seen[root] = true
		order = append(order, root)
		stack := []frame{{root, l.ptr[root]}}
		for len(stack) > 0 {
			f := &stack[len(stack)-1]
			if f.k == l.ptr[f.v+1] {
				stack = stack[:len(stack)-1]
				continue
			}
			w := int(l.col[f.k])
			f.k++
			if !seen[w] {
				seen[w] = true
				order = append(order, w)
				stack = append(stack, frame{w, l.ptr[w]})
			}
		}
	}
	return order
}

// denseLU solves (I - A) x = b for a component with gonum's LU factorisation with partial
// pivoting, for every right-hand side in rhs (local numbering), overwriting each with its solution.
func (l *localSystem) denseLU(rhs [][]float64) error {
	n := len(l.diag)
	a := mat.NewDense(n, n, nil)
	for i := 0; i < n; i++ {
		a.Set(i, i, l.exitRate(i))
		for k := l.ptr[i]; k < l.ptr[i+1]; k++ {
			j := int(l.col[k])
			a.Set(i, j, a.At(i, j)-l.val[k])
		}
	}
	var lu mat.LU
	lu.Factorize(a)
	for _, b := range rhs {
		var sol mat.VecDense
		if err := lu.SolveVecTo(&sol, false, mat.NewVecDense(n, append([]float64(nil), b...))); err != nil {
			return fmt.Errorf("dense LU on a component of %d states: %v", n, err)
		}
		for i := range b {
			b[i] = sol.AtVec(i)
		}
	}
	return nil
}

func relChange(old, cur float64) float64 {
	d := math.Abs(cur - old)
	if cur != 0 {
		d /= math.Abs(cur)
	}
	return d
}

// allRows is U as one system (no decomposition), for the methods that iterate on all of it, with
// the state of each local row. Every unknown state is in it, so nothing is folded in from solved
// components and x is never read.
func (sys *system) allRows() (*localSystem, []int) {
	m := sys.g.m
	loc := make([]int32, m.N)
	var idx []int
	for s := 0; s < m.N; s++ {
		loc[s] = -1
		if sys.unknown[s] {
			loc[s] = int32(len(idx))
			idx = append(idx, s)
		}
	}
	return (&localSystem{}).fill(sys, idx, loc, nil), idx
}

// jacobi is PRISM's default iterative method, reproduced so that published PRISM figures can be
// matched: Jacobi iteration from 0 on all unknown states at once, x_s' = (b_s + Σ_{t≠s} a_st·x_t) /
// (1 - a_ss), stopping when the relative change max |x'-x|/|x'| drops below ε (PRISM's default
// 1e-6) and failing after the iteration limit (PRISM's default 10000).
func (sys *system) jacobi(opt *Options) (*solution, error) {
	r, idx := sys.allRows()
	n := len(idx)
	v, w := make([]float64, n), make([]float64, n)
	eps, maxIter := opt.epsilon(), opt.maxIter()
	it, delta := 0, math.Inf(1)
	for {
		if it == maxIter {
			return nil, fmt.Errorf("iterative method did not converge within %d iterations (PRISM-compatible Jacobi, relative ε=%g); raise --max-iter or use another method", maxIter, eps)
		}
		it++
		delta = 0.0
		for i := 0; i < n; i++ {
			s := r.b[i]
			for k := r.ptr[i]; k < r.ptr[i+1]; k++ {
				s += r.val[k] * v[r.col[k]]
			}
			if r.diag[i] != 0 {
				s /= 1 - r.diag[i]
			}
			w[i] = s
			delta = math.Max(delta, relChange(v[i], s))
		}
		v, w = w, v
		if delta < eps {
			break
		}
	}
	x := make([]float64, sys.g.m.N)
	for i, s := range idx {
		x[s] = v[i]
	}
	return &solution{x: x, stats: Stats{Method: opt.Method.String(), Unknowns: n, Iterations: it, Converged: true, LastChange: delta,
		Notes: []string{fmt.Sprintf("PRISM-compatible Jacobi: %d iterations, relative change below %g (not an error bound)", it, eps)}}}, nil
}
