package frontend

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// LoadFunc finds the package of a function spec among the dots of its last path element, and
// refuses a spec that names no function or several.
func TestLoadFunc(t *testing.T) {
	dir := filepath.Join("testdata", "src", "corpus")
	prog, fn, err := LoadFunc(dir, "corpus.If")
	if err != nil {
		t.Fatal(err)
	}
	if fn.Name != "corpus.If" || prog.Package("corpus") == nil {
		t.Errorf("got %s", fn.Name)
	}
	for spec, want := range map[string]string{
		"corpus":      `"corpus" names no function`,
		"corpus.Nope": "no function Nope",
		"nope.F":      "nope",
	} {
		if _, _, err := LoadFunc(dir, spec); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want an error about %q", spec, err, want)
		}
	}
}

func TestLoadAllAndPaths(t *testing.T) {
	dir := filepath.Join("testdata", "src", "corpus")
	_, fns, named, err := LoadAll(dir, []string{"."}, []string{"corpus.If"})
	if err != nil || len(fns) != 1 || !named["corpus.If"] {
		t.Fatalf("%v: %d functions, named %v", err, len(fns), named)
	}
	if _, all, named, err := LoadAll(dir, []string{"."}, nil); err != nil || len(all) < 10 || len(named) != 0 {
		t.Errorf("every function: %v, %d functions, named %v", err, len(all), named)
	}
	wd, _ := os.Getwd()
	if AbsDir("") != wd || AbsDir(dir) != filepath.Join(wd, dir) {
		t.Errorf("AbsDir: %q, %q", AbsDir(""), AbsDir(dir))
	}
	if p := RelPosition(filepath.Join(wd, "x.go") + ":3:4"); p != "x.go:3:4" || RelPosition("/elsewhere/x.go:3:4") != "/elsewhere/x.go:3:4" {
		t.Errorf("RelPosition: %q", p)
	}
}
