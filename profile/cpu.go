package profile

import (
	"fmt"
	"io"
	"strconv"

	pprof "github.com/google/pprof/profile"
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
