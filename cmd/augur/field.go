package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/augur-perf/augur/field/build"
	"github.com/augur-perf/augur/field/calibrate"
	"github.com/augur-perf/augur/field/plan"
	"github.com/augur-perf/augur/field/sim"
	"github.com/augur-perf/augur/report/text"
)

var fieldCommand = &command{
	name:    "field",
	summary: "plan probes for deployed variants, build the variants, replay plans on field traces (Diep, Elbaum, Cohen)",
	help:    helpText("field"),
	missing: "expected a subcommand: plan, build, simulate, release, token, serve, report or profile",
	unknown: "unknown subcommand %q (plan, build, simulate, release, token, serve, report, profile)",
	subs: []*command{
		{name: "plan", flags: fieldPlanFlags, workload: true},
		{name: "build", flags: fieldBuildFlags},
		{name: "simulate", flags: fieldSimulateFlags},
		{name: "release", flags: fieldReleaseFlags},
		{name: "token", flags: fieldTokenFlags},
		{name: "serve", flags: fieldServeFlags},
		{name: "report", flags: fieldReportFlags},
		{name: "profile", flags: fieldProfileFlags},
	},
}

func fieldBuildFlags(fs *flag.FlagSet) func(*call) error {
	o := build.Options{}
	fs.StringVar(&o.Out, "o", "dist", "the directory the binaries are written to")
	fs.StringVar(&o.URL, "url", "", "the collector's URL stamped as the default of AUGUR_FIELD_URL")
	fs.StringVar(&o.Token, "token", "", "the release's token stamped as the default of AUGUR_FIELD_TOKEN")
	fs.StringVar(&o.Site, "site", "", "the site id stamped as the default of AUGUR_FIELD_SITE")
	fs.StringVar(&o.Spool, "spool", "", "the spool directory stamped as the default of AUGUR_FIELD_SPOOL")
	fs.Float64Var(&o.Rate, "rate", 1, "sample: count each probe execution with this probability (CBI; the collector scales by 1/rate)")
	fs.DurationVar(&o.Flush, "flush", time.Minute, "the period of packages")
	spoolMax := fs.String("spool-max", "16MB", "the most bytes the spool holds (B, KB, MB, GB: powers of 1024)")
	fs.StringVar(&o.Dir, "dir", "", "the module directory PKG_MAIN is built in")
	variants := fs.String("variants", "", "build only these variants (comma-separated ids)")
	return func(x *call) error {
		if len(x.args) != 2 {
			return usagef("expected release.json and PKG_MAIN")
		}
		if o.Flush <= 0 {
			return usagef("--flush %v: want a positive period", o.Flush)
		}
		if !(o.Rate > 0 && o.Rate <= 1) {
			return usagef("--rate %v: want a probability in (0, 1]", o.Rate)
		}
		var err error
		if o.SpoolMax, err = build.ParseSize(*spoolMax); err != nil {
			return usagef("--spool-max: %v", err)
		}
		if *variants != "" {
			if o.Variants, err = ints(*variants); err != nil {
				return usagef("--variants: %v", err)
			}
		}
		m, err := plan.Read(x.args[0])
		if err != nil {
			return err
		}
		o.Main = x.args[1]
		bins, err := build.Build(m, o)
		if err != nil {
			return err
		}
		text.FieldBuild(x.stdout, bins)
		return nil
	}
}

func fieldPlanFlags(fs *flag.FlagSet) func(*call) error {
	variants := fs.Int("variants", 12, "the number of deployed variants")
	probes := fs.Int("probes", 100, "the most probes a variant carries")
	strategy := fs.String("strategy", "rb", "p, r, rb or grb")
	seed := fs.Uint64("seed", 1, "the allocation's seed")
	prof := fs.String("profile", "", "an augur profile of the in-house tests (Grouped RB groups by it)")
	previous := fs.String("previous", "", "an earlier release's manifest to remember")
	weights := fs.String("weights", "", "with grb: shares of each variant's probes for the quartiles of in-house frequency (least executed first) and the never-executed units, e.g. 4,3,2,1,0")
	release := fs.String("release", "r1", "the release's name")
	out := fs.String("o", "release.json", "the manifest to write")
	dir := fs.String("dir", "", "the module directory PKGS are loaded from")
	overhead := fs.String("overhead", "", "instead of --probes, the slowdown allowed (5%): calibrated by running the WORKLOAD after -- on variants of --main with more and more probes")
	mainPkg := fs.String("main", "", "with --overhead: the main package the variants are built from")
	runs := fs.Int("runs", 3, "with --overhead: runs of the workload per build (the least CPU time is kept)")
	return func(x *call) error {
		if len(x.args) == 0 {
			return usagef("expected PKGS")
		}
		target := -1.0
		if *overhead != "" {
			var err error
			if target, err = calibrate.ParseTarget(*overhead); err != nil {
				return usagef("--overhead %v", err)
			}
			if *mainPkg == "" || len(x.workload) == 0 {
				return usagef("--overhead calibrates on the program itself: give --main PKG and a WORKLOAD after -- that runs $%s", calibrate.EnvBinary)
			}
			probesSet := false
			fs.Visit(func(f *flag.Flag) { probesSet = probesSet || f.Name == "probes" })
			if probesSet {
				return usagef("give --probes or --overhead, not both")
			}
		}
		st, err := plan.ParseStrategy(*strategy)
		if err != nil {
			return usageError{err}
		}
		if st == plan.GroupedRB && *prof == "" {
			return usagef("--strategy grb groups units by their in-house frequency: give --profile (augur profile of the in-house tests)")
		}
		var ws []float64
		if *weights != "" && st != plan.GroupedRB {
			return usagef("--weights share probes among Grouped RB's groups: give --strategy grb")
		} else if *weights != "" {
			if ws, err = plan.ParseWeights(*weights); err != nil {
				return usagef("--weights: %v", err)
			}
		}
		_, fns, err := loadAll(*dir, x.args)
		if err != nil {
			return err
		}
		p, err := readProfile(*prof)
		if err != nil {
			return err
		}
		units := plan.Units(fns, p, text.RelPosition)
		if target >= 0 {
			res, err := calibrate.Calibrate(calibrate.Options{Dir: *dir, Main: *mainPkg, Units: units, Strategy: st, Weights: ws, Seed: *seed,
				Variants: *variants, Target: target, Workload: x.workload, Runs: *runs}, x.stderr)
			if err != nil {
				return err
			}
			fmt.Fprintf(x.stdout, "Calibrated: %d probes per variant cost at most %s on the workload (uninstrumented %.3f CPU-s)\n", res.Bound, *overhead, res.Plain)
			*probes = res.Bound
		}
		o := plan.Options{Variants: *variants, Bound: *probes, Strategy: st, Seed: *seed, Weights: ws}
		if *previous != "" {
			if o.Previous, err = plan.Read(*previous); err != nil {
				return err
			}
		}
		m, err := plan.Allocate(*release, units, o)
		if err != nil {
			return usageError{err}
		}
		if err := m.Write(*out); err != nil {
			return err
		}
		text.FieldPlan(x.stdout, m, st, *seed, len(units), strings.Join(x.args, " "), *out)
		return nil
	}
}

