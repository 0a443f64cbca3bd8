package profile

import (
	"fmt"
	"go/ast"
	"io"
	"math"
	"slices"
	"strings"

	pprof "github.com/google/pprof/profile"

	"github.com/augur-perf/augur/source/frontend"
)

// Lines is the CPU time sampled in one function's frames, per line of its source file: for each
// sample whose call stack holds the function, the line its outermost frame was executing (a
// call's line is charged for the callee's time: inclusive time). A sample is charged once, to
// the outermost frame, so that recursion does not count it twice and the lines add up to the
// function's inclusive time.
//
// Line CallSite holds what calling the function costs its callers: the samples whose innermost
// frame is a caller's own code on a line that calls the function (passing the arguments, the
// call and the return, outside the function), as seen in the samples that hold the function.
// The caller's other work on that line, in other functions, is not the call's.
type Lines map[int]Sampled

// CallSite is the key of Lines under which the callers' cost of making the call is kept.
const CallSite = 0

// Sampled is what the CPU samples of one place add up to.
type Sampled struct {
	// NS is the sampled CPU time in nanoseconds and Samples the number of samples behind it.
	NS      int64 `json:"ns"`
	Samples int64 `json:"samples"`
}

// Total adds up every line.
func (l Lines) Total() Sampled {
	var t Sampled
	for _, s := range l {
		t.NS += s.NS
		t.Samples += s.Samples
	}
	return t
}

// Add adds m's samples into l (a repetition of the workload).
func (l Lines) Add(m Lines) {
	for line, s := range m {
		t := l[line]
		t.NS += s.NS
		t.Samples += s.Samples
		l[line] = t
	}
}

// CPU is what a CPU profile says of some functions.
type CPU struct {
	// Funcs holds each function's samples per line.
	Funcs map[string]Lines
	// PeriodNS is the CPU time of one sample at the sampling rate, and Samples the number of
	// samples in the whole profile, in any function.
	PeriodNS int64
	Samples  int64
}

// Add adds the samples of d (a repetition of the workload) into c.
func (c *CPU) Add(d *CPU) {
	if c.Funcs == nil {
		c.Funcs = map[string]Lines{}
	}
	for name, l := range d.Funcs {
		if c.Funcs[name] == nil {
			c.Funcs[name] = Lines{}
		}
		c.Funcs[name].Add(l)
	}
	c.PeriodNS = d.PeriodNS
	c.Samples += d.Samples
}

// ReadCPU reads a CPU profile as runtime/pprof writes it (go test -cpuprofile) and gives, for
// each function named in funcs (qualified as frontend.Func.Name: import/path.F,
// import/path.(*T).M), the CPU time sampled in its frames per line (see Lines). Frames of
// inlined calls count as frames of the function inlined. Functions without samples get an empty
// Lines.
func ReadCPU(r io.Reader, funcs []string) (*CPU, error) {
	p, err := pprof.Parse(r)
	if err != nil {
		return nil, fmt.Errorf("reading the CPU profile: %v", err)
	}
	ns, count := -1, -1
	for i, st := range p.SampleType {
		switch {
		case st.Type == "cpu" && st.Unit == "nanoseconds":
			ns = i
		case st.Type == "samples" && st.Unit == "count":
			count = i
		}
	}
	if ns < 0 {
		return nil, fmt.Errorf("the profile has no cpu/nanoseconds samples (types %v)", p.SampleType)
	}
	if p.Period <= 0 {
		return nil, fmt.Errorf("the profile has no sampling period")
	}
	c := &CPU{Funcs: make(map[string]Lines, len(funcs)), PeriodNS: p.Period}
	for _, f := range funcs {
		c.Funcs[f] = Lines{}
	}
	// frame is one frame of a sample, from its root (index 0 of the slice a sample has).
	type frame struct {
		fn   string
		line int
	}
	stacks := make([][]frame, len(p.Sample))
	weight := make([]int64, len(p.Sample))
	sites := map[string]map[frame]bool{} // function → its callers' frames at the call
	for k, s := range p.Sample {
		n := max(1, s.Value[ns]/p.Period)
		if count >= 0 {
			n = s.Value[count]
		}
		weight[k] = n
		c.Samples += n
		// From the root of the stack to its leaf, and within a location from the outermost
		// inlined frame to the innermost.
		var st []frame
		for i := len(s.Location) - 1; i >= 0; i-- {
			loc := s.Location[i]
			for j := len(loc.Line) - 1; j >= 0; j-- {
				if ln := loc.Line[j]; ln.Function != nil && ln.Line > 0 {
					st = append(st, frame{funcName(ln.Function.Name), int(ln.Line)})
				}
			}
		}
		stacks[k] = st
		charged := map[string]bool{}
		for i, f := range st {
			lines, ok := c.Funcs[f.fn]
			if !ok || charged[f.fn] {
				continue
			}
			// The function's outermost frame.
			charged[f.fn] = true
			t := lines[f.line]
			t.NS += s.Value[ns]
			t.Samples += n
			lines[f.line] = t
			if i > 0 {
				if sites[f.fn] == nil {
					sites[f.fn] = map[frame]bool{}
				}
				sites[f.fn][st[i-1]] = true
			}
		}
	}
	for k, st := range stacks {
		if len(st) == 0 {
			continue
		}
		leaf := st[len(st)-1]
		for fn, calls := range sites {
			if calls[leaf] && !slices.ContainsFunc(st, func(f frame) bool { return f.fn == fn }) {
				t := c.Funcs[fn][CallSite]
				t.NS += weight[k] * p.Period
				t.Samples += weight[k]
				c.Funcs[fn][CallSite] = t
			}
		}
	}
	return c, nil
}

