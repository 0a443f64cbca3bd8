package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"reflect"
	"sort"
	"strings"
	"syscall"
	"text/tabwriter"

	"github.com/augur-perf/augur/report/html"

	"github.com/augur-perf/augur/field/collect"
	fieldest "github.com/augur-perf/augur/field/estimate"
	"github.com/augur-perf/augur/field/plan"
	"github.com/augur-perf/augur/field/store"
	"github.com/augur-perf/augur/probe/profile"
)

// fieldCollectors are the subcommands of augur field that run or read a collector's store.
var fieldCollectors = map[string]func(args []string, stdout, stderr io.Writer) error{
	"serve":   runFieldServe,
	"release": runFieldRelease,
	"token":   runFieldToken,
	"report":  runFieldReport,
	"profile": runFieldProfile,
}

// storeFlags are the flags naming a collector's store.
type storeFlags struct{ db, postgres *string }

func addStoreFlags(c *command, stderr io.Writer) (*flag.FlagSet, storeFlags) {
	fs := c.flags(stderr)
	return fs, storeFlags{
		db:       fs.String("db", "field.sqlite", "the SQLite store"),
		postgres: fs.String("postgres", "", "a PostgreSQL connection string: use that server instead of --db"),
	}
}

func (s storeFlags) open(ctx context.Context) (store.Store, error) {
	return store.Open(ctx, *s.db, *s.postgres)
}

