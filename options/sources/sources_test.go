package sources

import (
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"golang.org/x/tools/go/packages"
)

var (
	loadOnce sync.Once
	loaded   map[string]*packages.Package
	loadErr  error
)

// load type-checks the testdata module once: go list is the slow part.
func load(t *testing.T, path string) *packages.Package {
	loadOnce.Do(func() {
		dir, _ := filepath.Abs("testdata/opts")
		cfg := &packages.Config{Mode: packages.LoadSyntax, Dir: dir}
		pkgs, err := packages.Load(cfg, "./...")
		if err != nil {
			loadErr = err
			return
		}
		loaded = map[string]*packages.Package{}
		for _, p := range pkgs {
			if len(p.Errors) > 0 {
				loadErr = fmt.Errorf("%v", p.Errors)
			}
			loaded[p.PkgPath] = p
		}
	})
	if loadErr != nil {
		t.Fatal(loadErr)
	}
	return loaded[path]
}

func TestFindBuiltins(t *testing.T) {
	p := load(t, "example.com/opts/good")
	src, err := ParseSource("example.com/opts/good.LoadConfig")
	if err != nil {
		t.Fatal(err)
	}
	lvl, err := ParseSource("example.com/opts/good.Level=level")
	if err != nil {
		t.Fatal(err)
	}
	fd, err := ParseField("example.com/opts/good.Config.Compress=compress")
	if err != nil {
		t.Fatal(err)
	}
	set, err := Find([]*packages.Package{p}, Decls{
		Sources: []Source{src, lvl},
		Fields:  []Field{fd},
		Values:  map[string][]string{"level": {"1", "9"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, o := range set.Options {
		var kinds []string
		for _, s := range o.Sites {
			kinds = append(kinds, s.Kind.String())
		}
		got = append(got, fmt.Sprintf("%s:%s:%s", o.Name, o.Type, strings.Join(kinds, ",")))
	}
	want := []string{
		"HOME_DIR:string:result,result",
		"LoadConfig:*good.Config:result",
		"a:bool:result-pointer",
		"b:bool:arg-pointer",
		"bf:bool:func-param",
		"compress:bool:field-read",
		"d:time.Duration:result-pointer",
		"f:float64:result-pointer",
		"fn:string:func-param",
		"fsb:bool:result-pointer",
		"fss:string:arg-pointer",
		"iv:int:arg-pointer",
		"level:int:result",
		"n:int:result-pointer",
		"n64:int64:result-pointer",
		"s:string:result-pointer",
		"u:uint:result-pointer",
		"u64:uint64:result-pointer",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("options:\n got %q\nwant %q", got, want)
	}
	if o := set.Lookup("fsb"); !o.Sites[0].Method {
		t.Errorf("fs.Bool site not marked as a method call")
	}
	if o := set.Lookup("a"); !reflect.DeepEqual(o.Values, []string{"false", "true"}) || o.Sites[0].Position.Line != 20 {
		t.Errorf("a: values %v at %v", o.Values, o.Sites[0].Position)
	}
	if o := set.Lookup("level"); !reflect.DeepEqual(o.Values, []string{"1", "9"}) {
		t.Errorf("level values %v", o.Values)
	}
	err = set.CheckValues()
	if err == nil || !strings.Contains(err.Error(), "option n has type int: give its values with --values 'n=v1,v2'") {
		t.Errorf("CheckValues = %v", err)
	}
	if strings.Contains(err.Error(), "option level ") || strings.Contains(err.Error(), "option a ") {
		t.Errorf("CheckValues complains about options with values: %v", err)
	}
	if !strings.Contains(err.Error(), "good.go:21:") {
		t.Errorf("CheckValues error lacks file:line:col: %v", err)
	}
}

func TestFindNonConstantName(t *testing.T) {
	p := load(t, "example.com/opts/bad")
	set, err := Find([]*packages.Package{p}, Decls{})
	if err == nil {
		t.Fatal("no error for non-constant names")
	}
	msgs := strings.Split(err.Error(), "\n")
	if len(msgs) != 1 || !strings.Contains(msgs[0], "bad.go:9:12: flag.Bool: the option name is not a constant") {
		t.Errorf("errors: %q", msgs)
	}
	if len(set.Warnings) != 1 || !strings.Contains(set.Warnings[0].Error(), "bad.go:10:12: os.Getenv: the option name is not a constant") {
		t.Errorf("warnings: %v", set.Warnings)
	}
}

func TestFindFieldErrors(t *testing.T) {
	p := load(t, "example.com/opts/good")
	for _, decl := range []string{"example.com/opts/good.Config.Nope", "example.com/opts/good.Nope.X", "example.com/nope.T.X", "example.com/opts/good.Level.X"} {
		fd, err := ParseField(decl)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Find([]*packages.Package{p}, Decls{Fields: []Field{fd}}); err == nil {
			t.Errorf("%s: no error", decl)
		}
	}
}

func TestParse(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"golang.org/x/tools/cmd/x.LoadConfig", "{golang.org/x/tools/cmd/x  LoadConfig LoadConfig }"},
		{"example.com/p.F=Name", "{example.com/p  F Name }"},
		{"example.com/p.*T.Load=cfg", "{example.com/p T Load cfg }"},
		{"main.Load", "{main  Load Load }"},
		{"main.Load=level@env:APP_LEVEL", "{main  Load level @env:APP_LEVEL}"},
		{"main.Load@flag:--level", "{main  Load Load @flag:--level}"},
		{"main.Load=db@key:db.pool", "{main  Load db @key:db.pool}"},
	} {
		s, err := ParseSource(c.in)
		if err != nil || fmt.Sprint(s) != c.want {
			t.Errorf("ParseSource(%q) = %v, %v; want %s", c.in, s, err, c.want)
		}
	}
	for _, bad := range []string{"nodot", "example.com/p.", "example.com/p.1x", "a.b.c.d", "main.Load@env:", "main.Load@flag:level", "main.Load@file:x", "main.Load@key:a b"} {
		if _, err := ParseSource(bad); err == nil {
			t.Errorf("ParseSource(%q): no error", bad)
		}
	}
	f, err := ParseField("example.com/p.Config.Compress")
	if err != nil || fmt.Sprint(f) != "{example.com/p Config Compress Compress }" {
		t.Errorf("ParseField = %v, %v", f, err)
	}
	f, err = ParseField("example.com/p.Config.Cache=CACHE@env:APP_CACHE")
	if err != nil || fmt.Sprint(f) != "{example.com/p Config Cache CACHE @env:APP_CACHE}" {
		t.Errorf("ParseField = %v, %v", f, err)
	}
	if _, err := ParseField("example.com/p.Config"); err == nil {
		t.Errorf("ParseField without field: no error")
	}
	name, vals, err := ParseValues("level=1, 9,5")
	if err != nil || name != "level" || !reflect.DeepEqual(vals, []string{"1", "9", "5"}) {
		t.Errorf("ParseValues = %q %q %v", name, vals, err)
	}
	for _, bad := range []string{"level", "level=1", "level=1,1", "=1,2", "level=1,,2"} {
		if _, _, err := ParseValues(bad); err == nil {
			t.Errorf("ParseValues(%q): no error", bad)
		}
	}
}

func TestFindFixed(t *testing.T) {
	p := load(t, "example.com/opts/good")
	all, err := Find([]*packages.Package{p}, Decls{})
	if err != nil {
		t.Fatal(err)
	}
	name := all.Options[0].Name
	set, err := Find([]*packages.Package{p}, Decls{Fixed: []string{name}})
	if err != nil {
		t.Fatal(err)
	}
	if set.Lookup(name) != nil || len(set.Options) != len(all.Options)-1 || len(set.Fixed) != 1 || set.Fixed[0].Name != name {
		t.Errorf("fixing %s: options %v, fixed %v", name, set.Names(), set.Fixed)
	}
	if _, err := Find([]*packages.Package{p}, Decls{Fixed: []string{"no-such-option"}}); err == nil || !strings.Contains(err.Error(), "--fixed no-such-option") {
		t.Errorf("unknown fixed option: %v", err)
	}
}
