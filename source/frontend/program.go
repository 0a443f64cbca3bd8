package frontend

import (
	"errors"
	"fmt"
	"go/ast"
	"go/token"
	"go/types"
	"regexp"
	"slices"
	"sort"
	"strconv"
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
	// Obj is the type checker's object for a declared function (nil for a literal, or if the
	// checker did not record one).
	Obj *types.Func
	// Sig is the function's signature (nil only if the checker did not record it).
	Sig *types.Signature
	CFG *CFG
	// Lit is, for a function literal, the literal; Decl is then a declaration made for it
	// (named as the Go toolchain names the closure: F.func1, nested F.func1.1), whose Type and
	// Body are the literal's. Parent is the function whose body holds the literal.
	Lit    *ast.FuncLit
	Parent *Func
}

// FromCgo reports whether fn is declared in a file that the go command compiles from cgo's output
// (a file that imports "C", or one cgo writes): what augur parsed is that output, which the go
// command writes anew from the original file, so a rewrite of it given through -overlay never
// reaches the compiler.
func (fn *Func) FromCgo() bool {
	return !slices.Contains(fn.Pkg.GoFiles, fn.Pkg.Fset.File(fn.Decl.Pos()).Name())
}

// WithoutCgo returns fns without those FromCgo, and the names of those left out that are the
// user's (in a file of the package that imports "C", not cgo's own _Cfunc_ wrappers), for the
// tools that rewrite source to say what they leave uncounted.
func WithoutCgo(fns []*Func) (kept []*Func, left []string) {
	for _, fn := range fns {
		switch {
		case !fn.FromCgo():
			kept = append(kept, fn)
		case slices.Contains(fn.Pkg.GoFiles, fn.Pkg.Fset.Position(fn.Decl.Pos()).Filename) && !slices.Contains(left, fn.Name):
			left = append(left, fn.Name)
		}
	}
	return kept, left
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
//	import/path.F.func1    the first function literal of F (source order, as the Go toolchain
//	                       names closures); F.func1.2 the second literal inside that one
//
// A function literal is a function of its own, and every function of a package includes its
// literals, each after the function that holds it; it is also an expression of the statement
// that creates it. An unknown package or name is an error listing close matches.
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
	var litPath []int
	if m := closureName.FindStringSubmatch(rest); m != nil {
		rest = m[1]
		for _, k := range strings.Split(m[2], ".") {
			n, _ := strconv.Atoi(k)
			litPath = append(litPath, n)
		}
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
			if fn.Obj != nil {
				fn.Sig, _ = fn.Obj.Type().(*types.Signature)
			}
		}
		switch {
		case litPath != nil:
			lit, err := p.literal(fn, litPath)
			if err != nil {
				return nil, err
			}
			fns = append(fns, lit)
		case rest == "":
			lits, err := p.literals(fn)
			if err != nil {
				return nil, err
			}
			fns = append(fns, fn)
			fns = append(fns, lits...)
		default:
			fns = append(fns, fn)
		}
	}
	return fns, nil
}

// closureName matches a closure's name: the function that holds it, then .funcN and .M for
// literals nested in literals.
var closureName = regexp.MustCompile(`^(.+)\.func([1-9][0-9]*(?:\.[1-9][0-9]*)*)$`)

// directLiterals lists the function literals in n that no other literal in n holds, in source
// order.
func directLiterals(n ast.Node) []*ast.FuncLit {
	var out []*ast.FuncLit
	ast.Inspect(n, func(x ast.Node) bool {
		if l, ok := x.(*ast.FuncLit); ok {
			out = append(out, l)
			return false
		}
		return true
	})
	return out
}

// closure makes the function of the k-th (from 1) literal directly in parent.
func (p *Program) closure(parent *Func, lits []*ast.FuncLit, k int) (*Func, error) {
	lit := lits[k-1]
	suffix := "." + strconv.Itoa(k)
	if parent.Lit == nil {
		suffix = ".func" + strconv.Itoa(k)
	}
	short := strings.TrimPrefix(parent.Name, parent.Pkg.PkgPath+".") + suffix
	d := &ast.FuncDecl{Name: &ast.Ident{NamePos: lit.Type.Func, Name: short}, Type: lit.Type, Body: lit.Body}
	g, err := Build(p.Fset, d, parent.Pkg.TypesInfo)
	if err != nil {
		return nil, fmt.Errorf("frontend: %s%s: %w", parent.Name, suffix, err)
	}
	fn := &Func{Name: parent.Name + suffix, Pkg: parent.Pkg, Decl: d, CFG: g, Lit: lit, Parent: parent}
	if info := parent.Pkg.TypesInfo; info != nil {
		fn.Sig, _ = info.TypeOf(lit).(*types.Signature)
	}
	return fn, nil
}

// literals returns the functions of every literal in fn's body, nested ones included, each
// followed by those it holds.
func (p *Program) literals(fn *Func) ([]*Func, error) {
	lits := directLiterals(fn.Decl.Body)
	var out []*Func
	for k := range lits {
		c, err := p.closure(fn, lits, k+1)
		if err != nil {
			return nil, err
		}
		inner, err := p.literals(c)
		if err != nil {
			return nil, err
		}
		out = append(append(out, c), inner...)
	}
	return out, nil
}

// literal returns the closure at path (1-based indices, outermost first) in fn.
func (p *Program) literal(fn *Func, path []int) (*Func, error) {
	for _, k := range path {
		lits := directLiterals(fn.Decl.Body)
		if k > len(lits) {
			return nil, fmt.Errorf("frontend: %s has %d function literals, not %d", fn.Name, len(lits), k)
		}
		c, err := p.closure(fn, lits, k)
		if err != nil {
			return nil, err
		}
		fn = c
	}
	return fn, nil
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
