package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/augur-perf/augur/field/pipeline"
	"github.com/augur-perf/augur/field/sim"
	"github.com/augur-perf/augur/internal/cli"
	"github.com/augur-perf/augur/report/html"
	"github.com/augur-perf/augur/report/text"
)

var fieldCommand = &cli.Command{
	Name:    "field",
	Summary: "plan probes for deployed variants, build the variants, replay plans on field traces (Diep, Elbaum, Cohen)",
	Help:    helpText("field"),
	Missing: "expected a subcommand: plan, build, simulate, release, token, serve, report or profile",
	Unknown: "unknown subcommand %q (plan, build, simulate, release, token, serve, report, profile)",
	Subs: []*cli.Command{
		{Name: "plan", Flags: fieldPlanFlags, Workload: true},
		{Name: "build", Flags: fieldBuildFlags},
		{Name: "simulate", Flags: fieldSimulateFlags},
		{Name: "release", Flags: fieldReleaseFlags},
		{Name: "token", Flags: fieldTokenFlags},
		{Name: "serve", Flags: fieldServeFlags},
		{Name: "report", Flags: fieldReportFlags},
		{Name: "profile", Flags: fieldProfileFlags},
	},
}

func fieldPlanFlags(fs *flag.FlagSet) func(*cli.Call) error {
	var r pipeline.PlanRequest
	fs.IntVar(&r.Variants, "variants", 12, "the number of deployed variants")
	fs.IntVar(&r.Probes, "probes", 100, "the most probes a variant carries")
	fs.StringVar(&r.Strategy, "strategy", "rb", "p, r, rb or grb")
	fs.Uint64Var(&r.Seed, "seed", 1, "the allocation's seed")
	fs.StringVar(&r.Profile, "profile", "", "an augur profile of the in-house tests (Grouped RB groups by it)")
	fs.StringVar(&r.Previous, "previous", "", "an earlier release's manifest to remember")
	fs.StringVar(&r.Weights, "weights", "", "with grb: shares of each variant's probes for the quartiles of in-house frequency (least executed first) and the never-executed units, e.g. 4,3,2,1,0")
	fs.StringVar(&r.Release, "release", "r1", "the release's name")
	fs.StringVar(&r.Out, "o", "release.json", "the manifest to write")
	fs.StringVar(&r.Dir, "dir", "", "the module directory PKGS are loaded from")
	fs.StringVar(&r.Overhead, "overhead", "", "instead of --probes, the slowdown allowed (5%): calibrated by running the WORKLOAD after -- on variants of --main with more and more probes")
	fs.StringVar(&r.Main, "main", "", "with --overhead: the main package the variants are built from")
	fs.IntVar(&r.Runs, "runs", 3, "with --overhead: runs of the workload per build (the least CPU time is kept)")
	return func(x *cli.Call) error {
		if len(x.Args) == 0 {
			return cli.Usagef("expected PKGS")
		}
		r.Patterns, r.Workload, r.ProbesGiven, r.Log = x.Args, x.Workload, x.Given("probes"), x.Stderr
		p, err := pipeline.Plan(r)
		if err != nil {
			return err
		}
		return text.FieldPlanOutput(x.Stdout, p, r)
	}
}

func fieldBuildFlags(fs *flag.FlagSet) func(*cli.Call) error {
	var r pipeline.BuildRequest
	fs.StringVar(&r.Out, "o", "dist", "the directory the binaries are written to")
	fs.StringVar(&r.URL, "url", "", "the collector's URL stamped as the default of AUGUR_FIELD_URL")
	fs.StringVar(&r.Token, "token", "", "the release's token stamped as the default of AUGUR_FIELD_TOKEN")
	fs.StringVar(&r.Site, "site", "", "the site id stamped as the default of AUGUR_FIELD_SITE")
	fs.StringVar(&r.Spool, "spool", "", "the spool directory stamped as the default of AUGUR_FIELD_SPOOL")
	fs.Float64Var(&r.Rate, "rate", 1, "sample: count each probe execution with this probability (CBI; the collector scales by 1/rate)")
	fs.DurationVar(&r.Flush, "flush", time.Minute, "the period of packages")
	fs.StringVar(&r.SpoolSize, "spool-max", "16MB", "the most bytes the spool holds (B, KB, MB, GB: powers of 1024)")
	fs.StringVar(&r.Dir, "dir", "", "the module directory PKG_MAIN is built in")
	fs.StringVar(&r.VariantIDs, "variants", "", "build only these variants (comma-separated ids)")
	return func(x *cli.Call) error {
		if len(x.Args) != 2 {
			return cli.Usagef("expected release.json and PKG_MAIN")
		}
		r.Manifest, r.Main = x.Args[0], x.Args[1]
		bins, err := pipeline.Build(r)
		if err != nil {
			return err
		}
		text.FieldBuild(x.Stdout, bins)
		return nil
	}
}

