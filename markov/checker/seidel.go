package checker

import (
	"fmt"
	"math"
	"math/bits"
	"sort"
	"sync"
)

// segment is how many states a Gauss–Seidel sweep updates in one step: their values and partial
// sums (512 KB each) stay in a core's cache while the step runs.
const segment = 1 << 16

// lag is how many segments before its own a sweep step forms the sums from itself, leaving the
// rest to its helper: 2 balanced the two goroutines best on the random benchmark (1 left the
// sweep waiting for the helper, 3 the helper for the sweep).
const lag = 2

// seidel is one component's equations, rate_i·x_i = b_i + Σ_j a_ij·x_j, each row divided by its
// exit rate and laid out for cache-blocked Gauss–Seidel sweeps. A plain sweep gathers x_j for
// every transition from all over the component; once the component outgrows the caches, every
// gather is a wait on memory (70 ms a sweep at a million states). Here the states are cut into
// segments, and the transitions into a segment's rows from other segments are stored ordered by
// column block: a step first accumulates them into partial sums, reading x in increasing order,
// and then runs through the segment's rows, adding the transitions inside the segment. Values of
// earlier segments are already this sweep's, those of later ones last sweep's, as in a plain
// sweep in the same order: the blocking changes the memory traffic and the order in which sums
// are rounded, not which values they are formed from.
type seidel struct {
	b []float64
	// later_i is the weight row i puts on values from the previous sweep (columns after i), which
	// lets the coarse correction be applied lazily (see gaussSeidel).
	later []float64
	// earlier_i is Σ_{k<i} a_ki, not divided by rates: a sweep leaves row k's residual at
	// Σ_{i>k} a_ki·Δ_i, where Δ_i is how much row i changed after row k was updated, so the
	// residuals sum to Σ_i earlier_i·Δ_i. Summing them so, from the changes, has none of the
	// cancellation of summing b - (I-A)x.
	earlier []float64
	// The transitions within each row's own segment, by row, with the column within the segment.
	dptr []int32
	dcol []uint16
	dval []float64
	// The transitions from other segments, grouped by the row's segment, ordered by column block. Of
	// segment s's, the sweep forms own[s][0]..own[s][1]-1 itself (those from the lag segments
	// before s; for segment 0, the first half), and its helper the others (see sweep).
	optr []int
	own  [][2]int
	orow []uint16
	ocol []int32
	oval []float64
	// Σ b_i and Σ leak_i before the rows are divided by their rates: the coarse correction's
	// constants.
	sumB, sumLeak float64
}

// colBlock is the width of the column blocks by which each segment's transitions from other
// segments are ordered: a step reads x block by block, and within a block (4 KB) from cache, so a
// full sort by column would buy nothing more.
const colBlock = 1 << 9

// Segments must be whole column blocks: the sweep and its helper split each segment's transitions
// at segment boundaries, and a block across one would leave them reading values the other writes.
const _ uint = -(segment % colBlock)

