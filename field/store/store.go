// Package store keeps what a field collector receives: the releases it serves (their
// manifests), the tokens that authenticate deployed variants (hashed), and every package
// acknowledged, exactly once by (site, release, seq). Two backends implement Store: SQLite
// (modernc.org/sqlite, pure Go, WAL; one collector) and PostgreSQL (jackc/pgx; several stateless
// collectors in front of one server). It must not speak HTTP or estimate anything: field/collect
// serves it and field/estimate reads it.
//
// A package is stored as one row keyed by (site, release, seq) whose counts travel in the same
// row: inserting it with ON CONFLICT DO NOTHING is the whole deduplication, in the transaction
// that commits it, so a package retried after a crash, or sent to two collectors at once, is
// stored once whatever the interleaving.
package store

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/augur-perf/augur/field/plan"
	"github.com/augur-perf/augur/field/wire"
)

// ErrNotFound is returned for an unknown release, an unknown or revoked token.
var ErrNotFound = errors.New("not found")

// Record is a stored package.
type Record struct {
	Site    string
	Release string
	Seq     uint64
	Variant int
	Uptime  float64
	Rate    float64
	Counts  []wire.Count
}

// Token describes an issued token (never its secret).
type Token struct {
	ID      string
	Release string
	Revoked bool
}

// Store is a collector's storage.
type Store interface {
	// AddRelease registers a release; registering the same manifest again is a no-op, another
	// manifest under a registered release name an error.
	AddRelease(ctx context.Context, m *plan.Manifest) error
	// Release returns a registered release's manifest, or ErrNotFound.
	Release(ctx context.Context, name string) (*plan.Manifest, error)
	// AddToken stores a token's id and the hash of its secret (see NewToken) for a registered
	// release.
	AddToken(ctx context.Context, id, release, hash string) error
	// RevokeToken revokes a token by id; ErrNotFound when there is none.
	RevokeToken(ctx context.Context, id string) error
	// Tokens lists the tokens of a release (of every release when release is "").
	Tokens(ctx context.Context, release string) ([]Token, error)
	// TokenRelease returns the release of the live token whose hash is hash, or ErrNotFound.
	TokenRelease(ctx context.Context, hash string) (string, error)
	// Commit stores pkgs in one transaction and reports, for each, whether it was new (false:
	// a package of the same (site, release, seq) was stored before, or earlier in pkgs). When
	// it returns without error every package is durable.
	Commit(ctx context.Context, pkgs []*wire.Package) (fresh []bool, err error)
	// Scan calls fn with every stored package of release, ordered by site and seq.
	Scan(ctx context.Context, release string, fn func(*Record) error) error
	Close() error
}

// Open opens the store at dsn: a PostgreSQL connection string (postgres://… or
// "host=… dbname=…") when postgres is set, else the path of an SQLite file (created if absent).
func Open(ctx context.Context, path, postgres string) (Store, error) {
	if postgres != "" {
		return OpenPostgres(ctx, postgres)
	}
	return OpenSQLite(ctx, path)
}

// NewToken makes a token for release: a public id (for revoking and listing), the secret a
// deployed variant presents ("fld_ID_SECRET", shown once), and the hash the store keeps.
func NewToken() (id, token, hash string, err error) {
	var b [24]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", "", "", err
	}
	id = hex.EncodeToString(b[:6])
	token = "fld_" + id + "_" + hex.EncodeToString(b[6:])
	return id, token, HashToken(token), nil
}

// IssueToken makes a token for release (NewToken) and keeps its hash in st: the token itself is
// returned once and never stored.
func IssueToken(ctx context.Context, st Store, release string) (id, token string, err error) {
	id, token, hash, err := NewToken()
	if err != nil {
		return "", "", err
	}
	if err := st.AddToken(ctx, id, release, hash); err != nil {
		return "", "", err
	}
	return id, token, nil
}

// HashToken is the hash under which a token is stored and looked up. The secret carries 144
// random bits, so an unsalted SHA-256 cannot be reversed by search.
func HashToken(token string) string {
	h := sha256.Sum256([]byte(token))
	return hex.EncodeToString(h[:])
}