func fieldSimulateFlags(fs *flag.FlagSet) func(*cli.Call) error {
	var r pipeline.SimulateRequest
	fs.StringVar(&r.Traces, "traces", "", "a directory of augur-profile/1 files, one per site-run, named SITE.RUN.json, or a file --save wrote")
	fs.StringVar(&r.Save, "save", "", "also write the traces (units, in-house counts, every run's counts) to this file, "+sim.TracesFormat+", for --traces")
	fs.StringVar(&r.Strategies, "strategies", "p,r,rb,grb", "the strategies to compare")
	fs.StringVar(&r.Bounds, "bounds", "10,25,50,100", "probes per variant")
	fs.StringVar(&r.Variants, "variants", "6,12,18", "numbers of variants")
	fs.IntVar(&r.Repeats, "repeat", 20, "random assignments of sites to variants per configuration")
	fs.IntVar(&r.Sites, "sites", 0, "sites deployed per repeat, drawn at random from the traces' sites (default: all)")
	fs.BoolVar(&r.JSON, "json", false, "print the study's rows as JSON (for plotting)")
	fs.BoolVar(&r.CSV, "csv", false, "print the study's rows as CSV (for plotting)")
	fs.StringVar(&r.Profile, "profile", "", "an augur profile of the in-house tests, for grb")
	fs.Uint64Var(&r.Seed, "seed", 1, "seed of the allocations and assignments")
	fs.StringVar(&r.Memory, "memory", "", "also the memory study: bounds of an earlier release (each site's first run), the second release's from --bounds")
	fs.StringVar(&r.Rates, "rates", "", "also check the CBI estimator on the traces at these sampling rates")
	return func(x *cli.Call) error {
		s, err := pipeline.Simulate(r)
		if err != nil {
			return err
		}
		return text.FieldSimulateOutput(x.Stdout, s, r.JSON, r.CSV)
	}
}

// storeFlags declares into s the flags naming a collector's store.
func storeFlags(fs *flag.FlagSet, s *pipeline.Store) {
	fs.StringVar(&s.DB, "db", "field.sqlite", "the SQLite store")
	fs.StringVar(&s.Postgres, "postgres", "", "a PostgreSQL connection string: use that server instead of --db")
}

func fieldServeFlags(fs *flag.FlagSet) func(*cli.Call) error {
	var r pipeline.ServeRequest
	storeFlags(fs, &r.Store)
	fs.StringVar(&r.Addr, "addr", ":8417", "the address to listen on")
	fs.StringVar(&r.Cert, "tls-cert", "", "serve HTTPS with this certificate (PEM)")
	fs.StringVar(&r.Key, "tls-key", "", "and this key")
	fs.IntVar(&r.Queue, "queue", 0, "the most packages waiting for a commit (default 16384)")
	fs.IntVar(&r.Committers, "committers", 0, "transactions under way at once (default 1 for SQLite, 4 for PostgreSQL)")
	return func(x *cli.Call) error {
		ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
		defer stop()
		return pipeline.Serve(ctx, r, func(url string) {
			fmt.Fprintf(x.Stdout, "augur field collector on %s (POST /v1/packages, POST /v1/batches, GET /healthz, GET /metrics)\n", url)
		})
	}
}

func fieldReleaseFlags(fs *flag.FlagSet) func(*cli.Call) error {
	var s pipeline.Store
	storeFlags(fs, &s)
	return func(x *cli.Call) error {
		if len(x.Args) != 2 || x.Args[0] != "add" {
			return cli.Usagef("expected: augur field release add release.json")
		}
		m, err := pipeline.AddRelease(context.Background(), s, x.Args[1])
		if err != nil {
			return err
		}
		return text.FieldReleaseOutput(x.Stdout, m)
	}
}

func fieldTokenFlags(fs *flag.FlagSet) func(*cli.Call) error {
	var r pipeline.TokenRequest
	storeFlags(fs, &r.Store)
	fs.StringVar(&r.Release, "release", "", "issue a token for this release")
	fs.StringVar(&r.Revoke, "revoke", "", "revoke the token with this id")
	fs.BoolVar(&r.List, "list", false, "list the tokens (of --release, or all) by id")
	return func(x *cli.Call) error {
		t, err := pipeline.Token(context.Background(), r)
		if err != nil {
			return err
		}
		return text.FieldTokenOutput(x.Stdout, x.Stderr, t)
	}
}

func fieldReportFlags(fs *flag.FlagSet) func(*cli.Call) error {
	var r pipeline.ReportRequest
	storeFlags(fs, &r.Store)
	fs.StringVar(&r.Release, "release", "", "the release manifest")
	jsonOut := fs.String("json", "", "also write the report as JSON to this file")
	fs.StringVar(&r.Reference, "reference", "", "an augur profile of the same code under full instrumentation: coverage and hot units relative to it")
	htmlOut := fs.String("html", "", "also write the report as a self-contained HTML page to this file")
	return func(x *cli.Call) error {
		e, err := pipeline.Report(context.Background(), r)
		if err == nil && *htmlOut != "" {
			err = html.WriteFile(*htmlOut, html.BuildField(e.Manifest, e.Estimates))
		}
		if err != nil {
			return err
		}
		return text.FieldReportOutput(x.Stdout, e, r.Reference, *jsonOut)
	}
}

func fieldProfileFlags(fs *flag.FlagSet) func(*cli.Call) error {
	var r pipeline.ProfileRequest
	storeFlags(fs, &r.Store)
	fs.StringVar(&r.Release, "release", "", "the release manifest")
	fs.StringVar(&r.Out, "o", "field.json", "the usage profile to write (augur-profile/1)")
	fs.StringVar(&r.Base, "base", "", "an in-house augur profile to fill what the field did not measure (reported)")
	fs.StringVar(&r.Dir, "dir", "", "the module directory the release's packages are loaded from")
	return func(x *cli.Call) error {
		r.Patterns = x.Args
		p, err := pipeline.Profile(context.Background(), r)
		if err != nil {
			return err
		}
		return text.FieldProfileOutput(x.Stdout, p, r)
	}
}