// newSeidel builds the equations of component comp (loc maps its states to their positions) from
// the model, with transitions out of the component folded into the constants: values of states of
// U solved earlier are in x, values outside U in sys.b. Two goroutines build a component of several
// segments, each taking half of them.
func newSeidel(sys *system, comp []int, loc []int32, x []float64) (*seidel, error) {
	m := sys.g.m
	n := len(comp)
	nseg := (n + segment - 1) / segment
	z := &seidel{b: make([]float64, n), later: make([]float64, n), earlier: make([]float64, n),
		optr: make([]int, nseg+1)}
	// The halves meet at a segment boundary. Each writes its transitions from other segments to
	// its own stretch of the arrays, which the row lengths bound, and sums its columns apart.
	split := [3]int{0, (nseg / 2) * segment, n}
	start := [3]int{}
	for h := 0; h < 2; h++ {
		start[h+1] = start[h]
		for _, s := range comp[split[h]:split[h+1]] {
			start[h+1] += m.RowPtr[s+1] - m.RowPtr[s]
		}
	}
	z.orow, z.ocol, z.oval = make([]uint16, start[2]), make([]int32, start[2]), make([]float64, start[2])
	colSum := [2][]float64{z.earlier, make([]float64, n)}
	where := newLocator(comp, loc, m.N)
	var parts [2]*seidelRows
	var errs [2]error
	build := func(h int) {
		parts[h], errs[h] = z.rows(sys, comp, where, x, split[h], split[h+1], start[h], colSum[h])
	}
	if nseg == 1 {
		build(1)
		parts[0] = &seidelRows{dptr: []int32{0}, end: start[1]}
	} else {
		both(build)
	}
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	// The second half's transitions move down to follow the first's.
	end0, end1 := parts[0].end, parts[1].end
	gap := start[1] - end0
	total := end1 - gap
	copy(z.orow[end0:total], z.orow[start[1]:end1])
	copy(z.ocol[end0:total], z.ocol[start[1]:end1])
	copy(z.oval[end0:total], z.oval[start[1]:end1])
	for seg := split[1] / segment; seg < nseg; seg++ {
		z.optr[seg] -= gap
	}
	z.optr[nseg] = total
	z.orow, z.ocol, z.oval = z.orow[:total], z.ocol[:total], z.oval[:total]
	z.dptr = append(parts[0].dptr, parts[1].dptr[1:]...)
	for i := split[1] + 1; i <= n; i++ {
		z.dptr[i] += int32(len(parts[0].dval))
	}
	z.dcol = append(parts[0].dcol, parts[1].dcol...)
	z.dval = append(parts[0].dval, parts[1].dval...)
	z.sumB = parts[0].sumB + parts[1].sumB
	z.sumLeak = parts[0].sumLeak + parts[1].sumLeak
	both(func(h int) {
		for j := h * n / 2; j < (h+1)*n/2; j++ {
			z.earlier[j] += colSum[1][j]
		}
	})
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
		z.own[seg] = [2]int{first(max(0, seg-lag) * segment), first(seg * segment)}
	}
	return z, nil
}

// locator gives the positions of states in a component: from loc, or, for a component of several
// segments in decreasing state order (as sccs lists the giant component it splits off), by
// counting the members above the state in a bitset of the component. Building the equations looks
// up every transition's target; loc is four bytes a state and those lookups miss the cache, the
// bitset with its counts is about a twentieth of that and stays in it.
type locator struct {
	loc   []int32
	words []uint64
	above []int32 // members in the words after each word
}

func newLocator(comp []int, loc []int32, n int) *locator {
	l := &locator{loc: loc}
	if len(comp) <= segment {
		return l
	}
	for i := 1; i < len(comp); i++ {
		if comp[i] >= comp[i-1] {
			return l
		}
	}
	l.words, l.above = make([]uint64, (n+63)/64), make([]int32, (n+63)/64)
	for _, s := range comp {
		l.words[s>>6] |= 1 << (s & 63)
	}
	count := int32(0)
	for w := len(l.words) - 1; w >= 0; w-- {
		l.above[w] = count
		count += int32(bits.OnesCount64(l.words[w]))
	}
	return l
}

// at is the position of state t in the component, or -1 if t is not in it.
func (l *locator) at(t int) int {
	if l.words == nil {
		return int(l.loc[t])
	}
	w, b := l.words[t>>6], uint(t&63)
	if w>>b&1 == 0 {
		return -1
	}
	return int(l.above[t>>6]) + bits.OnesCount64(w&^(uint64(2)<<b-1))
}

// seidelRows is what one goroutine builds of the rows lo..hi-1: the transitions within segments,
// its share of the correction's constants, and where its transitions from other segments end.
type seidelRows struct {
	end           int
	dptr          []int32
	dcol          []uint16
	dval          []float64
	sumB, sumLeak float64
}