// funcName drops the type arguments pprof shows on generic functions (pkg.F[...]).
func funcName(s string) string {
	if i := strings.Index(s, "[...]"); i >= 0 {
		return s[:i] + s[i+len("[...]"):]
	}
	return s
}

// NodeTime is a measured time reward: per CFG node, the CPU time of one execution, the number
// of samples behind it (fractional where a line's samples are shared by several nodes) and how
// often the node ran in the timed runs.
type NodeTime struct {
	NS, Samples, Runs []float64
	// NSPerSample is the CPU time one sample stands for. TotalSamples, when not 0, is the number
	// of samples in the whole profile, whose CPU time was measured exactly: a node's time is then
	// its share of that total, with a binomial error; otherwise each sample is a Poisson event.
	NSPerSample, TotalSamples float64
}

// StdErr is the standard error of node id's time per execution (see Variance). It is NaN for a
// node that never ran in the timed runs: its time is unknown.
func (t *NodeTime) StdErr(id int) float64 {
	w := make([]float64, len(t.NS))
	w[id] = 1
	return math.Sqrt(t.Variance(w))
}

// Variance is the variance of Σ w[id]·NS[id], a weighted sum of node times (an expected time
// per call: w are the visits per call), NaN if a node with weight never ran. A time made of n
// of the profile's N samples, whose total CPU time is known, is the total times n/N: the counts
// are multinomial, and for u = w/runs, Var Σ u·n = N·Σ p·(u−ū)² = Σ u²n − (Σ u·n)²/N, with
// p = n/N and ū = Σ p·u (samples outside the function have u = 0). Without the total, each
// sample is a Poisson event: Var = Σ u²n, and ū = 0. A node that ran but was never sampled has a
// share of at most about one sample: it adds (u−ū)², which is nothing when it weighs what the
// sampled nodes do (the function's own time per call, where the split does not matter).
func (t *NodeTime) Variance(w []float64) float64 {
	var su2n, sun float64
	var unsampled []float64
	for id, wt := range w {
		if wt == 0 {
			continue
		}
		if t.Runs[id] == 0 {
			return math.NaN()
		}
		u := wt / t.Runs[id]
		if n := t.Samples[id]; n > 0 {
			su2n += u * u * n
			sun += u * n
		} else {
			unsampled = append(unsampled, u)
		}
	}
	v, mean := su2n, 0.0
	if t.TotalSamples > 0 {
		mean = sun / t.TotalSamples
		v -= sun * mean
		if v <= 1e-12*su2n {
			// Every sample fell in the weighted nodes (a share of 1, or one weight): the
			// binomial variance is 0, which would claim an exact time from a few samples.
			// The Poisson variance of the counts bounds it instead.
			v = su2n
		}
	}
	for _, u := range unsampled {
		v += (u - mean) * (u - mean)
	}
	return t.NSPerSample * t.NSPerSample * max(v, 0)
}

