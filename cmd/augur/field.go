package main

import (
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/augur-perf/augur/field/build"
	"github.com/augur-perf/augur/field/calibrate"
	"github.com/augur-perf/augur/field/plan"
	"github.com/augur-perf/augur/field/sim"
	"github.com/augur-perf/augur/probe/profile"
)

func init() {
	register(&command{
		name:    "field",
		summary: "plan probes for deployed variants, build the variants, replay plans on field traces (Diep, Elbaum, Cohen)",
		usage:   "plan PKGS... --variants N (--probes B | --overhead 5% --main PKG_MAIN) [--strategy p|r|rb|grb] [--seed S] [--profile inhouse.json] [--previous old.json] -o release.json [-- WORKLOAD]\n       augur field build release.json -o dist/ [--url URL] [--token T] [--site S] [--spool DIR] [--flush 60s] [--spool-max 16MB] [--rate R] PKG_MAIN\n       augur field simulate --traces DIR [--strategies p,r,rb,grb] [--bounds 10,25,50,100] [--variants 6,12,18] [--repeat 20] [--profile inhouse.json]\n       augur field release add release.json [--db field.sqlite | --postgres DSN]\n       augur field token --release R | --revoke ID | --list [--db field.sqlite | --postgres DSN]\n       augur field serve [--db field.sqlite | --postgres DSN] [--addr :8417] [--tls-cert C --tls-key K]\n       augur field report --release release.json [--db field.sqlite | --postgres DSN] [--json out.json] [--reference full.json]\n       augur field profile --release release.json [--db field.sqlite | --postgres DSN] -o field.json [--base inhouse.json] [PKGS...]",
		help: `Profiling deployed software under an overhead bound: each deployed variant of a release carries
at most B probes, spread over many variants so that together they see what full
instrumentation would (Diep, Elbaum and Cohen, "Profiling Deployed Software: Strategic Probe
Placement").

augur field plan allocates probes to the statements of PKGS (the units) with a strategy:
  p    Pattern: a random start, then consecutive units, wrapping
  r    Random
  rb   Random Balanced: the least allocated units first (default)
  grb  Grouped RB: units grouped by quartile of in-house execution frequency (--profile, an
       augur profile of the in-house tests), least executed first
--previous remembers an earlier release's allocation (its units start as allocated). The
release manifest (augur-field-release/1) lists each variant's probes with their positions and
is reproducible from --seed. --overhead 5% --main PKG_MAIN -- WORKLOAD calibrates the bound
instead of --probes: the largest of 8, 16, 32, ... probes whose variant slows the WORKLOAD (a
command that runs the binary $AUGUR_FIELD_BIN names) by at most 5 % in CPU time.

augur field build writes one binary per variant of the release, DIR/NAME-vK, built from
PKG_MAIN with go build -trimpath -overlay (your files are only read): each counts the
executions of the statements its variant probes and, for a probed decision, each outcome, and
sends packages (augur-field-package/1) of the counts since the previous one to the collector
(POST URL/v1/packages, Authorization: Bearer TOKEN) every --flush, when main returns and on
SIGTERM/SIGINT (the signal is then passed on, so the exit status is as without augur); several
packages waiting go as one batch (POST URL/v1/batches, augur-field-batch/1). What
cannot be delivered waits in a spool directory bounded by --spool-max (oldest dropped first,
counted); retries back off exponentially with jitter and honour Retry-After. At run time the
environment overrides the stamped defaults: AUGUR_FIELD_URL, AUGUR_FIELD_TOKEN, AUGUR_FIELD_SITE
(default: the host name), AUGUR_FIELD_SPOOL (default: the user's cache directory/augur-field).
Without a URL a variant only counts: no goroutine, no I/O. Builds are reproducible: the same
release and source give byte-identical binaries. Deferred calls running as a function leaves
are not counted in the field (listed as skipped). os.Exit in the main package sends the last
package first; log.Fatal and os.Exit elsewhere skip it.

augur field simulate replays the strategies on full traces — a directory of augur-profile/1
files, one per site-run, named SITE.RUN.json (augur profile of each run with full
instrumentation) — and prints, for every strategy, number of variants and bound, the coverage
reconstructed (relative to full instrumentation), the share of the true top 5 % hot units found,
and the probe executions per run (the overhead proxy), each mean ± sd over --repeat random
assignments of sites to variants.

The collector: augur field release add registers a release in the store (SQLite by default,
--postgres for several collectors in front of one server); augur field token issues a token
for it (printed once, stored hashed) and revokes it; augur field serve takes POST /v1/packages
with "Authorization: Bearer TOKEN" (200 accepted or duplicate — a package is idempotent by site,
release and seq; 400 invalid, 401, 403 another release's token, 413, 429/503 with Retry-After),
POST /v1/batches (up to 1024 packages, one per line, answered package by package),
GET /healthz and GET /metrics. augur field report estimates from the stored packages: units
covered (relative to --reference, a profile under full instrumentation), hot units (top 5 % by
estimated count) with positions, probe executions per site;
augur field profile writes an augur-profile/1 profile for augur analyze (counts N·mean over the
site-runs of the variants carrying each unit, scaled by 1/rate when sampled; decisions without
field data listed, or filled from --base and reported). The estimator: docs/field.md.

--rate R samples (Liblit et al.'s CBI): each probe execution is counted with probability R by
geometric countdowns per P, and the collector scales the counts by 1/R.

Examples:
  augur field plan ./cmd/app --variants 12 --probes 100 --strategy grb --profile inhouse.json -o release.json
  augur field build release.json -o dist/ --url https://collector:8417 --token T ./cmd/app
  augur field simulate --traces traces/ --bounds 10,25,50 --variants 6,12,18 --repeat 20
  augur field release add release.json --db field.sqlite && augur field token --db field.sqlite --release r1
  augur field serve --db field.sqlite --addr :8417
  augur field profile --db field.sqlite --release release.json -o field.json`,
		run: runField,
	})
}

