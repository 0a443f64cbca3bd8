package store

import (
	"context"
	"errors"
	"fmt"
	"sort"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/augur-perf/augur/field/plan"
	"github.com/augur-perf/augur/field/wire"
)

const postgresSchema = `
CREATE TABLE IF NOT EXISTS field_releases (release TEXT PRIMARY KEY, manifest TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS field_tokens (
	id TEXT PRIMARY KEY, release TEXT NOT NULL REFERENCES field_releases(release),
	hash TEXT NOT NULL UNIQUE, revoked BOOLEAN NOT NULL DEFAULT false);
CREATE TABLE IF NOT EXISTS field_packages (
	site TEXT NOT NULL, release TEXT NOT NULL, seq BIGINT NOT NULL,
	variant INTEGER NOT NULL, uptime DOUBLE PRECISION NOT NULL, rate DOUBLE PRECISION NOT NULL,
	counts BYTEA NOT NULL, PRIMARY KEY (site, release, seq));
`

// schemaLock is the advisory lock under which collectors starting together create the schema
// (concurrent CREATE TABLE IF NOT EXISTS can fail on PostgreSQL's catalogue).
const schemaLock = 0x61756775

// Postgres is the store for several collectors in front of one PostgreSQL server. The
// collectors keep no state of their own: the primary key (site, release, seq) decides, inside
// the transaction that commits a batch, which package is new.
type Postgres struct {
	pool *pgxpool.Pool
}

// OpenPostgres connects to the server at dsn and creates the schema if needed.
func OpenPostgres(ctx context.Context, dsn string) (*Postgres, error) {
	cfg, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		return nil, err
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, err
	}
	err = pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, schemaLock); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, postgresSchema)
		return err
	})
	if err != nil {
		pool.Close()
		return nil, fmt.Errorf("postgres: %v", err)
	}
	return &Postgres{pool: pool}, nil
}

func (s *Postgres) Close() error {
	s.pool.Close()
	return nil
}

func (s *Postgres) AddRelease(ctx context.Context, m *plan.Manifest) error {
	text, err := encodeManifest(m)
	if err != nil {
		return err
	}
	if _, err := s.pool.Exec(ctx, `INSERT INTO field_releases (release, manifest) VALUES ($1, $2) ON CONFLICT DO NOTHING`, m.Release, text); err != nil {
		return err
	}
	var old string
	if err := s.pool.QueryRow(ctx, `SELECT manifest FROM field_releases WHERE release = $1`, m.Release).Scan(&old); err != nil {
		return err
	}
	return sameManifest(old, text, m.Release)
}

func (s *Postgres) Release(ctx context.Context, name string) (*plan.Manifest, error) {
	var text string
	err := s.pool.QueryRow(ctx, `SELECT manifest FROM field_releases WHERE release = $1`, name).Scan(&text)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, fmt.Errorf("release %q: %w", name, ErrNotFound)
	}
	if err != nil {
		return nil, err
	}
	return decodeManifest(text)
}

func (s *Postgres) AddToken(ctx context.Context, id, release, hash string) error {
	if _, err := s.Release(ctx, release); err != nil {
		return fmt.Errorf("%w: register it first (augur field release add)", err)
	}
	_, err := s.pool.Exec(ctx, `INSERT INTO field_tokens (id, release, hash) VALUES ($1, $2, $3)`, id, release, hash)
	return err
}

func (s *Postgres) RevokeToken(ctx context.Context, id string) error {
	tag, err := s.pool.Exec(ctx, `UPDATE field_tokens SET revoked = true WHERE id = $1`, id)
	if err != nil {
		return err
	}
	if tag.RowsAffected() == 0 {
		return fmt.Errorf("token %q: %w", id, ErrNotFound)
	}
	return nil
}

func (s *Postgres) Tokens(ctx context.Context, release string) ([]Token, error) {
	rows, err := s.pool.Query(ctx, `SELECT id, release, revoked FROM field_tokens WHERE $1 = '' OR release = $1 ORDER BY release, id`, release)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (Token, error) {
		var t Token
		err := r.Scan(&t.ID, &t.Release, &t.Revoked)
		return t, err
	})
}

func (s *Postgres) TokenRelease(ctx context.Context, hash string) (string, error) {
	var release string
	err := s.pool.QueryRow(ctx, `SELECT release FROM field_tokens WHERE hash = $1 AND NOT revoked`, hash).Scan(&release)
	if errors.Is(err, pgx.ErrNoRows) {
		return "", ErrNotFound
	}
	return release, err
}

// Commit inserts the batch in key order, so that two collectors committing overlapping batches
// wait for each other instead of deadlocking; a deadlock or serialization failure all the same
// is retried (the transaction rolled back as a whole, nothing was acknowledged).
func (s *Postgres) Commit(ctx context.Context, pkgs []*wire.Package) ([]bool, error) {
	if err := checkSeqs(pkgs); err != nil {
		return nil, err
	}
	order := make([]int, len(pkgs))
	blobs := make([][]byte, len(pkgs))
	for i, p := range pkgs {
		order[i] = i
		blobs[i] = encodeCounts(p.Counts)
	}
	sort.SliceStable(order, func(a, b int) bool {
		p, q := pkgs[order[a]], pkgs[order[b]]
		if p.Site != q.Site {
			return p.Site < q.Site
		}
		if p.Release != q.Release {
			return p.Release < q.Release
		}
		return p.Seq < q.Seq
	})
	for attempt := 0; ; attempt++ {
		fresh := make([]bool, len(pkgs))
		err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
			var b pgx.Batch
			for _, i := range order {
				p := pkgs[i]
				b.Queue(`INSERT INTO field_packages (site, release, seq, variant, uptime, rate, counts)
					VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING`,
					p.Site, p.Release, int64(p.Seq), p.Variant, p.Uptime, p.Rate, blobs[i])
			}
			res := tx.SendBatch(ctx, &b)
			for _, i := range order {
				tag, err := res.Exec()
				if err != nil {
					res.Close()
					return err
				}
				fresh[i] = tag.RowsAffected() == 1
			}
			return res.Close()
		})
		var pe *pgconn.PgError
		if err != nil && attempt < 3 && errors.As(err, &pe) && (pe.Code == "40P01" || pe.Code == "40001") {
			continue
		}
		if err != nil {
			return nil, err
		}
		return fresh, nil
	}
}

func (s *Postgres) Scan(ctx context.Context, release string, fn func(*Record) error) error {
	rows, err := s.pool.Query(ctx, `SELECT site, seq, variant, uptime, rate, counts FROM field_packages WHERE release = $1 ORDER BY site, seq`, release)
	if err != nil {
		return err
	}
	defer rows.Close()
	return scanRecords(rows, release, fn)
}
