package pipeline

import (
	"os"

	"github.com/augur-perf/augur/field/plan"
	"github.com/augur-perf/augur/field/sim"
)

// SimulateRequest is augur field simulate: the strategies replayed on full traces, the lists
// of strategies, bounds, variants, memory bounds and rates as the comma-separated text the
// command line gives.
type SimulateRequest struct {
	// Traces is a directory of augur-profile/1 files (SITE.RUN.json) or a file Save wrote;
	// Save, when given, also writes the traces to that file. Profile is an in-house profile,
	// for grb, with a directory of traces.
	Traces, Save, Profile        string
	Strategies, Bounds, Variants string
	// Repeats per configuration, Sites deployed per repeat (0: all), Seed of everything random.
	Repeats, Sites int
	Seed           uint64
	// Memory adds the memory study (an earlier release's bounds), Rates the check of the CBI
	// estimator at these sampling rates: neither goes with Rows.
	Memory, Rates string
	// JSON and CSV say that only the coverage study's rows are wanted, to be printed as JSON
	// or as CSV (not both).
	JSON, CSV bool
}

// Simulation is what Simulate found: the study as run, the traces, and the coverage study's
// rows (Config.Report writes them with the other studies).
type Simulation struct {
	sim.Config
	Traces *sim.Traces
	Rows   []sim.Row
}

// Simulate carries out r.
func Simulate(r SimulateRequest) (*Simulation, error) {
	switch {
	case r.Traces == "":
		return nil, inputf("--traces DIR is required")
	case r.JSON && r.CSV:
		return nil, inputf("give --json or --csv, not both")
	case (r.JSON || r.CSV) && (r.Memory != "" || r.Rates != ""):
		return nil, inputf("--json and --csv print the study's rows: run --memory and --rates without them")
	case r.Sites < 0:
		return nil, inputf("--sites %d: want a number of sites", r.Sites)
	}
	s := &Simulation{Config: sim.Config{Sites: r.Sites, Repeats: r.Repeats, Seed: r.Seed}}
	var err error
	if s.Strategies, err = plan.ParseStrategies(r.Strategies); err != nil {
		return nil, &InputError{err}
	}
	if s.Bounds, err = counts("--bounds", r.Bounds); err != nil {
		return nil, err
	}
	if s.Variants, err = counts("--variants", r.Variants); err != nil {
		return nil, err
	}
	if r.Memory != "" {
		if s.Memory, err = counts("--memory", r.Memory); err != nil {
			return nil, err
		}
	}
	if r.Rates != "" {
		if s.Rates, err = sim.ParseRates(r.Rates); err != nil {
			return nil, inputf("--rates: %v", err)
		}
	}
	inhouse, err := readOptional(r.Profile)
	if err != nil {
		return nil, err
	}
	if st, err := os.Stat(r.Traces); err != nil {
		return nil, inputf("--traces: %v", err)
	} else if !st.IsDir() && inhouse != nil {
		return nil, inputf("--profile is for a directory of traces: %s carries its in-house counts", r.Traces)
	}
	if s.Traces, err = sim.OpenTraces(r.Traces, inhouse); err != nil {
		return nil, err
	}
	if r.Save != "" {
		if err := s.Traces.WriteFile(r.Save); err != nil {
			return nil, err
		}
	}
	if r.Sites > s.Traces.Sites {
		return nil, inputf("--sites %d: the traces have %d sites", r.Sites, s.Traces.Sites)
	}
	s.Rows, err = sim.Study(s.Traces.Units, s.Traces.Runs, s.Strategies, s.Bounds, s.Variants, r.Sites, r.Repeats, r.Seed)
	return s, err
}
