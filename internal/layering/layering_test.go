// Package layering holds the test that keeps augur's spine one-way: each group of packages
// (source, probe, analyze, markov, options) imports only the groups its doc.go allows, and every
// package says what it owns in a doc comment.
package layering

import (
	"slices"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"
)

const module = "github.com/augur-perf/augur/"

// allowed lists, for each group, the groups its packages may import (besides their own).
// cmd and examples sit on top and may import anything; internal packages serve tests.
var allowed = map[string][]string{
	"source":   {},
	"markov":   {},
	"probe":    {"source"},
	"analyze":  {"source", "probe", "markov", "fit"},
	"options":  {"source"},
	"fit":      {"source", "probe", "markov"},
	"field":    {"source", "probe"},
	"internal": {"markov"},
	"report":   {"source", "probe", "analyze", "markov", "options", "field", "fit"},
}

func group(path string) string {
	rel := strings.TrimPrefix(path, module)
	g, _, _ := strings.Cut(rel, "/")
	return g
}

func TestGroupsImportDownwardOnly(t *testing.T) {
	pkgs, err := packages.Load(&packages.Config{Mode: packages.NeedName | packages.NeedImports | packages.NeedFiles | packages.NeedSyntax, Dir: "../.."}, "./...")
	if err != nil {
		t.Fatal(err)
	}
	if len(pkgs) < 20 {
		t.Fatalf("loaded %d packages; the pattern must have missed the module", len(pkgs))
	}
	for _, p := range pkgs {
		for _, e := range p.Errors {
			t.Errorf("%s: %v", p.PkgPath, e)
		}
		g := group(p.PkgPath)
		rules, ruled := allowed[g]
		if !ruled {
			if g != "cmd" && g != "examples" {
				t.Errorf("%s is in group %q, which has no import rule here", p.PkgPath, g)
			}
			continue
		}
		for imp := range p.Imports {
			if !strings.HasPrefix(imp, module) {
				continue
			}
			ig := group(imp)
			if ig != g && !slices.Contains(rules, ig) {
				t.Errorf("%s imports %s: group %s may import only %v", p.PkgPath, imp, g, rules)
			}
		}
	}
}

func TestEveryPackageHasADocComment(t *testing.T) {
	pkgs, err := packages.Load(&packages.Config{Mode: packages.NeedName | packages.NeedFiles | packages.NeedSyntax, Dir: "../.."}, "./...")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pkgs {
		if strings.HasPrefix(p.PkgPath, module+"examples/") || len(p.Syntax) == 0 {
			continue
		}
		documented := false
		for _, f := range p.Syntax {
			if f.Doc != nil && strings.HasPrefix(f.Doc.Text(), "Package "+p.Name+" ") || f.Doc != nil && p.Name == "main" && strings.HasPrefix(f.Doc.Text(), "Command ") {
				documented = true
			}
		}
		if !documented {
			t.Errorf("%s has no doc comment starting %q", p.PkgPath, "Package "+p.Name)
		}
	}
}
