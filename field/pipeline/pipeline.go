// Package pipeline is the field group's commands as one call each, from names and files to
// results: Plan (augur field plan: units, a bound given or calibrated against an overhead
// target, the allocation, the manifest written), Build, Simulate, and the collector's side
// (AddRelease, Tokens, Serve, Report, Profile). A request holds what the command line's flags
// say, lists and sizes as the text they are written in; a mistake in it is an *InputError,
// before anything runs.
//
// It owns the order of those steps and the reading of the command line's text, nothing else:
// units and allocation are field/plan's, calibration field/calibrate's, builds field/build's,
// replays field/sim's, the store field/store's, the collector field/collect's and estimates
// field/estimate's. It prints nothing but calibration progress to the writer it is given, and
// leaves the formatting of results to its caller (report/text for the command line).
package pipeline

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/augur-perf/augur/field/store"
)

// InputError is a request that cannot be carried out as given (a bad value, options that
// exclude each other, a required one missing): the caller's mistake, a usage error.
type InputError struct{ Err error }

func (e *InputError) Error() string { return e.Err.Error() }
func (e *InputError) Unwrap() error { return e.Err }

// UsageError says that the caller is at fault.
func (e *InputError) UsageError() bool { return true }

func inputf(format string, a ...any) error { return &InputError{fmt.Errorf(format, a...)} }

// Store names a collector's store as the command line does: an SQLite file (DB), or a
// PostgreSQL connection string that takes its place.
type Store struct{ DB, Postgres string }

// Open opens the store (store.Open).
func (s Store) Open(ctx context.Context) (store.Store, error) {
	return store.Open(ctx, s.DB, s.Postgres)
}

// counts reads a comma-separated list of positive numbers (bounds, variants), for flag.
func counts(flag, s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 {
			return nil, inputf("%s: %q is not a positive number", flag, f)
		}
		out = append(out, n)
	}
	return out, nil
}