func fieldSimulateFlags(fs *flag.FlagSet) func(*call) error {
	traces := fs.String("traces", "", "a directory of augur-profile/1 files, one per site-run, named SITE.RUN.json, or a file --save wrote")
	save := fs.String("save", "", "also write the traces (units, in-house counts, every run's counts) to this file, "+sim.TracesFormat+", for --traces")
	strategies := fs.String("strategies", "p,r,rb,grb", "the strategies to compare")
	bounds := fs.String("bounds", "10,25,50,100", "probes per variant")
	variants := fs.String("variants", "6,12,18", "numbers of variants")
	c := sim.Config{}
	fs.IntVar(&c.Repeats, "repeat", 20, "random assignments of sites to variants per configuration")
	fs.IntVar(&c.Sites, "sites", 0, "sites deployed per repeat, drawn at random from the traces' sites (default: all)")
	asJSON := fs.Bool("json", false, "print the study's rows as JSON (for plotting)")
	asCSV := fs.Bool("csv", false, "print the study's rows as CSV (for plotting)")
	prof := fs.String("profile", "", "an augur profile of the in-house tests, for grb")
	fs.Uint64Var(&c.Seed, "seed", 1, "seed of the allocations and assignments")
	memory := fs.String("memory", "", "also the memory study: bounds of an earlier release (each site's first run), the second release's from --bounds")
	rates := fs.String("rates", "", "also check the CBI estimator on the traces at these sampling rates")
	return func(x *call) error {
		switch {
		case *traces == "":
			return usagef("--traces DIR is required")
		case *asJSON && *asCSV:
			return usagef("give --json or --csv, not both")
		case (*asJSON || *asCSV) && (*memory != "" || *rates != ""):
			return usagef("--json and --csv print the study's rows: run --memory and --rates without them")
		case c.Sites < 0:
			return usagef("--sites %d: want a number of sites", c.Sites)
		}
		var err error
		if c.Strategies, err = plan.ParseStrategies(*strategies); err != nil {
			return usageError{err}
		}
		if c.Bounds, err = ints(*bounds); err != nil {
			return usagef("--bounds: %v", err)
		}
		if c.Variants, err = ints(*variants); err != nil {
			return usagef("--variants: %v", err)
		}
		if *memory != "" {
			if c.Memory, err = ints(*memory); err != nil {
				return usagef("--memory: %v", err)
			}
		}
		if *rates != "" {
			if c.Rates, err = sim.ParseRates(*rates); err != nil {
				return usagef("--rates: %v", err)
			}
		}
		inhouse, err := readProfile(*prof)
		if err != nil {
			return err
		}
		if st, err := os.Stat(*traces); err != nil {
			return usagef("--traces: %v", err)
		} else if !st.IsDir() && inhouse != nil {
			return usagef("--profile is for a directory of traces: %s carries its in-house counts", *traces)
		}
		tr, err := sim.OpenTraces(*traces, inhouse)
		if err != nil {
			return err
		}
		if *save != "" {
			if err := tr.WriteFile(*save); err != nil {
				return err
			}
		}
		if c.Sites > tr.Sites {
			return usagef("--sites %d: the traces have %d sites", c.Sites, tr.Sites)
		}
		rows, err := sim.Study(tr.Units, tr.Runs, c.Strategies, c.Bounds, c.Variants, c.Sites, c.Repeats, c.Seed)
		switch {
		case err != nil:
			return err
		case *asJSON:
			return text.JSON(x.stdout, rows)
		case *asCSV:
			_, err := io.WriteString(x.stdout, sim.CSV(rows))
			return err
		}
		return c.Report(x.stdout, tr, rows)
	}
}

func ints(s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 {
			return nil, fmt.Errorf("%q is not a positive number", f)
		}
		out = append(out, n)
	}
	return out, nil
}
