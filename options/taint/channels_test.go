package taint

import (
	"fmt"
	"go/ast"
	"go/token"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/augur-perf/augur/options/sources"
	"golang.org/x/tools/go/packages"
)

var (
	tdOnce sync.Once
	tdPkgs map[string]*packages.Package
	tdErr  error
)

// testdataPackages loads the testdata module once: one go list for all.
func testdataPackages(t *testing.T) map[string]*packages.Package {
	tdOnce.Do(func() {
		pkgs, err := Load(Config{Dir: "testdata"}, "./...")
		if err != nil {
			tdErr = err
			return
		}
		tdPkgs = map[string]*packages.Package{}
		for _, p := range pkgs {
			tdPkgs[strings.TrimPrefix(p.PkgPath, "example.com/taintdata/")] = p
		}
	})
	if tdErr != nil {
		t.Fatal(tdErr)
	}
	return tdPkgs
}

var wantRE = regexp.MustCompile(`// want \{([^}]*)\}`)

// wants maps "file:line" to the expected option set written in a
// `// want {A, B}` comment on that line.
func wants(p *packages.Package) map[string]string {
	m := map[string]string{}
	for _, f := range p.Syntax {
		for _, cg := range f.Comments {
			for _, c := range cg.List {
				if sm := wantRE.FindStringSubmatch(c.Text); sm != nil {
					pos := p.Fset.Position(c.Pos())
					m[fmt.Sprintf("%s:%d", pos.Filename, pos.Line)] = "{" + sm[1] + "}"
				}
			}
		}
	}
	return m
}

func mustSource(t *testing.T, s string) sources.Source {
	src, err := sources.ParseSource(s)
	if err != nil {
		t.Fatal(err)
	}
	return src
}

// TestChannels checks taint through every channel of the abstraction, one
// testdata package each, with positive and negative cases: every decision
// must carry a want comment and match it exactly.
func TestChannels(t *testing.T) {
	pkgs := testdataPackages(t)
	decls := map[string]sources.Decls{
		"sources": {
			Sources: []sources.Source{
				mustSource(t, "example.com/taintdata/sources.LoadConfig"),
				mustSource(t, "example.com/taintdata/sources.Threads=threads"),
			},
			Fields: []sources.Field{{Pkg: "example.com/taintdata/sources", Type: "Settings", Field: "Fast", Name: "fast"}},
		},
	}
	var names []string
	for name := range pkgs {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		p := pkgs[name]
		t.Run(name, func(t *testing.T) {
			r, err := Analyze([]*packages.Package{p}, decls[name])
			if err != nil {
				t.Fatal(err)
			}
			want := wants(p)
			if len(want) == 0 {
				t.Fatal("no want comments")
			}
			for _, d := range r.Decisions {
				key := fmt.Sprintf("%s:%d", d.Pos.Filename, d.Pos.Line)
				w, ok := want[key]
				if !ok {
					t.Errorf("%s: %s %s: unexpected decision (add a want comment)", d.Pos, d.Text, braces(d.Options))
					continue
				}
				delete(want, key)
				if got := braces(d.Options); got != w {
					t.Errorf("%s: %s: influenced by %s, want %s", d.Pos, d.Text, got, w)
				}
			}
			for key, w := range want {
				t.Errorf("%s: no decision found, want %s", key, w)
			}
		})
	}
}

// TestKindsGrouping checks decision kinds and that multi-branch decisions
// are one decision each.
func TestKindsGrouping(t *testing.T) {
	p := testdataPackages(t)["kinds"]
	r, err := Analyze([]*packages.Package{p}, sources.Decls{})
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, d := range r.Decisions {
		kinds = append(kinds, d.Kind)
	}
	if got := strings.Join(kinds, " "); got != "for range range switch switch typeswitch select if range range" {
		t.Errorf("kinds: %s", got)
	}
	for _, d := range r.Decisions {
		if d.Text == "switch k" && len(d.Regions[0].Blocks) != 3 {
			t.Errorf("switch k: %d branches, want 3 (1, 2, 3)", len(d.Regions[0].Blocks))
		}
	}
}

func TestNonConstantFlagName(t *testing.T) {
	p := testdataPackages(t)["locals"]
	// Re-use a loaded package but ask for a field that does not exist: the
	// error must carry the declaration.
	_, err := Analyze([]*packages.Package{p}, sources.Decls{Fields: []sources.Field{{Pkg: p.PkgPath, Type: "Nope", Field: "X", Name: "x"}}})
	if err == nil || !strings.Contains(err.Error(), "no type Nope") {
		t.Errorf("err = %v", err)
	}
	_ = ast.Inspect
	_ = token.NoPos
}

// TestTypesFromParses: options read as strings take the type of the standard-library parser
// their value reaches, through helpers; booleans get false/true without --values, and numbers
// keep no values but say where they are parsed.
func TestTypesFromParses(t *testing.T) {
	p := testdataPackages(t)["helpers"]
	r, err := Analyze([]*packages.Package{p}, sources.Decls{})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ name, typ, by, values string }{
		{"COMPRESS", "bool", "strconv.ParseBool", "false,true"},
		{"ENCRYPT", "bool", "strconv.ParseBool", "false,true"},
		{"QUIET", "bool", "strconv.ParseBool", "false,true"},
		{"LEVEL", "int", "strconv.Atoi", ""},
		{"DEPTH", "int", "strconv.Atoi", ""},
	} {
		o := r.Options.Lookup(c.name)
		if o == nil {
			t.Fatalf("no option %s", c.name)
		}
		if o.Type != c.typ || o.ParsedBy != c.by || strings.Join(o.Values, ",") != c.values || !o.ParsedAt.IsValid() {
			t.Errorf("%s: type %s parsed by %s at %v, values %q; want %s by %s, values %q", c.name, o.Type, o.ParsedBy, o.ParsedAt, o.Values, c.typ, c.by, c.values)
		}
	}
	err = r.Options.CheckValues()
	if err == nil || !strings.Contains(err.Error(), "option LEVEL is parsed as int by strconv.Atoi at ") || strings.Contains(err.Error(), "COMPRESS") {
		t.Errorf("CheckValues: %v", err)
	}
}

// TestHelperNames: a variable named by a helper's callers is one option per call chain, with
// the runner's way to set it (os.Getenv), the type the helper returns and where it is read; a
// call whose name is not constant is the only warning.
func TestHelperNames(t *testing.T) {
	p := testdataPackages(t)["named"]
	r, err := Analyze([]*packages.Package{p}, sources.Decls{})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(r.Options.Names(), " "); got != "APP_COMPRESS APP_ENCRYPT APP_FEATURE_X APP_ZSTD_LEVEL" {
		t.Errorf("options %s", got)
	}
	for name, typ := range map[string]string{"APP_COMPRESS": "bool", "APP_ZSTD_LEVEL": "int", "APP_FEATURE_X": "bool"} {
		o := r.Options.Lookup(name)
		if o == nil || o.Type != typ || len(o.Sites) != 1 || o.Sites[0].Callee != "os.Getenv" || o.Sites[0].Via.Line == 0 {
			t.Errorf("%s: %+v", name, o)
		}
	}
	if len(r.Options.Warnings) != 1 || !strings.Contains(r.Options.Warnings[0].Error(), "named.go:34:5: the name of the variable os.Getenv reads at ") {
		t.Errorf("warnings %v", r.Options.Warnings)
	}
}
