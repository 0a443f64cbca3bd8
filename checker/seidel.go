package checker

import (
	"fmt"
	"math"
	"sort"
	"sync"
)

// segment is how many states a Gauss–Seidel sweep updates in one step: their values and partial
// sums (512 KB each) stay in a core's cache while the step runs.
const segment = 1 << 16

// seidel is one component's equations, rate_i·x_i = b_i + Σ_j a_ij·x_j, laid out for
// cache-blocked Gauss–Seidel sweeps. A plain sweep gathers x_j for every transition from all over
// the component; once the component outgrows the caches, every gather is a wait on memory (70 ms a
// sweep at a million states). Here the states are cut into segments, and the transitions into a
// segment's rows from other segments are stored ordered by column: a step first accumulates them
// into partial sums, reading x in increasing order, and then runs through the segment's rows,
// adding the transitions inside the segment. Values of earlier segments are already this sweep's,
// those of later ones last sweep's, exactly as in a plain sweep in the same order: the blocking
// changes the memory traffic, not the arithmetic's meaning.
type seidel struct {
	b   []float64
	inv []float64 // 1/rate_i
	// later_i is the weight row i puts on values from the previous sweep (columns after i), which
	// lets the coarse correction be applied lazily (see gaussSeidel).
	later []float64
	// d_i is Σ_k a_ki - rate_i over the component: the residuals' sum is Σ b + Σ_i d_i·x_i.
	d []float64
	// The transitions within each row's own segment, by row, with the column within the segment.
	dptr []int32
	dcol []uint16
	dval []float64
	// The transitions from other segments, grouped by the row's segment, ordered by column. Of
	// segment s's, the sweep forms own[s][0]..own[s][1]-1 itself (those from segment s-1, which it
	// has just changed; for segment 0, the first half), and its helper the others (see sweep).
	optr []int
	own  [][2]int
	orow []uint16
	ocol []int32
	oval []float64
	// Σ b and Σ leak, the coarse correction's constants.
	sumB, sumLeak float64
}

// newSeidel builds the equations of component comp (loc maps its states to their positions) from
// the model and the graph's predecessor lists, with transitions out of the component folded into
// the constants: values of states of U solved earlier are in x, values outside U in sys.b. A
// component of several segments is built by two goroutines, each taking half the segments' rows
// and then half the columns.
func newSeidel(sys *system, comp []int, loc []int32, x []float64) (*seidel, error) {
	n := len(comp)
	nseg := (n + segment - 1) / segment
	z := &seidel{b: make([]float64, n), inv: make([]float64, n), later: make([]float64, n), d: make([]float64, n)}
	// split is where the halves meet, at a segment boundary; count[seg][h] is the number of
	// transitions into segment seg's rows from other segments' columns in half h.
	split := (nseg / 2) * segment
	count := make([][2]int, nseg)
	var rows [2]*seidelRows
	var errs [2]error
	run := func(h int) {
		lo, hi := 0, split
		if h == 1 {
			lo, hi = split, n
		}
		rows[h], errs[h] = z.rows(sys, comp, loc, x, lo, hi, split, count)
	}
	if nseg == 1 {
		run(1)
		rows[0] = &seidelRows{dptr: []int32{0}}
	} else {
		both(run)
	}
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	z.dptr = append(rows[0].dptr, rows[1].dptr[1:]...)
	for i := split + 1; i <= n; i++ {
		z.dptr[i] += int32(len(rows[0].dval))
	}
	z.dcol = append(rows[0].dcol, rows[1].dcol...)
	z.dval = append(rows[0].dval, rows[1].dval...)
	z.sumB = rows[0].sumB + rows[1].sumB
	z.sumLeak = rows[0].sumLeak + rows[1].sumLeak
	// Each segment's group holds the transitions from columns of the first half, then those of
	// the second; pos[h][seg] is where half h writes next.
	z.optr = make([]int, nseg+1)
	var pos [2][]int
	pos[0], pos[1] = make([]int, nseg), make([]int, nseg)
	for seg := 0; seg < nseg; seg++ {
		pos[0][seg] = z.optr[seg]
		pos[1][seg] = z.optr[seg] + count[seg][0]
		z.optr[seg+1] = pos[1][seg] + count[seg][1]
	}
	total := z.optr[nseg]
	z.orow, z.ocol, z.oval = make([]uint16, total), make([]int32, total), make([]float64, total)
	cols := func(h int) {
		lo, hi := 0, split
		if h == 1 {
			lo, hi = split, n
		}
		z.cols(sys.g, comp, loc, lo, hi, pos[h])
	}
	if nseg == 1 {
		cols(1)
	} else {
		both(cols)
	}
	z.own = make([][2]int, nseg)
	for seg := range z.own {
		p, q := z.optr[seg], z.optr[seg+1]
		if seg == 0 {
			z.own[seg] = [2]int{p, p + (q-p)/2}
			continue
		}
		first := func(col int) int {
			return p + sort.Search(q-p, func(e int) bool { return int(z.ocol[p+e]) >= col })
		}
		z.own[seg] = [2]int{first((seg - 1) * segment), first(seg * segment)}
	}
	return z, nil
}

