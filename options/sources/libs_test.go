package sources

import (
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"golang.org/x/tools/go/packages"
)

// TestLibraries: each configuration library's example gives its options, named as the library
// names them, with their types and how a run sets them.
func TestLibraries(t *testing.T) {
	dir, _ := filepath.Abs("testdata/libs")
	pkgs, err := packages.Load(&packages.Config{Mode: packages.LoadSyntax, Dir: dir}, "./...")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"pflagcobra": "fast bool @flag:--fast; level int @flag:--level; verbose bool @flag:--verbose",
		"urfave":     "compress bool @flag:--compress; workers int @flag:--workers",
		"viperenv":   "cache.enabled bool @env:APP_CACHE_ENABLED; workers int @env:APP_WORKERS",
		"vipercfg":   "mode string @key:mode",
		"caarlos":    "COMPRESS bool @env:COMPRESS; DB_POOL int @env:DB_POOL; LEVEL int @env:LEVEL",
		"envconf":    "APP_DEBUG bool @env:APP_DEBUG; APP_THREADS int @env:APP_THREADS",
		"files":      "Cache bool @key:Cache; cache bool @key:cache; depth int @key:depth; label string @key:label; max_depth int @key:max_depth; mode string @key:mode; server.port int @key:server.port; server.timeout time.Duration @key:server.timeout",
	}
	for _, p := range pkgs {
		name := strings.TrimPrefix(p.PkgPath, "example.com/libs/")
		t.Run(name, func(t *testing.T) {
			if len(p.Errors) > 0 {
				t.Fatal(p.Errors)
			}
			set, err := Find([]*packages.Package{p}, Decls{})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, o := range set.Options {
				got = append(got, o.Name+" "+o.Type+" "+o.Sites[0].Set.String())
				if !o.Sites[0].Position.IsValid() {
					t.Errorf("%s has no position", o.Name)
				}
			}
			sort.Strings(got)
			if g := strings.Join(got, "; "); g != want[name] {
				t.Errorf("options:\n got %s\nwant %s", g, want[name])
			}
		})
	}
}