// rows fills b and later for rows lo..hi-1 (whole segments) and returns their transitions within
// their own segments. It writes the transitions from other segments to the arrays from at on,
// each segment's ordered by column block, with the segments' starts in optr (and the end in the
// result), and adds the probability of every transition to a later state to that state's sum in
// colSum. Each row is divided by its exit rate once the sums have the probabilities, so that a
// sweep need not divide.
func (z *seidel) rows(sys *system, comp []int, loc *locator, x []float64, lo, hi, at int, colSum []float64) (*seidelRows, error) {
	m := sys.g.m
	r := &seidelRows{dptr: make([]int32, 1, hi-lo+1)}
	// One segment's transitions from other segments, in row order, before they are ordered.
	type entry struct {
		row uint16
		col int32
		p   float64
	}
	var pending []entry
	blocks := make([]int, (len(comp)+colBlock-1)/colBlock+1)
	rates := make([]float64, min(segment, hi-lo))
	for seg := lo / segment; seg*segment < hi; seg++ {
		base := seg * segment
		pending = pending[:0]
		for i := base; i < min(hi, base+segment); i++ {
			s := comp[i]
			rt, leak, b, later := 0.0, 0.0, sys.b[s], 0.0
			for k := m.RowPtr[s]; k < m.RowPtr[s+1]; k++ {
				t, p := m.Col[k], m.Prob[k]
				if t == s {
					continue
				}
				j := loc.at(t)
				if j < 0 {
					leak += p
					if sys.unknown[t] {
						b += p * x[t]
					}
					continue
				}
				rt += p
				if j > i {
					later += p
				}
				if j/segment == seg {
					r.dcol = append(r.dcol, uint16(j-base))
					r.dval = append(r.dval, p)
				} else {
					pending = append(pending, entry{uint16(i - base), int32(j), p})
				}
			}
			// The exit rate is a sum, not 1 - P(s,s): subtracting would lose every digit on
			// stiff chains whose self-loops are 1-1e-20 (the GTH idea).
			rt += leak
			if rt == 0 {
				return nil, fmt.Errorf("internal error: state %d never leaves the unknown states", s)
			}
			r.dptr = append(r.dptr, int32(len(r.dval)))
			z.b[i], z.later[i], rates[i-base] = b/rt, later/rt, rt
			r.sumB += b
			r.sumLeak += leak
		}
		for i := base; i < min(hi, base+segment); i++ {
			for k := r.dptr[i-lo]; k < r.dptr[i-lo+1]; k++ {
				if j := base + int(r.dcol[k]); j > i {
					colSum[j] += r.dval[k]
				}
				r.dval[k] /= rates[i-base]
			}
		}
		// A counting sort by column block, stable, so row order remains within a block.
		clear(blocks)
		for _, e := range pending {
			blocks[e.col/colBlock+1]++
		}
		for b := 1; b < len(blocks); b++ {
			blocks[b] += blocks[b-1]
		}
		z.optr[seg] = at
		for _, e := range pending {
			q := at + blocks[e.col/colBlock]
			blocks[e.col/colBlock]++
			z.orow[q], z.ocol[q], z.oval[q] = e.row, e.col, e.p
		}
		for q := at; q < at+len(pending); q++ {
			if j := int(z.ocol[q]); j >= base+segment {
				colSum[j] += z.oval[q]
			}
			z.oval[q] /= rates[z.orow[q]]
		}
		at += len(pending)
	}
	r.end = at
	return r, nil
}

// sweep is one Gauss–Seidel sweep over v, where the values from the previous sweep are to be read
// as v+alpha (the pending coarse correction). It returns the largest relative change, the sum of
// the residuals of the new iterate, and its smallest magnitude (zeros counted as 1, as the relative
// change counts their change absolutely). r and up are scratch space of one segment and of len(v).
//
// A helper goroutine does most of the work ahead of the sweep. For segment s it forms
// b + alpha·later and the sums over the transitions from later segments, which this sweep has not
// changed yet, and from segments more than lag before, which it has finished. The sweep adds the
// sums from the lag segments before s, which it was changing meanwhile, and updates the rows. The
// helper starts on segment s once the sweep has finished segment s-lag-1, and the sweep starts on
// segment s once the helper has finished it, so neither reads values the other is writing. The
// sums are always formed apart and added the same way, so the result does not depend on goroutine
// timing.
func (z *seidel) sweep(v, r, up []float64, alpha float64) (delta, sumR, least float64) {
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
	least = math.Inf(1)
	if nseg == 1 {
		base(up, 0)
		acc := r[:n]
		clear(acc)
		return z.update(v, acc, up, 0, alpha, 0, 0, least)
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
			if seg > lag {
				<-finished[seg-lag-1]
			}
			lo, hi := bounds(seg)
			base(up[lo:hi], seg)
			close(ahead[seg])
		}
	}()
	for seg := 0; seg < nseg; seg++ {
		lo, hi := bounds(seg)
		acc := r[:hi-lo]
		clear(acc)
		z.accumulate(acc, v, z.own[seg][0], z.own[seg][1])
		<-ahead[seg]
		delta, sumR, least = z.update(v[lo:hi], acc, up[lo:hi], lo, alpha, delta, sumR, least)
		close(finished[seg])
	}
	helper.Wait()
	return delta, sumR, least
}