// seidelRows is what one goroutine builds of the rows lo..hi-1: the transitions within segments,
// and its share of the correction's constants.
type seidelRows struct {
	dptr          []int32
	dcol          []uint16
	dval          []float64
	sumB, sumLeak float64
}

// rows fills b, inv, later and d for rows lo..hi-1 and returns their transitions within their own
// segments; it counts the others into count by column half (columns below split or not).
func (z *seidel) rows(sys *system, comp []int, loc []int32, x []float64, lo, hi, split int, count [][2]int) (*seidelRows, error) {
	m := sys.g.m
	r := &seidelRows{dptr: make([]int32, 1, hi-lo+1)}
	for i := lo; i < hi; i++ {
		s := comp[i]
		seg := i / segment
		base := seg * segment
		rate, leak, b, later := 0.0, 0.0, sys.b[s], 0.0
		for k := m.RowPtr[s]; k < m.RowPtr[s+1]; k++ {
			t, p := m.Col[k], m.Prob[k]
			if t == s {
				continue
			}
			j := int(loc[t])
			if j < 0 {
				leak += p
				if sys.unknown[t] {
					b += p * x[t]
				}
				continue
			}
			rate += p
			if j > i {
				later += p
			}
			switch {
			case j/segment == seg:
				r.dcol = append(r.dcol, uint16(j-base))
				r.dval = append(r.dval, p)
			case j < split:
				count[seg][0]++
			default:
				count[seg][1]++
			}
		}
		// The exit rate is a sum, not 1 - P(s,s): subtracting would lose every digit on stiff
		// chains whose self-loops are 1-1e-20 (the GTH idea).
		rate += leak
		if rate == 0 {
			return nil, fmt.Errorf("internal error: state %d never leaves the unknown states", s)
		}
		r.dptr = append(r.dptr, int32(len(r.dval)))
		z.b[i], z.inv[i], z.later[i], z.d[i] = b, 1/rate, later, -rate
		r.sumB += b
		r.sumLeak += leak
	}
	return r, nil
}

// cols writes the transitions from columns lo..hi-1 into other segments' groups at pos, and adds
// the column sums to d. Going through the columns in order and their predecessors fills every
// group in column order, without a sort.
func (z *seidel) cols(g *graph, comp []int, loc []int32, lo, hi int, pos []int) {
	for j := lo; j < hi; j++ {
		t := comp[j]
		colSum := 0.0
		for q := g.predPtr[t]; q < g.predPtr[t+1]; q++ {
			s := int(g.pred[q])
			i := int(loc[s])
			if i < 0 || s == t {
				continue
			}
			colSum += g.predP[q]
			if seg := i / segment; seg != j/segment {
				at := pos[seg]
				z.orow[at], z.ocol[at], z.oval[at] = uint16(i-seg*segment), int32(j), g.predP[q]
				pos[seg]++
			}
		}
		z.d[j] += colSum
	}
}

// sweep is one Gauss–Seidel sweep over v, where the values from the previous sweep are to be read
// as v+alpha (the pending coarse correction). It returns the largest relative change and the sum
// of the residuals of the new iterate. r and up are scratch space of one segment and of len(v).
//
// A helper goroutine does all it can ahead of the sweep, which leaves the sweep little more than
// the rows themselves. For segment s it forms b + alpha·later and the sums over the transitions
// from later segments, which this sweep has not changed yet, and from segments at least two
// before, which it has finished; it also sums the residuals over finished segments. The sweep adds
// the sums from segment s-1, which it was changing meanwhile. The helper starts on segment s once
// the sweep has finished segment s-2, and the sweep starts on segment s once the helper has
// finished it, so neither reads values the other is writing. The sums are always formed apart and
// added the same way, so the result does not depend on goroutine timing.
func (z *seidel) sweep(v, r, up []float64, alpha float64) (delta, sumR float64) {
	n := len(v)
	nseg := len(z.optr) - 1
	bounds := func(seg int) (int, int) { return seg * segment, min(n, (seg+1)*segment) }
	// base forms segment seg's sums except those over own[seg].
	base := func(acc []float64, seg int) {
		lo, _ := bounds(seg)
		for i := range acc {
			acc[i] = z.b[lo+i] + alpha*z.later[lo+i]
		}
		z.accumulate(acc, v, z.optr[seg], z.own[seg][0])
		z.accumulate(acc, v, z.own[seg][1], z.optr[seg+1])
	}
	residuals := func(seg int) {
		lo, hi := bounds(seg)
		for i, x := range v[lo:hi] {
			sumR += x * z.d[lo+i]
		}
	}
	sumR = z.sumB
	if nseg == 1 {
		base(up, 0)
		acc := r[:n]
		clear(acc)
		delta = z.update(v, acc, up, 0, alpha, 0)
		residuals(0)
		return delta, sumR
	}
	// ahead[s] is closed once the helper has formed segment s's sums, finished[s] once the sweep
	// has updated segment s.
	ahead, finished := make([]chan struct{}, nseg), make([]chan struct{}, nseg)
	for seg := range ahead {
		ahead[seg], finished[seg] = make(chan struct{}), make(chan struct{})
	}
	var helper sync.WaitGroup
	helper.Add(1)
	go func() {
		defer helper.Done()
		for seg := 0; seg < nseg; seg++ {
			if seg >= 2 {
				<-finished[seg-2]
				residuals(seg - 2)
			}
			lo, hi := bounds(seg)
			base(up[lo:hi], seg)
			close(ahead[seg])
		}
		for seg := nseg - 2; seg < nseg; seg++ {
			<-finished[seg]
			residuals(seg)
		}
	}()
	for seg := 0; seg < nseg; seg++ {
		lo, hi := bounds(seg)
		acc := r[:hi-lo]
		clear(acc)
		z.accumulate(acc, v, z.own[seg][0], z.own[seg][1])
		<-ahead[seg]
		delta = z.update(v[lo:hi], acc, up[lo:hi], lo, alpha, delta)
		close(finished[seg])
	}
	helper.Wait()
	return delta, sumR
}