// MaxSeq is the largest sequence number the stores keep (both keep it as a signed 64-bit
// integer).
const MaxSeq = math.MaxInt64

// encodeCounts packs counts as unsigned varints — for each count the gap to the previous probe
// id, N, the number of outcomes and the outcomes — a quarter of their JSON and several times
// faster to write, which is most of the collector's work per package.
func encodeCounts(cs []wire.Count) []byte {
	b := make([]byte, 0, 4*len(cs)+8)
	prev := 0
	for _, c := range cs {
		b = binary.AppendUvarint(b, uint64(c.Probe-prev))
		b = binary.AppendUvarint(b, c.N)
		b = binary.AppendUvarint(b, uint64(len(c.Out)))
		for _, o := range c.Out {
			b = binary.AppendUvarint(b, o)
		}
		prev = c.Probe
	}
	return b
}

// maxOutcomes bounds a stored count's outcomes, so that a corrupt length cannot make
// decodeCounts allocate without limit.
const maxOutcomes = 1 << 16

// decodeCounts reads what encodeCounts wrote; anything else is an error, never a panic.
func decodeCounts(b []byte) ([]wire.Count, error) {
	var cs []wire.Count
	next := func(what string) (uint64, error) {
		v, n := binary.Uvarint(b)
		if n <= 0 {
			return 0, fmt.Errorf("stored counts: bad %s at %d bytes from the end", what, len(b))
		}
		b = b[n:]
		return v, nil
	}
	prev := uint64(0)
	for len(b) > 0 {
		gap, err := next("probe id")
		if err != nil {
			return nil, err
		}
		if gap == 0 && len(cs) > 0 || prev+gap > math.MaxInt32 {
			return nil, fmt.Errorf("stored counts: probe ids out of order or too large")
		}
		prev += gap
		c := wire.Count{Probe: int(prev)}
		if c.N, err = next("count"); err != nil {
			return nil, err
		}
		k, err := next("number of outcomes")
		if err != nil {
			return nil, err
		}
		if k > maxOutcomes || k > uint64(len(b)) {
			return nil, fmt.Errorf("stored counts: %d outcomes in %d bytes", k, len(b))
		}
		if k > 0 {
			c.Out = make([]uint64, k)
			for i := range c.Out {
				if c.Out[i], err = next("outcome"); err != nil {
					return nil, err
				}
			}
		}
		cs = append(cs, c)
	}
	return cs, nil
}

func encodeManifest(m *plan.Manifest) (string, error) {
	if m.Release == "" {
		return "", fmt.Errorf("the manifest names no release")
	}
	b, err := json.Marshal(m)
	return string(b), err
}

func decodeManifest(s string) (*plan.Manifest, error) {
	var m plan.Manifest
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		return nil, fmt.Errorf("stored manifest: %v", err)
	}
	return &m, nil
}

func checkSeqs(pkgs []*wire.Package) error {
	for _, p := range pkgs {
		if p.Seq > MaxSeq {
			return fmt.Errorf("seq %d above %d", p.Seq, uint64(MaxSeq))
		}
	}
	return nil
}

func sameManifest(old, new string, release string) error {
	if strings.TrimSpace(old) == strings.TrimSpace(new) {
		return nil
	}
	return fmt.Errorf("release %s is registered with another manifest: give the new one another release name", release)
}

// rows is what both backends' query results offer.
type rows interface {
	Next() bool
	Scan(dest ...any) error
	Err() error
}

// scanRecords reads the rows of a Scan query (site, seq, variant, uptime, rate, counts) into
// records for fn.
func scanRecords(rs rows, release string, fn func(*Record) error) error {
	for rs.Next() {
		r := Record{Release: release}
		var seq int64
		var counts []byte
		if err := rs.Scan(&r.Site, &seq, &r.Variant, &r.Uptime, &r.Rate, &counts); err != nil {
			return err
		}
		r.Seq = uint64(seq)
		var err error
		if r.Counts, err = decodeCounts(counts); err != nil {
			return fmt.Errorf("package (%s, %s, %d): %v", r.Site, release, r.Seq, err)
		}
		if err := fn(&r); err != nil {
			return err
		}
	}
	return rs.Err()
}