func runField(args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		return usagef("expected a subcommand: plan, build, simulate, release, token, serve, report or profile")
	}
	if run, ok := fieldCollectors[args[0]]; ok {
		return run(args[1:], stdout, stderr)
	}
	switch args[0] {
	case "plan":
		return runFieldPlan(args[1:], stdout, stderr)
	case "build":
		return runFieldBuild(args[1:], stdout, stderr)
	case "simulate":
		return runFieldSimulate(args[1:], stdout, stderr)
	case "-h", "--help", "-help":
		_, err := parse(commandNamed("field").flags(stderr), args, stdout)
		return err
	}
	return usagef("unknown subcommand %q (plan, build, simulate, release, token, serve, report, profile)", args[0])
}

func runFieldBuild(args []string, stdout, stderr io.Writer) error {
	fs := commandNamed("field").flags(stderr)
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
	pos, err := parse(fs, args, stdout)
	if err != nil {
		return err
	}
	if len(pos) != 2 {
		return usagef("expected release.json and PKG_MAIN")
	}
	if o.Flush <= 0 {
		return usagef("--flush %v: want a positive period", o.Flush)
	}
	if !(o.Rate > 0 && o.Rate <= 1) {
		return usagef("--rate %v: want a probability in (0, 1]", o.Rate)
	}
	if o.SpoolMax, err = byteSize(*spoolMax); err != nil {
		return usagef("--spool-max: %v", err)
	}
	if *variants != "" {
		if o.Variants, err = ints(*variants); err != nil {
			return usagef("--variants: %v", err)
		}
	}
	m, err := plan.Read(pos[0])
	if err != nil {
		return err
	}
	o.Main = pos[1]
	bins, err := build.Build(m, o)
	if err != nil {
		return err
	}
	for _, b := range bins {
		fmt.Fprintf(stdout, "%s  variant %d: %d probes", relPosition(b.Path), b.Variant, b.Probes)
		if len(b.Skipped) > 0 {
			fmt.Fprintf(stdout, " (%d deferred-call units not countable in the field: %v)", len(b.Skipped), b.Skipped)
		}
		fmt.Fprintf(stdout, "  sha256 %s\n", b.SHA256[:16])
	}
	return nil
}

