package frontend

import (
	"errors"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"sort"
	"strings"

	"golang.org/x/tools/go/packages"
)

// Program is a set of loaded packages.
type Program struct {
	Fset *token.FileSet
	// Packages are the packages the patterns named, sorted by import path. Test files are not
	// loaded.
	Packages []*packages.Package
}

// Func is a selected function with its graph.
type Func struct {
	// Name is the qualified name: import/path.F, import/path.T.M or import/path.(*T).M.
	Name string
	Pkg  *packages.Package
	Decl *ast.FuncDecl
	// Obj is the type checker's object for the function (nil only if the checker did not
	// record one).
	Obj *types.Func
	CFG *CFG
}

// Load loads the packages matching patterns (as the go command understands them) in the module
// at or above dir: syntax, types and type information of those packages, their dependencies
// from export data. Any error a package has (listing, parsing, type checking) makes Load fail; the
// error lists them all, each with its file:line:col.
func Load(dir string, patterns ...string) (*Program, error) {
	fset := token.NewFileSet()
	pkgs, err := loadPackages(dir, fset, patterns)
	if err != nil {
		return nil, fmt.Errorf("frontend: loading %s: %w", strings.Join(patterns, " "), err)
	}
	var msgs []string
	for _, p := range pkgs {
		for _, e := range p.Errors {
			msgs = append(msgs, e.Error())
		}
	}
	if len(msgs) > 0 {
		return nil, errors.New("frontend: " + strings.Join(msgs, "\nfrontend: "))
	}
	if len(pkgs) == 0 {
		return nil, fmt.Errorf("frontend: no packages match %s in %s", strings.Join(patterns, " "), dir)
	}
	sort.Slice(pkgs, func(i, j int) bool { return pkgs[i].PkgPath < pkgs[j].PkgPath })
	return &Program{Fset: fset, Packages: pkgs}, nil
}

// Package returns the loaded package with the given import path, or nil.
func (p *Program) Package(path string) *packages.Package {
	for _, pkg := range p.Packages {
		if pkg.PkgPath == path {
			return pkg
		}
	}
	return nil
}

// Select returns the functions a spec names, each with its CFG built:
//
//	import/path            every function and method declared in the package, in source order
//	                       (files in the order go list gives, declarations in file order);
//	                       declarations without a body are skipped
//	import/path.F          the function F (for init, every init function)
//	import/path.T.M        the method M of T; (*T).M or (T).M also name it, whatever
//	                       the receiver, since a method name is unique per type
//
// Function literals are not functions of their own: they are expressions in the statements of
// the function that contains them. An unknown package or name is an error listing close matches.
func (p *Program) Select(spec string) ([]*Func, error) {
	pkg, rest := p.splitSpec(spec)
	if pkg == nil {
		var paths []string
		for _, q := range p.Packages {
			paths = append(paths, q.PkgPath)
		}
		guess := spec
		if i := strings.IndexByte(spec[strings.LastIndexByte(spec, '/')+1:], '.'); i >= 0 {
			guess = spec[:strings.LastIndexByte(spec, '/')+1+i]
		}
		return nil, fmt.Errorf("frontend: %q names no loaded package%s", spec, matches(guess, paths))
	}
	if rest == "" && spec != pkg.PkgPath {
		return nil, fmt.Errorf("frontend: %q: \"\" is not a function name, T.Method or (*T).Method", spec)
	}
	var decls []*ast.FuncDecl
	var names []string
	for _, f := range pkg.Syntax {
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok {
				decls = append(decls, fd)
				names = append(names, FuncName(fd))
			}
		}
	}
	var chosen []*ast.FuncDecl
	if rest == "" {
		for _, d := range decls {
			if d.Body != nil {
				chosen = append(chosen, d)
			}
		}
	} else {
		recv, name, ok := parseName(rest)
		if !ok {
			return nil, fmt.Errorf("frontend: %q: %q is not a function name, T.Method or (*T).Method", spec, rest)
		}
		for _, d := range decls {
			if d.Name.Name != name {
				continue
			}
			dr := ""
			if d.Recv != nil && len(d.Recv.List) > 0 {
				dr, _ = recvName(d.Recv.List[0].Type)
			}
			if dr == recv {
				chosen = append(chosen, d)
			}
		}
		if len(chosen) == 0 {
			return nil, fmt.Errorf("frontend: no function %s in package %s%s", rest, pkg.PkgPath, matches(rest, names))
		}
	}
	var fns []*Func
	for _, d := range chosen {
		g, err := Build(p.Fset, d, pkg.TypesInfo)
		if err != nil {
			return nil, fmt.Errorf("frontend: %s.%s: %w", pkg.PkgPath, FuncName(d), err)
		}
		fn := &Func{Name: pkg.PkgPath + "." + FuncName(d), Pkg: pkg, Decl: d, CFG: g}
		if pkg.TypesInfo != nil {
			fn.Obj, _ = pkg.TypesInfo.Defs[d.Name].(*types.Func)
		}
		fns = append(fns, fn)
	}
	return fns, nil
}

// splitSpec finds the loaded package whose path is the longest prefix of spec followed by
// nothing or by ".".
func (p *Program) splitSpec(spec string) (*packages.Package, string) {
	var best *packages.Package
	rest := ""
	for _, pkg := range p.Packages {
		path := pkg.PkgPath
		switch {
		case spec == path:
			return pkg, ""
		case strings.HasPrefix(spec, path+".") && (best == nil || len(path) > len(best.PkgPath)):
			best, rest = pkg, spec[len(path)+1:]
		}
	}
	return best, rest
}

// parseName splits F, T.M, (T).M or (*T).M (type arguments, as in (*T[K]).M, are ignored) into
// receiver base type and name.
func parseName(s string) (recv, name string, ok bool) {
	if strings.HasPrefix(s, "(") {
		i := strings.Index(s, ").")
		if i < 0 {
			return "", "", false
		}
		recv, name = strings.TrimPrefix(s[1:i], "*"), s[i+2:]
	} else if i := strings.LastIndex(s, "."); i >= 0 {
		recv, name = s[:i], s[i+1:]
	} else {
		name = s
	}
	if j := strings.IndexByte(recv, '['); j >= 0 {
		recv = recv[:j]
	}
	if name == "" || strings.ContainsAny(name, ".()*[] ") || strings.ContainsAny(recv, ".()*] ") {
		return "", "", false
	}
	if strings.HasPrefix(s, "(") && recv == "" {
		return "", "", false
	}
	return recv, name, true
}

// matches renders the close matches of s among cands as an error suffix.
func matches(s string, cands []string) string {
	type scored struct {
		c string
		d int
	}
	var found []scored
	seen := map[string]bool{}
	ls := strings.ToLower(s)
	for _, c := range cands {
		if seen[c] {
			continue
		}
		seen[c] = true
		lc := strings.ToLower(c)
		d := distance(ls, lc)
		limit := max(2, len(s)/3)
		if d <= limit || (len(ls) >= 3 && strings.Contains(lc, ls)) || (len(lc) >= 3 && strings.Contains(ls, lc)) {
			found = append(found, scored{c, d})
		}
	}
	sort.Slice(found, func(i, j int) bool {
		if found[i].d != found[j].d {
			return found[i].d < found[j].d
		}
		return found[i].c < found[j].c
	})
	if len(found) == 0 {
		return " (no close matches)"
	}
	if len(found) > 5 {
		found = found[:5]
	}
	var out []string
	for _, f := range found {
		out = append(out, f.c)
	}
	return "; close matches: " + strings.Join(out, ", ")
}

// distance is the Levenshtein distance between a and b, in bytes.
func distance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
