package instrument

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/augur-perf/augur/probe/profile"
	"github.com/augur-perf/augur/probe/srcedit"
	"github.com/augur-perf/augur/source/frontend"
)

// twinPlans plans the functions of package pkg of the work module as Instrument does, and returns
// the path plans of those that have twins, by name (without the package path).
func twinPlans(t *testing.T, pkg string) map[string]*pathPlan {
	t.Helper()
	list, plans, ts := planPackage(t, pkg)
	out := map[string]*pathPlan{}
	for k, fn := range list {
		if ts.twin[k] && plans[k].pp != nil {
			out[strings.TrimPrefix(fn.Name, "example.com/work/"+pkg+".")] = plans[k].pp
		}
	}
	return out
}

// planPackage plans the functions of package pkg of the work module as Instrument does: their
// plans, path plans and twins.
func planPackage(t *testing.T, pkg string) ([]*frontend.Func, []*funcPlan, *twinSet) {
	t.Helper()
	prog, err := frontend.Load(workDir, "./"+pkg)
	if err != nil {
		t.Fatal(err)
	}
	list, err := prog.Select("example.com/work/" + pkg)
	if err != nil {
		t.Fatal(err)
	}
	p0 := list[0].Pkg
	noteSafeIndexes(p0.TypesInfo, p0.Syntax)
	leaves := newLeafFuncs(p0.TypesInfo, p0.Syntax)
	derived, sites := derivedLeaves(p0, list)
	var plans []*funcPlan
	for k, fn := range list {
		p, err := newPlan(fn, k, nil)
		if err != nil {
			t.Fatal(err)
		}
		p.leaves, p.derived, p.sites = leaves, derived[k], sites[k]
		for j, s := range p.sites {
			s.ctr = 2 + 3*p.n + p.e + j
		}
		plans = append(plans, p)
		if twinEligible(p0.TypesInfo, fn, p) {
			file := fileOf(p0.Syntax, fn.Decl)
			src, err := os.ReadFile(prog.Fset.File(file.Pos()).Name())
			if err != nil {
				t.Fatal(err)
			}
			if pp, err := planPaths(p, p0.TypesInfo, &fileEdits{File: srcedit.New(prog.Fset, src, "_augur_"), file: file}); err == nil {
				p.pp = pp
			}
		}
	}
	return list, plans, findTwins([]twinPkg{{prog.Fset, p0.TypesInfo, p0.Syntax, list, plans}})[0]
}

// TestTripLoops checks which loops of testdata/src/work/trips are counted without a path register
// (see tripLoop): how many per function, their cycles, which cycle the iterations give and
// whether they step a variable. TestPackagesAgree checks their counts (four goroutines, panics
// everywhere) against the other schemes.
func TestTripLoops(t *testing.T) {
	pps := twinPlans(t, "trips")
	var got []string
	for name, pp := range pps {
		var ls []string
		for _, h := range sortedKeys(pp.trips) {
			tl := pp.trips[h]
			ls = append(ls, fmt.Sprintf("%d/%d/%v", len(tl.cycles), tl.derived, tl.v != ""))
		}
		got = append(got, name+":"+strings.Join(ls, ","))
	}
	sort.Strings(got)
	want := "Run: classify:4/0/true divide:1/0/true down:1/0/true find:2/-1/false forever:1/0/true leave:1/0/true " +
		"nested:1/0/true outside:1/0/true,1/0/true pairs: scan:1/0/true,1/0/true"
	if g := strings.Join(got, " "); g != want {
		t.Errorf("trip loops:\n got %s\nwant %s", g, want)
	}
	// classify's derived cycle is the one that continues; the others count at their clauses.
	for _, tl := range pps["classify"].trips {
		for j, s := range tl.site {
			if j != tl.derived && s.kind != 1 {
				t.Errorf("classify: cycle %d has site %+v, want an outcome", j, s)
			}
		}
	}
}

func sortedKeys[V any](m map[int]V) []int {
	var ks []int
	for k := range m {
		ks = append(ks, k)
	}
	sort.Ints(ks)
	return ks
}

// TestTripEdges runs testdata/src/work/tripedges plain, and instrumented with twins, without and
// with a frame in every function: every scheme must print what the plain program prints (each
// case's result, or its panic and the line it panicked on) and count the same, conserving flow.
func TestTripEdges(t *testing.T) {
	if testing.Short() {
		t.Skip("builds programs")
	}
	dir := filepath.Join(workDir, "tripedges")
	out, err := goCmd(dir, "test", "-count=1", "-v", "-run=^TestEdges$", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("plain: %v\n%s", err, out)
	}
	results := func(s string) string {
		var ls []string
		for _, l := range strings.Split(s, "\n") {
			if strings.HasPrefix(l, "w=") {
				ls = append(ls, l)
			}
		}
		return strings.Join(ls, "\n")
	}
	want := results(string(out))
	if strings.Count(want, "\n") < 100 || !strings.Contains(want, "panic") {
		t.Fatalf("plain run printed too little:\n%s", out)
	}
	var fns []*frontend.Func
	profiles := inModes(func(mode string) *profile.Profile {
		prog, err := frontend.Load(workDir, "./tripedges")
		if err != nil {
			t.Fatal(err)
		}
		if fns, err = prog.Select("example.com/work/tripedges"); err != nil {
			t.Fatal(err)
		}
		b, err := Instrument(prog, fns, t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		bin := filepath.Join(t.TempDir(), "tripedges.test")
		if o, err := goCmd(dir, "test", "-c", "-o", bin, "-overlay="+b.Overlay, "-vet=off", ".").CombinedOutput(); err != nil {
			t.Fatalf("%s: go test -c: %v\n%s", mode, err, o)
		}
		pd := t.TempDir()
		r := runBin(t, bin, pd, "-test.v", "-test.run=^TestEdges$")
		if got := results(r.stdout); got != want {
			t.Errorf("%s: the output differs from the plain program's:\n%s", mode, lineDiff(got, want))
		}
		p, _, err := b.Collect(pd)
		if err != nil {
			t.Fatalf("%s: %v", mode, err)
		}
		for _, fn := range fns {
			if err := conserves(fn.CFG, p.Funcs[fn.Name]); err != nil {
				t.Errorf("%s, %s: %v", mode, fn.Name, err)
			}
		}
		return p
	})
	checkAgree(t, "", fns, profiles)
}

// lineDiff lists the lines where got and want differ.
func lineDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	var d []string
	for i := range max(len(g), len(w)) {
		var a, b string
		if i < len(g) {
			a = g[i]
		}
		if i < len(w) {
			b = w[i]
		}
		if a != b {
			d = append(d, fmt.Sprintf(" got %s\nwant %s", a, b))
		}
	}
	return strings.Join(d, "\n")
}
