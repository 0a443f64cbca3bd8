package frontend

import (
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"go/types"
	"maps"
	"runtime"
	"slices"
	"sort"
	"strings"

	"golang.org/x/tools/go/packages"
)

// listMode lists a package to be loaded from source: its files and imports.
const listMode = packages.NeedName | packages.NeedFiles | packages.NeedCompiledGoFiles | packages.NeedImports | packages.NeedModule

// loadPackages loads the packages patterns name from source, their dependencies from export
// data. go/packages would also compile the named packages themselves to produce export data
// nobody reads, and the compiler's time grows faster than linearly with a function's size (5 s
// for one function of 100k statements): so the named packages are listed without export data,
// their imports are loaded from export data alone, and the named packages are parsed and
// type-checked here, in import order.
func loadPackages(dir string, fset *token.FileSet, patterns []string) ([]*packages.Package, error) {
	roots, err := packages.Load(&packages.Config{Mode: listMode, Dir: dir, Fset: fset}, patterns...)
	if err != nil {
		return nil, err
	}
	byPath := map[string]*packages.Package{}
	for _, p := range roots {
		byPath[p.PkgPath] = p
	}
	between, err := listBetween(dir, fset, roots, byPath)
	if err != nil {
		return nil, err
	}
	source := append(slices.Clone(roots), between...)
	for _, p := range between {
		byPath[p.PkgPath] = p
	}
	// The imports that are not themselves being loaded from source.
	need := map[string]bool{}
	for _, p := range source {
		for _, imp := range p.Imports {
			if byPath[imp.PkgPath] == nil && imp.PkgPath != "unsafe" && imp.PkgPath != "C" {
				need[imp.PkgPath] = true
			}
		}
	}
	deps := map[string]*types.Package{"unsafe": types.Unsafe}
	if len(need) > 0 {
		paths := make([]string, 0, len(need))
		for p := range need {
			paths = append(paths, p)
		}
		sort.Strings(paths)
		const depMode = packages.NeedName | packages.NeedTypes
		loaded, err := packages.Load(&packages.Config{Mode: depMode, Dir: dir, Fset: fset}, paths...)
		if err != nil {
			return nil, err
		}
		for _, d := range loaded {
			if len(d.Errors) > 0 {
				return nil, fmt.Errorf("%s: %v", d.PkgPath, d.Errors[0])
			}
			deps[d.PkgPath] = d.Types
		}
	}
	sizes := types.SizesFor("gc", runtime.GOARCH)
	done := map[*packages.Package]bool{}
	var check func(p *packages.Package, stack []string) error
	check = func(p *packages.Package, stack []string) error {
		if done[p] {
			return nil
		}
		for _, s := range stack {
			if s == p.PkgPath {
				return fmt.Errorf("import cycle: %s", strings.Join(append(stack, p.PkgPath), " -> "))
			}
		}
		for _, imp := range p.Imports {
			if r := byPath[imp.PkgPath]; r != nil {
				if err := check(r, append(stack, p.PkgPath)); err != nil {
					return err
				}
			}
		}
		done[p] = true
		typeCheck(p, fset, sizes, func(path string) (*types.Package, error) {
			imp := p.Imports[path]
			if imp == nil {
				return nil, fmt.Errorf("%s does not import %q", p.PkgPath, path)
			}
			if r := byPath[imp.PkgPath]; r != nil {
				return r.Types, nil
			}
			if t := deps[imp.PkgPath]; t != nil {
				return t, nil
			}
			return nil, fmt.Errorf("no export data for %q", imp.PkgPath)
		})
		return nil
	}
	for _, p := range source {
		if len(p.Errors) > 0 {
			continue // listing errors are reported as they are
		}
		if err := check(p, nil); err != nil {
			return nil, err
		}
	}
	return roots, nil
}