// FromCPU turns the CPU time sampled in a function's frames into time per execution of each
// node of g. lines are the function's samples (see Lines) from a run whose counts are f, or
// proportional to f's; invocations is how often the function was entered in the timed run, so
// that a node ran Count·invocations/f.Invocations times there. nsPerSample is the CPU time of
// one sample and total, when not 0, the number of samples in the whole profile whose CPU time
// is known (see NodeTime).
//
// A line's samples go to the statement that contains it: the node whose own extent (the
// statement; for a decision its condition or header) covers the line with the fewest lines, so
// a loop body's time stays on the body and a multi-line call's on the call. Nodes on the same
// line (a for loop's init, condition and post) share it in proportion to their counts, that
// is with the same time per execution. A line no node's extent covers (a case clause, an else)
// goes to the innermost statement whose syntax spans it (the switch, the if), and a line
// outside every statement (the function's prologue on the func line, the epilogue on its
// closing brace), and the callers' cost of the call (CallSite), to the entry node, scaled to run
// once per call, because that is what they cost.
func FromCPU(g *frontend.CFG, f *Func, lines Lines, invocations uint64, nsPerSample, total float64) *NodeTime {
	n := len(g.Nodes)
	t := &NodeTime{NS: make([]float64, n), Samples: make([]float64, n), Runs: make([]float64, n), NSPerSample: nsPerSample, TotalSamples: total}
	if f.Invocations == 0 || invocations == 0 {
		return t
	}
	scale := float64(invocations) / float64(f.Invocations)
	file := g.Fset.Position(g.Decl.Pos()).Filename
	samples := make([]float64, n)
	for line, s := range lines {
		ids := lineOwners(g, f, file, line)
		total := uint64(0)
		for _, id := range ids {
			total += f.Nodes[id].Count
		}
		for _, id := range ids {
			share := 1 / float64(len(ids))
			if total > 0 {
				share = float64(f.Nodes[id].Count) / float64(total)
			}
			samples[id] += share * float64(s.Samples)
		}
	}
	for id := range n {
		if c := float64(f.Nodes[id].Count) * scale; c > 0 {
			t.NS[id], t.Samples[id], t.Runs[id] = samples[id]*nsPerSample/c, samples[id], c
		}
	}
	return t
}

// lineOwners gives the nodes a sample at line of file is charged to (see FromCPU).
func lineOwners(g *frontend.CFG, f *Func, file string, line int) []int {
	if line == CallSite {
		return []int{g.Entry}
	}
	best, span := []int(nil), math.MaxInt
	for id, nd := range g.Nodes {
		if nd.IsExit() || nd.Kind == frontend.KindDeferDispatch || nd.Pos.Filename != file || f.Nodes[id].Count == 0 {
			continue
		}
		if nd.Pos.Line <= line && line <= nd.End.Line {
			switch d := nd.End.Line - nd.Pos.Line; {
			case d < span:
				best, span = []int{id}, d
			case d == span:
				best = append(best, id)
			}
		}
	}
	if best != nil {
		return best
	}
	var within ast.Node
	for id, nd := range g.Nodes {
		if nd.AST == nil || nd.IsExit() || f.Nodes[id].Count == 0 {
			continue
		}
		lo, hi := g.Fset.Position(nd.AST.Pos()), g.Fset.Position(nd.AST.End())
		if lo.Filename != file || line < lo.Line || line > hi.Line {
			continue
		}
		if within == nil || nd.AST != within && g.Fset.Position(within.Pos()).Offset <= lo.Offset && hi.Offset <= g.Fset.Position(within.End()).Offset {
			within, best = nd.AST, nil
		}
		if nd.AST == within {
			best = append(best, id)
		}
	}
	if best != nil {
		// A statement with several nodes (a for loop's condition and its Loop head) is charged
		// on its decision, the node that runs each time the statement does.
		for _, id := range best {
			if g.Nodes[id].IsDecision() {
				return []int{id}
			}
		}
		return best[:1]
	}
	return []int{g.Entry}
}
