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

// HashToken is the hash under which a token is stored and looked up. The secret carries 144
// random bits, so an unsalted SHA-256 cannot be reversed by search.
func HashToken(token string) string {
	h := sha256.Sum256([]byte(token))
	return hex.EncodeToString(h[:])
}

// MaxSeq is the largest sequence number the stores keep (both keep it as a signed 64-bit
// integer).
const MaxSeq = math.MaxInt64

func encodeCounts(cs []wire.Count) (string, error) {
	if cs == nil {
		cs = []wire.Count{}
	}
	b, err := json.Marshal(cs)
	return string(b), err
}

func decodeCounts(s string) ([]wire.Count, error) {
	var cs []wire.Count
	if err := json.Unmarshal([]byte(s), &cs); err != nil {
		return nil, fmt.Errorf("stored counts: %v", err)
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