// byteSize reads 16MB, 512KB, 1GB or a number of bytes (units are powers of 1024).
func byteSize(s string) (int64, error) {
	t := strings.ToUpper(strings.TrimSpace(s))
	mult := int64(1)
	for _, u := range []struct {
		suffix string
		m      int64
	}{{"GB", 1 << 30}, {"MB", 1 << 20}, {"KB", 1 << 10}, {"B", 1}} {
		if strings.HasSuffix(t, u.suffix) {
			t, mult = strings.TrimSpace(strings.TrimSuffix(t, u.suffix)), u.m
			break
		}
	}
	n, err := strconv.ParseInt(t, 10, 64)
	if err != nil || n < 1 || n > (1<<62)/mult {
		return 0, fmt.Errorf("%q is not a size like 16MB", s)
	}
	return n * mult, nil
}

func runFieldPlan(args []string, stdout, stderr io.Writer) error {
	c := commandNamed("field")
	fs := c.flags(stderr)
	variants := fs.Int("variants", 12, "the number of deployed variants")
	probes := fs.Int("probes", 100, "the most probes a variant carries")
	strategy := fs.String("strategy", "rb", "p, r, rb or grb")
	seed := fs.Uint64("seed", 1, "the allocation's seed")
	prof := fs.String("profile", "", "an augur profile of the in-house tests (Grouped RB groups by it)")
	previous := fs.String("previous", "", "an earlier release's manifest to remember")
	release := fs.String("release", "r1", "the release's name")
	out := fs.String("o", "release.json", "the manifest to write")
	dir := fs.String("dir", "", "the module directory PKGS are loaded from")
	overhead := fs.String("overhead", "", "instead of --probes, the slowdown allowed (5%): calibrated by running the WORKLOAD after -- on variants of --main with more and more probes")
	mainPkg := fs.String("main", "", "with --overhead: the main package the variants are built from")
	runs := fs.Int("runs", 3, "with --overhead: runs of the workload per build (the least CPU time is kept)")
	flagArgs, workload := splitWorkload(args)
	pkgs, err := parse(fs, flagArgs, stdout)
	if err != nil {
		return err
	}
	if len(pkgs) == 0 {
		return usagef("expected PKGS")
	}
	target := -1.0
	if *overhead != "" {
		v, err := strconv.ParseFloat(strings.TrimSuffix(*overhead, "%"), 64)
		if err != nil || v < 0 || !strings.HasSuffix(*overhead, "%") {
			return usagef("--overhead %q: want a percentage such as 5%%", *overhead)
		}
		if *mainPkg == "" || len(workload) == 0 {
			return usagef("--overhead calibrates on the program itself: give --main PKG and a WORKLOAD after -- that runs $%s", calibrate.EnvBinary)
		}
		probesSet := false
		fs.Visit(func(f *flag.Flag) { probesSet = probesSet || f.Name == "probes" })
		if probesSet {
			return usagef("give --probes or --overhead, not both")
		}
		target = v / 100
	}
	st, err := plan.ParseStrategy(*strategy)
	if err != nil {
		return usageError{err}
	}
	if st == plan.GroupedRB && *prof == "" {
		return usagef("--strategy grb groups units by their in-house frequency: give --profile (augur profile of the in-house tests)")
	}
	_, fns, err := loadAll(*dir, pkgs)
	if err != nil {
		return err
	}
	var p *profile.Profile
	if *prof != "" {
		if p, err = profile.Read(*prof); err != nil {
			return err
		}
	}
	units := plan.Units(fns, p, relPosition)
	if target >= 0 {
		res, err := calibrate.Calibrate(calibrate.Options{Dir: *dir, Main: *mainPkg, Units: units, Strategy: st, Seed: *seed,
			Variants: *variants, Target: target, Workload: workload, Runs: *runs}, stderr)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "Calibrated: %d probes per variant cost at most %s on the workload (uninstrumented %.3f CPU-s)\n", res.Bound, *overhead, res.Plain)
		*probes = res.Bound
	}
	o := plan.Options{Variants: *variants, Bound: *probes, Strategy: st, Seed: *seed}
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
	probed := map[int]bool{}
	for _, v := range m.Variants {
		for _, id := range v.Probes {
			probed[id] = true
		}
	}
	fmt.Fprintf(stdout, "Release %s: %d variants of at most %d probes (%s, seed %d) over %d units of %s; %d units probed somewhere\nwrote %s\n",
		m.Release, len(m.Variants), m.Bound, st, *seed, len(units), strings.Join(pkgs, " "), len(probed), *out)
	return nil
}

