package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"net"
	"os"
	"os/signal"
	"syscall"

	"github.com/augur-perf/augur/report/html"
	"github.com/augur-perf/augur/report/text"

	"github.com/augur-perf/augur/field/collect"
	fieldest "github.com/augur-perf/augur/field/estimate"
	"github.com/augur-perf/augur/field/plan"
	"github.com/augur-perf/augur/field/store"
)

// storeFlags are the flags naming a collector's store.
type storeFlags struct{ db, postgres *string }

func addStoreFlags(fs *flag.FlagSet) storeFlags {
	return storeFlags{
		db:       fs.String("db", "field.sqlite", "the SQLite store"),
		postgres: fs.String("postgres", "", "a PostgreSQL connection string: use that server instead of --db"),
	}
}

func (s storeFlags) open(ctx context.Context) (store.Store, error) {
	return store.Open(ctx, *s.db, *s.postgres)
}

func fieldServeFlags(fs *flag.FlagSet) func(*call) error {
	sf := addStoreFlags(fs)
	addr := fs.String("addr", ":8417", "the address to listen on")
	cert := fs.String("tls-cert", "", "serve HTTPS with this certificate (PEM)")
	key := fs.String("tls-key", "", "and this key")
	queue := fs.Int("queue", 0, "the most packages waiting for a commit (default 16384)")
	committers := fs.Int("committers", 0, "transactions under way at once (default 1 for SQLite, 4 for PostgreSQL)")
	return func(x *call) error {
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
		scheme := "http"
		if *cert != "" {
			scheme = "https"
		}
		return collect.Serve(ctx, *addr, *cert, *key, collect.New(st, o, nil), func(a net.Addr) {
			fmt.Fprintf(x.stdout, "augur field collector on %s://%s (POST /v1/packages, POST /v1/batches, GET /healthz, GET /metrics)\n", scheme, a)
		})
	}
}

func fieldReleaseFlags(fs *flag.FlagSet) func(*call) error {
	sf := addStoreFlags(fs)
	return func(x *call) error {
		if len(x.args) != 2 || x.args[0] != "add" {
			return usagef("expected: augur field release add release.json")
		}
		m, err := plan.Read(x.args[1])
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
		fmt.Fprintf(x.stdout, "release %s registered (%d variants, %d units)\n", m.Release, len(m.Variants), len(m.Units))
		return nil
	}
}

func fieldTokenFlags(fs *flag.FlagSet) func(*call) error {
	sf := addStoreFlags(fs)
	release := fs.String("release", "", "issue a token for this release")
	revoke := fs.String("revoke", "", "revoke the token with this id")
	list := fs.Bool("list", false, "list the tokens (of --release, or all) by id")
	return func(x *call) error {
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
			fmt.Fprintf(x.stdout, "token %s revoked\n", *revoke)
		case *list:
			ts, err := st.Tokens(ctx, *release)
			if err != nil {
				return err
			}
			text.FieldTokens(x.stdout, ts)
		case *release != "":
			id, token, err := store.IssueToken(ctx, st, *release)
			if err != nil {
				return err
			}
			fmt.Fprintf(x.stderr, "token %s for release %s (shown once: only its hash is stored; revoke with --revoke %s)\n", id, *release, id)
			fmt.Fprintln(x.stdout, token)
		default:
			return usagef("give --release R (issue), --revoke ID or --list")
		}
		return nil
	}
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
	e, err := fieldest.FromStore(ctx, st, m, path)
	return m, e, err
}

func fieldReportFlags(fs *flag.FlagSet) func(*call) error {
	sf := addStoreFlags(fs)
	release := fs.String("release", "", "the release manifest")
	jsonOut := fs.String("json", "", "also write the report as JSON to this file")
	reference := fs.String("reference", "", "an augur profile of the same code under full instrumentation: coverage and hot units relative to it")
	htmlOut := fs.String("html", "", "also write the report as a self-contained HTML page to this file")
	return func(x *call) error {
		m, e, err := fieldEstimates(context.Background(), sf, *release)
		if err != nil {
			return err
		}
		var ref *fieldest.Reference
		if p, err := readProfile(*reference); err != nil {
			return err
		} else if p != nil {
			r := e.AgainstProfile(m, p)
			ref = &r
		}
		if *jsonOut != "" {
			var b bytes.Buffer
			if err := text.FieldReportJSON(&b, m, e, ref); err != nil {
				return err
			}
			if err := os.WriteFile(*jsonOut, b.Bytes(), 0o644); err != nil {
				return err
			}
		}
		if *htmlOut != "" {
			if err := html.WriteFile(*htmlOut, html.BuildField(m, e)); err != nil {
				return err
			}
		}
		text.FieldReport(x.stdout, m, e, ref, *reference)
		if *jsonOut != "" {
			fmt.Fprintf(x.stdout, "wrote %s\n", *jsonOut)
		}
		return nil
	}
}

func fieldProfileFlags(fs *flag.FlagSet) func(*call) error {
	sf := addStoreFlags(fs)
	release := fs.String("release", "", "the release manifest")
	out := fs.String("o", "field.json", "the usage profile to write (augur-profile/1)")
	base := fs.String("base", "", "an in-house augur profile to fill what the field did not measure (reported)")
	dir := fs.String("dir", "", "the module directory the release's packages are loaded from")
	return func(x *call) error {
		m, e, err := fieldEstimates(context.Background(), sf, *release)
		if err != nil {
			return err
		}
		if len(x.args) == 0 {
			x.args = m.Packages()
		}
		_, fns, err := loadAll(*dir, x.args)
		if err != nil {
			return err
		}
		b, err := readProfile(*base)
		if err != nil {
			return err
		}
		p, notes, err := e.Profile(fns, b)
		if err != nil {
			return err
		}
		if err := p.Write(*out); err != nil {
			return err
		}
		text.FieldProfile(x.stdout, m, e, p, notes, *base)
		fmt.Fprintf(x.stdout, "wrote %s\n", *out)
		return nil
	}
}