func runFieldServe(args []string, stdout, stderr io.Writer) error {
	fs, sf := addStoreFlags(commandNamed("field"), stderr)
	addr := fs.String("addr", ":8417", "the address to listen on")
	cert := fs.String("tls-cert", "", "serve HTTPS with this certificate (PEM)")
	key := fs.String("tls-key", "", "and this key")
	queue := fs.Int("queue", 0, "the most packages waiting for a commit (default 16384)")
	committers := fs.Int("committers", 0, "transactions under way at once (default 1 for SQLite, 4 for PostgreSQL)")
	if _, err := parse(fs, args, stdout); err != nil {
		return err
	}
	if (*cert == "") != (*key == "") {
		return usagef("--tls-cert and --tls-key go together")
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()
	st, err := sf.open(ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	o := collect.Options{Queue: *queue, Committers: *committers}
	if o.Committers == 0 && *sf.postgres != "" {
		o.Committers = 4
	}
	scheme := "http"
	if *cert != "" {
		scheme = "https"
	}
	return collect.Serve(ctx, *addr, *cert, *key, collect.New(st, o, nil), func(a net.Addr) {
		fmt.Fprintf(stdout, "augur field collector on %s://%s (POST /v1/packages, POST /v1/batches, GET /healthz, GET /metrics)\n", scheme, a)
	})
}

func runFieldRelease(args []string, stdout, stderr io.Writer) error {
	fs, sf := addStoreFlags(commandNamed("field"), stderr)
	pos, err := parse(fs, args, stdout)
	if err != nil {
		return err
	}
	if len(pos) != 2 || pos[0] != "add" {
		return usagef("expected: augur field release add release.json")
	}
	m, err := plan.Read(pos[1])
	if err != nil {
		return err
	}
	ctx := context.Background()
	st, err := sf.open(ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	if err := st.AddRelease(ctx, m); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "release %s registered (%d variants, %d units)\n", m.Release, len(m.Variants), len(m.Units))
	return nil
}

func runFieldToken(args []string, stdout, stderr io.Writer) error {
	fs, sf := addStoreFlags(commandNamed("field"), stderr)
	release := fs.String("release", "", "issue a token for this release")
	revoke := fs.String("revoke", "", "revoke the token with this id")
	list := fs.Bool("list", false, "list the tokens (of --release, or all) by id")
	if _, err := parse(fs, args, stdout); err != nil {
		return err
	}
	ctx := context.Background()
	st, err := sf.open(ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	switch {
	case *revoke != "":
		if err := st.RevokeToken(ctx, *revoke); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "token %s revoked\n", *revoke)
	case *list:
		ts, err := st.Tokens(ctx, *release)
		if err != nil {
			return err
		}
		for _, t := range ts {
			state := "live"
			if t.Revoked {
				state = "revoked"
			}
			fmt.Fprintf(stdout, "%s\t%s\t%s\n", t.ID, t.Release, state)
		}
	case *release != "":
		id, token, hash, err := store.NewToken()
		if err != nil {
			return err
		}
		if err := st.AddToken(ctx, id, *release, hash); err != nil {
			return err
		}
		fmt.Fprintf(stderr, "token %s for release %s (shown once: only its hash is stored; revoke with --revoke %s)\n", id, *release, id)
		fmt.Fprintln(stdout, token)
	default:
		return usagef("give --release R (issue), --revoke ID or --list")
	}
	return nil
}

// fieldEstimates reads the release manifest at path, checks that the store serves that very
// release, and estimates from its packages.
func fieldEstimates(ctx context.Context, sf storeFlags, path string) (*plan.Manifest, *fieldest.Estimates, error) {
	if path == "" {
		return nil, nil, usagef("--release release.json is required")
	}
	m, err := plan.Read(path)
	if err != nil {
		return nil, nil, err
	}
	st, err := sf.open(ctx)
	if err != nil {
		return nil, nil, err
	}
	defer st.Close()
	stored, err := st.Release(ctx, m.Release)
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil, fmt.Errorf("the store has no release %s: register it (augur field release add %s)", m.Release, path)
	}
	if err != nil {
		return nil, nil, err
	}
	if !reflect.DeepEqual(stored, m) {
		return nil, nil, fmt.Errorf("%s differs from the release %s the store serves", path, m.Release)
	}
	e, err := fieldest.Build(m, func(fn func(*store.Record) error) error { return st.Scan(ctx, m.Release, fn) })
	return m, e, err
}

func runFieldReport(args []string, stdout, stderr io.Writer) error {
	fs, sf := addStoreFlags(commandNamed("field"), stderr)
	release := fs.String("release", "", "the release manifest")
	jsonOut := fs.String("json", "", "also write the report as JSON to this file")
	reference := fs.String("reference", "", "an augur profile of the same code under full instrumentation: coverage and hot units relative to it")
	htmlOut := fs.String("html", "", "also write the report as a self-contained HTML page to this file")
	if _, err := parse(fs, args, stdout); err != nil {
		return err
	}
	m, e, err := fieldEstimates(context.Background(), sf, *release)
	if err != nil {
		return err
	}
	seen, probed := e.Covered()
	hot := e.Hot()
	var ref *fieldest.Reference
	if *reference != "" {
		p, err := profile.Read(*reference)
		if err != nil {
			return err
		}
		counts := map[int]uint64{}
		for _, u := range m.Units {
			if f := p.Funcs[u.Func]; f != nil && u.Node < len(f.Nodes) {
				counts[u.ID] = f.Nodes[u.Node].Count
			}
		}
		r := e.Against(counts)
		ref = &r
	}
	if *jsonOut != "" {
		rep := struct {
			Release  string              `json:"release"`
			Units    int                 `json:"units"`
			Probed   int                 `json:"units_probed"`
			Covered  int                 `json:"units_covered"`
			Runs     int                 `json:"site_runs"`
			Packages int                 `json:"packages"`
			Hot      []fieldest.Unit     `json:"hot_units"`
			Sites    []fieldest.Site     `json:"sites"`
			All      []fieldest.Unit     `json:"unit_estimates"`
			Variants map[int]int         `json:"variant_runs"`
			Ref      *fieldest.Reference `json:"reference,omitempty"`
		}{m.Release, len(m.Units), probed, seen, e.Runs, e.Packages, hot, e.Sites, e.Units, e.VariantRuns, ref}
		data, err := json.MarshalIndent(rep, "", "  ")
		if err != nil {
			return err
		}
		if err := os.WriteFile(*jsonOut, append(data, '\n'), 0o644); err != nil {
			return err
		}
	}
	if *htmlOut != "" {
		if err := html.WriteFile(*htmlOut, html.BuildField(m, e)); err != nil {
			return err
		}
	}
	fmt.Fprintf(stdout, "Release %s: %d variants, %d units; %d sites, %d site-runs, %d packages\n",
		m.Release, len(m.Variants), len(m.Units), len(e.Sites), e.Runs, e.Packages)
	fmt.Fprintf(stdout, "Units covered: %d of %d (%d probed by some run)\n", seen, len(m.Units), probed)
	if ref != nil {
		fmt.Fprintf(stdout, "Against %s (full instrumentation): %d of the %d units it saw run were covered (%.3f); %d of its %d hot units found\n",
			*reference, ref.Covered, ref.Seen, ref.Coverage, ref.HotFound, ref.Hot)
		if ref.Unmatched > 0 {
			fmt.Fprintf(stdout, "(%d units have no count in it)\n", ref.Unmatched)
		}
	}
	fmt.Fprintln(stdout)
	fmt.Fprintf(stdout, "Hot units (top 5 %% by estimated count over all %d site-runs):\n", e.Runs)
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "unit\tcount\t± se\truns\t  position\t")
	for _, u := range hot {
		se := "-"
		if u.SE != nil {
			se = fmt.Sprintf("%.4g", *u.SE)
		}
		fmt.Fprintf(tw, "%d\t%.6g\t%s\t%d\t  %s\t\n", u.ID, u.Count, se, u.Runs, u.Pos)
	}
	tw.Flush()
	fmt.Fprintf(stdout, "\nProbe executions per site (what its probes counted, the overhead proxy):\n")
	tw = tabwriter.NewWriter(stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "site\tpackages\truns\texecutions\tper run\t")
	for _, s := range e.Sites {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%.1f\t\n", s.Site, s.Packages, s.Runs, s.Executions, s.PerRun)
	}
	tw.Flush()
	if *jsonOut != "" {
		fmt.Fprintf(stdout, "wrote %s\n", *jsonOut)
	}
	return nil
}

