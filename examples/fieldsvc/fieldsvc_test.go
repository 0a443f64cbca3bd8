package main

import (
	"net/http/httptest"
	"os"
	"strconv"
	"testing"

	"github.com/augur-perf/augur/examples/fieldsvc/traffic"
)

// TestSites plays sites 0..FIELDSVC_SITES-1 (default 4), FIELDSVC_REQUESTS requests each
// (default 500), against the service in this process, each site on a fresh store as a deployed
// site would be: the in-house run of the field's traffic (augur profile ./examples/fieldsvc --
// go test ./examples/fieldsvc -run TestSites gives the fully instrumented reference). It checks
// the answers a site's mix must give.
func TestSites(t *testing.T) {
	sites, requests := envInt(t, "FIELDSVC_SITES", 4), envInt(t, "FIELDSVC_REQUESTS", 500)
	for k := range sites {
		srv := httptest.NewServer(NewHandler(NewStore(), func() {}))
		reqs := traffic.Site(k, requests)
		statuses, err := traffic.Play(srv.Client(), srv.URL, reqs)
		srv.Close()
		if err != nil {
			t.Fatal(err)
		}
		total := 0
		for _, n := range statuses {
			total += n
		}
		if total != requests || statuses[200] == 0 {
			t.Errorf("site %d: statuses %v for %d requests", k, statuses, requests)
		}
		bad := 0
		for _, r := range reqs {
			if r.Kind == "patch" {
				bad++
			}
		}
		if statuses[400] < bad {
			t.Errorf("site %d: %d requests of an unknown kind but %d answers 400: %v", k, bad, statuses[400], statuses)
		}
	}
}

func envInt(t *testing.T, name string, def int) int {
	v := os.Getenv(name)
	if v == "" {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 {
		t.Fatalf("%s=%q: want a positive integer", name, v)
	}
	return n
}

func TestStore(t *testing.T) {
	s := NewStore()
	for _, c := range []struct {
		r      Request
		status int
		keys   int
	}{
		{Request{Kind: "get", Key: "a"}, 404, 0},
		{Request{Kind: "put", Key: "a", Body: "x", Tags: []string{"go", "perf"}}, 200, 0},
		{Request{Kind: "put", Key: "b", Tags: []string{"go"}}, 200, 0},
		{Request{Kind: "put", Key: ""}, 400, 0},
		{Request{Kind: "get", Key: "a"}, 200, 0},
		{Request{Kind: "list", Prefix: ""}, 200, 2},
		{Request{Kind: "search", Tag: "go"}, 200, 2},
		{Request{Kind: "search", Tag: "go", Limit: 1}, 200, 1},
		{Request{Kind: "put", Key: "a", Body: "y"}, 200, 0},
		{Request{Kind: "search", Tag: "perf"}, 200, 0},
		{Request{Kind: "delete", Key: "b"}, 204, 0},
		{Request{Kind: "delete", Key: "b"}, 404, 0},
		{Request{Kind: "patch"}, 400, 0},
	} {
		got := s.Handle(c.r)
		if got.Status != c.status || len(got.Keys) != c.keys {
			t.Errorf("%+v: got %+v, want status %d with %d keys", c.r, got, c.status, c.keys)
		}
	}
}
