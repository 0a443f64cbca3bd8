package pipeline

import (
	"context"
	"net"

	"github.com/augur-perf/augur/field/collect"
	"github.com/augur-perf/augur/field/estimate"
	"github.com/augur-perf/augur/field/plan"
	"github.com/augur-perf/augur/field/store"
	"github.com/augur-perf/augur/probe/profile"
	"github.com/augur-perf/augur/source/frontend"
)

// AddRelease registers the release whose manifest is at path with the store (augur field
// release add).
func AddRelease(ctx context.Context, s Store, path string) (*plan.Manifest, error) {
	m, err := plan.Read(path)
	if err != nil {
		return nil, err
	}
	st, err := s.Open(ctx)
	if err != nil {
		return nil, err
	}
	defer st.Close()
	return m, st.AddRelease(ctx, m)
}

// TokenRequest is augur field token: revoke the token with id Revoke, list the tokens (of
// Release, or all), or issue one for Release.
type TokenRequest struct {
	Store
	Release, Revoke string
	List            bool
}

// Tokens is what Token did: revoked the token Revoked, listed List, or issued Token (with its
// public ID) for Release.
type Tokens struct {
	Revoked            string
	List               []store.Token
	Listed             bool
	ID, Token, Release string
}

// Token carries out r.
func Token(ctx context.Context, r TokenRequest) (*Tokens, error) {
	if r.Revoke == "" && !r.List && r.Release == "" {
		return nil, inputf("give --release R (issue), --revoke ID or --list")
	}
	st, err := r.Open(ctx)
	if err != nil {
		return nil, err
	}
	defer st.Close()
	t := &Tokens{Release: r.Release}
	switch {
	case r.Revoke != "":
		t.Revoked = r.Revoke
		return t, st.RevokeToken(ctx, r.Revoke)
	case r.List:
		t.Listed = true
		t.List, err = st.Tokens(ctx, r.Release)
		return t, err
	}
	t.ID, t.Token, err = store.IssueToken(ctx, st, r.Release)
	return t, err
}

// ServeRequest is augur field serve: the collector on Addr (HTTPS with Cert and Key), its
// queue and committers (collect.Options; 0: the defaults).
type ServeRequest struct {
	Store
	Addr, Cert, Key   string
	Queue, Committers int
}

// Serve runs the collector until ctx ends; ready is called with its URL once it listens.
func Serve(ctx context.Context, r ServeRequest, ready func(url string)) error {
	if (r.Cert == "") != (r.Key == "") {
		return inputf("--tls-cert and --tls-key go together")
	}
	st, err := r.Open(ctx)
	if err != nil {
		return err
	}
	defer st.Close()
	scheme := "http"
	if r.Cert != "" {
		scheme = "https"
	}
	s := collect.New(st, collect.Options{Queue: r.Queue, Committers: r.Committers}, nil)
	return collect.Serve(ctx, r.Addr, r.Cert, r.Key, s, func(a net.Addr) { ready(scheme + "://" + a.String()) })
}

// Estimated is a release and what the store's packages say of it.
type Estimated struct {
	Manifest  *plan.Manifest
	Estimates *estimate.Estimates
	// Reference compares them with a profile under full instrumentation (ReportRequest).
	Reference *estimate.Reference
}

// estimates reads the release manifest at path, checks that the store serves that very
// release, and estimates from its packages.
func estimates(ctx context.Context, s Store, path string) (*Estimated, error) {
	if path == "" {
		return nil, inputf("--release release.json is required")
	}
	m, err := plan.Read(path)
	if err != nil {
		return nil, err
	}
	st, err := s.Open(ctx)
	if err != nil {
		return nil, err
	}
	defer st.Close()
	e, err := estimate.FromStore(ctx, st, m, path)
	return &Estimated{Manifest: m, Estimates: e}, err
}

// ReportRequest is augur field report: the estimates of the release whose manifest is at
// Release, and, with Reference (an augur profile of the same code under full
// instrumentation), coverage and hot units relative to it.
type ReportRequest struct {
	Store
	Release, Reference string
}

// Report carries out r.
func Report(ctx context.Context, r ReportRequest) (*Estimated, error) {
	e, err := estimates(ctx, r.Store, r.Release)
	if err != nil {
		return nil, err
	}
	if p, err := readOptional(r.Reference); err != nil {
		return nil, err
	} else if p != nil {
		ref := e.Estimates.AgainstProfile(e.Manifest, p)
		e.Reference = &ref
	}
	return e, nil
}

// ProfileRequest is augur field profile: the field profile (augur-profile/1) of the packages
// (none: the release's) estimated from the store, written to Out.
type ProfileRequest struct {
	Store
	// Release is the manifest; Base an in-house profile to fill what the field did not measure.
	Release, Base string
	// Dir is the module directory the packages are loaded from.
	Dir      string
	Patterns []string
	Out      string
}

// FieldProfile is what Profile wrote, and how.
type FieldProfile struct {
	*Estimated
	Profile *profile.Profile
	Notes   *estimate.ProfileNotes
}

// Profile carries out r.
func Profile(ctx context.Context, r ProfileRequest) (*FieldProfile, error) {
	e, err := estimates(ctx, r.Store, r.Release)
	if err != nil {
		return nil, err
	}
	if len(r.Patterns) == 0 {
		r.Patterns = e.Manifest.Packages()
	}
	_, fns, _, err := frontend.LoadAll(r.Dir, r.Patterns, nil)
	if err != nil {
		return nil, &InputError{err}
	}
	base, err := readOptional(r.Base)
	if err != nil {
		return nil, err
	}
	fp := &FieldProfile{Estimated: e}
	if fp.Profile, fp.Notes, err = e.Estimates.Profile(fns, base); err != nil {
		return nil, err
	}
	return fp, fp.Profile.Write(r.Out)
}