func runFieldProfile(args []string, stdout, stderr io.Writer) error {
	fs, sf := addStoreFlags(commandNamed("field"), stderr)
	release := fs.String("release", "", "the release manifest")
	out := fs.String("o", "field.json", "the usage profile to write (augur-profile/1)")
	base := fs.String("base", "", "an in-house augur profile to fill what the field did not measure (reported)")
	dir := fs.String("dir", "", "the module directory the release's packages are loaded from")
	pkgs, err := parse(fs, args, stdout)
	if err != nil {
		return err
	}
	m, e, err := fieldEstimates(context.Background(), sf, *release)
	if err != nil {
		return err
	}
	if len(pkgs) == 0 {
		pkgs = manifestPackages(m)
	}
	_, fns, err := loadAll(*dir, pkgs)
	if err != nil {
		return err
	}
	var b *profile.Profile
	if *base != "" {
		if b, err = profile.Read(*base); err != nil {
			return err
		}
	}
	p, notes, err := e.Profile(fns, b)
	if err != nil {
		return err
	}
	if err := p.Write(*out); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "Field profile of release %s from %d site-runs (%d packages): %d functions\n", m.Release, e.Runs, e.Packages, len(p.Funcs))
	list := func(what string, items []string) {
		if len(items) == 0 {
			return
		}
		fmt.Fprintf(stdout, "%s (%d):\n", what, len(items))
		for _, it := range items {
			fmt.Fprintf(stdout, "  %s\n", it)
		}
	}
	list("Decisions without field data (no outcomes in the profile: analyze treats them as unseen)", notes.Missing)
	list("Functions left out (their invocations cannot be estimated)", notes.NoInvocations)
	list("Filled from "+*base, notes.Filled)
	fmt.Fprintf(stdout, "wrote %s\n", *out)
	return nil
}

// manifestPackages are the import paths of the functions the manifest's units are in.
func manifestPackages(m *plan.Manifest) []string {
	seen := map[string]bool{}
	for _, u := range m.Units {
		if pkg := funcPackage(u.Func); pkg != "" {
			seen[pkg] = true
		}
	}
	var out []string
	for p := range seen {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// funcPackage is the import path of a function named as frontend.Func.Name
// (import/path.Func, import/path.(*T).M).
func funcPackage(name string) string {
	slash := strings.LastIndex(name, "/")
	dot := strings.Index(name[slash+1:], ".")
	if dot < 0 {
		return ""
	}
	return name[:slash+1+dot]
}
