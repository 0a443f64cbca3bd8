package profile

import (
	"fmt"
	"io"
	"strconv"

	pprof "github.com/google/pprof/profile"

	"github.com/augur-perf/augur/source/frontend"
)

// CPUByLine reads a CPU profile as runtime/pprof writes it (go test -cpuprofile) and returns, for
// every source line, the sampled CPU time in nanoseconds of the samples that were executing at
// that line in any frame: cumulative time, so a line that calls a function is charged for the
// call. A line met twice in one sample (recursion) is charged once.
func CPUByLine(r io.Reader) (map[string]int64, error) {
	p, err := pprof.Parse(r)
	if err != nil {
		return nil, fmt.Errorf("reading the CPU profile: %v", err)
	}
	vi := -1
	for i, st := range p.SampleType {
		if st.Type == "cpu" && st.Unit == "nanoseconds" {
			vi = i
		}
	}
	if vi < 0 {
		return nil, fmt.Errorf("the profile has no cpu/nanoseconds samples (types %v)", p.SampleType)
	}
	out := map[string]int64{}
	for _, s := range p.Sample {
		seen := map[string]bool{}
		for _, loc := range s.Location {
			for _, ln := range loc.Line {
				if ln.Function == nil || ln.Line <= 0 {
					continue
				}
				key := ln.Function.Filename + ":" + strconv.FormatInt(ln.Line, 10)
				if !seen[key] {
					seen[key] = true
					out[key] += s.Value[vi]
				}
			}
		}
	}
	return out, nil
}

// FromCPU makes a measured reward from sampled CPU time (file:line → nanoseconds, as
// CPUByLine gives it): each node of g gets the time sampled at its line divided by how
// often the nodes of that line ran, so that the line's nodes together account for exactly the
// time sampled there. Nodes on lines without samples get 0.
func FromCPU(g *frontend.CFG, f *Func, cpu map[string]int64) []float64 {
	runs := map[string]uint64{}
	key := func(nd *frontend.Node) string { return nd.Pos.Filename + ":" + strconv.Itoa(nd.Pos.Line) }
	for id, nd := range g.Nodes {
		if !nd.IsExit() {
			runs[key(nd)] += f.Nodes[id].Count
		}
	}
	out := make([]float64, len(g.Nodes))
	for id, nd := range g.Nodes {
		if k := key(nd); !nd.IsExit() && runs[k] > 0 {
			out[id] = float64(cpu[k]) / float64(runs[k])
		}
	}
	return out
}