// listBetween lists the packages of the roots' modules that are not roots but import one,
// directly or through others, and that a root imports, directly or through others: loaded from
// export data, such a package would bring its own copy of the root's types (b's export data has
// c's Node, not the one c's source declares, when a imports b and c, and b imports c), so it is
// checked from source too. Packages of other modules are taken not to import the roots'.
func listBetween(dir string, fset *token.FileSet, roots []*packages.Package, byPath map[string]*packages.Package) ([]*packages.Package, error) {
	if len(roots) < 2 {
		return nil, nil // a package cannot import one that imports it
	}
	var mods []string
	for _, p := range roots {
		if p.Module != nil {
			mods = append(mods, p.Module.Path)
		}
	}
	inMods := func(path string) bool {
		for _, m := range mods {
			if path == m || strings.HasPrefix(path, m+"/") {
				return true
			}
		}
		return false
	}
	listed := map[string]*packages.Package{}
	var frontier []string
	add := func(p *packages.Package) {
		for _, imp := range p.Imports {
			if path := imp.PkgPath; byPath[path] == nil && listed[path] == nil && inMods(path) && !slices.Contains(frontier, path) {
				frontier = append(frontier, path)
			}
		}
	}
	for _, p := range roots {
		add(p)
	}
	for len(frontier) > 0 {
		ps, err := packages.Load(&packages.Config{Mode: listMode, Dir: dir, Fset: fset}, frontier...)
		if err != nil {
			return nil, err
		}
		frontier = nil
		for _, p := range ps {
			listed[p.PkgPath] = p
		}
		for _, p := range ps {
			add(p)
		}
	}
	reaches := map[string]bool{}
	var reach func(p *packages.Package) bool
	reach = func(p *packages.Package) bool {
		if r, ok := reaches[p.PkgPath]; ok {
			return r
		}
		reaches[p.PkgPath] = false // a cycle: go list reports it
		for _, imp := range p.Imports {
			if byPath[imp.PkgPath] != nil || listed[imp.PkgPath] != nil && reach(listed[imp.PkgPath]) {
				reaches[p.PkgPath] = true
				return true
			}
		}
		return false
	}
	var out []*packages.Package
	for _, path := range slices.Sorted(maps.Keys(listed)) {
		if reach(listed[path]) {
			out = append(out, listed[path])
		}
	}
	return out, nil
}

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }

// typeCheck parses p's compiled Go files and type-checks them, filling in what go/packages's
// LoadSyntax mode would: Syntax, Types, TypesInfo, TypesSizes, Errors.
func typeCheck(p *packages.Package, fset *token.FileSet, sizes types.Sizes, imp importerFunc) {
	p.Fset = fset
	for _, name := range p.CompiledGoFiles {
		f, err := parser.ParseFile(fset, name, nil, parser.AllErrors|parser.ParseComments|parser.SkipObjectResolution)
		if f != nil {
			p.Syntax = append(p.Syntax, f)
		}
		var list scanner.ErrorList
		if errors.As(err, &list) {
			for _, e := range list {
				p.Errors = append(p.Errors, packages.Error{Pos: e.Pos.String(), Msg: e.Msg, Kind: packages.ParseError})
			}
		} else if err != nil {
			p.Errors = append(p.Errors, packages.Error{Msg: err.Error(), Kind: packages.ParseError})
		}
	}
	p.TypesInfo = &types.Info{
		Types:        map[ast.Expr]types.TypeAndValue{},
		Defs:         map[*ast.Ident]types.Object{},
		Uses:         map[*ast.Ident]types.Object{},
		Implicits:    map[ast.Node]types.Object{},
		Instances:    map[*ast.Ident]types.Instance{},
		Scopes:       map[ast.Node]*types.Scope{},
		Selections:   map[*ast.SelectorExpr]*types.Selection{},
		FileVersions: map[*ast.File]string{},
	}
	p.TypesSizes = sizes
	conf := types.Config{
		Importer: imp,
		Sizes:    sizes,
		Error: func(err error) {
			te, _ := err.(types.Error)
			p.Errors = append(p.Errors, packages.Error{Pos: fset.Position(te.Pos).String(), Msg: te.Msg, Kind: packages.TypeError})
		},
	}
	if p.Module != nil && p.Module.GoVersion != "" {
		conf.GoVersion = "go" + p.Module.GoVersion
	}
	p.Types, _ = conf.Check(p.PkgPath, fset, p.Syntax, p.TypesInfo)
	p.IllTyped = len(p.Errors) > 0
}