// update runs through the rows lo.. of one segment, whose values are vs, with b + alpha·later and
// the sums over all transitions into them from other segments in acc and sums (the sweep's and
// the helper's), and
// carries on the largest relative change, the residuals' sum and the smallest magnitude (see
// sweep).
func (z *seidel) update(vs, acc, sums []float64, lo int, alpha, delta, sumR, least float64) (float64, float64, float64) {
	earlier, ptr := z.earlier[lo:lo+len(vs)], z.dptr[lo:lo+len(vs)+1]
	dval, dcol := z.dval, z.dcol
	for i := range vs {
		s := acc[i] + sums[i]
		for k := ptr[i]; k < ptr[i+1]; k++ {
			s += dval[k] * vs[dcol[k]]
		}
		old := vs[i] + alpha
		vs[i] = s
		sumR += (s - old) * earlier[i]
		// The relative change |s-old|/|s| (absolute where s is 0), dividing only when it might
		// be a new maximum.
		as := math.Abs(s)
		if ds := math.Abs(s - old); ds > delta*as {
			if as != 0 {
				ds /= as
			}
			delta = max(delta, ds)
		}
		if as == 0 {
			as = 1
		}
		least = min(least, as)
	}
	return delta, sumR, least
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
// max_i |x_i' - x_i| / |x_i'| < ε (absolute where x_i' is 0). That criterion is not an error
// bound, and none is claimed: the statistics carry the last relative change as what it is. (The
// interval method turns such an iterate into sound bounds; see verify.)
func (sys *system) gaussSeidel(x []float64, comp []int, loc []int32, opt *Options, st *Stats) error {
	if len(comp) == 0 {
		return nil
	}
	z, err := newSeidel(sys, comp, loc, x)
	if err != nil {
		return err
	}
	v := make([]float64, len(comp))
	it, delta := z.iterate(v, opt.epsilon(), opt.maxIter())
	for i, s := range comp {
		x[s] = v[i]
	}
	st.IterSCCs++
	st.Iterations += it
	st.LastChange = math.Max(st.LastChange, delta)
	// NaN compares false: a sweep that produced one has not converged either.
	if !(delta < opt.epsilon()) {
		st.Converged = false
		st.Notes = append(st.Notes, fmt.Sprintf("Gauss-Seidel did not converge in %d iterations on a component of %d states (last relative change %.3g)", it, len(comp), delta))
	}
	return nil
}

// iterate runs Gauss–Seidel sweeps on v (the start, overwritten with the last iterate) until the
// largest relative change is below eps or maxIter sweeps are done, and returns the sweeps run
// and the last change.
//
// On large components every sweep ends with a coarse correction along the constant vector (one
// aggregate, as in iterative aggregation–disaggregation) that makes the residuals sum to zero:
// Gauss–Seidel alone damps that smooth error mode slowest on well-mixed chains (116 sweeps
// instead of 36 on the random benchmark). The correction α is not added to every value but
// carried into the next sweep, which reads the previous sweep's values as v+α: one pass over the
// values per sweep instead of three. The criterion counts the pending correction in full, as the
// change it will make to the smallest value. On chains whose values differ by orders of magnitude
// (nested loops of code) the one aggregate can overshoot; once the change grows (to four times the smallest so far) the correction is dropped for good and plain sweeps continue.
func (z *seidel) iterate(v []float64, eps float64, maxIter int) (int, float64) {
	n := len(v)
	correct := n >= largeComponent && z.sumLeak > 0
	r, up := make([]float64, min(n, segment)), make([]float64, n)
	best, delta, alpha := math.Inf(1), math.Inf(1), 0.0
	if correct {
		alpha = z.sumB / z.sumLeak
	}
	it := 0
	for it < maxIter && !(delta < eps) {
		it++
		var sumR, least float64
		delta, sumR, least = z.sweep(v, r, up, alpha)
		if correct {
			if !(delta <= 4*best) {
				correct = false
				for i := range v {
					v[i] += alpha
				}
				alpha = 0
			} else {
				alpha = sumR / z.sumLeak
				delta += math.Abs(alpha) / least
			}
		}
		best = math.Min(best, delta)
	}
	if alpha != 0 {
		for i := range v {
			v[i] += alpha
		}
	}
	return it, delta
}
