package main

import (
	"bytes"
	"context"
	"encoding/json"
	"github.com/augur-perf/augur/internal/cli"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/augur-perf/augur/field/collect"
	"github.com/augur-perf/augur/field/plan"
	"github.com/augur-perf/augur/field/store"
	"github.com/augur-perf/augur/field/wire"
	"github.com/augur-perf/augur/probe/profile"
)

// TestFieldCollectorLoop runs the collector's side of the loop on examples/distance: plan,
// register, issue a token, collect packages cut from a fully instrumented run (each of 8 sites
// sends its variant's probes, in two packages), report, field profile, and analyze: the field
// profile, from 4 variants of 6 probes over 11 units, predicts what the full profile does.
func TestFieldCollectorLoop(t *testing.T) {
	dir := t.TempDir()
	rel, db, full, field := filepath.Join(dir, "release.json"), filepath.Join(dir, "f.sqlite"), filepath.Join(dir, "full.json"), filepath.Join(dir, "field.json")
	mustRun := func(args ...string) string {
		t.Helper()
		code, out, errs := runCLI(t, args...)
		if code != 0 {
			t.Fatalf("augur %s: exit %d\n%s%s", strings.Join(args, " "), code, out, errs)
		}
		return out
	}
	mustRun("field", "plan", "./examples/distance", "--variants", "4", "--probes", "6", "--seed", "7", "-o", rel)
	mustRun("profile", "./examples/distance", "-o", full, "--", "go", "test", "./examples/distance", "-run", "Workload")
	if out := mustRun("field", "release", "add", rel, "--db", db); !strings.Contains(out, "release r1 registered") {
		t.Errorf("release add: %s", out)
	}
	token := strings.TrimSpace(mustRun("field", "token", "--db", db, "--release", "r1"))

	st, err := store.OpenSQLite(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	srv := collect.New(st, collect.Options{}, nil)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { srv.Run(ctx); close(done) }()
	hs := httptest.NewServer(srv.Handler())
	defer func() { hs.Close(); cancel(); <-done }()

	m, err := plan.Read(rel)
	if err != nil {
		t.Fatal(err)
	}
	truth, err := profile.Read(full)
	if err != nil {
		t.Fatal(err)
	}
	send := func(p *wire.Package) string {
		var b bytes.Buffer
		wire.Encode(&b, p)
		req, _ := http.NewRequest("POST", hs.URL+"/v1/packages", &b)
		req.Header.Set("Authorization", "Bearer "+token)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var a map[string]string
		json.NewDecoder(resp.Body).Decode(&a)
		if resp.StatusCode != 200 {
			t.Fatalf("status %d: %v", resp.StatusCode, a)
		}
		return a["status"]
	}
	const sites = 8
	var last *wire.Package
	for s := range sites {
		v := m.Variants[s%len(m.Variants)]
		for part := uint64(1); part <= 2; part++ {
			half := func(x uint64) uint64 {
				if part == 1 {
					return x / 2
				}
				return x - x/2
			}
			p := &wire.Package{Format: wire.Format, Release: "r1", Variant: v.ID, Site: "site" + string(rune('a'+s)), Seq: part, Uptime: float64(30 * part)}
			for _, id := range v.Probes {
				u := m.Units[id-1]
				n := truth.Funcs[u.Func].Nodes[u.Node]
				c := wire.Count{Probe: id, N: half(n.Count)}
				for _, o := range n.Outcomes {
					c.Out = append(c.Out, half(o))
				}
				p.Counts = append(p.Counts, c)
			}
			if got := send(p); got != "accepted" {
				t.Fatalf("site %d part %d: %s", s, part, got)
			}
			last = p
		}
	}
	if got := send(last); got != "duplicate" {
		t.Errorf("replay: %s, want duplicate", got)
	}

	report := filepath.Join(dir, "report.json")
	out := mustRun("field", "report", "--db", db, "--release", rel, "--json", report, "--reference", full)
	for _, want := range []string{"8 sites, 8 site-runs, 16 packages", "Units covered: 11 of 11", "examples/distance/distance.go:19:",
		"(full instrumentation): 11 of the 11 units it saw run were covered (1.000); 1 of its 1 hot units found"} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
	var rep struct {
		Packages int `json:"packages"`
		Hot      []struct {
			Pos string `json:"pos"`
		} `json:"hot_units"`
	}
	data, _ := os.ReadFile(report)
	if err := json.Unmarshal(data, &rep); err != nil || rep.Packages != 16 || len(rep.Hot) != 1 {
		t.Errorf("report.json: %+v, %v", rep, err)
	}

	out = mustRun("field", "profile", "--db", db, "--release", rel, "-o", field)
	if !strings.Contains(out, "from 8 site-runs (16 packages): 2 functions") || strings.Contains(out, "without field data") {
		t.Errorf("field profile:\n%s", out)
	}
	result := regexp.MustCompile(`R\{"time"\}=\? \[ F "end" \]\s+(\S+)`)
	fieldOut := mustRun("analyze", "github.com/augur-perf/augur/examples/distance.L1", "--profile", field)
	fullOut := mustRun("analyze", "github.com/augur-perf/augur/examples/distance.L1", "--profile", full)
	f, g := result.FindStringSubmatch(fieldOut), result.FindStringSubmatch(fullOut)
	if f == nil || g == nil || f[1] != g[1] {
		t.Errorf("expected time per call: field %v, full %v\n%s\n%s", f, g, fieldOut, fullOut)
	}

	ids := mustRun("field", "token", "--db", db, "--list")
	id, _, _ := strings.Cut(ids, "\t")
	mustRun("field", "token", "--db", db, "--revoke", id)
	if out := mustRun("field", "token", "--db", db, "--list"); !strings.Contains(out, "revoked") {
		t.Errorf("after --revoke: %s", out)
	}
	if code, _, errs := runCLI(t, "field", "report", "--db", db); code != cli.ExitUsage || !strings.Contains(errs, "--release") {
		t.Errorf("report without --release: exit %d %s", code, errs)
	}
}
