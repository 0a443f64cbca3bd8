package pipeline

import (
	"fmt"
	"io"
	"strings"

	"github.com/augur-perf/augur/field/build"
	"github.com/augur-perf/augur/field/calibrate"
	"github.com/augur-perf/augur/field/plan"
	"github.com/augur-perf/augur/probe/profile"
	"github.com/augur-perf/augur/source/frontend"
)

// PlanRequest is augur field plan: the probes of a release of the packages allocated to its
// variants, the manifest written to Out.
type PlanRequest struct {
	// Dir is the module directory the Patterns are loaded from (and the Main package built in).
	Dir      string
	Patterns []string
	// Release names the release; Out is the manifest written.
	Release, Out string
	// Variants is the number of deployed variants, Probes the most probes a variant carries.
	Variants, Probes int
	// Strategy is p, r, rb or grb; Seed the allocation's seed.
	Strategy string
	Seed     uint64
	// Profile is an augur profile of the in-house tests (Grouped RB groups by it); Previous an
	// earlier release's manifest to remember; Weights Grouped RB's shares per group (4,3,2,1,0).
	Profile, Previous, Weights string
	// Overhead, instead of Probes (ProbesGiven must be false), is the slowdown allowed (5%):
	// the bound is calibrated by running the Workload on variants of Main with more and more
	// probes, Runs times per build; progress goes to Log.
	Overhead, Main string
	ProbesGiven    bool
	Workload       []string
	Runs           int
	Log            io.Writer
}

// Planned is the release Plan wrote.
type Planned struct {
	Manifest *plan.Manifest
	Strategy plan.Strategy
	// Units is how many units the packages have; Calibrated the calibration, with Overhead.
	Units      int
	Calibrated *calibrate.Result
}

// Plan carries out r.
func Plan(r PlanRequest) (*Planned, error) {
	target := -1.0
	if r.Overhead != "" {
		var err error
		if target, err = calibrate.ParseTarget(r.Overhead); err != nil {
			return nil, inputf("--overhead %v", err)
		}
		if r.Main == "" || len(r.Workload) == 0 {
			return nil, inputf("--overhead calibrates on the program itself: give --main PKG and a WORKLOAD after -- that runs $%s", calibrate.EnvBinary)
		}
		if r.ProbesGiven {
			return nil, inputf("give --probes or --overhead, not both")
		}
	}
	st, err := plan.ParseStrategy(r.Strategy)
	if err != nil {
		return nil, &InputError{err}
	}
	if st == plan.GroupedRB && r.Profile == "" {
		return nil, inputf("--strategy grb groups units by their in-house frequency: give --profile (augur profile of the in-house tests)")
	}
	var ws []float64
	if r.Weights != "" && st != plan.GroupedRB {
		return nil, inputf("--weights share probes among Grouped RB's groups: give --strategy grb")
	} else if r.Weights != "" {
		if ws, err = plan.ParseWeights(r.Weights); err != nil {
			return nil, inputf("--weights: %v", err)
		}
	}
	_, fns, _, err := frontend.LoadAll(r.Dir, r.Patterns, nil)
	if err != nil {
		return nil, &InputError{err}
	}
	// A probe in a file that imports "C" would be lost (the go command compiles the file from
	// cgo's output, which a variant's overlay cannot replace), and the unit reported never run.
	fns, cgo := frontend.WithoutCgo(fns)
	if len(cgo) > 0 {
		fmt.Fprintf(orDiscard(r.Log), "note: %s are left out: in files that import \"C\", which the go command compiles from cgo's output, they could carry no probe\n", strings.Join(cgo, ", "))
	}
	if len(fns) == 0 {
		return nil, inputf("no function of %s can carry probes", strings.Join(r.Patterns, " "))
	}
	p, err := readOptional(r.Profile)
	if err != nil {
		return nil, err
	}
	res := &Planned{Strategy: st}
	units := plan.Units(fns, p, frontend.RelPosition)
	res.Units = len(units)
	bound := r.Probes
	if target >= 0 {
		if res.Calibrated, err = calibrate.Calibrate(calibrate.Options{Dir: r.Dir, Main: r.Main, Units: units, Strategy: st, Weights: ws,
			Seed: r.Seed, Variants: r.Variants, Target: target, Workload: r.Workload, Runs: r.Runs}, orDiscard(r.Log)); err != nil {
			return nil, err
		}
		bound = res.Calibrated.Bound
	}
	o := plan.Options{Variants: r.Variants, Bound: bound, Strategy: st, Seed: r.Seed, Weights: ws}
	if r.Previous != "" {
		if o.Previous, err = plan.Read(r.Previous); err != nil {
			return nil, err
		}
	}
	if res.Manifest, err = plan.Allocate(r.Release, units, o); err != nil {
		return nil, &InputError{err}
	}
	return res, res.Manifest.Write(r.Out)
}

// BuildRequest is augur field build: one binary per variant of the release in Manifest.
type BuildRequest struct {
	Manifest string
	// Options are the build's; Main is the main package built. Unlike Options, whose zero
	// values mean defaults, a request states Flush (positive) and Rate (in (0, 1]).
	build.Options
	// SpoolSize is the spool's bound as a size (16MB: build.ParseSize), VariantIDs the variants
	// to build, comma-separated ("": all); each, when given, sets its option.
	SpoolSize, VariantIDs string
}

// Build carries out r.
func Build(r BuildRequest) ([]build.Binary, error) {
	var err error
	switch {
	case r.Flush <= 0:
		return nil, inputf("--flush %v: want a positive period", r.Flush)
	case !(r.Rate > 0 && r.Rate <= 1):
		return nil, inputf("--rate %v: want a probability in (0, 1]", r.Rate)
	}
	if r.SpoolSize != "" {
		if r.SpoolMax, err = build.ParseSize(r.SpoolSize); err != nil {
			return nil, inputf("--spool-max: %v", err)
		}
	}
	if r.VariantIDs != "" {
		if r.Variants, err = counts("--variants", r.VariantIDs); err != nil {
			return nil, err
		}
	}
	m, err := plan.Read(r.Manifest)
	if err != nil {
		return nil, err
	}
	return build.Build(m, r.Options)
}

// readOptional reads the profile at path; none when path is empty.
func readOptional(path string) (*profile.Profile, error) {
	if path == "" {
		return nil, nil
	}
	return profile.Read(path)
}

func orDiscard(w io.Writer) io.Writer {
	if w == nil {
		return io.Discard
	}
	return w
}
