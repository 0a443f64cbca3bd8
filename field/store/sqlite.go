package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"

	"github.com/augur-perf/augur/field/plan"
	"github.com/augur-perf/augur/field/wire"

	_ "modernc.org/sqlite" // the pure-Go driver "sqlite"
)

const sqliteSchema = `
CREATE TABLE IF NOT EXISTS releases (release TEXT PRIMARY KEY, manifest TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS tokens (
	id TEXT PRIMARY KEY, release TEXT NOT NULL REFERENCES releases(release),
	hash TEXT NOT NULL UNIQUE, revoked INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS packages (
	site TEXT NOT NULL, release TEXT NOT NULL, seq INTEGER NOT NULL,
	variant INTEGER NOT NULL, uptime REAL NOT NULL, rate REAL NOT NULL, counts BLOB NOT NULL,
	UNIQUE (site, release, seq));
`

// Packages live in a rowid table with a unique index on the key rather than in a WITHOUT ROWID
// table clustered on it: rows of a few hundred bytes insert three times faster that way.
//
// SQLite is the embedded store: one file in WAL mode, written by one connection (SQLite has one
// writer anyway), read by others. synchronous=FULL makes a committed transaction survive a power
// loss, not only a crash of the process; the collector batches packages into one transaction
// (group commit) so that the sync is paid once per batch.
type SQLite struct {
	w, r *sql.DB
}

// OpenSQLite opens or creates the SQLite store at path.
func OpenSQLite(ctx context.Context, path string) (*SQLite, error) {
	if path == "" {
		return nil, fmt.Errorf("no database file given")
	}
	dsn := "file:" + (&url.URL{Path: path}).EscapedPath() +
		"?_pragma=journal_mode(WAL)&_pragma=busy_timeout(10000)&_pragma=synchronous(FULL)&_pragma=foreign_keys(1)"
	w, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, err
	}
	w.SetMaxOpenConns(1)
	if _, err := w.ExecContext(ctx, sqliteSchema); err != nil {
		w.Close()
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	r, err := sql.Open("sqlite", dsn+"&_pragma=query_only(1)")
	if err != nil {
		w.Close()
		return nil, err
	}
	r.SetMaxOpenConns(4)
	return &SQLite{w: w, r: r}, nil
}

func (s *SQLite) Close() error {
	return errors.Join(s.r.Close(), s.w.Close())
}

func (s *SQLite) AddRelease(ctx context.Context, m *plan.Manifest) error {
	text, err := encodeManifest(m)
	if err != nil {
		return err
	}
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var old string
	switch err := tx.QueryRowContext(ctx, `SELECT manifest FROM releases WHERE release = ?`, m.Release).Scan(&old); {
	case err == nil:
		return sameManifest(old, text, m.Release)
	case !errors.Is(err, sql.ErrNoRows):
		return err
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO releases (release, manifest) VALUES (?, ?)`, m.Release, text); err != nil {
		return err
	}
	return tx.Commit()
}

func (s *SQLite) Release(ctx context.Context, name string) (*plan.Manifest, error) {
	var text string
	err := s.r.QueryRowContext(ctx, `SELECT manifest FROM releases WHERE release = ?`, name).Scan(&text)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("release %q: %w", name, ErrNotFound)
	}
	if err != nil {
		return nil, err
	}
	return decodeManifest(text)
}

func (s *SQLite) AddToken(ctx context.Context, id, release, hash string) error {
	if _, err := s.Release(ctx, release); err != nil {
		return fmt.Errorf("%w: register it first (augur field release add)", err)
	}
	_, err := s.w.ExecContext(ctx, `INSERT INTO tokens (id, release, hash) VALUES (?, ?, ?)`, id, release, hash)
	return err
}

func (s *SQLite) RevokeToken(ctx context.Context, id string) error {
	res, err := s.w.ExecContext(ctx, `UPDATE tokens SET revoked = 1 WHERE id = ?`, id)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return fmt.Errorf("token %q: %w", id, ErrNotFound)
	}
	return nil
}

func (s *SQLite) Tokens(ctx context.Context, release string) ([]Token, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT id, release, revoked FROM tokens WHERE ? = '' OR release = ? ORDER BY release, id`, release, release)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []Token
	for rows.Next() {
		var t Token
		if err := rows.Scan(&t.ID, &t.Release, &t.Revoked); err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, rows.Err()
}

func (s *SQLite) TokenRelease(ctx context.Context, hash string) (string, error) {
	var release string
	err := s.r.QueryRowContext(ctx, `SELECT release FROM tokens WHERE hash = ? AND revoked = 0`, hash).Scan(&release)
	if errors.Is(err, sql.ErrNoRows) {
		return "", ErrNotFound
	}
	return release, err
}

func (s *SQLite) Commit(ctx context.Context, pkgs []*wire.Package) ([]bool, error) {
	if err := checkSeqs(pkgs); err != nil {
		return nil, err
	}
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return nil, err
	}
	defer tx.Rollback()
	stmt, err := tx.PrepareContext(ctx, `INSERT INTO packages (site, release, seq, variant, uptime, rate, counts)
		VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`)
	if err != nil {
		return nil, err
	}
	defer stmt.Close()
	fresh := make([]bool, len(pkgs))
	for i, p := range pkgs {
		counts := encodeCounts(p.Counts)
		res, err := stmt.ExecContext(ctx, p.Site, p.Release, int64(p.Seq), p.Variant, p.Uptime, p.Rate, counts)
		if err != nil {
			return nil, err
		}
		n, err := res.RowsAffected()
		if err != nil {
			return nil, err
		}
		fresh[i] = n == 1
	}
	return fresh, tx.Commit()
}

func (s *SQLite) Scan(ctx context.Context, release string, fn func(*Record) error) error {
	rows, err := s.r.QueryContext(ctx, `SELECT site, seq, variant, uptime, rate, counts FROM packages WHERE release = ? ORDER BY site, seq`, release)
	if err != nil {
		return err
	}
	defer rows.Close()
	return scanRecords(rows, release, fn)
}