func runFieldSimulate(args []string, stdout, stderr io.Writer) error {
	c := commandNamed("field")
	fs := c.flags(stderr)
	traces := fs.String("traces", "", "a directory of augur-profile/1 files, one per site-run, named SITE.RUN.json")
	strategies := fs.String("strategies", "p,r,rb,grb", "the strategies to compare")
	bounds := fs.String("bounds", "10,25,50,100", "probes per variant")
	variants := fs.String("variants", "6,12,18", "numbers of variants")
	repeat := fs.Int("repeat", 20, "random assignments of sites to variants per configuration")
	prof := fs.String("profile", "", "an augur profile of the in-house tests, for grb")
	seed := fs.Uint64("seed", 1, "seed of the allocations and assignments")
	if _, err := parse(fs, args, stdout); err != nil {
		return err
	}
	if *traces == "" {
		return usagef("--traces DIR is required")
	}
	files, _ := filepath.Glob(filepath.Join(*traces, "*.json"))
	sort.Strings(files)
	if len(files) == 0 {
		return usagef("--traces %s holds no .json profiles", *traces)
	}
	var sts []plan.Strategy
	for _, s := range strings.Split(*strategies, ",") {
		st, err := plan.ParseStrategy(strings.TrimSpace(s))
		if err != nil {
			return usageError{err}
		}
		sts = append(sts, st)
	}
	bs, err := ints(*bounds)
	if err != nil {
		return usagef("--bounds: %v", err)
	}
	vs, err := ints(*variants)
	if err != nil {
		return usagef("--variants: %v", err)
	}
	// Units: every node of every function the traces count, in name and node order.
	var inhouse *profile.Profile
	if *prof != "" {
		if inhouse, err = profile.Read(*prof); err != nil {
			return err
		}
	}
	var profs []*profile.Profile
	names := map[string]int{} // function → its node count
	sites := map[string]int{}
	var runs []sim.Run
	for _, f := range files {
		p, err := profile.Read(f)
		if err != nil {
			return err
		}
		profs = append(profs, p)
		for name, fn := range p.Funcs {
			if n, ok := names[name]; ok && n != len(fn.Nodes) {
				return fmt.Errorf("%s: %s has %d nodes, another trace %d: traces of one build are needed", f, name, len(fn.Nodes), n)
			}
			names[name] = len(fn.Nodes)
		}
	}
	var fnames []string
	for n := range names {
		fnames = append(fnames, n)
	}
	sort.Strings(fnames)
	var units []plan.Unit
	offset := map[string]int{}
	for _, n := range fnames {
		offset[n] = len(units)
		for k := 0; k < names[n]; k++ {
			u := plan.Unit{ID: len(units) + 1, Pos: fmt.Sprintf("%s#%d", n, k)}
			if inhouse != nil {
				if f := inhouse.Funcs[n]; f != nil && k < len(f.Nodes) {
					u.InHouse = f.Nodes[k].Count
				}
			}
			units = append(units, u)
		}
	}
	for i, p := range profs {
		site, _, _ := strings.Cut(filepath.Base(files[i]), ".")
		if _, ok := sites[site]; !ok {
			sites[site] = len(sites)
		}
		counts := make([]uint64, len(units))
		for name, fn := range p.Funcs {
			for k, nd := range fn.Nodes {
				counts[offset[name]+k] = nd.Count
			}
		}
		runs = append(runs, sim.Run{Site: sites[site], Counts: counts})
	}
	rows, err := sim.Study(units, runs, sts, bs, vs, *repeat, *seed)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%d site-runs from %d sites, %d units; %d repeats per configuration\n\n%s", len(runs), len(sites), len(units), *repeat, sim.Table(rows))
	return nil
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