// update runs through the rows lo.. of one segment, whose values are vs, with the sums over all
// transitions into them from other segments in acc and sums (the sweep's and the helper's), and
// returns the largest relative change, starting from delta.
func (z *seidel) update(vs, acc, sums []float64, lo int, alpha, delta float64) float64 {
	inv, ptr := z.inv[lo:lo+len(vs)], z.dptr[lo:lo+len(vs)+1]
	dval, dcol := z.dval, z.dcol
	for i := range vs {
		s := acc[i] + sums[i]
		for k := ptr[i]; k < ptr[i+1]; k++ {
			s += dval[k] * vs[dcol[k]]
		}
		s *= inv[i]
		old := vs[i] + alpha
		vs[i] = s
		// The relative change |s-old|/|s| (absolute where s is 0), dividing only when it might
		// be a new maximum.
		if ds, as := math.Abs(s-old), math.Abs(s); ds > delta*as {
			if as != 0 {
				ds /= as
			}
			delta = max(delta, ds)
		}
	}
	return delta
}

// accumulate adds the off-segment transitions p..q-1 of one segment, times the values they lead
// to, into the segment's sums acc.
func (z *seidel) accumulate(acc, v []float64, p, q int) {
	rows, cols, vals := z.orow[p:q], z.ocol[p:q], z.oval[p:q]
	for e, row := range rows {
		acc[row] += vals[e] * v[cols[e]]
	}
}

// gaussSeidel iterates a component to the relative convergence criterion
// max_i |x_i' - x_i| / |x_i'| < ε. That criterion is not an error bound: when it stops, the
// remaining error is estimated from the observed contraction rate λ as δ·λ/(1-λ), and reported.
//
// On large components every sweep ends with a coarse correction along the constant vector (one
// aggregate, as in iterative aggregation–disaggregation) that makes the residuals sum to zero:
// Gauss–Seidel alone damps that smooth error mode slowest on well-mixed chains (116 sweeps
// instead of 36 on the random benchmark). The correction α is not added to every value but
// carried into the next sweep, which reads the previous sweep's values as v+α: one pass over the
// values per sweep instead of three.
func (sys *system) gaussSeidel(x []float64, comp []int, loc []int32, opt *Options, st *Stats) error {
	z, err := newSeidel(sys, comp, loc, x)
	if err != nil {
		return err
	}
	n := len(comp)
	correct := n >= largeComponent && z.sumLeak > 0
	v, r, up := make([]float64, n), make([]float64, min(n, segment)), make([]float64, n)
	eps, maxIter := opt.epsilon(), opt.maxIter()
	prev, delta, alpha := math.Inf(1), math.Inf(1), 0.0
	if correct {
		alpha = z.sumB / z.sumLeak
	}
	it := 0
	for it < maxIter && delta >= eps {
		it++
		var sumR float64
		prev = delta
		delta, sumR = z.sweep(v, r, up, alpha)
		if correct {
			alpha = sumR / z.sumLeak
		}
	}
	// The estimate needs the contraction rate of plain sweeps, which the corrected ones do not
	// show; two more plain sweeps give it (less reliably than on small components: interval
	// iteration is the method for a guarantee).
	if correct {
		for i := range v {
			v[i] += alpha
		}
		prev, _ = z.sweep(v, r, up, 0)
		delta, _ = z.sweep(v, r, up, 0)
		it += 2
	}
	for i, s := range comp {
		x[s] = v[i]
	}
	st.IterSCCs++
	st.Iterations += it
	est := math.Inf(1)
	if lambda := delta / prev; lambda < 1 {
		est = delta * lambda / (1 - lambda)
	}
	st.ErrEstimate = math.Max(st.ErrEstimate, est)
	if delta >= eps {
		st.Converged = false
		st.Notes = append(st.Notes, fmt.Sprintf("Gauss-Seidel did not converge in %d iterations on a component of %d states (last relative change %.3g)", it, n, delta))
	}
	return nil
}
